"""Zero-copy exchange with CuPy and PyTorch on a CUDA device (skipped where either is missing)."""
import numpy as np
import pytest

import weft

CUDA = [d for d in weft.devices() if d.backend == "cuda"]
pytestmark = pytest.mark.skipif(not CUDA, reason="no CUDA device")


def ptr(a):
    return a.__cuda_array_interface__["data"][0]


def test_cupy_both_ways():
    cp = pytest.importorskip("cupy")
    dev = CUDA[0]
    a = weft.arange(1000, dtype=np.float32, device=dev) * 3  # lazy until shared
    c = cp.asarray(a)  # __cuda_array_interface__: no copy
    assert c.data.ptr == ptr(a)
    np.testing.assert_array_equal(cp.asnumpy(c), np.arange(1000, dtype=np.float32) * 3)
    c[:10] = -1
    cp.cuda.Device().synchronize()
    np.testing.assert_array_equal(a[:10].get(), np.full(10, -1, np.float32))
    x = cp.linspace(0, 1, 257, dtype=cp.float64)[::2]  # a strided view
    w = weft.asarray(x)
    assert w.device == dev and ptr(w) == x.data.ptr and w.shape == (129,)
    np.testing.assert_allclose((w * 2).get(), cp.asnumpy(x) * 2)
    d = weft.from_dlpack(cp.arange(10, dtype=cp.int32))
    np.testing.assert_array_equal(d.get(), np.arange(10, dtype=np.int32))
    back = cp.from_dlpack(a)
    assert back.data.ptr == ptr(a)


def test_torch_both_ways():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no CUDA device")
    dev = CUDA[0]
    t = torch.arange(12, dtype=torch.float32, device="cuda").reshape(3, 4)
    w = weft.from_dlpack(t)
    assert w.device == dev and ptr(w) == t.data_ptr()
    np.testing.assert_array_equal((w + 1).get(), t.cpu().numpy() + 1)
    w[0] = 7
    weft.synchronize(dev)
    assert float(t[0, 0]) == 7
    a = weft.ones((2, 5), np.float64, device=dev) / 4
    u = torch.from_dlpack(a)
    assert u.data_ptr() == ptr(a) and u.device.type == "cuda"
    assert float(u.sum()) == 2.5
    v = torch.as_tensor(weft.arange(4, dtype=np.int64, device=dev), device="cuda")  # via the interface
    assert v.tolist() == [0, 1, 2, 3]
