"""The types weft's signatures name, for type checkers and the reference (nothing here is
needed at run time: the modules import it under ``typing.TYPE_CHECKING``)."""
from __future__ import annotations

from typing import Sequence, SupportsIndex, Union

from numpy.typing import ArrayLike, DTypeLike

from ._array import Array
from ._weft import Context, Device, Queue

#: What ``device=`` takes: a Device, a Queue or Context (its device), a selector such as
#: ``"host"`` or ``"cuda:0"``, or None for the current device.
DeviceLike = Union[Device, Queue, Context, str, None]

#: A shape: one size or a sequence of them.
ShapeLike = Union[SupportsIndex, Sequence[SupportsIndex]]

#: An operand that must be a weft.Array (a reduction's, a product's).
ArrayOperand = Array

__all__ = ["ArrayLike", "ArrayOperand", "DTypeLike", "DeviceLike", "ShapeLike"]
