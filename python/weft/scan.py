"""pyopencl.scan's names: ``from weft.scan import GenericScanKernel`` (and the inclusive and
exclusive scan kernels).

Examples
--------
>>> from weft.scan import GenericScanKernel, InclusiveScanKernel
>>> InclusiveScanKernel is weft.InclusiveScanKernel
True
"""
from ._generators import ExclusiveScanKernel, GenericScanKernel, InclusiveScanKernel  # noqa: F401
