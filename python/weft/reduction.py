"""pyopencl.reduction's name: ``from weft.reduction import ReductionKernel``.

Examples
--------
>>> from weft.reduction import ReductionKernel
>>> ReductionKernel is weft.ReductionKernel
True
"""
from ._generators import ReductionKernel as ReductionKernel  # (re-exported: "x as x" says so)
