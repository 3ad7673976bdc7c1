"""The Flagon's ``expert`` AI level was removed (issue 28: it measured no stronger than the
level below). A lobby, a rematch or a saved game that still names it must keep working: the
seat plays ``hard``."""

from __future__ import annotations

from cogs.plugins import load_plugins
from engine import registry
from tests.sessions.conftest import ALICE

load_plugins(ui=False)


async def test_adding_an_expert_ai_seat_gives_a_hard_one(service):
    info = registry.get("flagon")
    assert "expert" not in info.ai_levels and info.ai_levels[-1] == "hard"
    rec = await service.create("flagon", guild_id=1, channel_id=10, host=ALICE)
    out = await service.add_ai(rec.id, ALICE, "expert")  # e.g. a rematch of an old game
    assert [s.ai_level for s in out.record.seats if s.is_ai] == ["hard"]


async def test_a_game_whose_seat_names_expert_plays_on(service):
    """A game saved with an ``expert`` AI seat: its turns are played (as hard's)."""
    info = registry.get("flagon")
    rec = await service.create("flagon", guild_id=1, channel_id=10, host=ALICE)
    await service.add_ai(rec.id, ALICE, "hard")
    outcome = await service.start(rec.id, ALICE)
    game = outcome.game
    ai_seat = next(s for s in outcome.record.seats if s.is_ai)
    before = len(game.to_dict()["chars"])
    # What the AI runner asks for an old seat: the engine takes the removed level.
    while ai_seat.seat in game.to_act() and not game.is_over:
        action = info.choose_ai_action(game, ai_seat.seat, "expert", 1)
        assert action in game.legal_actions(ai_seat.seat)
        assert action == info.choose_ai_action(game, ai_seat.seat, "hard", 1)
        game.play(ai_seat.seat, action)
    assert len(game.to_dict()["chars"]) >= before
