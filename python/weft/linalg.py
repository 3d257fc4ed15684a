"""weft.linalg: the Array API's linear-algebra extension (and NumPy's np.linalg on weft arrays).

The matrix product runs on each device's BLAS library (OpenBLAS on the host, CLBlast on OpenCL,
cuBLAS on CUDA), or weft's fused kernel where that library is absent and for integer operands.
The decompositions (solve, inv, det, slogdet, cholesky, qr, svd, svdvals, eigh, eigvalsh) call
LAPACK on the host, its s/d routines for real arrays and its c/z ones for complex64/complex128
(cholesky and eigh take Hermitian matrices; singular values, eigenvalues and the log of abs(det) are real,
slogdet's sign a unit complex number): an array on an OpenCL or CUDA device is copied to the host, decomposed there
and its results copied back to its device. Without a LAPACK library they raise weft.Unsupported
naming the libraries looked for. The rest (norms, pinv, matrix_rank, matrix_power, trace,
diagonal, cross, outer, vecdot, tensordot) are built on those and on weft's reductions.

Errors are NumPy's: weft.LinAlgError (a ValueError, and a numpy.linalg.LinAlgError) for a singular
matrix, one not positive definite, or one not square where it must be.

Examples
--------
>>> a = weft.asarray(np.array([[4.0, 1.0], [1.0, 3.0]]))
>>> weft.linalg.solve(a, weft.asarray(np.array([1.0, 2.0]))).get()
array([0.09090909, 0.63636364])
>>> float(weft.linalg.det(a))
11.0
"""
from __future__ import annotations

import builtins as _builtins
import math as _math
from typing import TYPE_CHECKING, Any, NamedTuple, SupportsIndex

import numpy as _np

from . import _weft
from ._array import Array
from ._chunk_protocols import tensordot as _tensordot
from ._creation import asarray
from ._linalg import matmul
from ._manipulation import moveaxis, stack
from ._reductions import amax, amin
from ._reductions import sum as _sum
from ._ufuncs import abs as _abs
from ._ufuncs import sqrt as _sqrt
from ._ufuncs import where as _where

if TYPE_CHECKING:
    from ._chunk_protocols import _TensordotAxes

LinAlgError = _weft.LinAlgError

__all__ = [
    "LinAlgError", "EighResult", "QRResult", "SVDResult", "SlogdetResult", "cholesky", "cross", "det", "diagonal",
    "eigh", "eigvalsh", "inv", "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "norm",
    "outer", "pinv", "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "trace", "vecdot", "vector_norm",
]


class EighResult(NamedTuple):
    """eigh's result: eigenvalues (..., M) ascending, eigenvectors (..., M, M) as columns."""
    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    """qr's result: Q and R with a = Q @ R."""
    Q: Array
    R: Array


class SVDResult(NamedTuple):
    """svd's result: U, S (descending) and Vh with a = U @ diag(S) @ Vh."""
    U: Array
    S: Array
    Vh: Array


class SlogdetResult(NamedTuple):
    """slogdet's result: the determinant's sign and the log of its absolute value."""
    sign: Array
    logabsdet: Array


def _arr(x: Any, like: Any = None) -> Array:
    if isinstance(x, Array):
        return x
    return asarray(x, device=like.device) if isinstance(like, Array) else asarray(x)


def _float_dtype(x: Array) -> _np.dtype[Any]:
    return _np.dtype(x.dtype) if _np.dtype(x.dtype).kind == "f" else _np.dtype(_np.float64)


def _norm_dtype(x: Array) -> _np.dtype[Any]:
    """A norm's type: a complex type's real part type (complex64: float32), else _float_dtype."""
    t = _np.dtype(x.dtype)
    return _np.dtype(_np.finfo(t).dtype) if t.kind == "c" else _float_dtype(x)


def _need_matrix(x: Array, fn: str) -> None:
    if x.ndim < 2:
        raise LinAlgError(f"{fn}: {x.ndim}-dimensional array given. Array must be at least two-dimensional")


# ---- products -------------------------------------------------------------------------------

def matrix_transpose(x: Array, /) -> Array:
    """The last two axes swapped (a view), as the Array API's matrix_transpose.

    Examples
    --------
    >>> weft.matrix_transpose(weft.reshape(weft.arange(6), (2, 3))).shape
    (3, 2)
    """
    x = _arr(x)
    if x.ndim < 2:
        raise ValueError(f"matrix_transpose: x must have at least 2 dimensions, not {x.ndim}")
    return x.mT


