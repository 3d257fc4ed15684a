"""pyopencl.scan's names: ``from weft.scan import GenericScanKernel`` (and the inclusive and
exclusive scan kernels).

Examples
--------
>>> from weft.scan import GenericScanKernel, InclusiveScanKernel
>>> InclusiveScanKernel is weft.InclusiveScanKernel
True
"""
# (re-exported: "x as x" says so to type checkers)
from ._generators import (
    ExclusiveScanKernel as ExclusiveScanKernel,
    GenericScanKernel as GenericScanKernel,
    InclusiveScanKernel as InclusiveScanKernel,
)
