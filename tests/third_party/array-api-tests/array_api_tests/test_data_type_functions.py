import struct
from typing import Union

import pytest
from hypothesis import given, assume
from hypothesis import strategies as st

from . import _array_module as xp
from . import dtype_helpers as dh
from . import hypothesis_helpers as hh
from . import pytest_helpers as ph
from . import shape_helpers as sh
from .typing import DataType
from . import api_version


def float32(n: Union[int, float]) -> float:
    return struct.unpack("!f", struct.pack("!f", float(n)))[0]


def _get_ranges(dtype):
    """Ranges of dtype if integer, else ranges of the matching real float."""
    if dh.is_int_dtype(dtype):
        _real_dtype = dtype
    else:
        _real_dtype = dh.real_dtype_for(dtype)
    m, M = dh.dtype_ranges[_real_dtype]  
    return m, M


@given(
    x_dtype=hh.all_dtypes,
    dtype=hh.all_dtypes,
    kw=hh.kwargs(copy=st.booleans()),
    data=st.data(),
)
def test_astype(x_dtype, dtype, kw, data):

    if xp.bool in (x_dtype, dtype):
        elements_strat = hh.from_dtype(x_dtype)
    else:

        if dh.is_int_dtype(x_dtype):
            cast = int
        elif x_dtype in (xp.float32, xp.complex64):
            cast = float32
        else:
            cast = float

        # generate values in range for both src and target dtypes
        m1, M1 = _get_ranges(x_dtype)
        m2, M2 = _get_ranges(dtype)

        min_value = cast(max(m1, m2))
        max_value = cast(min(M1, M2))

        elements_strat = hh.from_dtype(
            x_dtype,
            min_value=min_value,
            max_value=max_value,
            allow_nan=False,
            allow_infinity=False,
        )
    x = data.draw(
        hh.arrays(dtype=x_dtype, shape=hh.shapes(), elements=elements_strat), label="x"
    )

    # according to the spec, "Casting a complex floating-point array to a real-valued
    # data type should not be permitted."
    # https://data-apis.org/array-api/latest/API_specification/generated/array_api.astype.html#astype
    assume(not ((x_dtype in dh.complex_dtypes) and (dtype not in dh.complex_dtypes)))

    repro_snippet = ph.format_snippet(f"xp.astype({x!r}, {dtype!r}, **kw) with {kw = }")
    try:
        out = xp.astype(x, dtype, **kw)

        ph.assert_kw_dtype("astype", kw_dtype=dtype, out_dtype=out.dtype)
        ph.assert_shape("astype", out_shape=out.shape, expected=x.shape, kw=kw)
        # TODO: test values
        # TODO: test copy
    except Exception as exc:
        ph.add_note(exc, repro_snippet)
        raise


@given(
    shapes=st.integers(1, 5).flatmap(hh.mutually_broadcastable_shapes), data=st.data()
)
def test_broadcast_arrays(shapes, data):
    arrays = []
    for c, shape in enumerate(shapes, 1):
        x = data.draw(hh.arrays(dtype=hh.all_dtypes, shape=shape), label=f"x{c}")
        arrays.append(x)

    repro_snippet = ph.format_snippet(f"xp.broadcast_arrays(*arrays) with {arrays = }")
    try:
        out = xp.broadcast_arrays(*arrays)

        assert type(out) == (list if api_version < "2025.12" else tuple)

        expected_shape = sh.broadcast_shapes(*shapes)
        for i, x in enumerate(arrays):
            ph.assert_dtype(
                "broadcast_arrays",
                in_dtype=x.dtype,
                out_dtype=out[i].dtype,
                repr_name=f"out[{i}].dtype"
            )
            ph.assert_result_shape(
                "broadcast_arrays",
                in_shapes=shapes,
                out_shape=out[i].shape,
                expected=expected_shape,
                repr_name=f"out[{i}].shape",
            )
        # TODO: test values
    except Exception as exc:
        ph.add_note(exc, repro_snippet)
        raise


@pytest.mark.min_version("2025.12")
class TestBroadcastShapes:

    @given(shapes=st.integers(1, 5).flatmap(hh.mutually_broadcastable_shapes))
    def test_broadcast_shapes(self, shapes):
        repro_snippet = ph.format_snippet(f"xp.broadcast_shapes(*shapes) with {shapes = }")
        try:
            out_shape = xp.broadcast_shapes(*shapes)
            expected_shape = sh.broadcast_shapes(*shapes)
            assert out_shape == expected_shape
        except Exception as exc:
            ph.add_note(exc, repro_snippet)
            raise

    def test_empty(self):
        assert xp.broadcast_shapes() == ()

    @given(shapes=hh.mutually_broadcastable_shapes(2, min_dims=1, min_side=3))
    def test_error(self, shapes):
        s1, s2 = shapes
        s1 = s1[:-1] + (s1[-1] + 1,)
        with pytest.raises(ValueError):
            xp.broadcast_shapes(s1, s2)