def vecdot(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """The dot product of vectors along axis (the other axes broadcast), as the Array API's vecdot.

    Examples
    --------
    >>> a = weft.asarray(np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> weft.vecdot(a, a).get()
    array([ 5., 25.])
    """
    x1, x2 = _arr(x1, x2), _arr(x2, x1)
    shape = _np.broadcast_shapes(x1.shape, x2.shape)
    nd = len(shape)
    if not -nd <= axis < nd:
        raise ValueError(f"vecdot: axis {axis} is out of range for the broadcast shape {shape}")
    ax = axis % nd
    n1 = x1.shape[ax - nd] if ax - nd >= -x1.ndim else 1
    n2 = x2.shape[ax - nd] if ax - nd >= -x2.ndim else 1
    if n1 != n2:
        raise ValueError(f"vecdot: the operands' sizes along axis {axis} differ ({n1} and {n2}); shapes "
                         f"{x1.shape} and {x2.shape}")
    dtype = _np.result_type(x1.dtype, x2.dtype)
    # The standard's vecdot conjugates the first operand; the sum keeps the operands' type
    # (NumPy's sum would widen small integers).
    left = x1.conj() if dtype.kind == "c" else x1
    return _sum(left * x2, axis=ax - nd, dtype=dtype)


def tensordot(x1: Array, x2: Array, /, *, axes: _TensordotAxes = 2) -> Array:
    """The sum of products over axes (an integer: x1's last and x2's first that many; a pair:
    the listed axes), as one matrix product, as the Array API's tensordot.

    Examples
    --------
    >>> a = weft.ones((2, 3))
    >>> weft.linalg.tensordot(a, weft.ones((3, 4)), axes=1).shape
    (2, 4)
    """
    return _tensordot(x1, x2, axes)


def outer(x1: Array, x2: Array, /) -> Array:
    """The outer product of two vectors, (N,) and (M,) to (N, M).

    Examples
    --------
    >>> weft.linalg.outer(weft.arange(2), weft.arange(3)).get()
    array([[0, 0, 0],
           [0, 1, 2]])
    """
    x1, x2 = _arr(x1, x2), _arr(x2, x1)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"outer: the operands must be 1-D, not of shapes {x1.shape} and {x2.shape}")
    return x1[:, None] * x2[None, :]


def cross(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """The cross product of 3-element vectors along axis (the other axes broadcast).

    Examples
    --------
    >>> weft.linalg.cross(weft.asarray(np.array([1.0, 0, 0])), weft.asarray(np.array([0.0, 1, 0]))).get()
    array([0., 0., 1.])
    """
    x1, x2 = _arr(x1, x2), _arr(x2, x1)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(f"cross: both operands need 3 elements along axis {axis}; shapes {x1.shape} and {x2.shape}")
    a, b = moveaxis(x1, axis, -1), moveaxis(x2, axis, -1)
    c = stack([a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
               a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
               a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]], axis=-1)
    return moveaxis(c, -1, axis)


