#!/usr/bin/env python3
"""Summarises WEFT_STAGING_TRACE=1 output (src/runtime/staging_trace.hpp): where each staged
copy's time went beyond its DMA. Usage: scripts/staging-trace-summary.py TRACE.txt [...]

Per copy (all times in microseconds from the copy's entry into its stager):
  end       every DMA done (CUDA: device event of the last chunk; OpenCL: completion callback)
  dma_busy  the sum of the chunks' DMA times (CUDA; OpenCL: unknown, reported as -)
  dma_idle  end - dma_busy: when the copy engine had nothing of this copy to move
  first_dma when the first chunk's DMA started (CUDA) or was queued (OpenCL)
  wake      the first chunk's pool wake-up: first slice taken by a pool thread - job queued
  seen_lag  the sum over chunks of (the stager saw the memcpy/DMA done - it was done)
  reuse     the sum of the waits for a pinned buffer's previous DMA
  GB/s      per-chunk host memcpy rates (len / (done - first taken)), first chunks first

Example:
    WEFT_STAGING_TRACE=1 build/tools/weft bench transfer --device cuda:0 --n 67108864 2> t.txt
    scripts/staging-trace-summary.py t.txt
"""
from __future__ import annotations

import re
import statistics
import sys

HEAD = re.compile(r"weft staging trace: (\w+) (upload|download) of (\d+) B in (\d+) chunks, (\d+) memcpy threads: "
                  r"returned at (-?[\d.]+) us, every DMA seen done at (-?[\d.]+) us")
FIELD = re.compile(r"(\w+)=(-?[\d.]+)")


def parse(path: str) -> list[dict[str, object]]:
    copies: list[dict[str, object]] = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = HEAD.search(line)
            if m:
                copies.append({"backend": m[1], "dir": m[2], "bytes": int(m[3]), "threads": int(m[5]),
                               "returned": float(m[6]), "all_done": float(m[7]), "chunks": []})
            elif line.startswith("  #") and copies:
                # memcpy: and dma: sections share names (queued): keep them apart
                line = re.sub(r"reuse=(-?[\d.]+?)\.\.(-?[\d.]+)", r"reuse_begin=\1 reuse_end=\2", line)
                head, _, rest = line.partition(" memcpy: ")
                mem, _, dma = rest.partition(" dma: ")
                c: dict[str, float] = {k: float(v) for k, v in FIELD.findall(head)}
                c.update({"m_" + k: float(v) for k, v in FIELD.findall(mem)})
                c.update({"d_" + k: float(v) for k, v in FIELD.findall(dma)})
                chunks = copies[-1]["chunks"]
                assert isinstance(chunks, list)
                chunks.append(c)
    return copies


def summary(copy: dict[str, object]) -> dict[str, float]:
    chunks = copy["chunks"]
    assert isinstance(chunks, list)
    ends = [c["d_end"] for c in chunks if c["d_end"] >= 0]
    starts = [c["d_start"] for c in chunks if c["d_start"] >= 0]
    end = max(ends) if ends else float(copy["all_done"])  # type: ignore[arg-type]
    busy = sum(c["d_end"] - c["d_start"] for c in chunks) if len(starts) == len(chunks) else float("nan")
    first = chunks[0]
    return {
        "end": end,
        "dma_busy": busy,
        "dma_idle": end - busy,
        "first_dma": first["d_start"] if first["d_start"] >= 0 else first["d_queued"],
        "wake": first["m_worker"] - first["m_queued"] if first["m_worker"] >= 0 else float("nan"),
        "seen_lag": sum(max(0.0, c["m_seen"] - (c["m_done"] if copy["dir"] == "upload" else c["d_end"]))
                        for c in chunks if c["m_seen"] >= 0),
        "reuse": sum(c["reuse_end"] - c["reuse_begin"] for c in chunks),
    }


def main(paths: list[str]) -> None:
    for path in paths:
        print(f"# {path}")
        groups: dict[tuple[str, str, int], list[dict[str, float]]] = {}
        for copy in parse(path):
            s = summary(copy)
            chunks = copy["chunks"]
            assert isinstance(chunks, list)
            rates = [c["len"] / max(1e-3, c["m_done"] - c["m_first"]) / 1e3 for c in chunks]
            key = (str(copy["backend"]), str(copy["dir"]), int(copy["bytes"]))  # type: ignore[call-overload]
            groups.setdefault(key, []).append(s)
            print(f"{key[0]} {key[1]} {key[2] >> 20} MiB: " + " ".join(f"{k}={v:.1f}" for k, v in s.items()) +
                  " GB/s=" + ",".join(f"{r:.0f}" for r in rates))
        for key, rows in groups.items():
            med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
            print(f"median of {len(rows)}: {key[0]} {key[1]} {key[2] >> 20} MiB: " +
                  " ".join(f"{k}={v:.1f}" for k, v in med.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
