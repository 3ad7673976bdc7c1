"""Lobby churn before the start (join, leave, re-join, AI seats) renumbers positions and hands
out seat ids out of order; a started game must still replay from its seed and action log to
exactly the saved state, in every game."""

from __future__ import annotations

import pytest

from cogs.plugins import load_plugins
from engine import registry
from sessions import Actor
from tests.doubles import tally
from tests.sessions.conftest import ALICE, BOB, CAROL

load_plugins(ui=False)
tally.install()
KINDS = [info.name for info in registry.all_games()]  # the real games and the Tally double
DAVE = Actor(4, "dave")
ACTORS = {a.user_id: a for a in (ALICE, BOB, CAROL, DAVE)}


async def churn_two(service, kind: str):
    """alice opens, bob joins, alice leaves (bob hosts), alice re-joins: p2 sits before p1."""
    rec = await service.create(kind, guild_id=1, channel_id=10, host=ALICE)
    await service.join(rec.id, BOB)
    await service.leave(rec.id, ALICE)
    out = await service.join(rec.id, ALICE)
    assert [s.seat for s in out.record.seats] == ["p2", "p1"]
    return out.record, BOB


async def churn_many(service, kind: str):
    """AI seat, joins, leaves and re-joins in a mixed order: p3, p2 (AI), p4, p1."""
    rec = await service.create(kind, guild_id=1, channel_id=10, host=ALICE)
    level = registry.get(kind).ai_levels[0]
    await service.join(rec.id, BOB)  # p2
    await service.join(rec.id, CAROL)  # p3
    await service.leave(rec.id, BOB)  # p2 is free again
    await service.add_ai(rec.id, ALICE, level)  # the AI takes p2, after carol
    await service.leave(rec.id, ALICE)  # carol hosts; p1 is free
    await service.join(rec.id, DAVE)  # p1
    await service.leave(rec.id, DAVE)
    await service.join(rec.id, BOB)  # p1 again, now bob's
    out = await service.join(rec.id, ALICE)  # p4
    assert [s.seat for s in out.record.seats] == ["p3", "p2", "p1", "p4"]
    return out.record, CAROL


async def play_and_check_replay(service, kind: str, rec, host, *, moves: int = 40, resign: Actor | None = None):
    info = registry.get(kind)
    outcome = await service.start(rec.id, host)
    assert outcome.record.status == "active"
    level = info.ai_levels[0]
    for step in range(moves):
        if outcome.record.status != "active":
            break
        if resign is not None and step == moves // 2:
            outcome = await service.resign(rec.id, resign)  # an AI takes the seat, same position
            continue
        game = outcome.game
        seat = next(s for s in outcome.record.seats if not s.is_ai and s.seat in game.to_act())
        action = info.choose_ai_action(game, seat.seat, level, step)
        outcome = await service.apply(rec.id, ACTORS[seat.user_id], action)
        if step % 10 == 0:
            saved, game = await service.load(rec.id)
            assert (await service.replay(rec.id)).to_dict() == game.to_dict()
    saved, game = await service.load(rec.id)
    assert len(await service.db.log.of_game(rec.id)) > 0
    assert (await service.replay(rec.id)).to_dict() == game.to_dict()


@pytest.mark.parametrize("kind", KINDS)
async def test_replay_after_leave_and_rejoin(service, kind):
    rec, host = await churn_two(service, kind)
    await play_and_check_replay(service, kind, rec, host)


@pytest.mark.parametrize("kind", [k for k in KINDS if registry.get(k).game_class.MAX_PLAYERS >= 4])
async def test_replay_after_mixed_churn_and_a_resign(service, kind):
    rec, host = await churn_many(service, kind)
    await play_and_check_replay(service, kind, rec, host, resign=ALICE)


async def test_flagon_action_log_replays_a_churned_game(service):
    """The finished-game action log replays the game as it started (seat order after churn),
    not by sorted seat ids, which would break on the first move."""
    from cogs.ui.flagon import action_log_text

    rec, host = await churn_two(service, "flagon")
    await play_and_check_replay(service, "flagon", rec, host, moves=30)
    saved, game = await service.load(rec.id)
    logged = await service.db.log.of_game(rec.id)
    text = action_log_text(saved, await service.new_game_for(saved), logged)
    assert text.count("\n[") == len(logged)  # one line per logged action, none refused
    assert "Players: bob (p2), alice (p1)" in text
