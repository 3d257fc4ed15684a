"""Python kernels (issue 28): @weft.jit and @weft.kernel functions compiled to the dialect run
on every device and agree with the same functions run by Python; the seed's insidePolygon
gives weft.polygon_mask's mask."""
import math

import numpy as np
import pytest

import weft


# The seed's function (shared/seeds/001_...txt, the course's inside_polygon.py), its body
# unchanged; only the decorator is added.
@weft.jit
def insidePolygon(vertices, point, border_value=True):
    """
    Return True/False is a pixel is inside a polygon.

    @param vertices:
    @param point: 2-tuple of integers or list
    @param border_value: boolean
    """
    counter = 0
    for i, polypoint1 in enumerate(vertices):
        if (polypoint1[0] == point[0]) and (polypoint1[1] == point[1]):
            return border_value
        polypoint2 = vertices[(i+1)%len(vertices)]
        if (point[1] > min(polypoint1[1], polypoint2[1])):
            if (point[1] <= max(polypoint1[1], polypoint2[1])):
                if (point[0] <= max(polypoint1[0], polypoint2[0])):
                    if (polypoint1[1] != polypoint2[1]):
                        xinters = (point[1]-polypoint1[1])*(polypoint2[0]-polypoint1[0])/(polypoint2[1]-polypoint1[1])+polypoint1[0]
                        if (polypoint1[0] == polypoint2[0]) or (point[0] <= xinters):
                            counter+=1
    if counter % 2 == 0:
        return False
    else:
        return True


@weft.jit
def polygon_pixels(vertices, mask, border_value):
    for y in weft.prange(mask.shape[0]):
        for x in weft.prange(mask.shape[1]):
            mask[y, x] = insidePolygon(vertices, (x, y), border_value)


@pytest.mark.parametrize("seed", [1, 7])
def test_seed_inside_polygon_is_polygon_mask(device, seed):
    h, w = 40, 56
    poly = weft.random_polygon(24, seed, w, h)
    mask = weft.zeros((h, w), np.uint8, device=device)
    polygon_pixels(weft.asarray(poly, device=device), mask, True)
    expected = weft.polygon_mask(poly, h, w, device=device)
    np.testing.assert_array_equal(mask.get(), expected)
    assert expected.sum() > 0


def test_seed_inside_polygon_border_value_and_numpy_arrays(device):
    square = np.array([(1, 1), (4, 1), (4, 3), (1, 3)], np.float64)
    mask = np.zeros((5, 6), np.uint8)
    with device:
        polygon_pixels(square, mask, False)  # NumPy arrays: copied to the device and back
    np.testing.assert_array_equal(mask, weft.polygon_mask(square, 5, 6, device=device, border_value=0))
    # One point from Python: a single work-item, its value returned.
    assert insidePolygon(weft.asarray(square, device=device), (2, 2)) is True
    assert insidePolygon(weft.asarray(square, device=device), (1, 1), False) is False
    assert insidePolygon(weft.asarray(square, device=device), (0, 2)) is False


@weft.jit
def python_division(a, b):
    return a // b * 1000 + a % b


@weft.jit
def float_ops(x, y):
    r = x / y + math.sqrt(abs(x)) - math.floor(y) + x % y
    return min(r, 1e9, x * 3) + max(abs(y), 0.5) + x // y


@weft.jit
def loops(n):
    total = 0
    i = 0
    while True:
        i += 1
        if i > n:
            break
        if i % 3 == 0:
            continue
        for j in range(i, 0, -2):
            total += j
    for k in range(10, 3, -3):
        total = total * 2 + k
    return total


@weft.jit
def helper_sum(t):
    a, b = t
    return a * 10 + b


@weft.jit
def tuples_and_calls(x, y):
    t = (y, x)
    x, y = y, x
    if x > y:
        return helper_sum(t) + 0.5
    elif x == y:
        return -1.0
    return float(helper_sum((x, y)))


