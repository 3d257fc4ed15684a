"""numpy.partition, numpy.argpartition and a top-k on weft arrays: an O(n) radix select.

Every element is mapped once to the unsigned key whose order is weft.sort's (_weft._order_keys:
signed integers by value, floats with every NaN last, -0.0 equal to 0.0). Along each line (the
axis moved last), the kth smallest key is found digit by digit from the most significant: one
fused pass over the keys counts, for every line, the digits of the keys that agree with the
line's prefix found so far (weft.bincount of `where(prefix matches, line * B + digit, none)`);
the counts come back to the host, whose prefix sums over each line's B bins name the bucket
that holds the kth key, and the rank within it. After the key's last digit the thresholds are
known; each element's class (below, equal to or above each threshold) is then a byte, and one
stable radix pass on that byte moves every element to its side (weft.sort_by_key / argsort):
the partition. A key of b bits costs ceil(b / 11) counting passes (8-bit digits for 8- and
16-bit keys) and one pass on the class byte, each O(n), whatever the data.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, SupportsIndex

import numpy as _np

from . import _weft
from ._array import Array
from ._creation import arange as _arange
from ._histogram import bincount as _bincount
from ._creation import asarray as _asarray
from ._creation import zeros as _zeros
from ._sorting import _array
from ._statistics import take_along_axis as _take_along_axis
from ._ufuncs import where as _where

if TYPE_CHECKING:
    from ._typing import ArrayLike

# The counting bins of one pass, all lines together, are kept to at most this many; beyond it
# (very many short lines), and for more than _MAX_KTH positions, the stable radix sort answers.
_MAX_BINS = 1 << 22
_MAX_KTH = 16


def _kth(kth: ArrayLike, n: int, who: str) -> list[int]:
    ks = [kth] if _np.ndim(kth) == 0 else list(_np.asarray(kth).ravel())
    out = []
    for k in ks:
        if isinstance(k, (bool, _np.bool_)) or not isinstance(k, (int, _np.integer)):
            raise TypeError(f"{who}: kth must be an integer or a sequence of integers, got {k!r}")
        if not -n <= int(k) < n:
            raise ValueError(f"{who}: kth(={int(k)}) out of bounds ({n})")
        out.append(int(k) % n)
    return sorted(set(out))


def _partition_operand(a: ArrayLike | Array, kth: ArrayLike, axis: int | None, kind: str, order: None,
                       who: str) -> tuple[Array, int, list[int]]:
    # numpy.partition's checks; the operand, its axis and the kth positions (sorted, distinct).
    if kind != "introselect" or order is not None:
        raise ValueError(f"{who}: kind must be 'introselect' and order None")
    x = _array(a)
    if axis is None:
        x, axis = x.reshape(-1), -1
    if x.ndim == 0:
        raise _np.exceptions.AxisError(f"{who}: a 0-d array has no axis to partition")
    if not -x.ndim <= int(axis) < x.ndim:
        raise _np.exceptions.AxisError(f"{who}: axis {axis} is out of bounds for an array of dimension {x.ndim}")
    return x, int(axis) % x.ndim, _kth(kth, x.shape[axis], who)


def _digits(bits: int) -> list[int]:
    # Digit widths, most significant first.
    if bits <= 16:
        return [8] * (bits // 8)
    out = []
    while bits > 0:
        out.append(min(11, bits))
        bits -= out[-1]
    return out


def _per_line(values: _np.ndarray, keys: Array) -> object:
    # One value per line in the keys' dtype, to compare with the keys: a scalar for one line
    # (a broadcast (1, 1) array costs the generated kernel index arithmetic per element), else
    # a (lines, 1) array.
    if values.shape[0] == 1:
        return keys.dtype.type(values[0])
    return _asarray(values.astype(keys.dtype).reshape(-1, 1), device=keys.device)


def _select(keys: Array, ks: list[int]) -> _np.ndarray:
    """The k-th smallest key of every line of keys (2-D, lines along the last axis) for each k of
    ks: a (lines, len(ks)) NumPy array of keys."""
    rows, _ = keys.shape
    kt = keys.dtype.type
    bits = 8 * keys.dtype.itemsize
    widths = _digits(bits)
    line = _arange(rows, dtype=_np.int64, device=keys.device).reshape(rows, 1)
    out = _np.empty((rows, len(ks)), dtype=keys.dtype)
    for j, k in enumerate(ks):
        prefix = _np.zeros(rows, dtype=_np.uint64)
        rank = _np.full(rows, k, dtype=_np.int64)
        shift = bits
        cand, filtered = keys, True  # cand: the keys still in the running; filtered: all share the prefix
        for d in widths:
            shift -= d
            nb = 1 << d
            digit = ((cand >> kt(shift)) & kt(nb - 1)).astype(_np.int64) if shift else (cand & kt(nb - 1)).astype(
                _np.int64)
            index = digit if rows == 1 else line * nb + digit
            if not filtered:  # only the keys that agree with the line's prefix count
                known = _per_line(prefix, keys)
                index = _where((cand >> kt(shift + d)) == known, index, rows * nb)
            counts = _bincount(index.reshape(-1), minlength=rows * nb + 1).get()[:rows * nb].reshape(rows, nb)
            ends = _np.cumsum(counts, axis=1)
            found = _np.argmax(ends > rank[:, None], axis=1)
            inside = counts[_np.arange(rows), found]
            rank -= ends[_np.arange(rows), found] - inside
            prefix = (prefix << _np.uint64(d)) | found.astype(_np.uint64)
            filtered = False
            if rows == 1 and shift and int(inside[0]) * 8 <= cand.size:
                # One line whose bucket is small: keep only its keys (a compaction), so the
                # passes below read those alone, unfiltered.
                cand = cand[(cand >> kt(shift)) == kt(int(prefix[0]))]
                filtered = True
        out[:, j] = prefix.astype(keys.dtype)
    return out


def _classes(keys: Array, thresholds: _np.ndarray) -> Array:
    # 2 * (thresholds below the key) + (thresholds equal to it): one byte that orders the
    # elements as their keys do and keeps each threshold's equal keys together.
    cls: Array | None = None
    for j in range(thresholds.shape[1]):
        t = _per_line(thresholds[:, j], keys)
        term = (keys > t).astype(_np.uint8) + (keys >= t)
        cls = term if cls is None else cls + term
    assert cls is not None
    return cls.astype(_np.uint8)


def _lines(x: Array, axis: int) -> tuple[Array, tuple[int, ...]]:
    # x with axis moved last, as a contiguous 2-D array of lines, and that moved shape.
    if axis != x.ndim - 1:
        x = x.swapaxes(axis, -1)
    moved = tuple(x.shape)
    if not x.flags_c_contiguous:
        x = _asarray(x.copy())
    return x.reshape(-1, moved[-1]), moved


def _restore(r: Array, moved: tuple[int, ...], axis: int, ndim: int) -> Array:
    r = r.reshape(moved)
    return _asarray(r.swapaxes(axis, -1).copy()) if axis != ndim - 1 else r


def _fast(x: Array, ks: list[int]) -> bool:
    # Whether the radix select serves: lines to count at once and few positions.
    if x.dtype.kind not in "biuf" or x.size == 0 or not ks or len(ks) > _MAX_KTH:
        return False
    rows = x.size // x.shape[-1]
    return rows * 2048 <= _MAX_BINS or (rows * 256 <= _MAX_BINS and x.dtype.itemsize <= 2)


def _select_classes(x: Array, axis: int, ks: list[int], descending: bool) -> tuple[Array, Array, tuple[int, ...]]:
    # The lines of x (2-D), each element's class byte (2-D uint8) and the moved shape.
    lines, moved = _lines(x, axis)
    keys = _weft._order_keys(lines, descending)
    return lines, _classes(keys, _select(keys, ks)), moved


def partition(a: ArrayLike | Array, kth: ArrayLike, axis: int | None = -1, kind: str = "introselect",
              order: None = None) -> Array:
    """A copy of a partitioned at kth, as numpy.partition: the element at each kth position is the
    one a sort would put there, with no larger ones before it and no smaller ones after (NaNs
    last; -0.0 and 0.0 equal).

    O(n): a radix select of each line's kth keys, then one stable pass that moves every element
    to its side (elements on one side keep their input order). Many short lines (more than
    2**11 of them for keys over 16 bits) and more than 16 kth positions take the stable radix
    sort instead, which is a valid partition too.

    Parameters
    ----------
    a : weft.Array
        The input.
    kth : int or sequence of ints
        The positions to put in place (negative ones count from the end).
    axis : int or None, optional
        The axis (the last by default); None: the flattened elements.
    kind, order : optional
        NumPy's; only the defaults are taken.

    Returns
    -------
    weft.Array
        The partitioned copy.

    Raises
    ------
    ValueError
        A kth is out of range.

    Examples
    --------
    >>> p = weft.partition(weft.asarray(np.array([7, 1, 5, 3, 9])), 2).get()
    >>> int(p[2]), bool((p[:2] <= 5).all()), bool((p[3:] >= 5).all())
    (5, True, True)
    """
    x, axis, ks = _partition_operand(a, kth, axis, kind, order, "partition")
    if not _fast(x, ks):
        return _weft._sort(x, axis, False) if ks else _asarray(x.copy())
    lines, cls, moved = _select_classes(x, axis, ks, False)
    return _restore(_weft._sort_by_key(cls, lines, -1, False)[1], moved, axis, x.ndim)


def argpartition(a: ArrayLike | Array, kth: ArrayLike, axis: int | None = -1, kind: str = "introselect",
                 order: None = None) -> Array:
    """The int64 indices that partition a (see weft.partition), as numpy.argpartition. Within each
    side the indices are in increasing order (the move is stable).

    Parameters
    ----------
    a : weft.Array
        The input.
    kth : int or sequence of ints
        The positions to put in place.
    axis : int or None, optional
        The axis (the last by default); None: the flattened elements.
    kind, order : optional
        NumPy's; only the defaults are taken.

    Returns
    -------
    weft.Array
        int64 indices of a's shape.

    Examples
    --------
    >>> weft.argpartition(weft.asarray(np.array([7, 1, 5, 3])), 1).get()
    array([1, 3, 0, 2])
    """
    x, axis, ks = _partition_operand(a, kth, axis, kind, order, "argpartition")
    if not _fast(x, ks):
        if ks:
            return _weft._argsort(x, axis, False)
        shape = [1] * x.ndim
        shape[axis] = x.shape[axis]
        iota = _arange(x.shape[axis], dtype=_np.int64, device=x.device).reshape(tuple(shape))
        return _asarray((iota + _zeros(x.shape, dtype=_np.int64, device=x.device)).copy())
    _, cls, moved = _select_classes(x, axis, ks, False)
    return _restore(_weft._argsort(cls, -1, False), moved, axis, x.ndim)


def topk(a: ArrayLike | Array, k: SupportsIndex, axis: int = -1, largest: bool = True,
         sorted: bool = True) -> tuple[Array, Array]:
    """The k largest (or smallest) elements along axis and their int64 indices, as torch.topk:
    a tuple (values, indices), each of a's shape with k along axis.

    NaN counts as the largest value (first for largest=True, last otherwise), -0.0 equals 0.0.
    sorted=True orders the k by value (largest first for largest=True); equal values come in
    increasing index order. sorted=False leaves them in index order. O(n) by the radix select of
    weft.partition, then a sort of the k chosen only.

    Parameters
    ----------
    a : weft.Array
        The input (integer, bool or real floating).
    k : int
        How many, 0 <= k <= a.shape[axis].
    axis : int, optional
        The axis (the last by default).
    largest : bool, optional
        The largest (True) or the smallest.
    sorted : bool, optional
        Order the k by value.

    Returns
    -------
    (weft.Array, weft.Array)
        The values and their indices along axis.

    Raises
    ------
    ValueError
        k out of range.

    Examples
    --------
    >>> v, i = weft.topk(weft.asarray(np.array([3., 9., 1., 7.])), 2)
    >>> v.get(), i.get()
    (array([9., 7.]), array([1, 3]))
    """
    x = _array(a)
    if x.ndim == 0:
        raise _np.exceptions.AxisError("topk: a 0-d array has no axis")
    if not -x.ndim <= int(axis) < x.ndim:
        raise _np.exceptions.AxisError(f"topk: axis {axis} is out of bounds for an array of dimension {x.ndim}")
    if x.dtype.kind not in "biuf":
        raise TypeError(f"topk: a must have an integer, bool or real floating dtype, not {x.dtype}")
    axis = int(axis) % x.ndim
    n = x.shape[axis]
    if isinstance(k, (bool, _np.bool_)) or not isinstance(k, (int, _np.integer)):
        raise TypeError(f"topk: k must be an integer, got {k!r}")
    k = int(k)
    if not 0 <= k <= n:
        raise ValueError(f"topk: k must be in [0, {n}] (the length of axis {axis}), got {k}")
    lines, moved = _lines(x, axis)
    out_moved = moved[:-1] + (k,)
    if k == 0 or lines.size == 0:
        empty = _asarray(_np.empty(out_moved, dtype=x.dtype), device=x.device)
        index = _asarray(_np.empty(out_moved, dtype=_np.int64), device=x.device)
        return _restore(empty, out_moved, axis, x.ndim), _restore(index, out_moved, axis, x.ndim)
    keys = _weft._order_keys(lines, bool(largest))
    if k == n:
        index = _arange(n, dtype=_np.int64, device=x.device).reshape(1, n) * _asarray(
            _np.ones((lines.shape[0], 1), dtype=_np.int64), device=x.device)
        index = _asarray(index)
    elif _fast(lines, [k - 1]):
        index = _asarray(_weft._argsort(_classes(keys, _select(keys, [k - 1])), -1, False)[:, :k])
    else:  # very many short lines: the stable argsort of the keys
        index = _asarray(_weft._argsort(keys, -1, False)[:, :k])
    if sorted:
        order = _weft._argsort(_take_along_axis(keys, index, axis=-1), -1, False)
        index = _take_along_axis(index, order, axis=-1)
    values = _take_along_axis(lines, index, axis=-1)
    return _restore(values, out_moved, axis, x.ndim), _restore(index, out_moved, axis, x.ndim)
