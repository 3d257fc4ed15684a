"""np.einsum on weft arrays (and Dask's einsum of weft chunks, through weft.dask's einsum_lookup).

The operands are joined left to right, two at a time: labels that no later operand and not the
output need are summed out of an operand first; labels the pair shares and nothing later needs
are contracted by np.tensordot's one matmul when the pair shares no label that stays, and
otherwise the pair is multiplied with broadcasting (each operand's axes put in the order of
the pair's labels) and summed. The result is transposed to the output's order. Not supported
(weft.Unsupported): a label repeated within one operand (diagonals, ``'ii->i'``) and ``...``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as _np

from . import _weft
from ._creation import asarray
from ._protocols import implements

if TYPE_CHECKING:
    from ._array import Array

_ArrayBase = cast("type[Array]", _weft._Array)  # (every _weft._Array is a weft.Array)


def _parse(subscripts: str, count: int) -> tuple[list[str], str]:
    s = subscripts.replace(" ", "")
    if "." in s:
        raise _weft.Unsupported(f"einsum: '...' in {subscripts!r} is not supported on weft arrays; name every axis")
    inputs, arrow, output = s.partition("->")
    terms = inputs.split(",")
    if len(terms) != count:
        raise ValueError(f"einsum: {subscripts!r} names {len(terms)} operands, {count} given")
    for t in terms + [output]:
        if not all(c.isalpha() for c in t):
            raise ValueError(f"einsum: subscripts must be letters, got {subscripts!r}")
    if not arrow:  # NumPy's implicit output: the labels seen once, sorted
        seen = "".join(terms)
        output = "".join(sorted(c for c in set(seen) if seen.count(c) == 1))
    for t in terms:
        if len(set(t)) != len(t):
            raise _weft.Unsupported(f"einsum: the label repeated in {t!r} (a diagonal) is not supported on weft arrays")
    if len(set(output)) != len(output) or not set(output) <= set("".join(terms)):
        raise ValueError(f"einsum: output {output!r} repeats a label or names one no operand has")
    return terms, output


def _sum_out(a: Array, labels: str, keep: set[str]) -> tuple[Array, str]:
    axes = tuple(i for i, c in enumerate(labels) if c not in keep)
    if not axes:
        return a, labels
    return a.sum(axis=axes), "".join(c for c in labels if c in keep)


def _aligned(a: Array, labels: str, order: str) -> Array:
    """a with its axes in order's order and a length-1 axis for each label of order it lacks."""
    mine = [c for c in order if c in labels]
    t = a.transpose(*[labels.index(c) for c in mine]) if mine != list(labels) else a
    return t.reshape(tuple(a.shape[labels.index(c)] if c in labels else 1 for c in order))


def _pair(a: Array, la: str, b: Array, lb: str, keep: set[str]) -> tuple[Array, str]:
    from ._chunk_protocols import tensordot
    shared = [c for c in la if c in lb]
    if not any(c in keep for c in shared):
        out = tensordot(a, b, axes=([la.index(c) for c in shared], [lb.index(c) for c in shared]))
        return out, "".join(c for c in la if c not in shared) + "".join(c for c in lb if c not in shared)
    order = la + "".join(c for c in lb if c not in la)
    product = _aligned(a, la, order) * _aligned(b, lb, order)
    return _sum_out(product, order, keep)


@implements(_np.einsum)
def einsum(subscripts: str, *operands: Any, out: Array | None = None, dtype: Any = None, order: str = "K",
           casting: str = "safe", optimize: Any = False) -> Array:
    """np.einsum on weft arrays (the module's docstring says how); a NumPy operand is copied to
    the first weft operand's device. out= is not supported.

    Examples
    --------
    >>> a = weft.asarray(np.arange(6.0).reshape(2, 3))
    >>> np.einsum("ij,kj->ik", a, a).get()
    array([[ 5., 14.],
           [14., 50.]])
    """
    if out is not None:
        raise _weft.Unsupported("einsum: out= is not supported on weft arrays")
    if not isinstance(subscripts, str):
        raise _weft.Unsupported("einsum: give the subscripts as a string on weft arrays")
    device = next(o.device for o in operands if isinstance(o, _ArrayBase))
    ops = [o if isinstance(o, _ArrayBase) else asarray(o, device=device) for o in operands]
    if dtype is not None:
        ops = [o.astype(dtype) for o in ops]
    terms, output = _parse(subscripts, len(ops))
    for o, t in zip(ops, terms):
        if o.ndim != len(t):
            raise ValueError(f"einsum: operand of shape {o.shape} has {o.ndim} axes, subscripts {t!r} name {len(t)}")
    sizes: dict[str, int] = {}
    for o, t in zip(ops, terms):
        for c, n in zip(t, o.shape):
            if sizes.setdefault(c, n) != n:
                raise ValueError(f"einsum: label {c!r} has length {sizes[c]} and {n}")

    def needed(after: int) -> set[str]:
        return set(output).union(*[set(t) for t in terms[after:]])

    acc, la = _sum_out(ops[0], terms[0], needed(1))
    for k in range(1, len(ops)):
        keep = needed(k + 1)
        b, lb = _sum_out(ops[k], terms[k], keep | set(la))
        acc, la = _sum_out(acc, la, keep | set(lb))
        acc, la = _pair(acc, la, b, lb, keep)
    acc, la = _sum_out(acc, la, set(output))
    if la != output:
        acc = acc.transpose(*[la.index(c) for c in output])
    return acc
