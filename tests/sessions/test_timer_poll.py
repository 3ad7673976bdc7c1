"""Timers across processes: a process picks up due timers it did not arm (their process died),
and a timer armed by two processes acts once.

Two TimerSchedulers on one GameService stand for two processes on one database: they share
the service's per-game lock, which with PostgreSQL is a database lock shared by processes
(the real two-process run is tests/wire/test_wire_two_processes.py)."""

from __future__ import annotations

import asyncio

from sessions import Outcome
from sessions.service import LOBBY_TIMER
from sessions.timers import TimerScheduler
from tests.sessions.conftest import ALICE


class Announced:
    def __init__(self) -> None:
        self.outcomes: list[Outcome] = []

    async def __call__(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)


async def wait_for(predicate, timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.01)


async def test_a_due_timer_armed_by_a_process_that_died_is_picked_up_by_another(service, clock):
    dead, alive = Announced(), Announced()
    survivor = TimerScheduler(service, alive, clock, poll_seconds=0.02)
    assert await survivor.start() == 0  # started first: it never armed the lobby timer below
    rec = await service.create("tally", guild_id=1, channel_id=10, host=ALICE)
    deadline = await service.db.timers.deadline(rec.id, "lobby")
    assert deadline is not None
    doomed = TimerScheduler(service, dead, clock)
    assert await doomed.start() == 1
    doomed.stop()  # the process that armed it dies before the deadline
    await asyncio.sleep(0.1)
    assert alive.outcomes == [] and survivor.pending == 0, "not due yet: nothing picked up"
    clock.now = deadline + 1
    try:
        await wait_for(lambda: bool(alive.outcomes))
    finally:
        survivor.stop()
    assert [o.record.status for o in alive.outcomes] == ["cancelled"] and dead.outcomes == []
    assert await service.db.timers.pending() == []


async def test_a_timer_armed_by_two_processes_acts_once(service, clock):
    rec = await service.create("tally", guild_id=1, channel_id=10, host=ALICE)
    first, second = Announced(), Announced()
    schedulers = [TimerScheduler(service, first, clock), TimerScheduler(service, second, clock)]
    for scheduler in schedulers:
        assert await scheduler.start() == 1
    clock.now = (await service.db.timers.deadline(rec.id, "lobby") or 0) + 1
    try:
        for scheduler in schedulers:  # both re-armed now that it is due: both fire at once
            await scheduler.refresh(rec.id)
        await wait_for(lambda: bool(first.outcomes or second.outcomes))
        await asyncio.sleep(0.3)  # the other one's firing finds nothing due
    finally:
        for scheduler in schedulers:
            scheduler.stop()
    assert len(first.outcomes) + len(second.outcomes) == 1
    assert (await service.db.games.load(rec.id)).status == "cancelled"


async def test_pick_up_skips_what_is_not_due_or_already_armed_here(service, clock):
    rec = await service.create("tally", guild_id=1, channel_id=10, host=ALICE)
    scheduler = TimerScheduler(service, Announced(), clock)
    try:
        assert await scheduler.pick_up_due() == 0  # an hour to go
        await scheduler.refresh(rec.id)
        assert scheduler.pending == 1
        await service.db.timers.set(rec.id, LOBBY_TIMER, clock.now + 600)  # another process moved it
        assert await scheduler.pick_up_due() == 0 and scheduler.pending == 1
    finally:
        scheduler.stop()
