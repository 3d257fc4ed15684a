"""Device auto from Python: weft.explain (docs/PLACEMENT.md)."""
from __future__ import annotations

from typing import Any

from . import _weft
from ._array import Array


def explain(x: Array, reduction: bool = False) -> dict[str, Any]:
    """Where device auto would run x (its evaluation, or a full reduction of it), and why.

    Decides nothing and runs nothing: the chooser's estimates for each device (launch and sync,
    compute, copies of the inputs in, the result's likely copy out, in seconds, with what was
    learnt online), the work estimate, the device it would choose and the line ``WEFT_LOG=info``
    prints. When an array of x is not automatic (``Array.to_auto``,
    ``asarray(..., device="auto")``), ``automatic`` is False and ``chosen`` is where it runs.

    Parameters
    ----------
    x : weft.Array
        An array, usually a lazy expression of automatic arrays.
    reduction : bool, optional
        Explain a full reduction of x (its value read on the host) rather than its evaluation.

    Returns
    -------
    dict
        ``automatic``, ``pinned`` (a ``with weft.Device(d):`` block decides: ``chosen`` is
        d), ``chosen``, ``text``, ``devices`` (one dict per device: ``device``,
        ``launch_s``, ``compute_s``, ``copy_in_s``, ``copy_out_s``, ``total_s``, and
        ``chain_s``: with the operations that followed it the last time it began a chain,
        the chain's estimate there, else ``total_s``), ``following`` (how many such
        operations the choice counts, 0 when it is decided alone) and, when
        automatic, ``work`` (``elements``, ``bytes_read``, ``bytes_written``, ``ops``,
        ``math_calls`` (math-library functions evaluated, counted in ``ops`` too),
        ``arithmetic``, ``result_to_host``).

    Examples
    --------
    >>> a = weft.asarray(np.ones(1000, np.float32), device="auto")
    >>> why = weft.explain(a * a, reduction=True)
    >>> why["automatic"], why["text"].startswith("sum n=1000:")
    (True, True)
    """
    result: dict[str, Any] = _weft._explain(x, reduction)
    return result
