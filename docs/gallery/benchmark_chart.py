"""The benchmark chart: `weft bench` runs the core suites on the host backend beside NumPy
(the peers found installed) and draws the chart that `--plot` makes. Small sizes, so that the
site builds in seconds; docs/PERFORMANCE.md has the full-size figures per machine."""
import json
import subprocess
import sys

subprocess.run([sys.executable, "-m", "weft", "bench", "vadd", "reduce", "scan", "array-expr",
                "--device", "host", "--n", "2^20", "--repeat", "5", "--compare", "--python", sys.executable,
                "--json", "bench.json", "--plot", "benchmark_chart.png"],
               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

with open("bench.json") as f:
    records = json.load(f)
for r in records:
    if r["n"] > 16:
        print(f"{r['suite']:<11} {r['method']:<45} {r['seconds_median'] * 1e6:10.1f} us")
