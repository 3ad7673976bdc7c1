"""Every registered game plays to the end through the session layer (saves, AI seats, the
action log), and replaying the log from the seed rebuilds the same final state."""

from __future__ import annotations

import pytest

from cogs.plugins import load_plugins
from engine import registry
from tests.sessions.conftest import ALICE

load_plugins(ui=False)
REAL_GAMES = [info.name for info in registry.all_games() if info.name != "tally"]


@pytest.mark.parametrize("kind", REAL_GAMES)
async def test_game_plays_to_the_end_through_sessions(service, kind):
    info = registry.get(kind)
    rec = await service.create(kind, guild_id=1, channel_id=10, host=ALICE)
    for _ in range(max(1, min(3, info.game_class.MAX_PLAYERS) - 1)):
        await service.add_ai(rec.id, ALICE, info.ai_levels[0])
    outcome = await service.start(rec.id, ALICE)
    steps = 0
    while outcome.record.status == "active":
        game = outcome.game
        assert "p1" in game.to_act(), "AI seats acted until the human had to"
        action = info.choose_ai_action(game, "p1", info.ai_levels[0], steps)
        assert action in game.legal_actions("p1")
        outcome = await service.apply(rec.id, ALICE, action)
        steps += 1
        assert steps < 3000, "game did not finish"
    assert outcome.record.status == "finished"
    print(kind, "steps by the human:", steps, "saved versions:", outcome.record.version,
          "reason:", outcome.record.result["reason"])
    assert outcome.record.result["ranking"]
    final = outcome.game.to_dict()
    replayed = await service.replay(rec.id)
    assert replayed.to_dict() == final
    stats = await service.db.ratings.member_stats(1, ALICE.user_id)
    assert sum(stats[kind].values()) == 1
