"""Open lobbies close by themselves after the server's ``lobby_timeout``, and one member may
host at most ``max_lobbies_per_member`` open lobbies in a server."""

from __future__ import annotations

import asyncio

import pytest

from sessions import NotAllowed, SessionError, parse_setting
from sessions.service import LOBBY_TIMER, REMIND_TIMER, TURN_TIMER, GameService
from sessions.timers import TimerScheduler
from tests.sessions.conftest import ALICE, BOB, CAROL


async def test_an_unstarted_lobby_closes_after_the_timeout_with_a_line(service, clock):
    rec = await service.create("tally", guild_id=1, channel_id=10, host=ALICE)
    await service.join(rec.id, BOB)
    deadline = await service.db.timers.deadline(rec.id, "lobby")
    assert deadline == rec.created_at + 3600  # the default: one hour without a start
    clock.now = deadline - 1
    assert await service.on_timer(rec.id, LOBBY_TIMER) is None  # not due yet: still open
    assert (await service.db.games.load(rec.id)).status == "lobby"
    clock.now = deadline
    out = await service.on_timer(rec.id, LOBBY_TIMER)
    assert out.record.status == "cancelled" and out.game is None
    assert [e.text for e in out.events] == [
        "⌛ This lobby closed because nobody started it within 1 hour. Open a new one with `/game new`."]
    assert await service.db.timers.pending() == []
    # Saved before it is announced: the lobby is closed for every button, and the channel is free.
    with pytest.raises(SessionError, match="closed"):
        await service.join(rec.id, CAROL)
    with pytest.raises(SessionError, match="closed"):
        await service.start(rec.id, ALICE)
    assert (await service.create("tally", 1, 10, BOB)).status == "lobby"
    # A second firing (a timer task left over) changes nothing.
    assert await service.on_timer(rec.id, LOBBY_TIMER) is None


async def test_the_timeout_follows_the_server_setting(service, clock):
    await service.change_setting(1, "lobby_timeout", parse_setting("lobby_timeout", "90"))
    rec = await service.create("tally", 1, 10, ALICE)
    clock.now = await service.db.timers.deadline(rec.id, "lobby")
    assert clock.now == rec.created_at + 90
    out = await service.on_timer(rec.id, LOBBY_TIMER)
    assert "within 90 seconds" in out.events[0].text


async def test_starting_before_the_deadline_cancels_the_lobby_timer(service, clock):
    rec = await service.create("tally", 1, 10, ALICE)
    await service.join(rec.id, BOB)
    clock.now += 3000
    await service.start(rec.id, ALICE)
    assert await service.db.timers.deadline(rec.id, "lobby") is None
    assert sorted(purpose for _, purpose, _ in await service.db.timers.pending()) == sorted([TURN_TIMER, REMIND_TIMER])
    clock.now += 1000  # past the old lobby deadline: a leftover task closes nothing
    assert await service.on_timer(rec.id, LOBBY_TIMER) is None
    assert (await service.db.games.load(rec.id)).status == "active"


async def test_cancel_and_the_last_leave_drop_the_lobby_timer(service):
    first = await service.create("tally", 1, 10, ALICE)
    await service.cancel(first.id, ALICE)
    second = await service.create("tally", 1, 11, ALICE)
    await service.leave(second.id, ALICE)
    assert await service.db.timers.pending() == []


async def test_the_lobby_timer_survives_a_restart(service, clock):
    rec = await service.create("tally", 1, 10, ALICE)
    clock.now += 3599.8
    # A new process: a fresh service and scheduler on the same database re-arm the timer.
    fresh = GameService(service.db, clock=clock)
    announced = []

    async def on_outcome(outcome):
        announced.append(outcome)

    scheduler = TimerScheduler(fresh, on_outcome, clock)
    try:
        assert await scheduler.start() == 1
        assert scheduler.pending == 1
        clock.now += 0.2  # the fake clock reaches the deadline while the task sleeps 0.2 s
        await asyncio.sleep(0.4)
        assert [o.record.status for o in announced] == ["cancelled"]
        assert "nobody started it" in announced[0].events[0].text
        assert scheduler.pending == 0
    finally:
        scheduler.stop()
    assert (await service.db.games.load(rec.id)).status == "cancelled"


async def test_lobbies_without_a_closing_time_get_one_at_start_up(service, clock):
    # A lobby from before lobby timeouts existed (or a crash right after creating it).
    rec = await service.create("tally", 1, 10, ALICE)
    await service.db.timers.clear(rec.id, LOBBY_TIMER)
    assert await service.arm_lobby_timers() == 1
    assert await service.db.timers.deadline(rec.id, "lobby") == rec.created_at + 3600
    assert await service.arm_lobby_timers() == 0


async def test_a_member_may_hold_only_so_many_open_lobbies(service):
    first = await service.create("tally", 1, 10, ALICE)
    second = await service.create("tally", 1, 11, ALICE)
    with pytest.raises(NotAllowed) as refused:
        await service.create("tally", 1, 12, ALICE)
    text = str(refused.value)
    assert "You already host 2 open lobbies in this server" in text
    assert f"#{first.id} Tally in <#10>" in text and f"#{second.id} Tally in <#11>" in text
    assert "Cancel" in text and "/game cancel" in text
    assert await service.db.games.active_in_channel(12) is None  # nothing was created
    assert len(await service.db.games.find(guild_id=1)) == 2
    # Others, and the same member in another server, are not affected.
    assert (await service.create("tally", 1, 12, BOB)).status == "lobby"
    assert (await service.create("tally", 2, 20, ALICE)).status == "lobby"
    # A started game is no longer held as a lobby.
    await service.join(first.id, CAROL)
    await service.start(first.id, ALICE)
    assert (await service.create("tally", 1, 13, ALICE)).status == "lobby"
    # The server may allow more.
    await service.change_setting(1, "max_lobbies_per_member", parse_setting("max_lobbies_per_member", "3"))
    assert (await service.create("tally", 1, 14, ALICE)).status == "lobby"


async def test_the_limit_counts_lobbies_handed_over_and_concurrent_requests(service):
    await service.change_setting(1, "max_lobbies_per_member", 1)
    rec = await service.create("tally", 1, 10, ALICE)
    await service.join(rec.id, BOB)
    await service.leave(rec.id, ALICE)  # bob hosts it now
    with pytest.raises(NotAllowed, match=r"You already host 1 open lobby in this server"):
        await service.create("tally", 1, 11, BOB)
    # Two /game new at the same moment by one member: only one lobby opens.
    results = await asyncio.gather(*(service.create("tally", 1, 20 + i, ALICE) for i in range(2)),
                                   return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["GameRecord", "NotAllowed"]


def test_the_settings_have_a_range():
    assert parse_setting("lobby_timeout", "60") == 60
    assert parse_setting("lobby_timeout", "86400s") == 86400
    with pytest.raises(ValueError, match="from 1 minute to 1 day"):
        parse_setting("lobby_timeout", "59")
    with pytest.raises(ValueError, match="from 1 to 20"):
        parse_setting("max_lobbies_per_member", "0")