@given(x=hh.arrays(dtype=hh.all_dtypes, shape=hh.shapes()), data=st.data())
def test_broadcast_to(x, data):
    shape = data.draw(
        hh.mutually_broadcastable_shapes(1, base_shape=x.shape)
        .map(lambda S: S[0])
        .filter(lambda s: sh.broadcast_shapes(x.shape, s) == s),
        label="shape",
    )

    repro_snippet = ph.format_snippet(f"xp.broadcast_to({x!r}, {shape!r})")
    try:
        out = xp.broadcast_to(x, shape)

        ph.assert_dtype("broadcast_to", in_dtype=x.dtype, out_dtype=out.dtype)
        ph.assert_shape("broadcast_to", out_shape=out.shape, expected=shape)
        # TODO: test values
    except Exception as exc:
        ph.add_note(exc, repro_snippet)
        raise


@given(_from=hh.all_dtypes, to=hh.all_dtypes)
def test_can_cast(_from, to):
    repro_snippet = ph.format_snippet(f"xp.can_cast({_from!r}, {to!r})")
    try:
        out = xp.can_cast(_from, to)

        expected = False
        for other in dh.all_dtypes:
            if dh.promotion_table.get((_from, other)) == to:
                expected = True
                break

        f_func = f"[can_cast({dh.dtype_to_name[_from]}, {dh.dtype_to_name[to]})]"
        if expected:
            # cross-kind casting is not explicitly disallowed. We can only test
            # the cases where it should return True. TODO: if expected=False,
            # check that the array library actually allows such casts.
            assert out == expected, f"{out=}, but should be {expected} {f_func}"
    except Exception as exc:
        ph.add_note(exc, repro_snippet)
        raise


@pytest.mark.parametrize("dtype", dh.real_float_dtypes + dh.complex_dtypes)
def test_finfo(dtype):
    for arg in (
        dtype,
        xp.asarray(1, dtype=dtype),
        # np.float64 and np.asarray(1, dtype=np.float64).dtype are different
        xp.asarray(1, dtype=dtype).dtype,
    ):
        repro_snippet = ph.format_snippet(f"xp.finfo({arg!r})")
        try:
            out = xp.finfo(arg)
            assert isinstance(out.bits, int)
            assert isinstance(out.eps, float)
            assert isinstance(out.max, float)
            assert isinstance(out.min, float)
            assert isinstance(out.smallest_normal, float)
        except Exception as exc:
            ph.add_note(exc, repro_snippet)
            raise

@pytest.mark.min_version("2022.12")
@pytest.mark.parametrize("dtype", dh.real_float_dtypes + dh.complex_dtypes)
def test_finfo_dtype(dtype):
    repro_snippet = ph.format_snippet(f"xp.finfo({dtype!r})")
    try:
        out = xp.finfo(dtype)

        assert out.dtype == dh.real_dtype_for(dtype)

        # Guard vs. numpy.dtype.__eq__ lax comparison
        assert not isinstance(out.dtype, str)
        assert out.dtype is not float
        assert out.dtype is not complex
    except Exception as exc:
        ph.add_note(exc, repro_snippet)
        raise


@pytest.mark.parametrize("dtype", dh.int_dtypes + dh.uint_dtypes)
def test_iinfo(dtype):
    for arg in (
        dtype,
        xp.asarray(1, dtype=dtype),
        # np.int64 and np.asarray(1, dtype=np.int64).dtype are different
        xp.asarray(1, dtype=dtype).dtype,
    ):
        repro_snippet = ph.format_snippet(f"xp.iinfo({arg!r})")
        try:
            out = xp.iinfo(arg)
            assert isinstance(out.bits, int)
            assert isinstance(out.max, int)
            assert isinstance(out.min, int)
        except Exception as exc:
            ph.add_note(exc, repro_snippet)
            raise


@pytest.mark.min_version("2022.12")
@pytest.mark.parametrize("dtype", dh.int_dtypes + dh.uint_dtypes)
def test_iinfo_dtype(dtype):
    repro_snippet = ph.format_snippet(f"xp.iinfo({dtype!r})")
    try:
        out = xp.iinfo(dtype)
        assert out.dtype == dtype
        # Guard vs. numpy.dtype.__eq__ lax comparison
        assert not isinstance(out.dtype, str)
        assert out.dtype is not int
    except Exception as exc:
        ph.add_note(exc, repro_snippet)
        raise


