"""Host backend latency of small expressions (a * 2 + 1, then get) back to back and after a
200 us pause, at 10^3..10^5 elements: the cost of waking the host pool and queue.

    python3 bench/peers/host_latency_probe.py
"""
import time, statistics, numpy as np, weft
d = weft.Device("host")
for n in (1000, 10000, 100000):
    a = weft.asarray(np.ones(n, np.float32), device=d)
    for gap in (0, 200e-6):
        t = []
        for i in range(300):
            if gap: time.sleep(gap)
            t0 = time.perf_counter(); b = a * 2 + 1; b.get(); t.append(time.perf_counter() - t0)
        print(f"n={n} gap={gap*1e6:.0f}us: median {statistics.median(t)*1e6:.1f} us")
