"""pyopencl.elementwise's name: ``from weft.elementwise import ElementwiseKernel``."""
from ._generators import ElementwiseKernel  # noqa: F401
