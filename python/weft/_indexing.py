"""NumPy's indexing of weft arrays: basic indices give views (the extension's own
__getitem__/__setitem__); integer arrays, lists and boolean masks are NumPy's advanced
indexing, planned here (which elements, in which order, in what shape, NumPy's errors) and
run by one kernel of the extension's (_gather, _scatter, _compress and _expand:
src/array/indexing.cpp)."""
from __future__ import annotations

import builtins as _builtins
import numbers as _numbers
from typing import TYPE_CHECKING, Any, cast

import numpy as _np

from . import _weft
from ._creation import arange, asarray
from ._dtypes import bool_, int64

if TYPE_CHECKING:
    from ._array import Array
    from ._typing import ArrayLike

# (every _weft._Array is a weft.Array: _array registers the class with the extension)
_ArrayBase = cast("type[Array]", _weft._Array)
_basic_getitem = _weft._Array.__getitem__
_basic_setitem = _weft._Array.__setitem__


def _mask_array(a: Array, mask: ArrayLike | Array) -> Array:
    """mask as a weft bool array over a's leading axes (NumPy: a[mask] with mask.shape ==
    a.shape[:mask.ndim])."""
    m = asarray(mask, device=a.device)
    if m.dtype != bool_:
        raise IndexError(f"a boolean index must be of dtype bool, not {m.dtype}")
    if m.ndim > a.ndim or m.shape != a.shape[:m.ndim]:
        raise IndexError(f"boolean index of shape {m.shape} does not match the array's shape {a.shape} "
                         f"(it must match the leading dimensions {a.shape[:m.ndim]})")
    return m


def _value_array(a: Array, value: ArrayLike | Array) -> Array:
    """value (an array, a sequence, a number) as a weft array on a's device; the kernels cast
    it to a's dtype and broadcast it to the indexed shape."""
    return value if isinstance(value, _ArrayBase) else asarray(_np.asarray(value), device=a.device)


def _masked_assign(a: Array, mask: ArrayLike | Array, value: ArrayLike | Array) -> None:
    """a[mask] = value: a number is written where the mask is true in one fused where(); an
    array of the selected shape (or one that broadcasts to it) goes to the selected positions
    in order, through a scan of the mask."""
    m = _mask_array(a, mask)
    if not isinstance(value, _ArrayBase) and _np.ndim(value) == 0:
        _weft._assign_where(a, m.reshape(m.shape + (1,) * (a.ndim - m.ndim)), value)
        return
    _weft._expand(a, m, _value_array(a, value))


def _is_advanced(key: object) -> bool:
    return isinstance(key, (_ArrayBase, list, _np.ndarray))


def _key_kind(key: object) -> str:
    return key.dtype.kind if isinstance(key, (_ArrayBase, _np.ndarray)) else _np.asarray(key).dtype.kind


def _as_index(a: Array, key: ArrayLike | Array, axis: int) -> Array:
    """key (an integer, an integer array or list) as an int64 device array of valid,
    non-negative indices into axis `axis` of a."""
    n = a.shape[axis]
    if isinstance(key, _numbers.Integral):
        if key < -n or key >= n:
            raise IndexError(f"index {key} is out of bounds for axis {axis} with size {n}")
        return asarray(_np.int64(key % n if n else key), device=a.device)
    if isinstance(key, list):
        key = _np.asarray(key)
        if key.size == 0:
            key = key.astype(_np.int64)  # a[[]], as NumPy
    idx = asarray(key, device=a.device)
    if idx.dtype.kind not in "iu":
        raise IndexError(f"arrays used as indices must be of integer (or boolean) type, not {idx.dtype}")
    idx = idx.astype(int64, copy=False)
    if idx.size:
        lo, hi = int(idx.min()), int(idx.max())
        if lo < -n or hi >= n:
            bad = lo if lo < -n else hi
            raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")
        if lo < 0:
            idx = _weft.where(idx < 0, idx + n, idx)
    return idx


