#!/usr/bin/env python3
"""Draws `weft bench --plot FILE`: one panel per suite, a horizontal bar per method and device,
its length the speed-up over the slowest of the suite at the same size n (a log axis when the
spread is wide), labelled with the time.

Usage: plot.py RESULTS.json OUT.png
"""
import json
import sys


def main():
    results, out = sys.argv[1], sys.argv[2]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        print("weft bench --plot needs matplotlib: pip install matplotlib", file=sys.stderr)
        return 3
    with open(results) as f:
        records = [r for r in json.load(f) if r.get("seconds_median", 0) > 0]
    suites = []
    for r in records:
        if r["suite"] not in suites:
            suites.append(r["suite"])
    heights = [max(1, sum(1 for r in records if r["suite"] == s)) for s in suites]
    fig, axes = plt.subplots(len(suites), 1, figsize=(11, 0.45 * sum(heights) + 1.2 * len(suites)),
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    for ax, suite in zip(axes[:, 0], suites):
        rows = [r for r in records if r["suite"] == suite]
        slowest = {n: max(r["seconds_median"] for r in rows if r["n"] == n) for n in {r["n"] for r in rows}}
        labels = [f'{r["method"]} [{r["device"]}, n={r["n"]}]' for r in rows]
        speedups = [slowest[r["n"]] / r["seconds_median"] for r in rows]
        def color(method):
            if method.lower().startswith(("numpy", "pyopencl", "cupy", "matplotlib", "c++")):
                return "#999999"  # a peer
            return "#9ecae1" if "ceiling" in method else "#1f77b4"
        colors = [color(r["method"]) for r in rows]
        bars = ax.barh(range(len(rows)), speedups, color=colors)
        ax.set_yticks(range(len(rows)), labels, fontsize=8)
        ax.invert_yaxis()
        if max(speedups) > 20:  # a log axis only when the spread needs one
            ax.set_xscale("log")
            ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}x"))
        ax.set_title(f"{suite}: speed-up over the slowest of the same n (weft blue, ceilings light blue, peers grey)",
                     fontsize=10)
        for bar, r in zip(bars, rows):
            t = r["seconds_median"]
            text = f"{t * 1e3:.3g} ms" if t >= 1e-3 else f"{t * 1e6:.3g} us"
            ax.text(bar.get_width(), bar.get_y() + bar.get_height() / 2, " " + text, va="center", fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
