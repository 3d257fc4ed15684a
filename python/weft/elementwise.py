"""pyopencl.elementwise's name: ``from weft.elementwise import ElementwiseKernel``.

Examples
--------
>>> from weft.elementwise import ElementwiseKernel
>>> ElementwiseKernel is weft.ElementwiseKernel
True
"""
from ._generators import ElementwiseKernel  # noqa: F401
