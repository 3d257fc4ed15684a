"""np.linalg's functions (and NumPy 2's matmul, vecdot, matrix_transpose ...) called with weft
arrays: __array_function__ runs weft.linalg's, with NumPy's signatures, and returns weft arrays."""
from __future__ import annotations

from typing import Any, Sequence, SupportsIndex

import numpy as _np

from . import _weft
from ._array import Array
from ._creation import asarray
from ._protocols import FUNCTIONS as _FUNCTIONS
from ._protocols import implements
from ._reductions import sum as _sum
from .linalg import (EighResult, QRResult, SlogdetResult, _arr, cholesky, cross, det, diagonal, eigh, eigvalsh, inv,
                     matmul, matrix_norm, matrix_power, matrix_rank, matrix_transpose, norm, outer, pinv, qr, slogdet,
                     solve, svd, svdvals, tensordot, trace, vecdot, vector_norm)


@implements(_np.linalg.solve)
def _np_solve(a: Array, b: Array) -> Array:
    return solve(a, b)


@implements(_np.linalg.inv)
def _np_inv(a: Array) -> Array:
    return inv(a)


@implements(_np.linalg.det)
def _np_det(a: Array) -> Array:
    return det(a)


@implements(_np.linalg.slogdet)
def _np_slogdet(a: Array) -> SlogdetResult:
    return slogdet(a)


@implements(_np.linalg.cholesky)
def _np_cholesky(a: Array, /, *, upper: bool = False) -> Array:
    return cholesky(a, upper=upper)


@implements(_np.linalg.qr)
def _np_qr(a: Array, mode: str = "reduced") -> QRResult | Array:
    if mode == "r":
        r: Array = _weft._qr(_arr(a), "r")[1]
        return r
    return qr(a, mode=mode)


@implements(_np.linalg.svd)
def _np_svd(a: Array, full_matrices: bool = True, compute_uv: bool = True, hermitian: bool = False) -> Any:
    return svd(a, full_matrices=full_matrices) if compute_uv else svdvals(a)


@implements(_np.linalg.eigh)
def _np_eigh(a: Array, UPLO: str = "L") -> EighResult:
    return eigh(a, UPLO=UPLO)


@implements(_np.linalg.eigvalsh)
def _np_eigvalsh(a: Array, UPLO: str = "L") -> Array:
    return eigvalsh(a, UPLO=UPLO)


@implements(_np.linalg.norm)
def _np_norm(x: Array, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Array:
    return norm(x, ord, axis, keepdims)


@implements(_np.linalg.pinv)
def _np_pinv(a: Array, rcond: Any = None, hermitian: bool = False, *, rtol: Any = None) -> Array:
    return pinv(a, rtol=rtol if rcond is None else rcond)


@implements(_np.linalg.matrix_rank)
def _np_matrix_rank(A: Array, tol: Any = None, hermitian: bool = False, *, rtol: Any = None) -> Array:
    A = _arr(A)
    if A.ndim < 2:
        return asarray(_np.int64(bool((A != 0).any())), device=A.device)
    if tol is not None:
        return _sum(svdvals(A) > tol, axis=-1)
    return matrix_rank(A, rtol=rtol)


@implements(_np.linalg.matrix_power)
def _np_matrix_power(a: Array, n: SupportsIndex) -> Array:
    return matrix_power(a, n)


@implements(_np.linalg.multi_dot)
def _np_multi_dot(arrays: Sequence[Array], *, out: Array | None = None) -> Array:
    r = arrays[0]
    for x in arrays[1:]:
        r = matmul(r, x)
    return r


for _np_name, _ours in (("matmul", matmul), ("vecdot", vecdot), ("matrix_transpose", matrix_transpose),
                        ("tensordot", tensordot), ("outer", outer), ("cross", cross), ("diagonal", diagonal),
                        ("trace", trace), ("svdvals", svdvals), ("vector_norm", vector_norm),
                        ("matrix_norm", matrix_norm)):
    _f = getattr(_np.linalg, _np_name, None)
    if _f is not None:
        implements(_f)(_ours)
for _np_name, _ours in (("vecdot", vecdot), ("matrix_transpose", matrix_transpose)):
    _f = getattr(_np, _np_name, None)
    if _f is not None and _f not in _FUNCTIONS:
        implements(_f)(_ours)
