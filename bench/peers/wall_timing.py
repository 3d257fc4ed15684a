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


def timed_runs(fn, repeat, warmup=1, deadline=None):
    """Runs fn warmup times untimed, then up to repeat times, starting no run after deadline
    (a time.perf_counter() value; None: no limit) once one has been timed. Returns the list of
    the timed runs' seconds (at least one)."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(max(1, repeat)):
        if times and deadline is not None and time.perf_counter() >= deadline:
            break
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times