@pytest.mark.parametrize("a, b", [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, 3), (5, 1)])
def test_integer_division_is_python_floor_division(device, a, b):
    with device:
        assert python_division(a, b) == python_division.__wrapped__(a, b)
        assert python_division(np.int32(a), np.int32(b)) == python_division.__wrapped__(a, b)


@pytest.mark.parametrize("x, y", [(7.5, 2.0), (-7.5, 2.0), (7.25, -2.5), (3.0, 0.75)])
def test_float_arithmetic_matches_python(device, x, y):
    with device:
        assert float_ops(x, y) == pytest.approx(float_ops.__wrapped__(x, y), rel=1e-12)


@pytest.mark.parametrize("n", [0, 1, 7, 12])
def test_while_break_continue_range_steps(device, n):
    with device:
        assert loops(n) == loops.__wrapped__(n)


@pytest.mark.parametrize("x, y", [(1, 2), (3, 3), (5, 2)])
def test_tuples_swaps_and_calls_between_jit_functions(device, x, y):
    with device:
        assert tuples_and_calls(x, y) == tuples_and_calls.__wrapped__(x, y)


@weft.jit
def weak_literals(x):
    return x * 2 + 1


def test_types_follow_numpy_promotion():
    src = weft.show_source(weak_literals, np.float32)
    assert "float pyk_ret" not in src and "__global float *pyk_ret" in src  # float32 stays float32
    assert "__global long *pyk_ret" in weft.show_source(weak_literals, int)
    assert "__global double *pyk_ret" in weft.show_source(weak_literals, "float64")


@weft.kernel
def axpy(y, x, a):
    i = weft.global_id(0)
    y[i] += a * x[i]


@weft.kernel
def ids(out):
    i = weft.global_id(0)
    out[i, 0] = weft.local_id(0)
    out[i, 1] = weft.group_id(0)
    out[i, 2] = weft.global_size(0)


