#!/usr/bin/env python3
"""Pass/fail counts per test file of pytest JUnit XML reports (scripts/array-api-tests.sh).

    python3 scripts/junit-summary.py build/array-api-tests/weft-host.xml
    python3 scripts/junit-summary.py weft-host.xml weft-opencl_cpu.xml numpy-host.xml --markdown

One report: a table of passed, failed, xfailed and skipped tests per file. Several: one column
per report (passed/failed, and skipped), as a Markdown table with --markdown. A test passes
when it ran without failure or error; xfailed (listed in an xfails file) and skipped tests are
counted apart and left out of the pass rate.
"""
import os
import sys
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict

OUTCOMES = ("passed", "failed", "xfailed", "skipped")


def summarize(path: str) -> dict[str, Counter[str]]:
    """Returns {test file: Counter(passed=, failed=, xfailed=, skipped=)}, with a "total" row."""
    files: dict[str, Counter[str]] = defaultdict(Counter)
    for case in ET.parse(path).getroot().iter("testcase"):
        name = case.get("classname", "").split(".")
        mod = next((n for n in name if n.startswith("test_")), ".".join(name))
        if case.find("failure") is not None or case.find("error") is not None:
            outcome = "failed"
        elif (skip := case.find("skipped")) is not None:
            outcome = "xfailed" if skip.get("type") == "pytest.xfail" else "skipped"
        else:
            outcome = "passed"
        files[mod][outcome] += 1
    out = dict(sorted(files.items()))
    out["total"] = sum(files.values(), Counter())
    return out


def rate(c: Counter[str]) -> str:
    ran = c["passed"] + c["failed"] + c["xfailed"]
    return f"{c['passed']}/{ran} = {100.0 * c['passed'] / ran if ran else 0.0:.1f}%"


def main() -> None:
    paths = [a for a in sys.argv[1:] if not a.startswith("--")]
    markdown = "--markdown" in sys.argv[1:]
    runs = [summarize(p) for p in paths]
    if len(runs) == 1 and not markdown:
        for name, c in runs[0].items():
            print(f"{name:42s} " + "  ".join(f"{k} {c[k]:4d}" for k in OUTCOMES))
        print(f"pass rate: {rate(runs[0]['total'])} of the tests that ran ({runs[0]['total']['skipped']} skipped)")
        return
    heads = [os.path.splitext(os.path.basename(p))[0] for p in paths]
    print("| file | " + " | ".join(f"{h} passed/failed (skipped)" for h in heads) + " |")
    print("|---|" + "---:|" * len(heads))
    names = sorted({n for r in runs for n in r if n != "total"}) + ["total"]
    for name in names:
        cells = []
        for r in runs:
            c = r.get(name, Counter())
            failed = c["failed"] + c["xfailed"]
            cells.append(f"{c['passed']}/{failed} ({c['skipped']})")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("| pass rate | " + " | ".join(rate(r["total"]) for r in runs) + " |")


if __name__ == "__main__":
    main()
