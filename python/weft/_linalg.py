"""Products of arrays: NumPy's matmul, by the device's BLAS library (weft::matmul in C++:
src/linalg/matmul.cpp) or weft's fused reduction where none serves."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _weft

if TYPE_CHECKING:
    from ._array import Array


def matmul(a: Array | Any, b: Array | Any) -> Array:
    """NumPy's matmul: 1-D operands as a row or a column (that dimension removed from the
    result), stacks of matrices (more than two dimensions, the leading ones broadcast). float32
    and float64 products run on the device's BLAS library (OpenBLAS, CLBlast, cuBLAS), others
    (and any where the library is absent) as one fused reduction, exact for integers."""
    from ._array import Array as _Array
    from ._creation import asarray
    if not isinstance(a, _Array):
        a = asarray(a, device=b.device) if isinstance(b, _Array) else asarray(a)
    if not isinstance(b, _Array):
        b = asarray(b, device=a.device)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: an operand is 0-d (use * for scalars)")
    return _weft._matmul(a, b)
