"""weft.linalg on complex64 and complex128 matrices (LAPACK's c/z routines) against numpy.linalg
on every device: solve, inv, det, slogdet, cholesky and eigh of Hermitian matrices, qr, svd,
svdvals, pinv, matrix_rank, matrix_norm and norm. Tolerances per dtype (complex64 computes in
float32). Singular values, eigenvalues and log |det| are real (float32 for complex64)."""
import numpy as np
import pytest

import weft

RTOL = {np.complex64: 2e-4, np.complex128: 1e-10}
COMPLEX = [np.complex64, np.complex128]
REAL = {np.complex64: np.float32, np.complex128: np.float64}


def crand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)).astype(dtype)


def hpd(n, dtype, batch=(), seed=0):
    """A Hermitian positive-definite matrix (stack): m m^H + n I."""
    m = crand((*batch, n, n), np.complex128, seed)
    return (m @ np.conj(np.swapaxes(m, -1, -2)) + n * np.eye(n)).astype(dtype)


def close(got, want, dtype, scale=1.0):
    got = got.get() if isinstance(got, weft.Array) else np.asarray(got)
    assert got.shape == np.shape(want)
    assert got.dtype == np.asarray(want).dtype, (got.dtype, np.asarray(want).dtype)
    np.testing.assert_allclose(got, want, rtol=RTOL[dtype], atol=RTOL[dtype] * scale)


def H(x):
    return np.conj(np.swapaxes(x, -1, -2))


@pytest.mark.parametrize("dtype", COMPLEX)
def test_solve_inv_det_slogdet(device, dtype):
    a = crand((2, 4, 4), dtype, 1) + 2 * np.eye(4, dtype=dtype)
    b = crand((2, 4, 3), dtype, 2)
    v = crand((4,), dtype, 3)
    wa = weft.asarray(a, device=device)
    close(weft.linalg.solve(wa, weft.asarray(b, device=device)), np.linalg.solve(a, b), dtype, 10)
    close(weft.linalg.solve(wa[0], weft.asarray(v, device=device)), np.linalg.solve(a[0], v), dtype, 10)
    close(weft.linalg.inv(wa), np.linalg.inv(a), dtype, 10)
    close(weft.linalg.det(wa), np.linalg.det(a), dtype, 100)
    sign, logdet = weft.linalg.slogdet(wa)
    want = np.linalg.slogdet(a)
    close(sign, want.sign, dtype, 10)
    close(logdet, want.logabsdet, dtype, 10)
    # A real operand with a complex one promotes as NumPy (float64 with complex64: complex128).
    real_b = np.ones((4, 2))
    got = weft.linalg.solve(wa[0], weft.asarray(real_b, device=device))
    np.testing.assert_allclose(got.get(), np.linalg.solve(a[0], real_b), rtol=RTOL[dtype] * 10)
    assert got.dtype == np.linalg.solve(a[0], real_b).dtype
    # The imaginary parts count: det([[1+i, 2], [3, 4-2i]]) is 2i (a cast to real would give -2).
    k = weft.asarray(np.array([[1 + 1j, 2], [3, 4 - 2j]], dtype), device=device)
    close(weft.linalg.det(k), np.asarray(2j, dtype), dtype)
    sing = weft.asarray(np.array([[1 + 1j, 2 + 2j], [1, 2]], dtype), device=device)
    with pytest.raises(weft.LinAlgError, match="Singular matrix"):
        weft.linalg.inv(sing)
    sign, logdet = weft.linalg.slogdet(sing)
    assert complex(sign) == 0 and float(logdet) == -np.inf


