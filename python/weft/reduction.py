"""pyopencl.reduction's name: ``from weft.reduction import ReductionKernel``."""
from ._generators import ReductionKernel  # noqa: F401
