"""Ordering between the array layer's queue and the user's queues, as a new user meets it: a
raw kernel on a queue of their own, not waited for, and array work on the same memory (a copy
back to NumPy, a copy between devices) happen in the order they were written."""
import numpy as np
import pytest

import weft

SRC = """
__kernel void inc(__global int *x, int spin) {
    int i = get_global_id(0);
    float v = (float)i;
    for (int k = 0; k < spin; ++k) v = v * 0.999999f + 0.5f;
    x[i] = x[i] + 1 + (v < 0.0f ? 1 : 0);
}
"""


def _others():
    host = weft.Device("host")
    return [d for d in weft.devices() if d != host]


@pytest.mark.parametrize("other", _others(), ids=lambda d: d.selector)
def test_a_raw_kernel_on_the_other_device_is_seen_by_the_host_copy(other):
    # The case from the issue: h on the host, g = h seen from another device, one array
    # operation there (g's copy becomes valid), a raw kernel on a user queue writing g, not
    # waited for, then h read back. The kernel's write must arrive, every time.
    host = weft.Device("host")
    prg = weft.Program(other, SRC).build()
    q = weft.Queue(other)
    for round in range(30):
        x = np.arange(4096, dtype=np.int32) + round
        h = weft.asarray(x, device=host)
        g = h.to(other)
        (g * 1).get()
        prg.inc(q, g.shape, None, g, np.int32(20000))
        np.testing.assert_array_equal(h.get(), x + 1, err_msg=f"round {round}")


def test_array_work_waits_for_a_raw_kernel_on_the_same_device(device):
    prg = weft.Program(device, SRC).build()
    q = weft.Queue(device)
    for round in range(20):
        x = np.arange(4096, dtype=np.int32) * round
        a = weft.asarray(x, device=device)
        prg.inc(q, a.shape, None, a, np.int32(20000))
        np.testing.assert_array_equal((a * 2).get(), 2 * (x + 1))
