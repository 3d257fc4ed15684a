"""The host backend's first results of new expressions (WEFT_HOST_PREBUILT, on by default:
prebuilt kernels, expressions evaluated one operation at a time while their own kernel
compiles) are the same bytes as those of the compiled kernels (WEFT_HOST_PREBUILT=0), each
way in a fresh process with an empty program cache."""
import os
import subprocess
import sys
import textwrap

import pytest

import weft

SCRIPT = textwrap.dedent('''
    import hashlib
    import numpy as np
    import weft

    dev = weft.Device("host")
    n = 1537
    t = np.arange(n)
    a = weft.asarray((t % 17 * 0.1 - 0.8).astype(np.float32), device=dev)
    b = weft.asarray(((t * 7) % 19 * 0.37 - 3.1).astype(np.float32), device=dev)
    c = weft.asarray((2.0 + t % 5).astype(np.float32), device=dev)
    x = weft.asarray(t % 13 * 0.25 + 0.5, device=dev)
    y = weft.asarray((t * 11) % 29 * -0.125 + 1.0 / 3.0, device=dev)
    i = weft.asarray((t % 23 - 11).astype(np.int32), device=dev)
    j = weft.asarray(((t * 5) % 31 - 7).astype(np.int32), device=dev)
    k = weft.asarray(t.astype(np.int64) * 1000003 - 77, device=dev)
    p = weft.asarray(t % 3 == 0, device=dev)
    cases = [
        lambda: a * b + c, lambda: weft.sin(a) + weft.cos(b), lambda: weft.sqrt(abs(a)) * 2,
        lambda: weft.where(a > b, a, c), lambda: weft.exp(a) - b / c, lambda: weft.maximum(a, b) * c,
        lambda: weft.floor(a * 10) % 3, lambda: weft.clip(a, -0.5, 0.5), lambda: i * j + 3,
        lambda: (i & j) | 5, lambda: i // 7 - j % 5, lambda: x * y + x,
        lambda: weft.hypot(x, y) - weft.arctan2(y, x), lambda: x + i, lambda: k * 3 - k // 7,
        lambda: weft.where(p, x, -y) * 2, lambda: (a > 0) & p, lambda: a * i - b,
        lambda: weft.tanh(x) * weft.exp(-y) + weft.log(abs(x) + 1), lambda: c ** 3 - b * b,
        lambda: (a * b).sum(), lambda: (x - y).max(), lambda: i.min(), lambda: (i * j).sum(),
        lambda: a + b, lambda: weft.sin(x), lambda: x.sum(), lambda: j.sum(),
    ]
    for f in cases:
        v = np.asarray(f())
        print(v.dtype, hashlib.sha256(v.tobytes()).hexdigest())
''')


def run(tmp_path, prebuilt):
    cache = tmp_path / ("cache-" + prebuilt)
    env = dict(os.environ, WEFT_CACHE_DIR=str(cache), WEFT_HOST_PREBUILT=prebuilt, WEFT_LOG="debug")
    r = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-4000:]
    return r.stdout.splitlines(), r.stderr


@pytest.mark.skipif("host" not in [d.selector for d in weft.devices()], reason="no host device")
def test_first_results_on_prebuilt_code_equal_the_compiled_kernels(tmp_path):
    fast, log = run(tmp_path, "1")
    compiled, log_compiled = run(tmp_path, "0")
    assert len(fast) == 28
    assert fast == compiled
    # The fast process really ran prebuilt code, and the other never did.
    assert "starts prebuilt" in log
    assert "starts prebuilt" not in log_compiled