def diagonal(x: Array, /, *, offset: int = 0) -> Array:
    """The diagonal of each matrix (the last two axes), offset above (>0) or below (<0) the
    main one: a view.

    Examples
    --------
    >>> weft.linalg.diagonal(weft.reshape(weft.arange(9), (3, 3))).get()
    array([0, 4, 8])
    """
    x = _arr(x)
    _need_matrix(x, "diagonal")
    rows, cols = x.shape[-2], x.shape[-1]
    item = _np.dtype(x.dtype).itemsize
    st = [s // item for s in x.strides]
    length = _builtins.max(0, _builtins.min(rows - _builtins.max(0, -offset), cols - _builtins.max(0, offset)))
    start = x.offset + (offset * st[-1] if offset >= 0 else -offset * st[-2]) if length else x.offset
    return _weft._as_strided(x, (*x.shape[:-2], length), (*st[:-2], st[-2] + st[-1]), start)


def trace(x: Array, /, *, offset: int = 0, dtype: Any = None) -> Array:
    """The sum of each matrix's diagonal (offset as diagonal's), as the Array API's trace.

    Examples
    --------
    >>> float(weft.linalg.trace(weft.reshape(weft.arange(9.0), (3, 3))))
    12.0
    """
    return _sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def matrix_power(x: Array, n: SupportsIndex, /) -> Array:
    """x multiplied by itself n times (n < 0: the inverse's power; n = 0: the identity).

    Examples
    --------
    >>> weft.linalg.matrix_power(weft.asarray(np.array([[1, 1], [0, 1]])), 3).get()
    array([[1, 3],
           [0, 1]])
    """
    x = _arr(x)
    _need_matrix(x, "matrix_power")
    if x.shape[-1] != x.shape[-2]:
        raise LinAlgError(f"matrix_power: Last 2 dimensions of the array must be square (shape {x.shape})")
    k = _builtins.int(n)
    if k == 0:
        eye = _np.broadcast_to(_np.eye(x.shape[-1], dtype=x.dtype), x.shape)
        return asarray(_np.ascontiguousarray(eye), device=x.device)
    if k < 0:
        x, k = inv(x), -k
    result: Array | None = None
    base = x
    while k:
        if k & 1:
            result = base if result is None else matmul(result, base)
        k >>= 1
        if k:
            base = matmul(base, base)
    assert result is not None
    return result


# ---- LAPACK ---------------------------------------------------------------------------------

def solve(x1: Array, x2: Array, /) -> Array:
    """The solution x of x1 @ x = x2: x1 is (..., M, M); x2 (M,) is a vector, else (..., M, K)
    (stacks broadcast). LinAlgError when x1 is singular.

    Examples
    --------
    >>> a = weft.asarray(np.array([[2.0, 0.0], [0.0, 4.0]]))
    >>> weft.linalg.solve(a, weft.asarray(np.array([2.0, 2.0]))).get()
    array([1. , 0.5])
    """
    x1 = _arr(x1, x2)
    return _weft._solve(x1, _arr(x2, x1))


def inv(x: Array, /) -> Array:
    """The inverse of each (..., M, M) matrix; LinAlgError when one is singular.

    Examples
    --------
    >>> weft.linalg.inv(weft.asarray(np.array([[2.0, 0.0], [0.0, 4.0]]))).get()
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    return _weft._inv(_arr(x))


def det(x: Array, /) -> Array:
    """The determinant of each (..., M, M) matrix.

    Examples
    --------
    >>> float(weft.linalg.det(weft.asarray(np.array([[2.0, 1.0], [1.0, 3.0]]))))
    5.0
    """
    return _weft._det(_arr(x))


def slogdet(x: Array, /) -> SlogdetResult:
    """The determinant's sign and the log of its absolute value, for each (..., M, M) matrix.

    Examples
    --------
    >>> sign, logdet = weft.linalg.slogdet(weft.asarray(np.array([[1.0, 2.0], [3.0, 4.0]])))
    >>> float(sign), round(float(logdet), 6)
    (-1.0, 0.693147)
    """
    return SlogdetResult(*_weft._slogdet(_arr(x)))


def cholesky(x: Array, /, *, upper: bool = False) -> Array:
    """The Cholesky factor L (x = L @ L.mT; upper=True: U with x = U.mT @ U) of each symmetric
    positive-definite matrix, reading only that triangle of x. LinAlgError otherwise. A complex
    x is Hermitian: x = L @ L.mT.conj() (upper=True: x = U.mT.conj() @ U).

    Examples
    --------
    >>> weft.linalg.cholesky(weft.asarray(np.array([[4.0, 2.0], [2.0, 5.0]]))).get()
    array([[2., 0.],
           [1., 2.]])
    """
    return _weft._cholesky(_arr(x), upper)


def qr(x: Array, /, *, mode: str = "reduced") -> QRResult:
    """x = Q @ R for each (..., M, N) matrix; mode 'reduced' (Q (..., M, K), R (..., K, N),
    K = min(M, N)) or 'complete' (Q (..., M, M), R (..., M, N)). np.linalg.qr on a weft array
    also takes NumPy's mode='r' (R alone).

    Examples
    --------
    >>> q, r = weft.linalg.qr(weft.asarray(np.array([[3.0, 1.0], [4.0, 2.0]])))
    >>> np.allclose((q @ r).get(), [[3.0, 1.0], [4.0, 2.0]])
    True
    """
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: mode must be 'reduced' or 'complete', not {mode!r}")
    q, r = _weft._qr(_arr(x), mode)
    assert q is not None  # (only mode 'r' leaves Q out)
    return QRResult(q, r)


def svd(x: Array, /, *, full_matrices: bool = True) -> SVDResult:
    """x = U @ diag(S) @ Vh for each (..., M, N) matrix, S descending.

    Examples
    --------
    >>> u, s, vh = weft.linalg.svd(weft.asarray(np.array([[3.0, 0.0], [0.0, 4.0]])))
    >>> s.get()
    array([4., 3.])
    """
    return SVDResult(*_weft._svd(_arr(x), full_matrices))


def svdvals(x: Array, /) -> Array:
    """The singular values of each (..., M, N) matrix, descending.

    Examples
    --------
    >>> weft.linalg.svdvals(weft.asarray(np.array([[3.0, 0.0], [0.0, 4.0]]))).get()
    array([4., 3.])
    """
    return _weft._svdvals(_arr(x))


def eigh(x: Array, /, *, UPLO: str = "L") -> EighResult:
    """Eigenvalues (ascending) and eigenvectors (columns) of each symmetric (complex: Hermitian)
    (..., M, M) matrix, reading its lower triangle (UPLO='U': its upper one). The eigenvalues
    are real (float32 for complex64), the eigenvectors of x's type.

    Examples
    --------
    >>> w, v = weft.linalg.eigh(weft.asarray(np.array([[2.0, 0.0], [0.0, 1.0]])))
    >>> w.get()
    array([1., 2.])
    """
    return EighResult(*_weft._eigh(_arr(x), _uplo(UPLO)))


def eigvalsh(x: Array, /, *, UPLO: str = "L") -> Array:
    """The eigenvalues (ascending) of each symmetric (..., M, M) matrix.

    Examples
    --------
    >>> weft.linalg.eigvalsh(weft.asarray(np.array([[2.0, 0.0], [0.0, 1.0]]))).get()
    array([1., 2.])
    """
    return _weft._eigvalsh(_arr(x), _uplo(UPLO))


def _uplo(uplo: str) -> bool:
    if uplo not in ("L", "U"):
        raise ValueError(f"UPLO must be 'L' or 'U', not {uplo!r}")
    return uplo == "U"


def _default_rtol(x: Array) -> float:
    return _builtins.max(x.shape[-2], x.shape[-1]) * float(_np.finfo(_norm_dtype(x)).eps)


def _cutoff(x: Array, s: Array, rtol: float | Array | None) -> Array:
    """rtol times each matrix's largest singular value, (..., 1): an array rtol has the stack's
    shape (...) (or broadcasts to it), as NumPy's rcond[..., newaxis]."""
    if rtol is None:
        r: Any = _default_rtol(x)
    elif isinstance(rtol, Array):
        r = rtol[..., None]
    else:
        r = rtol
    cutoff: Array = r * amax(s, axis=-1, keepdims=True)
    return cutoff


def pinv(x: Array, /, *, rtol: float | Array | None = None) -> Array:
    """The Moore-Penrose pseudo-inverse of each (..., M, N) matrix, from its SVD: singular values
    at most rtol times the largest (default max(M, N) * eps) count as zero.

    Examples
    --------
    >>> weft.linalg.pinv(weft.asarray(np.array([[2.0, 0.0], [0.0, 0.0]]))).get()
    array([[0.5, 0. ],
           [0. , 0. ]])
    """
    x = _arr(x)
    _need_matrix(x, "pinv")
    u, s, vh = svd(x, full_matrices=False)
    cplx = _np.dtype(x.dtype).kind == "c"
    if s.shape[-1] == 0:
        t = _np.dtype(x.dtype) if cplx else _float_dtype(x)
        return asarray(_np.zeros((*x.shape[:-2], x.shape[-1], x.shape[-2]), t), device=x.device)
    big = s > _cutoff(x, s, rtol)
    s_inv = _where(big, 1.0 / _where(big, s, 1.0), 0.0).astype(s.dtype)
    # V diag(1/S) U^H: the conjugate transposes of Vh and U (their transposes when real).
    v, uh = (vh.mT.conj(), u.mT.conj()) if cplx else (vh.mT, u.mT)
    return matmul(v * s_inv[..., None, :], uh)


def matrix_rank(x: Array, /, *, rtol: float | Array | None = None) -> Array:
    """The number of singular values above rtol times the largest (default max(M, N) * eps),
    for each (..., M, N) matrix.

    Examples
    --------
    >>> int(weft.linalg.matrix_rank(weft.asarray(np.array([[1.0, 2.0], [2.0, 4.0]]))))
    1
    """
    x = _arr(x)
    _need_matrix(x, "matrix_rank")
    s = svdvals(x)
    if s.shape[-1] == 0:
        return asarray(_np.zeros(x.shape[:-2], _np.int64), device=x.device)
    return _sum(s > _cutoff(x, s, rtol), axis=-1)


# ---- norms ----------------------------------------------------------------------------------

def vector_norm(x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False,
                ord: float = 2) -> Array:
    """The vector p-norm over axis (None: all elements): ord 2 (default), 1, inf, -inf, 0 (the
    count of nonzeros) or any other p.

    Examples
    --------
    >>> float(weft.linalg.vector_norm(weft.asarray(np.array([3.0, 4.0]))))
    5.0
    """
    x = _arr(x)
    ft = _norm_dtype(x)
    if axis is None:
        ax: int | tuple[int, ...] | None = tuple(range(x.ndim))
    else:
        ax = axis
    a = _abs(x).astype(ft)
    if ord == 2:
        r = _sqrt(_sum(a * a, axis=ax, keepdims=keepdims))
    elif ord == 1:
        r = _sum(a, axis=ax, keepdims=keepdims)
    elif ord == _math.inf:
        r = amax(a, axis=ax, keepdims=keepdims)
    elif ord == -_math.inf:
        r = amin(a, axis=ax, keepdims=keepdims)
    elif ord == 0:
        r = _sum((x != 0).astype(ft), axis=ax, keepdims=keepdims)
    else:
        r = _sum(a ** ord, axis=ax, keepdims=keepdims) ** (1.0 / ord)
    return r.astype(ft, copy=False)


def matrix_norm(x: Array, /, *, keepdims: bool = False, ord: float | str = "fro") -> Array:
    """The matrix norm of each (..., M, N) matrix: 'fro' (default), 'nuc', 1, -1, 2, -2, inf, -inf.

    Examples
    --------
    >>> float(weft.linalg.matrix_norm(weft.asarray(np.array([[3.0, 0.0], [0.0, 4.0]]))))
    5.0
    """
    x = _arr(x)
    _need_matrix(x, "matrix_norm")
    ft = _norm_dtype(x)
    a = _abs(x).astype(ft)
    if ord == "fro":
        r = _sqrt(_sum(a * a, axis=(-2, -1)))
    elif ord == "nuc":
        r = _sum(svdvals(x), axis=-1)
    elif ord in (1, -1):
        cols = _sum(a, axis=-2)
        r = amax(cols, axis=-1) if ord == 1 else amin(cols, axis=-1)
    elif ord in (_math.inf, -_math.inf):
        rows = _sum(a, axis=-1)
        r = amax(rows, axis=-1) if ord == _math.inf else amin(rows, axis=-1)
    elif ord in (2, -2):
        s = svdvals(x)
        r = amax(s, axis=-1) if ord == 2 else amin(s, axis=-1)
    else:
        raise ValueError(f"matrix_norm: ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, not {ord!r}")
    r = r.astype(ft, copy=False)
    return r[..., None, None] if keepdims else r


def norm(x: Array, ord: float | str | None = None, axis: int | tuple[int, ...] | None = None,
         keepdims: bool = False) -> Array:
    """NumPy's np.linalg.norm: the 2-norm of all elements (ord and axis None), a vector norm over
    one axis (or of a 1-D array), a matrix norm over two axes (or of a 2-D array).

    Examples
    --------
    >>> float(weft.linalg.norm(weft.asarray(np.array([[1.0, 2.0], [2.0, 4.0]]))))
    5.0
    """
    x = _arr(x)
    if axis is None:
        if ord is None:
            return vector_norm(x, axis=None, keepdims=keepdims)
        axis = tuple(range(x.ndim))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if len(axes) == 1:
        if isinstance(ord, str):
            raise ValueError(f"norm: ord {ord!r} is a matrix norm; a vector norm takes a number")
        return vector_norm(x, axis=axes[0], keepdims=keepdims, ord=2 if ord is None else ord)
    if len(axes) != 2:
        raise ValueError(f"norm: axis must name one or two axes, not {axis!r}")
    r0, r1 = (a % x.ndim for a in axes)
    if r0 == r1:
        raise ValueError("norm: the two axes are the same")
    moved = moveaxis(x, (r0, r1), (-2, -1))
    r = matrix_norm(moved, ord="fro" if ord is None else ord)
    if keepdims:
        shape = list(x.shape)
        shape[r0] = shape[r1] = 1
        r = r.reshape(tuple(shape))
    return r