def _mask_indices(a: Array, mask: ArrayLike | Array, axis: int) -> list[Array]:
    """The positions a boolean mask over axes axis, axis+1, ... of a selects, as one int64
    index array per axis it covers (NumPy: mask.nonzero())."""
    m = asarray(mask, device=a.device)
    covered = a.shape[axis:axis + m.ndim]
    if m.ndim == 0 or m.shape != covered:
        raise IndexError(f"boolean index of shape {m.shape} does not match the array's dimensions {covered} "
                         f"from axis {axis}")
    flat = arange(m.size, dtype=int64, device=a.device)[m.ravel()]
    out, step = [], m.size
    for n in m.shape:
        step //= n
        out.append(flat // step % n if step > 1 else flat % n)
    return out


def _advanced_plan(a: Array, key: Any) -> tuple[Array, Array, Array, tuple[int, ...], int] | None:
    """NumPy's advanced indexing, planned: returns None when key is basic, else (a view of a's
    allocation, off: offsets of the indexed elements (int64, one per broadcast index position),
    roff: offsets of the remaining dimensions (int64), the result's shape, post): result element
    i is element off[i // post % nb] + roff[i // (post * nb) * post + i % post] of the
    allocation, nb = off.size (src/kernels/cl/indexing.cl). Index arrays broadcast together;
    integers beside them count as 0-d index arrays; boolean masks stand for their nonzero()
    positions; the broadcast dimensions replace the indexed ones in place when those were next
    to each other in the key, else they come first."""
    key = key if isinstance(key, tuple) else (key,)
    if not _builtins.any(_is_advanced(x) for x in key):
        return None
    consumed = [0 if x is None or x is Ellipsis else
                (asarray(x).ndim if _is_advanced(x) and _key_kind(x) == "b" else 1) for x in key]
    dots = [i for i, x in enumerate(key) if x is Ellipsis]
    if len(dots) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if _builtins.sum(consumed) > a.ndim:
        raise IndexError(f"too many indices for array: array is {a.ndim}-dimensional, but {_builtins.sum(consumed)} "
                         f"were indexed")
    if dots:
        e = dots[0]
        fill = a.ndim - _builtins.sum(consumed)
        key = key[:e] + (slice(None),) * fill + key[e + 1:]
        consumed = consumed[:e] + [1] * fill + consumed[e + 1:]
    basic: list[slice | None]
    positions: list[int]
    indices: list[Array]
    entries: list[int]
    basic, positions, indices, entries = [], [], [], []
    a_axis = v_axis = 0
    for j, (x, c) in enumerate(zip(key, consumed)):
        if x is None:
            basic.append(None)
            v_axis += 1
        elif isinstance(x, slice):
            basic.append(x)
            a_axis += 1
            v_axis += 1
        else:  # an index array, a mask or an integer: indexed dimensions
            if (isinstance(x, _numbers.Integral) and not isinstance(x, bool)) or \
                    (_is_advanced(x) and _key_kind(x) != "b"):
                indices.append(_as_index(a, x, a_axis))
            elif _is_advanced(x):
                indices.extend(_mask_indices(a, x, a_axis))
            else:
                raise IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer "
                                 f"or boolean arrays are valid indices (got {type(x).__name__})")
            basic.extend([slice(None)] * c)
            positions.extend(range(v_axis, v_axis + c))
            entries.append(j)
            a_axis += c
            v_axis += c
    view = _basic_getitem(a, tuple(basic))
    try:
        bshape = _np.broadcast_shapes(*[i.shape for i in indices])
    except ValueError:
        shapes = " ".join(str(i.shape) for i in indices)
        raise IndexError(f"shape mismatch: indexing arrays could not be broadcast together with shapes {shapes}") \
            from None
    item = view.itemsize
    strides = [st // item for st in view.strides]
    off: Array | int = view.offset
    for p, i in zip(positions, indices):
        off = off + i * strides[p]
    off = asarray(off, device=a.device).astype(int64, copy=False).broadcast_to(bshape)
    rest = [d for d in range(view.ndim) if d not in positions]
    rshape = tuple(view.shape[d] for d in rest)
    roff = asarray(_np.int64(0), device=a.device)
    for k, d in enumerate(rest):
        shape = [1] * len(rest)
        shape[k] = view.shape[d]
        roff = roff + arange(view.shape[d], dtype=int64, device=a.device).reshape(shape) * strides[d]
    roff = roff.astype(int64, copy=False).broadcast_to(rshape)
    adjacent = entries == list(range(entries[0], entries[-1] + 1))
    first = _builtins.sum(1 for d in rest if d < positions[0]) if adjacent else 0
    out_shape = rshape[:first] + tuple(bshape) + rshape[first:]
    post = int(_np.prod(rshape[first:], dtype=_np.int64))
    return view, off, roff, out_shape, post


def getitem(self: Array, key: Any) -> Array:
    """NumPy indexing: basic indices give views (no copy); integer arrays, lists, boolean masks
    and integers beside them index as NumPy's advanced indexing, into a new array (one gather
    kernel, reading the array where it lies: no copy of a strided source)."""
    if _is_advanced(key) and _key_kind(key) == "b":
        return _weft._compress(self, _mask_array(self, key))
    plan = _advanced_plan(self, key)
    if plan is None:
        return _basic_getitem(self, key)
    view, off, roff, shape, post = plan
    return _weft._gather(view, off, roff, post, shape)


def setitem(self: Array, key: Any, value: ArrayLike | Array) -> None:
    """NumPy assignment: through a basic index (a view), a boolean mask of the leading
    dimensions, or any advanced index (value broadcast to the indexed shape; where an element
    is indexed more than once, which of its values lands is unspecified, as in CuPy)."""
    if _is_advanced(key) and _key_kind(key) == "b":
        _masked_assign(self, key, value)
        return
    plan = _advanced_plan(self, key)
    if plan is None:
        _basic_setitem(self, key, value)
        return
    view, off, roff, shape, post = plan
    _weft._scatter(view, off, roff, post, shape, _value_array(self, value))
