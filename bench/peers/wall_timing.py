"""Wall-clock timing shared by the CPU peers of `weft bench`."""
import statistics
import time


def timed(fn, repeat, warmup=2):
    """Runs fn warmup times untimed, then repeat times; returns (median, min) in seconds."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times)
