"""weft.random: Random123's known answers, the documented layout of the stream (checked
against the raw Philox words), the same numbers on every device, loose statistics, NumPy's
names and keywords, and the errors bad requests get."""
import numpy as np
import pytest

import weft
from weft.random import Generator, default_rng

# Random123's tests/kat_vectors (github.com/DEShawResearch/random123, commit 9545ff64), the
# "philox4x32 10" lines: counter words, key words, the words philox gives.
KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8)),
    ((0xffffffff,) * 4, (0xffffffff,) * 2, (0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd)),
    ((0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344), (0xa4093822, 0x299f31d0),
     (0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1)),
]

HOST = weft.Device("host")


@pytest.mark.parametrize("counter,key,expected", KAT)
def test_known_answers(device, counter, key, expected):
    g = Generator(key[0] | key[1] << 32)
    g.counter = counter
    assert tuple(np.asarray(g.random_raw(4, device=device))) == expected
    assert g.counter != counter  # moved past the block


def raw_words(seed, count, counter=(0, 0, 0, 0)):
    g = Generator(seed)
    g.counter = counter
    return np.asarray(g.random_raw(count, device=HOST)).astype(np.uint64)


def test_floats_are_the_top_bits_of_the_words(device):
    n = 1001
    words = raw_words(7, 2 * n)
    f = np.asarray(default_rng(7).random(n, dtype=np.float32, device=device))
    assert f.dtype == np.float32
    np.testing.assert_array_equal(f, ((words[:n] >> np.uint64(8)).astype(np.float32) * np.float32(2.0 ** -24)))
    if device.fp64:
        d = np.asarray(default_rng(7).random(n, device=device))
        x = words[0:2 * n:2] | (words[1:2 * n:2] << np.uint64(32))
        np.testing.assert_array_equal(d, (x >> np.uint64(11)).astype(np.float64) * 2.0 ** -53)


