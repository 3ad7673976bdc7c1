"""A click that hands the move to a human saves the turn timer with the action, in the same
transaction (issue 17): nothing is written after the save, and a failed save moves no timer."""

from __future__ import annotations

import pytest

from sessions.service import REMIND_TIMER, TURN_TIMER
from storage import DatabaseUnavailable
from tests.sessions.conftest import ALICE, BOB


async def started(service):
    rec = await service.create("tally", guild_id=1, channel_id=10, host=ALICE)
    await service.join(rec.id, BOB)
    return (await service.start(rec.id, ALICE)).record


async def test_the_turn_timer_is_saved_with_the_move(service, clock, monkeypatch):
    rec = await started(service)
    timeout = (await service.settings(1)).turn_timeout("tally")

    async def no_separate_write(*args, **kwargs):
        raise AssertionError("the timer must be saved with the action")

    monkeypatch.setattr(service.db.timers, "set_many", no_separate_write)
    monkeypatch.setattr(service.db.timers, "clear_many", no_separate_write)
    clock.now += 30
    await service.apply(rec.id, ALICE, "+1")
    assert await service.db.timers.deadline(rec.id, TURN_TIMER) == clock.now + timeout
    assert await service.db.timers.deadline(rec.id, REMIND_TIMER) == clock.now + timeout / 2


async def test_a_failed_save_moves_no_timer(service, clock, monkeypatch):
    rec = await started(service)
    before = await service.db.timers.deadline(rec.id, TURN_TIMER)

    async def full_disk(*args, **kwargs):
        raise DatabaseUnavailable("The database could not be written: database or disk is full.")

    monkeypatch.setattr(service.db._backend, "run_steps", full_disk)
    clock.now += 30
    with pytest.raises(DatabaseUnavailable):
        await service.apply(rec.id, ALICE, "+1")
    assert await service.db.timers.deadline(rec.id, TURN_TIMER) == before
