"""weft.linalg, weft.matmul/@, tensordot, vecdot and matrix_transpose against NumPy on every
device: float32 and float64, stacks that broadcast, transposed and strided views, integer
products (exact), and NumPy's errors (LinAlgError for singular, non-square and not positive
definite matrices). np.linalg.* called on weft arrays dispatches to weft."""
import numpy as np
import pytest

import weft

RTOL = {np.float32: 2e-4, np.float64: 1e-10}
FLOATS = [np.float32, np.float64]


def rand(shape, dtype, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype)


def spd(n, dtype, batch=(), seed=0):
    m = rand((*batch, n, n), np.float64, seed)
    return (m @ np.swapaxes(m, -1, -2) + n * np.eye(n)).astype(dtype)


def close(got, want, dtype, scale=1.0):
    got = got.get() if isinstance(got, weft.Array) else np.asarray(got)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=RTOL[dtype], atol=RTOL[dtype] * scale)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shapes", [((25, 37), (37, 19)), ((2, 1, 24, 16), (3, 16, 20)), ((40,), (40, 300)),
                                    ((300, 40), (40,)), ((5000,), (5000,)), ((2, 30, 40), (40,)), ((5, 7), (7, 3)),
                                    ((2, 1, 3, 4), (3, 4, 2))])
def test_matmul_matches_numpy(device, dtype, shapes):
    a, b = rand(shapes[0], dtype, 1), rand(shapes[1], dtype, 2)
    wa, wb = weft.asarray(a, device=device), weft.asarray(b, device=device)
    want = a @ b
    for got in (wa @ wb, weft.matmul(wa, wb), weft.linalg.matmul(wa, wb), np.matmul(wa, wb)):
        assert got.dtype == want.dtype
        close(got, want, dtype, 4)


@pytest.mark.parametrize("dtype", FLOATS)
def test_matmul_transposed_and_strided_views(device, dtype):
    # Sizes above the library's threshold (m * n * k >= 16**3): BLAS's transpose flags.
    a, b = rand((37, 25), dtype, 3), rand((19, 37), dtype, 4)
    wa, wb = weft.asarray(a, device=device), weft.asarray(b, device=device)
    close(wa.T @ wb.T, a.T @ b.T, dtype, 4)
    close(weft.matrix_transpose(wa) @ wa, a.T @ a, dtype, 4)
    wide = rand((25, 74), dtype, 5)
    ww = weft.asarray(wide, device=device)
    close(ww[:, ::2] @ wb.T, wide[:, ::2] @ b.T, dtype, 4)
    close(ww[::-1, 1::2] @ wb.T, wide[::-1, 1::2] @ b.T, dtype, 4)
    stack = rand((3, 20, 24), dtype, 6)
    ws = weft.asarray(stack, device=device)
    close(ws.mT @ ws, np.swapaxes(stack, -1, -2) @ stack, dtype, 4)


def test_matmul_integers_exact_and_promotion(device):
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    b = np.arange(8, dtype=np.int64).reshape(4, 2) - 3
    wa, wb = weft.asarray(a, device=device), weft.asarray(b, device=device)
    got = wa @ wb
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got.get(), a @ b)
    f = weft.asarray(b.astype(np.float32), device=device)
    assert (wa @ f).dtype == np.float64
    np.testing.assert_array_equal((wa @ f).get(), a @ b.astype(np.float32))
    bools = np.array([[True, False], [False, False]])
    wbool = weft.asarray(bools, device=device)
    np.testing.assert_array_equal((wbool @ wbool).get(), bools @ bools)
    with pytest.raises(ValueError):
        wa @ wa
    z = weft.asarray(np.zeros((2, 0), np.float32), device=device) @ weft.asarray(np.zeros((0, 3), np.float32), device=device)
    np.testing.assert_array_equal(z.get(), np.zeros((2, 3), np.float32))


def test_matmul_library_is_named(device):
    lib = weft._weft._matmul_library(device)
    assert isinstance(lib, str)
    if device.backend == "host":
        assert lib.startswith("CBLAS ")  # libopenblas0-pthread is installed by scripts/install-deps.sh


