"""pyopencl.elementwise's name: ``from weft.elementwise import ElementwiseKernel``.

Examples
--------
>>> from weft.elementwise import ElementwiseKernel
>>> ElementwiseKernel is weft.ElementwiseKernel
True
"""
from ._generators import ElementwiseKernel as ElementwiseKernel  # (re-exported: "x as x" says so)
