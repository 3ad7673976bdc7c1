"""Requests per move of whole games played as members through simcord (issue 25).

Runs tests/bot/test_request_budget.py (Nine Sons, Farkle, Farkle + AI and Flagon through the
board's buttons; Nine Sons, Farkle and Flagon by /play; some at human pace) and prints its
measurements as one table: requests per move, split into interaction endpoints (outside
Discord's global limit) and the rest, and the rest per turn change (Flagon's goal is per turn
change).

    python -m bench.request_budget
"""

from __future__ import annotations

import re
import subprocess
import sys

LINE = re.compile(
    r"^(?P<case>.+?): (?P<moves>\d+) moves; per move (?P<total>[\d.]+) requests, "
    r"(?P<inside>[\d.]+) interaction endpoints, (?P<other>[\d.]+) outside$"
)
PER_CHANGE = re.compile(
    r"^(?P<case>.+?): (?P<changes>\d+) turn changes; per turn change [\d.]+ requests, (?P<other>[\d.]+) outside$"
)


def main() -> int:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/bot/test_request_budget.py",
            "-q",
            "-s",
            "-p",
            "no:cacheprovider",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    lines = [line.strip() for line in run.stdout.splitlines()]
    rows = [m.groupdict() for line in lines if (m := LINE.match(line))]
    per_change = {m["case"]: m["other"] for line in lines if (m := PER_CHANGE.match(line))}
    print(
        "| played by · game | moves | requests per move | interaction endpoints | outside "
        "| outside per turn change |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(
            f"| {r['case']} | {r['moves']} | {r['total']} | {r['inside']} | {r['other']} "
            f"| {per_change.get(r['case'], '')} |"
        )
    if run.returncode != 0:
        print(run.stdout[-3000:], file=sys.stderr)
    return run.returncode


if __name__ == "__main__":
    raise SystemExit(main())
