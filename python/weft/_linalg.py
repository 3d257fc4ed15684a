"""Products of arrays: NumPy's matmul (stacks of matrices as one fused reduction)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as _np

from . import _weft

if TYPE_CHECKING:
    from ._array import Array


def matmul(a: Array, b: Array) -> Array:
    """NumPy's matmul: 1-D and 2-D operands through dot; stacks of matrices (more than two
    dimensions, the leading ones broadcast together) as one fused reduction of the broadcast
    products over the shared dimension, no temporary (a 1-D operand is a row or a column whose
    dimension is removed from the result)."""
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: an operand is 0-d (use * for scalars)")
    if a.ndim <= 2 and b.ndim <= 2:
        return _weft._dot(a, b)
    rows, cols = (a[None, :] if a.ndim == 1 else a), (b[:, None] if b.ndim == 1 else b)
    if rows.shape[-1] != cols.shape[-2]:
        raise ValueError(f"matmul: the first operand's last dimension ({rows.shape[-1]}) differs from the second's "
                         f"dimension before last ({cols.shape[-2]}); shapes {a.shape} and {b.shape}")
    try:
        _np.broadcast_shapes(rows.shape[:-2], cols.shape[:-2])
    except ValueError:
        raise ValueError(f"matmul: the stack dimensions of shapes {a.shape} and {b.shape} do not broadcast "
                         "together") from None
    dtype = _np.result_type(a.dtype, b.dtype)
    products = rows[..., :, :, None] * cols[..., None, :, :]
    r = _weft._reduce("any" if dtype == _np.bool_ else "sum", products, -2, False).astype(dtype, copy=False)
    if a.ndim == 1:
        r = r[..., 0, :]
    if b.ndim == 1:
        r = r[..., 0]
    return r