def atomic_kinds() -> st.SearchStrategy[Union[DataType, str]]:
    return hh.all_dtypes | st.sampled_from(list(dh.kind_to_dtypes.keys()))


@pytest.mark.min_version("2022.12")
@given(
    dtype=hh.all_dtypes,
    kind=atomic_kinds() | st.lists(atomic_kinds(), min_size=1).map(tuple),
)
def test_isdtype(dtype, kind):
    repro_snippet = ph.format_snippet(f"xp.isdtype({dtype!r}, {kind!r})")
    try:
        out = xp.isdtype(dtype, kind)

        assert isinstance(out, bool), f"{type(out)=}, but should be bool [isdtype()]"
        _kinds = kind if isinstance(kind, tuple) else (kind,)
        expected = False
        for _kind in _kinds:
            if isinstance(_kind, str):
                if dtype in dh.kind_to_dtypes[_kind]:
                    expected = True
                    break
            else:
                if dtype == _kind:
                    expected = True
                    break
        assert out == expected, f"{out=}, but should be {expected} [isdtype()]"
    except Exception as exc:
        ph.add_note(exc, repro_snippet)
        raise


@pytest.mark.min_version("2024.12")
class TestResultType:
    @given(dtypes=hh.mutually_promotable_dtypes(None))
    def test_result_type(self, dtypes):
        repro_snippet = ph.format_snippet(f"xp.result_type(*dtypes) with {dtypes = }")
        try:
            out = xp.result_type(*dtypes)
            ph.assert_dtype("result_type", in_dtype=dtypes, out_dtype=out, repr_name="out")
        except Exception as exc:
            ph.add_note(exc, repro_snippet)
            raise

    @given(pair=hh.pair_of_mutually_promotable_dtypes(None))
    def test_shuffled(self, pair):
        """Test that result_type is insensitive to the order of arguments."""
        s1, s2 = pair
        out1 = xp.result_type(*s1)
        out2 = xp.result_type(*s2)
        assert out1 == out2

    @given(pair=hh.pair_of_mutually_promotable_dtypes(2), data=st.data())
    def test_arrays_and_dtypes(self, pair, data):
        s1, s2 = pair
        a2 = tuple(xp.empty(1, dtype=dt) for dt in s2)
        a_and_dt = data.draw(st.permutations(s1 + a2))

        repro_snippet = ph.format_snippet(f"xp.result_type(*a_and_dt) with {a_and_dt = }")
        try:
            out = xp.result_type(*a_and_dt)
            ph.assert_dtype("result_type", in_dtype=s1+s2, out_dtype=out, repr_name="out")
        except Exception as exc:
            ph.add_note(exc, repro_snippet)
            raise

    @given(dtypes=hh.mutually_promotable_dtypes(2), data=st.data())
    def test_with_scalars(self, dtypes, data):

        repro_snippet = ph.format_snippet(f"xp.result_type(*dtypes) with {dtypes = }")
        try:
            out = xp.result_type(*dtypes)

            if out == xp.bool:
                scalars = [True]
            elif out in dh.all_int_dtypes:
                scalars = [1]
            elif out in dh.real_dtypes:
                scalars = [1, 1.0]
            elif out in dh.numeric_dtypes:
                scalars = [1, 1.0, 1j]        # numeric_types - real_types == complex_types
            else:
                raise ValueError(f"unknown dtype {out = }.")
        except Exception as exc:
            ph.add_note(exc, repro_snippet)
            raise

        scalar = data.draw(st.sampled_from(scalars))
        inputs = data.draw(st.permutations(dtypes + (scalar,)))

        repro_snippet = ph.format_snippet(f"xp.result_type(*inputs) with {inputs = }")
        try:
            out_scalar = xp.result_type(*inputs)
            assert out_scalar == out
        except Exception as exc:
            ph.add_note(exc, repro_snippet)
            raise

        # retry with arrays
        arrays = tuple(xp.empty(1, dtype=dt) for dt in dtypes)
        inputs = data.draw(st.permutations(arrays + (scalar,)))

        repro_snippet = ph.format_snippet(f"xp.result_type(*inputs) with {inputs = }")
        try:
            out_scalar = xp.result_type(*inputs)
            assert out_scalar == out
        except Exception as exc:
            ph.add_note(exc, repro_snippet)
            raise
