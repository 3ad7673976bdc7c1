"""Small shared helpers for the bench scripts: percentiles, RSS, the results file, tables."""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results.json"


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of values, nearest-rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def latency_ms(seconds: list[float]) -> dict[str, float]:
    """The median and p99 of latencies measured in seconds, in milliseconds."""
    return {"latency_ms_median": median(seconds) * 1000, "latency_ms_p99": pct(seconds, 0.99) * 1000}


def core_speed() -> float:
    """Seconds of CPU this interpreter takes for 10 million additions in a loop (the least of three
    runs of 2 million): printed beside CPU figures, since "ms per move" is only comparable between
    machines, or runs, of the same speed. A snapshot: a shared VM's speed moves within minutes
    (bench/README.md: the machine's speed)."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        total = 0
        for i in range(2_000_000):
            total += i
        best = min(best, time.process_time() - start)
    return best * 5


def rss_kib() -> int:
    """Resident memory of this process in KiB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


@contextlib.contextmanager
def on_one_core() -> Iterator[str]:
    """Run this thread (and the threads it starts, such as aiosqlite's) on one CPU, as a
    process pinned with ``taskset -c N`` or systemd's ``CPUAffinity=N`` does. Yields what
    it did, for the table ("cpu 0", or "not pinned" where the OS cannot)."""
    if not hasattr(os, "sched_setaffinity"):
        yield "not pinned"
        return
    before = os.sched_getaffinity(0)
    cpu = min(before)
    os.sched_setaffinity(0, {cpu})
    try:
        yield f"cpu {cpu}"
    finally:
        os.sched_setaffinity(0, before)


def merge_results(key: str, data: dict[str, Any]) -> None:
    existing: dict[str, Any] = {}
    if RESULTS.exists():
        try:
            existing = json.loads(RESULTS.read_text())
        except json.JSONDecodeError:
            existing = {}
    existing[key] = data
    RESULTS.write_text(json.dumps(existing, indent=2, sort_keys=True))


def print_rows(title: str, rows: list[tuple[str, str]]) -> None:
    width = max(len(k) for k, _ in rows) + 2
    print(title)
    print(f"{'measure':<{width}}| value")
    print(f"{'-' * width}+{'-' * 40}")
    for k, v in rows:
        print(f"{k:<{width}}| {v}")