@pytest.mark.parametrize("dtype", FLOATS)
def test_tensordot_vecdot(device, dtype):
    a, b = rand((2, 3, 4), dtype, 7), rand((3, 4, 5), dtype, 8)
    wa, wb = weft.asarray(a, device=device), weft.asarray(b, device=device)
    close(weft.tensordot(wa, wb, axes=2), np.tensordot(a, b, axes=2), dtype, 8)
    close(weft.linalg.tensordot(wa, wb, axes=([1, 2], [0, 1])), np.tensordot(a, b, axes=([1, 2], [0, 1])), dtype, 8)
    x, y = rand((3, 4), dtype, 9), rand((4,), dtype, 10)
    wx, wy = weft.asarray(x, device=device), weft.asarray(y, device=device)
    close(weft.vecdot(wx, wy), np.vecdot(x, y), dtype, 4)
    close(weft.linalg.vecdot(wx, wx, axis=0), np.vecdot(x, x, axis=0), dtype, 4)
    with pytest.raises(ValueError):
        weft.vecdot(wx, weft.asarray(rand((3,), dtype), device=device))


@pytest.mark.parametrize("dtype", FLOATS)
def test_solve_inv_det(device, dtype):
    a = spd(4, dtype, (2,), seed=11)
    b = rand((2, 4, 3), dtype, 12)
    v = rand((4,), dtype, 13)
    wa = weft.asarray(a, device=device)
    close(weft.linalg.solve(wa, weft.asarray(b, device=device)), np.linalg.solve(a, b), dtype, 10)
    close(weft.linalg.solve(wa[0], weft.asarray(v, device=device)), np.linalg.solve(a[0], v), dtype, 10)
    close(weft.linalg.inv(wa), np.linalg.inv(a), dtype, 10)
    close(weft.linalg.det(wa), np.linalg.det(a), dtype, 100)
    sign, logdet = weft.linalg.slogdet(wa)
    want = np.linalg.slogdet(a)
    close(sign, want.sign, dtype)
    close(logdet, want.logabsdet, dtype, 10)
    assert weft.linalg.det(wa).dtype == dtype
    # np.linalg on weft arrays dispatches to weft (and returns weft arrays).
    got = np.linalg.solve(wa, weft.asarray(b, device=device))
    assert isinstance(got, weft.Array)
    close(np.linalg.inv(wa), np.linalg.inv(a), dtype, 10)


def test_integer_inputs_compute_in_float64(device):
    a = np.array([[2, 1], [1, 3]])
    wa = weft.asarray(a, device=device)
    assert weft.linalg.inv(wa).dtype == np.float64
    close(weft.linalg.det(wa), np.linalg.det(a), np.float64, 10)


def test_norms_of_complex_take_the_real_type(device):
    a = np.array([[3 + 4j, 1 - 1j], [0, 2j]], dtype=np.complex64)
    wa = weft.asarray(a, device=device)
    for got, want in ((weft.linalg.vector_norm(wa), np.linalg.vector_norm(a)),
                      (weft.linalg.matrix_norm(wa), np.linalg.matrix_norm(a))):
        assert got.dtype == np.float32 == want.dtype
        np.testing.assert_allclose(got.get(), want, rtol=1e-6)


def test_errors_are_numpy_linalg_errors(device):
    sing = weft.asarray(np.array([[1.0, 2.0], [2.0, 4.0]]), device=device)
    for f in (weft.linalg.inv, lambda x: weft.linalg.solve(x, weft.asarray(np.ones(2), device=device))):
        with pytest.raises(weft.LinAlgError, match="Singular matrix"):
            f(sing)
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.inv(sing)
    assert issubclass(weft.LinAlgError, ValueError)
    assert float(weft.linalg.det(sing)) == 0.0
    sign, logdet = weft.linalg.slogdet(sing)
    assert float(sign) == 0.0 and float(logdet) == -np.inf
    with pytest.raises(weft.LinAlgError, match="square"):
        weft.linalg.inv(weft.asarray(np.ones((2, 3)), device=device))
    with pytest.raises(weft.LinAlgError, match="positive definite"):
        weft.linalg.cholesky(weft.asarray(-np.eye(2), device=device))
    with pytest.raises(weft.LinAlgError, match="two-dimensional"):
        weft.linalg.det(weft.asarray(np.ones(3), device=device))


@pytest.mark.parametrize("dtype", FLOATS)
def test_cholesky_eigh(device, dtype):
    a = spd(4, dtype, (3,), seed=14)
    wa = weft.asarray(a, device=device)
    close(weft.linalg.cholesky(wa), np.linalg.cholesky(a), dtype, 10)
    close(weft.linalg.cholesky(wa, upper=True), np.linalg.cholesky(a, upper=True), dtype, 10)
    w, v = weft.linalg.eigh(wa)
    close(w, np.linalg.eigvalsh(a), dtype, 10)
    vv = v.get()
    np.testing.assert_allclose(a @ vv, vv * w.get()[..., None, :], rtol=RTOL[dtype] * 10, atol=RTOL[dtype] * 100)
    close(weft.linalg.eigvalsh(wa), np.linalg.eigvalsh(a), dtype, 10)
    # Only the lower triangle is read (UPLO='L'), as NumPy.
    lower = np.tril(a)
    close(weft.linalg.eigvalsh(weft.asarray(lower, device=device)), np.linalg.eigvalsh(lower), dtype, 10)
    close(weft.linalg.eigvalsh(weft.asarray(np.triu(a), device=device), UPLO="U"),
          np.linalg.eigvalsh(np.triu(a), UPLO="U"), dtype, 10)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
