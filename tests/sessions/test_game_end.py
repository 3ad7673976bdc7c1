"""How a game that stops before its end is saved: a cancel or an AFK abandonment keeps why it
ended in the record (its final board reads it), and the channel's last ended game can be found
once nothing runs there."""

from __future__ import annotations

from sessions.service import TURN_TIMER
from tests.sessions.conftest import ADMIN, ALICE, BOB


async def started(service, channel_id: int = 10):
    rec = await service.create("tally", guild_id=1, channel_id=channel_id, host=ALICE)
    await service.join(rec.id, BOB)
    return (await service.start(rec.id, ALICE)).record


async def test_a_cancelled_game_saves_who_cancelled_it(service):
    rec = await started(service)
    out = await service.cancel(rec.id, ADMIN)
    saved = await service.db.games.load(rec.id)
    assert out.record.status == saved.status == "cancelled"
    assert saved.result == {
        "scores": {},
        "ranking": [],
        "reason": "Cancelled by {actor}.",
        "names": {"actor": "admin"},
    }
    assert await service.db.ratings.member_stats(1, ALICE.user_id) == {}  # a cancel ranks nobody


async def test_a_cancelled_lobby_saves_no_result(service):
    rec = await service.create("tally", guild_id=1, channel_id=10, host=ALICE)
    await service.cancel(rec.id, ALICE)
    assert (await service.db.games.load(rec.id)).result is None


async def test_an_abandoned_game_saves_who_timed_out(service, clock):
    await service.change_setting(1, "afk_strikes", 2)
    await service.change_setting(1, "afk_action", "abandon")
    rec = await started(service)
    clock.now = await service.db.timers.deadline(rec.id, TURN_TIMER)
    await service.on_timer(rec.id, TURN_TIMER)  # the first strike: the AI acts for alice
    await service.apply(rec.id, BOB, "+1")
    clock.now = await service.db.timers.deadline(rec.id, TURN_TIMER)
    out = await service.on_timer(rec.id, TURN_TIMER)
    assert out.record.status == "abandoned"
    assert out.record.result == {
        "scores": {},
        "ranking": [],
        "names": {},
        "reason": "Abandoned: {p1} timed out 2 times in a row.",
    }


async def test_the_last_ended_game_of_a_channel_is_the_latest_that_started(service, clock):
    assert await service.db.games.last_ended_in_channel(10) is None
    first = await started(service)
    assert await service.db.games.last_ended_in_channel(10) is None  # still running
    await service.resign(first.id, BOB)
    clock.now += 10
    second = await started(service)
    await service.cancel(second.id, ALICE)
    clock.now += 10
    lobby = await service.create("tally", guild_id=1, channel_id=10, host=ALICE)
    await service.cancel(lobby.id, ALICE)  # a lobby that never started is not a game to show
    other = await started(service, channel_id=11)
    await service.resign(other.id, BOB)
    found = await service.db.games.last_ended_in_channel(10)
    assert found is not None and found.id == second.id and found.status == "cancelled"
