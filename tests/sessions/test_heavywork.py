"""The heavy-work lane (sessions.heavywork): one job per key however many ask, a bounded queue
refused politely, kept results within their byte budget (least recently used out first), and a
worker process that runs the job off this interpreter and comes back after it died."""

from __future__ import annotations

import asyncio
import os
import threading

import pytest

from sessions.heavywork import HeavyWork, TooBusy


def _held(gate: threading.Event, value: bytes) -> bytes:
    gate.wait(30)
    return value


def _pid() -> int:
    return os.getpid()


def _die() -> None:
    os._exit(1)


async def test_one_job_per_key_and_a_full_lane_refuses_before_starting_anything():
    lane = HeavyWork("t", workers=1, max_jobs=2, keep_bytes=100, processes=False, busy_text="busy, sorry")
    gate = threading.Event()
    try:
        first = [lane.submit("a", _held, gate, b"AAA", keep=len) for _ in range(5)]
        second = lane.submit("b", _held, gate, b"BB", keep=len)
        with pytest.raises(TooBusy, match="busy, sorry"):
            lane.submit("c", _held, gate, b"C", keep=len)
        assert lane.jobs_started == 2 and lane.queued == 2
        gate.set()
        assert await asyncio.gather(*first, second) == [b"AAA"] * 5 + [b"BB"]
        # Kept: asking again draws nothing, and the lane has room again.
        assert await lane.submit("a", _held, gate, b"new", keep=len) == b"AAA"
        assert lane.jobs_started == 2 and lane.queued == 0
        assert await lane.submit("c", _held, gate, b"C", keep=len) == b"C"
    finally:
        gate.set()
        lane.close()


async def test_kept_results_stay_within_their_bytes_least_recently_used_out_first():
    lane = HeavyWork("t", workers=1, max_jobs=4, keep_bytes=10, processes=False)
    gate = threading.Event()
    gate.set()
    try:
        for key, value in (("a", b"aaaa"), ("b", b"bbbb")):
            await lane.submit(key, _held, gate, value, keep=len)
        assert lane.kept("a") == b"aaaa"  # "a" is now the most recently used
        await lane.submit("c", _held, gate, b"cccc", keep=len)  # 12 bytes > 10: "b" goes
        assert lane.kept("b") is None and lane.kept("a") == b"aaaa" and lane.kept("c") == b"cccc"
        await lane.submit("big", _held, gate, b"x" * 11, keep=len)  # larger than the budget: not kept
        assert lane.kept("big") is None and lane.kept("a") == b"aaaa"
        await lane.submit(None, _held, gate, b"once")  # no key: never kept, never shared
        assert lane.jobs_started == 5
    finally:
        lane.close()


async def test_the_worker_is_a_process_of_its_own_and_a_new_one_follows_a_dead_one():
    lane = HeavyWork("t", workers=1, max_jobs=2)
    try:
        worker = await lane.submit(None, _pid)
        assert worker != os.getpid()
        with pytest.raises(Exception):  # noqa: B017 - the pool reports the death its own way
            await lane.submit(None, _die)
        assert await lane.submit(None, _pid) not in (worker, os.getpid())
    finally:
        lane.close()