def test_qr_svd(device, dtype, shape):
    a = rand(shape, dtype, 15)
    wa = weft.asarray(a, device=device)
    for mode in ("reduced", "complete"):
        q, r = weft.linalg.qr(wa, mode=mode)
        nq, nr = np.linalg.qr(a, mode=mode)
        assert q.shape == nq.shape and r.shape == nr.shape
        close(q @ r, a, dtype, 10)
        close(np.abs(r.get()), np.abs(nr), dtype, 10)
    close(np.abs(np.linalg.qr(wa, mode="r").get()), np.abs(np.linalg.qr(a, mode="r")), dtype, 10)
    for full in (True, False):
        u, s, vh = weft.linalg.svd(wa, full_matrices=full)
        nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
        assert (u.shape, s.shape, vh.shape) == (nu.shape, ns.shape, nvh.shape)
        close(s, ns, dtype, 10)
        k = s.shape[-1]
        close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, dtype, 10)
    close(weft.linalg.svdvals(wa), np.linalg.svd(a, compute_uv=False), dtype, 10)


@pytest.mark.parametrize("dtype", FLOATS)
def test_norms_pinv_rank_power(device, dtype):
    a = rand((2, 3, 4), dtype, 16)
    wa = weft.asarray(a, device=device)
    close(weft.linalg.vector_norm(wa), np.linalg.vector_norm(a), dtype, 10)
    for ord in (1, 2, np.inf, -np.inf, 0, 3):
        close(weft.linalg.vector_norm(wa, axis=-1, ord=ord), np.linalg.vector_norm(a, axis=-1, ord=ord), dtype, 10)
    for ord in ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
        close(weft.linalg.matrix_norm(wa, ord=ord), np.linalg.matrix_norm(a, ord=ord), dtype, 10)
    close(weft.linalg.matrix_norm(wa, keepdims=True), np.linalg.matrix_norm(a, keepdims=True), dtype, 10)
    close(np.linalg.norm(wa[0]), np.linalg.norm(a[0]), dtype, 10)
    close(np.linalg.norm(wa, axis=1), np.linalg.norm(a, axis=1), dtype, 10)
    close(np.linalg.norm(wa, ord=1, axis=(0, 2)), np.linalg.norm(a, ord=1, axis=(0, 2)), dtype, 10)
    close(weft.linalg.pinv(wa), np.linalg.pinv(a), dtype, 100)
    low = np.array([[1.0, 2.0], [2.0, 4.0]], dtype)
    assert int(weft.linalg.matrix_rank(weft.asarray(low, device=device))) == 1
    assert int(np.linalg.matrix_rank(weft.asarray(a[0], device=device))) == np.linalg.matrix_rank(a[0])
    sq = rand((3, 3), dtype, 17)
    wsq = weft.asarray(sq, device=device)
    for n in (0, 1, 3, -2):
        close(weft.linalg.matrix_power(wsq, n), np.linalg.matrix_power(sq, n), dtype, 1000)


def test_trace_diagonal_outer_cross(device):
    a = np.arange(24.0).reshape(2, 3, 4)
    wa = weft.asarray(a, device=device)
    for off in (0, 1, -1, 5):
        np.testing.assert_array_equal(weft.linalg.diagonal(wa, offset=off).get(), np.linalg.diagonal(a, offset=off))
        np.testing.assert_array_equal(weft.linalg.trace(wa, offset=off).get(), np.linalg.trace(a, offset=off))
    x, y = np.arange(3.0), np.arange(4.0)
    np.testing.assert_array_equal(weft.linalg.outer(weft.asarray(x, device=device), weft.asarray(y, device=device)).get(),
                                  np.outer(x, y))
    u, v = rand((2, 3), np.float64, 18), rand((2, 3), np.float64, 19)
    close(weft.linalg.cross(weft.asarray(u, device=device), weft.asarray(v, device=device)), np.linalg.cross(u, v),
          np.float64)