def test_kernel_called_like_an_opencl_kernel(device, queue):
    x = weft.asarray(np.arange(8, dtype=np.float32), device=device)
    y = weft.ones(8, np.float32, device=device)
    axpy(queue, (8,), None, y, x, np.float32(2)).wait()
    np.testing.assert_array_equal(y.get(), 1 + 2 * np.arange(8, dtype=np.float32))
    out = weft.zeros((8, 3), np.int32, device=device)
    axpy(device, (8,), None, y, x, 1.0)  # a device: its array queue
    ids(queue, (8,), (4,), out).wait()
    np.testing.assert_array_equal(out.get(), [[i % 4, i // 4, 8] for i in range(8)])
    np.testing.assert_array_equal(y.get(), 1 + 3 * np.arange(8, dtype=np.float32))


@weft.jit
def stencil(a, out):
    for y, x in weft.prange(out.shape[0], out.shape[1]):
        out[y, x] = a[y, x] + a[y - 1, x] + a[y, x - 1]


@weft.jit
def rows_from(a, out, start):
    for i in weft.prange(start, len(a), 2):
        s = 0.0
        for row in a[i]:
            s += row
        out[i] = s


def test_prange_forms(device):
    a = np.arange(20, dtype=np.float64).reshape(4, 5)
    out = np.zeros_like(a)
    with device:
        stencil(a, out)
    expected = a + np.roll(a, 1, axis=0) + np.roll(a, 1, axis=1)  # a[-1] is the last row, as in Python
    np.testing.assert_array_equal(out, expected)
    wa, wout = weft.asarray(a, device=device), weft.zeros(4, device=device)
    rows_from(wa, wout, 1)
    np.testing.assert_array_equal(wout.get(), [0, a[1].sum(), 0, a[3].sum()])


def test_show_source_prints_the_dialect(capsys):
    src = weft.show_source(polygon_pixels, "float64[:, :]", "uint8[:, :]", True)
    assert "__kernel void pyk_polygon_pixels(" in src
    # insidePolygon is inlined into the kernel (python/weft/_pyk_inline.py), its names prefixed
    assert "pyk_insidePolygon_" not in src and "pyk_i1_counter" in src
    assert "get_global_id(1)" in src and "get_global_id(0)" in src
    assert capsys.readouterr().out.strip() == src.strip()
    assert weft.show_source(insidePolygon, np.zeros((3, 5)), (1, 2)) == weft.show_source(
        insidePolygon, "float64[:, :]", ("int64", "int64"))
    # a small last extent (1-4) of a C-contiguous array is part of the type: a constant in the code
    pairs = weft.show_source(insidePolygon, np.zeros((3, 2)), (1, 2))
    assert "polypoint1 = (vertices + pyk_t1 * 2L)" in pairs and "long pyk_n_vertices_1" in pairs


@weft.jit
def nonnegative_sum(a):
    s = 0.0
    for i in weft.prange(len(a)):
        if a[i] < 0:
            continue
        s += a[i] * 2
    return s


@weft.jit
def biggest(a):
    m = -1
    for y, x in weft.prange(a.shape[0], a.shape[1]):
        m = max(m, a[y, x])
    return m


@weft.jit
def product_from(a, start):
    p = start
    for i in weft.prange(len(a)):
        p *= a[i]
    return p


def test_prange_reductions(device):
    a = np.array([1.5, -2.0, 3.0, 0.25, -7.0, 4.0])
    b = np.array([[3, 9, -4], [12, 0, 5]], np.int32)
    with device:
        assert nonnegative_sum(a) == 2 * a[a >= 0].sum()
        assert nonnegative_sum(a[:0]) == 0.0  # no iteration: the value before the loop
        assert biggest(b) == 12
        assert product_from(np.array([2, 3, 4], np.int64), 5) == 120
        assert product_from(np.zeros(0, np.int64), 5) == 5
        assert isinstance(biggest(b), np.int64)


@weft.jit
def mixed(a, b):
    return (a + b) * 3 - a // b + a % b + (b if a < b else a)


@weft.jit
def mixed_float(a, b):
    return a / b + a * 2.5 - abs(b) + max(a, b)


@pytest.mark.parametrize("ta, tb", [(np.int8, np.int8), (np.int8, np.int32), (np.uint8, np.int16),
                                    (np.uint32, np.int64), (np.int32, np.float32), (np.float32, np.float64),
                                    (np.int64, int), (np.float32, float), (np.uint16, np.uint16)])
@pytest.mark.parametrize("a, b", [(7, 3), (-9, 4), (5, -2), (100, 7)])
def test_scalar_types_and_values_follow_numpy(device, ta, tb, a, b):
    if (a < 0 and np.dtype(ta).kind == "u") or (b < 0 and tb is not int and np.dtype(tb).kind == "u"):
        pytest.skip("negative value of an unsigned type")
    x, y = ta(a), tb(b)
    with device, np.errstate(all="ignore"):
        want, got = mixed.__wrapped__(x, y), mixed(x, y)
        assert got == want and np.asarray(got).dtype == np.asarray(want).dtype, (got, want)
        want, got = mixed_float.__wrapped__(x, y), mixed_float(x, y)
        assert np.asarray(got).dtype == np.asarray(want).dtype
        assert got == pytest.approx(want, rel=1e-6)


@weft.jit
def set_row(row, value):
    for j in range(len(row)):
        row[j] = value + j


@weft.jit
def fill_rows(a, flags):
    for i in weft.prange(a.shape[0]):
        set_row(a[i], i * 10)  # a row view passed to a function that writes it
        flags[i] = a[i, -1] > 20


@weft.jit
def volume(v):
    for z in weft.prange(v.shape[0]):
        for y in weft.prange(v.shape[1]):
            for x in weft.prange(v.shape[2]):
                v[z, y, x] = z * 100 + y * 10 + x


@weft.jit
def annotated(n: np.int32, scale: np.float32) -> float:
    acc: float = 0
    k = n
    while k > 0:
        acc += scale * k
        k -= 1
    return acc


def test_rows_written_by_helpers_bool_arrays_and_3d(device):
    a = weft.zeros((3, 4), np.int64, device=device)
    flags = weft.zeros(3, np.bool_, device=device)
    fill_rows(a, flags)
    np.testing.assert_array_equal(a.get(), [[i * 10 + j for j in range(4)] for i in range(3)])
    np.testing.assert_array_equal(flags.get(), [False, False, True])
    v = np.zeros((2, 3, 4), np.int32)
    with device:
        volume(v)
    np.testing.assert_array_equal(v, np.fromfunction(lambda z, y, x: z * 100 + y * 10 + x, v.shape))
    src = weft.show_source(fill_rows, "int64[:, :]", "bool[:]")
    assert "__global long *a" in src and "__global uchar *flags" in src


def test_annotations_fix_types(device):
    src = weft.show_source(annotated, 3, 2.0)
    assert "int n, float scale" in src and "double acc" in src
    with device:
        assert annotated(3, 0.5) == pytest.approx(3.0)


@weft.jit(boundscheck=True)
def shift_checked(a, out, k):
    for i in weft.prange(len(out)):
        out[i] = a[i + k]


@weft.kernel(boundscheck=True)
def write_checked(out, k):
    i = weft.global_id(0)
    out[i * k] = 7


def test_boundscheck_reports_and_skips_the_bad_access(device, queue):
    a = weft.asarray(np.arange(6.0), device=device)
    out = weft.zeros(4, device=device)
    shift_checked(a, out, 2)  # in bounds
    np.testing.assert_array_equal(out.get(), [2, 3, 4, 5])
    with pytest.raises(weft.IndexOutOfRange, match=r"test_pykernels\.py:\d+:\d+: in @weft.jit function "
                       r"'shift_checked': index [6-9] is out of bounds for axis 0 with size 6 of 'a' "
                       r"\(argument 'a' of shape \(6,\)\), in work-item \([0-3], 0, 0\)"):
        shift_checked(a, out, 3)
    assert shift_checked(a, out, -6) is None  # negative indices count from the end
    np.testing.assert_array_equal(out.get(), [0, 1, 2, 3])
    inner = weft.asarray(np.zeros(4, np.int32), device=device)
    with pytest.raises(weft.IndexOutOfRange,
                       match=r"test_pykernels\.py:\d+:9: .*index [46] is out of bounds for axis 0 with size 4 "
                             r"of 'out'"):
        write_checked(queue, (4,), None, inner, 2)
    np.testing.assert_array_equal(inner.get(), [7, 0, 7, 0])  # the in-bounds writes happened, the bad ones not


@weft.jit
def row_item(row, j):
    return row[j]


@weft.jit(boundscheck=True)
def last_items(a, out, j):
    for i in weft.prange(a.shape[0]):
        out[i] = row_item(a[i], j)


@weft.jit(boundscheck=True)
def polygon_pixels_checked(vertices, mask, border_value):
    for y in weft.prange(mask.shape[0]):
        for x in weft.prange(mask.shape[1]):
            mask[y, x] = insidePolygon(vertices, (x, y), border_value)


def test_boundscheck_reaches_called_functions(device):
    a = weft.asarray(np.arange(12.0).reshape(3, 4), device=device)
    out = weft.zeros(3, device=device)
    last_items(a, out, -1)
    np.testing.assert_array_equal(out.get(), [3, 7, 11])
    with pytest.raises(weft.IndexOutOfRange, match=r"test_pykernels\.py:\d+:16: .*'last_items': index 4 is out of "
                       r"bounds for axis 0 with size 4 of 'row' \(parameter 'row' of 'row_item'\), "
                       r"in work-item \(\d, 0, 0\)"):
        last_items(a, out, 4)
    poly = weft.random_polygon(12, 3, 20, 16)
    mask = weft.zeros((16, 20), np.uint8, device=device)
    polygon_pixels_checked(weft.asarray(poly, device=device), mask, True)
    np.testing.assert_array_equal(mask.get(), weft.polygon_mask(poly, 16, 20, device=device))


BINS = 8


@weft.kernel
def local_histogram(hist, x, n):
    """Per work-group counts in local memory, then one atomic add per bin and group."""
    local = weft.local_array(BINS, np.int32)
    lid = weft.local_id(0)
    if lid < BINS:
        local[lid] = 0
    weft.barrier()
    i = weft.global_id(0)
    if i < n:
        weft.atomic_inc(local, x[i] % BINS)
    weft.barrier()
    if lid < BINS:
        weft.atomic_add(hist, lid, local[lid])


@weft.kernel
def group_sums(out, x):
    tile = weft.local_array((2, 8), np.float64)
    lid = weft.local_id(0)
    tile[0, lid] = x[weft.global_id(0)]
    weft.barrier()
    if lid == 0:
        s = 0.0
        for j in range(8):
            s += tile[0, j]
        out[weft.group_id(0)] = s


def test_local_memory_barriers_and_atomics(device, queue):
    data = np.random.default_rng(5).integers(0, 100, 50).astype(np.int32)
    hist = weft.zeros(BINS, np.int32, device=device)
    local_histogram(queue, (64,), (16,), hist, weft.asarray(data, device=device), len(data)).wait()
    np.testing.assert_array_equal(hist.get(), np.bincount(data % BINS, minlength=BINS))
    x = np.arange(32, dtype=np.float64)
    out = weft.zeros(4, device=device)
    group_sums(queue, (32,), (8,), out, weft.asarray(x, device=device)).wait()
    np.testing.assert_array_equal(out.get(), x.reshape(4, 8).sum(axis=1))


SCRIPT = '''
import numpy as np
import weft

@weft.jit
def double_all(x):
    for i in weft.prange(len(x)):
        x[i] = 2 * x[i]

x = np.arange(5.0)
double_all(x)
assert list(x) == [0, 2, 4, 6, 8]
print(sorted((e["key"], e["modified"]) for e in weft.cache.entries()))
'''


def test_a_new_process_reuses_the_compiled_kernel(tmp_path, device):
    import os
    import pathlib
    import subprocess
    import sys
    (tmp_path / "double_all.py").write_text(SCRIPT)
    env = dict(os.environ, WEFT_CACHE_DIR=str(tmp_path / "cache"), WEFT_DEVICE=device.selector)
    env["PYTHONPATH"] = os.pathsep.join([str(pathlib.Path(weft.__file__).resolve().parents[1])]
                                        + [p for p in [env.get("PYTHONPATH")] if p])
    runs = [subprocess.run([sys.executable, str(tmp_path / "double_all.py")], env=env, capture_output=True,
                           text=True, timeout=300) for _ in range(2)]
    for r in runs:
        assert r.returncode == 0, r.stderr
    assert runs[0].stdout == runs[1].stdout and runs[0].stdout.strip() != "[]"  # the same entries, untouched


@weft.jit
def divmod_py(a, b):
    q = a // b
    if q < 0:
        return q, a - q * b
    return (q, a % b)


@weft.jit
def split_all(a, qs, rs, b):
    for i in weft.prange(len(a)):
        q, r = divmod_py(a[i], b)
        qs[i] = q
        t = divmod_py(r, 2)
        rs[i] = t[1] * 100 + r


def test_tuple_returns_between_jit_functions(device):
    a = np.array([7, -7, 13, 0, -1], np.int64)
    qs, rs = np.zeros_like(a), np.zeros_like(a)
    with device:
        split_all(a, qs, rs, 3)
    np.testing.assert_array_equal(qs, a // 3)
    np.testing.assert_array_equal(rs, (a % 3) % 2 * 100 + a % 3)


def test_array_views_are_copied_and_written_back(device):
    a = weft.asarray(np.arange(24.0).reshape(4, 6), device=device)
    view = a[1:3, ::2]  # neither starting at the buffer nor contiguous
    out = weft.zeros((2, 3), device=device)
    stencil(view, out)
    v = np.arange(24.0).reshape(4, 6)[1:3, ::2]
    np.testing.assert_array_equal(out.get(), v + np.roll(v, 1, axis=0) + np.roll(v, 1, axis=1))
    rows_from(a[::2], a[1:, 0], 0)  # writes through a strided view of a
    expected = np.arange(24.0).reshape(4, 6)
    expected[1, 0] = expected[0].sum()
    np.testing.assert_array_equal(a.get(), expected)


@weft.jit
def clashing_names(t, flag, t_0, flag_arg):
    u = (t_0, flag_arg)
    u_0 = t[0] + u[1]
    return u_0 * 10 + t_0 + (1 if flag else 0)


def test_generated_names_do_not_clash_with_the_users(device):
    with device:
        assert clashing_names((1, 2), True, 3, 4) == clashing_names.__wrapped__((1, 2), True, 3, 4)


@weft.jit
def names_of_c_functions(x):
    hypot = x * 2
    floor = math.hypot(hypot, 1.0)
    rint = math.floor(floor)
    return rint + hypot


def test_variables_named_like_c_functions(device):
    with device:
        assert names_of_c_functions(3.0) == names_of_c_functions.__wrapped__(3.0)


@weft.jit
def backwards_scaled(a, out):
    n = len(a)
    scale = 2.0 / n
    for i in weft.prange(n - 1, -1, -1):
        out[n - 1 - i] = a[i] * scale


@weft.jit
def prefix_sum(a):
    for i in range(1, len(a)):
        a[i] += a[i - 1]


def test_prange_with_statements_before_and_a_negative_step_and_single_work_items(device):
    a = np.arange(1.0, 6.0)
    out = np.zeros(5)
    with device:
        backwards_scaled(a, out)
        np.testing.assert_array_equal(out, a[::-1] * (2.0 / 5))
        b = np.arange(6, dtype=np.int32)
        prefix_sum(b)  # no prange: one work-item, in order
        np.testing.assert_array_equal(b, np.cumsum(np.arange(6)))


@weft.jit
def float_floor_division(a, b):
    return a // b, a % b


@weft.jit
def float_divmod(a, b):
    q, r = float_floor_division(a, b)
    return q * 1000 + r


@pytest.mark.parametrize("a, b", [(1.0, 0.1), (-7.5, 2.0), (7.5, -2.0), (0.0, -3.0), (5.0, 0.0), (-0.3, 0.1)])
def test_float_floor_division_and_modulo_are_pythons(device, a, b):
    with device, np.errstate(all="ignore"):
        x, y = np.float64(a), np.float64(b)
        want = (x // y) * 1000 + x % y  # NumPy's (Python's rule; its float would raise for b == 0)
        got = float_divmod(a, b)
        assert got == want or (np.isnan(got) and np.isnan(want))


@weft.kernel
def weighted_histogram(hist, bins, weights):
    i = weft.global_id(0)
    part = weft.local_array(4, np.float32)
    lid = weft.local_id(0)
    if lid < 4:
        part[lid] = 0.0
    weft.barrier()
    weft.atomic_add(part, bins[i], weights[i])
    weft.barrier()
    if lid < 4:
        weft.atomic_add(hist, lid, part[lid])


def test_float32_atomic_add(device, queue):
    bins = np.array([0, 1, 1, 3, 3, 3, 2, 0] * 4, np.int32)
    weights = np.arange(32, dtype=np.float32) / 4
    hist = weft.zeros(4, np.float32, device=device)
    weighted_histogram(queue, (32,), (8,), hist, weft.asarray(bins, device=device),
                       weft.asarray(weights, device=device)).wait()
    np.testing.assert_allclose(hist.get(), np.bincount(bins, weights, minlength=4), rtol=1e-6)