def test_integers_follow_the_formula(device):
    n = 301
    words = [int(w) for w in raw_words(11, 4 * ((n + 1) // 2))]
    got = np.asarray(default_rng(11).integers(-7, 1000, size=n, dtype=np.int16, device=device))
    assert got.dtype == np.int16
    want = [-7 + ((words[2 * i] | words[2 * i + 1] << 32) * 1007 >> 64) for i in range(n)]
    assert got.tolist() == want


def test_same_numbers_on_every_device(device):
    def draws(dev):
        g = default_rng(2026)
        out = [g.random_raw(999, device=dev), g.random(999, dtype="float32", device=dev),
               g.uniform(-2, 3, 999, dtype="float32", device=dev),
               g.integers(0, 10, 999, dtype="uint8", device=dev), g.integers(-(2 ** 40), 2 ** 40, 999, device=dev),
               g.integers(2 ** 64, size=999, dtype="uint64", device=dev)]
        out += [g.normal(1, 2, 999, dtype="float32", device=dev), g.exponential(3, 999, dtype="float32", device=dev)]
        if dev.fp64:
            out += [g.random(999, device=dev), g.uniform(5, 6, 999, device=dev), g.standard_normal(999, device=dev),
                    g.standard_exponential(999, device=dev)]
        return [np.asarray(a) for a in out]

    for got, want in zip(draws(device), draws(HOST)):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_normal_and_exponential_are_accurate(device):
    """Box-Muller and -log(u) from weft's polynomials, against NumPy's log, sqrt, sin and cos
    applied to the same words."""
    n = 1000
    words = raw_words(8, 2 * n if device.fp64 else n)
    z = np.asarray(default_rng(8).standard_normal(n, dtype="float32", device=device)).astype(np.float64)
    u1 = ((words[0:n:2] >> np.uint64(8)) + np.uint64(1)).astype(np.float64) * 2.0 ** -24
    t = 2 * np.pi * (words[1:n:2] >> np.uint64(8)).astype(np.float64) * 2.0 ** -24
    r = np.sqrt(-2 * np.log(u1))
    np.testing.assert_allclose(z[0::2], r * np.cos(t), rtol=0, atol=2e-6 * max(1, r.max()))
    np.testing.assert_allclose(z[1::2], r * np.sin(t), rtol=0, atol=2e-6 * max(1, r.max()))
    if device.fp64:
        e = np.asarray(default_rng(8).standard_exponential(n, device=device))
        x = words[0:2 * n:2] | (words[1:2 * n:2] << np.uint64(32))
        want = -np.log(((x >> np.uint64(11)) + np.uint64(1)).astype(np.float64) * 2.0 ** -53)
        np.testing.assert_allclose(e, want, rtol=4 * np.finfo(np.float64).eps, atol=1e-300)


def test_statistics(device):
    g = default_rng(5)
    m = 1 << 16
    u = np.asarray(g.random(m, dtype="float32", device=device))
    assert u.min() >= 0 and u.max() < 1
    assert abs(u.mean() - 0.5) < 0.01 and abs(u.var() - 1 / 12) < 0.005
    z = np.asarray(g.normal(3, 0.5, m, dtype="float32", device=device)).astype(np.float64)
    assert abs(z.mean() - 3) < 0.01 and abs(z.var() - 0.25) < 0.01
    e = np.asarray(g.exponential(2, m, dtype="float32", device=device)).astype(np.float64)
    assert e.min() >= 0 and abs(e.mean() - 2) < 0.06 and abs(e.var() - 4) < 0.3
    k = np.asarray(g.integers(1, 7, m, device=device))
    counts = np.bincount(k, minlength=7)[1:]
    assert counts.sum() == m and k.min() >= 1 and k.max() <= 6
    chi2 = ((counts - m / 6) ** 2 / (m / 6)).sum()
    assert chi2 < 35  # 5 degrees of freedom: beyond p = 1e-5


def test_numpy_names_and_shapes(device):
    g = default_rng(1)
    assert default_rng(g) is g
    a = g.standard_normal(size=(3, 4), dtype=np.float32, device=device)
    assert isinstance(a, weft.Array) and a.shape == (3, 4) and a.dtype == np.float32
    assert g.random(device=device).shape == ()
    assert g.standard_exponential((2, 0), dtype="float32", device=device).shape == (2, 0)
    assert g.integers(5, device=device).dtype == np.int64
    assert set(np.asarray(g.integers(2, size=100, dtype=bool, device=device)).tolist()) <= {False, True}
    ends = np.asarray(g.integers(0, 3, size=1000, dtype="uint32", endpoint=True, device=device))
    assert ends.min() == 0 and ends.max() == 3
    h = Generator(9).advance(10)
    assert h.counter == (10, 0, 0, 0)


def test_calls_continue_the_stream(device):
    a, b = default_rng(77), default_rng(77)
    first = np.asarray(a.random(8, dtype="float32", device=device))
    second = np.asarray(a.random(8, dtype="float32", device=device))
    np.testing.assert_array_equal(np.concatenate([first, second]),
                                  np.asarray(b.random(16, dtype="float32", device=device)))


@pytest.mark.parametrize("call,needle", [
    (lambda g, d: g.integers(5, 5, size=3, device=d), "low >= high"),
    (lambda g, d: g.integers(3, 2, size=3, endpoint=True, device=d), "low > high"),
    (lambda g, d: g.integers(-1, 5, size=3, dtype="uint8", device=d), "low is out of bounds for uint8"),
    (lambda g, d: g.integers(0, 2 ** 64 + 1, size=3, dtype="uint64", device=d), "high is out of bounds for uint64"),
    (lambda g, d: g.integers(0, 300, size=3, dtype="int8", device=d), "high is out of bounds for int8"),
    (lambda g, d: g.integers(0, 3, size=3, dtype="float32", device=d), "dtype must be an integer type"),
    (lambda g, d: g.random(3, dtype="int32", device=d), "dtype must be float32 or float64"),
    (lambda g, d: g.normal(0, -1, 3, device=d), "scale must be non-negative"),
    (lambda g, d: g.exponential(-1, 3, device=d), "scale must be non-negative"),
    (lambda g, d: g.uniform(0, float("inf"), 3, device=d), "high must be finite"),
    (lambda g, d: g.random(2 ** 61, device=d), "size"),
])
def test_bad_requests_name_the_argument(device, call, needle):
    g = default_rng(0)
    with pytest.raises(weft.InvalidArgument, match=needle):
        call(g, device)
    assert g.counter == (0, 0, 0, 0)


def test_bad_python_arguments():
    g = default_rng(0)
    with pytest.raises(TypeError, match="low must be a real number"):
        g.uniform("0", 1.0, 3)  # (arrays are taken: tests/python/test_random_params.py)
    with pytest.raises(TypeError, match="high must be an integer"):
        g.integers(0, 2.5, 3)
    with pytest.raises(TypeError, match="size must be"):
        g.random(size=1.5)
    with pytest.raises(TypeError, match="out= is not supported"):
        g.random(3, out=np.zeros(3))
    with pytest.raises(ValueError, match="seed must be in"):
        Generator(-1)
    with pytest.raises(TypeError, match="seed must be an int"):
        Generator(1.5)
    assert 0 <= Generator().seed < 2 ** 64


def test_permutation_and_shuffle(device):
    rng = default_rng(7)
    p = rng.permutation(1000, device=device)
    assert p.dtype == np.int64 and p.device == device
    got = p.get()
    assert sorted(got.tolist()) == list(range(1000)) and not np.array_equal(got, np.arange(1000))
    # The order comes from the stream and a stable sort: the same on every device.
    np.testing.assert_array_equal(got, default_rng(7).permutation(1000, device=weft.devices()[0]).get())
    assert rng.permutation(0, device=device).shape == (0,)
    x = np.arange(60).reshape(20, 3)
    a = weft.asarray(x, device=device)
    rows = rng.permutation(a).get()
    assert sorted(map(tuple, rows)) == sorted(map(tuple, x)) and not np.array_equal(rows, x)
    cols = rng.permutation(a, axis=-1).get()
    np.testing.assert_array_equal(np.sort(cols, axis=1), x)  # each row's own values, moved together
    assert len({tuple(np.argsort(r)) for r in cols}) == 1
    rng.shuffle(a)
    shuffled = a.get()
    assert sorted(map(tuple, shuffled)) == sorted(map(tuple, x)) and not np.array_equal(shuffled, x)
    with pytest.raises(TypeError, match="weft.asarray"):
        rng.permutation(x)
    with pytest.raises(ValueError, match="non-negative"):
        rng.permutation(-1)
    with pytest.raises(weft.InvalidArgument, match="axis"):
        rng.shuffle(a, axis=2)