@pytest.mark.parametrize("dtype", COMPLEX)
def test_cholesky_eigh_of_hermitian(device, dtype):
    a = hpd(4, dtype, (3,), seed=4)
    wa = weft.asarray(a, device=device)
    close(weft.linalg.cholesky(wa), np.linalg.cholesky(a), dtype, 10)
    close(weft.linalg.cholesky(wa, upper=True), np.linalg.cholesky(a, upper=True), dtype, 10)
    low = weft.linalg.cholesky(wa).get()
    np.testing.assert_allclose(low @ H(low), a, rtol=RTOL[dtype] * 10, atol=RTOL[dtype] * 100)
    # Only the named triangle is read, as NumPy.
    close(weft.linalg.cholesky(weft.asarray(np.tril(a), device=device)), np.linalg.cholesky(a), dtype, 10)
    w, v = weft.linalg.eigh(wa)
    assert w.dtype == REAL[dtype] and v.dtype == dtype
    close(w, np.linalg.eigvalsh(a), dtype, 10)
    vv = v.get()
    np.testing.assert_allclose(a @ vv, vv * w.get()[..., None, :], rtol=RTOL[dtype] * 10, atol=RTOL[dtype] * 100)
    np.testing.assert_allclose(H(vv) @ vv, np.broadcast_to(np.eye(4), a.shape), atol=RTOL[dtype] * 100)
    for uplo, tri in (("L", np.tril(a)), ("U", np.triu(a))):
        close(weft.linalg.eigvalsh(weft.asarray(tri, device=device), UPLO=uplo),
              np.linalg.eigvalsh(tri, UPLO=uplo), dtype, 10)
        w2, v2 = weft.linalg.eigh(weft.asarray(tri, device=device), UPLO=uplo)
        vv2 = v2.get()
        np.testing.assert_allclose(a @ vv2, vv2 * w2.get()[..., None, :], rtol=RTOL[dtype] * 10,
                                   atol=RTOL[dtype] * 100)


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
def test_qr_svd(device, dtype, shape):
    a = crand(shape, dtype, 5)
    wa = weft.asarray(a, device=device)
    for mode in ("reduced", "complete"):
        q, r = weft.linalg.qr(wa, mode=mode)
        nq, nr = np.linalg.qr(a, mode=mode)
        assert q.shape == nq.shape and r.shape == nr.shape and q.dtype == dtype
        close(q @ r, a, dtype, 10)
        close(np.abs(r.get()), np.abs(nr), dtype, 10)
        qhq = H(q.get()) @ q.get()
        np.testing.assert_allclose(qhq, np.broadcast_to(np.eye(qhq.shape[-1]), qhq.shape), atol=RTOL[dtype] * 100)
    for full in (True, False):
        u, s, vh = weft.linalg.svd(wa, full_matrices=full)
        nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
        assert (u.shape, s.shape, vh.shape) == (nu.shape, ns.shape, nvh.shape)
        assert s.dtype == REAL[dtype] and u.dtype == vh.dtype == dtype
        close(s, ns, dtype, 10)
        k = s.shape[-1]
        close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, dtype, 10)
    close(weft.linalg.svdvals(wa), np.linalg.svd(a, compute_uv=False), dtype, 10)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_pinv_rank_norms(device, dtype):
    a = crand((2, 3, 4), dtype, 6)
    wa = weft.asarray(a, device=device)
    close(weft.linalg.pinv(wa), np.linalg.pinv(a), dtype, 100)
    close(np.linalg.pinv(wa), np.linalg.pinv(a), dtype, 100)
    low = np.array([[1 + 1j, 2 - 1j], [2 + 2j, 4 - 2j]], dtype)  # rank 1
    assert int(weft.linalg.matrix_rank(weft.asarray(low, device=device))) == 1 == np.linalg.matrix_rank(low)
    close(weft.linalg.matrix_rank(wa), np.linalg.matrix_rank(a), dtype)
    for ord in ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
        close(weft.linalg.matrix_norm(wa, ord=ord), np.linalg.matrix_norm(a, ord=ord), dtype, 10)
    close(np.linalg.norm(wa[0]), np.linalg.norm(a[0]), dtype, 10)
    close(np.linalg.norm(wa, ord=2, axis=(1, 2)), np.linalg.norm(a, ord=2, axis=(1, 2)), dtype, 10)


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
@pytest.mark.parametrize("shapes", [((2, 3, 4), (2,)), ((0, 2, 3, 3), (0, 2)), ((0, 1, 1), (0,))])
def test_pinv_rank_take_an_rtol_per_matrix(device, dtype, shapes):
    # An array rtol has the stack's shape (NumPy's rcond[..., newaxis]), empty stacks included.
    xs, rs = shapes
    x = (crand(xs, np.complex64, 7) if dtype == np.complex64 else np.random.default_rng(7).uniform(-1, 1, xs)).astype(dtype)
    r = np.full(rs, 0.3, np.float32)
    wx, wr = weft.asarray(x, device=device), weft.asarray(r, device=device)
    got, want = weft.linalg.pinv(wx, rtol=wr), np.linalg.pinv(x, rtol=r)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(weft.linalg.matrix_rank(wx, rtol=wr).get(), np.linalg.matrix_rank(x, rtol=r))
