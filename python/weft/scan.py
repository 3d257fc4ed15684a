"""pyopencl.scan's names: ``from weft.scan import GenericScanKernel`` (and the inclusive and
exclusive scan kernels)."""
from ._generators import ExclusiveScanKernel, GenericScanKernel, InclusiveScanKernel  # noqa: F401
