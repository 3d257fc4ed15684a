#!/usr/bin/env python3
"""Pass/fail counts per test file of a pytest JUnit XML report (scripts/array-api-tests.sh).

    python3 scripts/junit-summary.py build/array-api-tests/weft-host.xml [--markdown]

A test passes when it ran without failure or error; xfailed (listed in an xfails file) and
skipped tests are counted apart and left out of the pass rate.
"""
import sys
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict


def summarize(path: str) -> dict[str, Counter[str]]:
    """Returns {test file: Counter(passed=, failed=, xfailed=, skipped=)}."""
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
    return dict(sorted(files.items()))


def main() -> None:
    path = sys.argv[1]
    markdown = "--markdown" in sys.argv[2:]
    files = summarize(path)
    total: Counter[str] = sum(files.values(), Counter())
    cols = ("passed", "failed", "xfailed", "skipped")
    if markdown:
        print("| file | " + " | ".join(cols) + " |")
        print("|---|" + "---:|" * len(cols))
    for name, c in [*files.items(), ("total", total)]:
        if markdown:
            print(f"| {name} | " + " | ".join(str(c[k]) for k in cols) + " |")
        else:
            print(f"{name:45s} " + " ".join(f"{k} {c[k]:4d}" for k in cols))
    ran = total["passed"] + total["failed"] + total["xfailed"]
    rate = 100.0 * total["passed"] / ran if ran else 0.0
    print(f"pass rate: {total['passed']}/{ran} = {rate:.1f}% of the tests that ran "
          f"({total['skipped']} skipped)")


if __name__ == "__main__":
    main()
