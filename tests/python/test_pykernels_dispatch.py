"""The launch plans of @weft.kernel calls (python/weft/_pyk_dispatch.py): a repeated call with
the same signature reuses its plan, and every signature change (dtypes, layout, Python and NumPy
numbers, bools) takes its own translation, with the results of a first call."""
import numpy as np

import weft


@weft.kernel
def fill(a, v, flag):
    i = weft.global_id(0)
    a[i] = v * 2 if flag else v


def test_signatures_get_plans_of_their_own(device):
    q = weft.Queue(device)
    x = weft.zeros(4, np.float32, device=device)
    for v, flag, want in [(1.5, True, 3.0), (1.5, False, 1.5), (np.float32(2.5), True, 5.0), (7, np.bool_(False), 7.0),
                          (7, True, 14.0), (2.5, 1, 5.0)]:
        fill(q, (4,), None, x, v, flag).wait()
        np.testing.assert_array_equal(x.get(), np.full(4, want, np.float32))
    y = weft.zeros(8, np.int64, device=device)
    fill(q, (4,), None, y[::2], 3, True).wait()  # a strided view: its own plan
    np.testing.assert_array_equal(y.get(), [6, 0, 6, 0, 6, 0, 6, 0])
    fill(q, (4,), None, y[:4], 5, False).wait()
    np.testing.assert_array_equal(y.get(), [5, 5, 5, 5, 6, 0, 6, 0])
    assert sum(1 for _, d in fill._plans if d == device) == 7  # (float32 array: float, np.float32, int x bool/np.bool_/int flags; views)


def test_plan_refuses_out_of_range_numbers_like_the_first_call(device):
    q = weft.Queue(device)
    x = weft.zeros(2, np.int8, device=device)

    @weft.kernel
    def put(a, v: np.int8):
        a[weft.global_id(0)] = v

    put(q, (2,), None, x, 5).wait()
    for _ in range(2):  # the first without a plan, then with one
        try:
            put(q, (2,), None, x, 300)
        except (OverflowError, TypeError, ValueError, weft.Error):
            pass
        else:
            raise AssertionError("300 is not an int8")
    np.testing.assert_array_equal(x.get(), [5, 5])
