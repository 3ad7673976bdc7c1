"""The board picture is redrawn only when what it shows changes."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import render
from cogs.plugins import load_plugins
from cogs.presenter import Presenter
from cogs.ui import flagon as flagon_ui
from engine import registry
from storage import GameRecord


def record(kind: str) -> GameRecord:
    return GameRecord(id=1, kind=kind, guild_id=1, channel_id=1, host_user_id=1, status="active", options={},
                      seed=1, state=None, version=1, board_message_id=None, result=None, created_at=0,
                      updated_at=0)


async def test_flagon_picture_is_not_redrawn_for_each_submitted_plan(monkeypatch):
    load_plugins(ui=False)
    info = registry.get("flagon")
    game = info.new_game(["p1", "p2"], 5)
    while game.to_act() and not all(game.is_private_action(p, a) for p in game.to_act()
                                    for a in game.legal_actions(p)):
        seat = game.to_act()[0]
        game.play(seat, info.choose_ai_action(game, seat, "easy", 1))
    assert len(game.to_act()) == 2  # both players plan in secret now
    drawn = []
    real = render.render_png

    def counted_render_png(*a: Any) -> bytes | None:
        drawn.append(1)
        return real(*a)

    monkeypatch.setattr(render, "render_png", counted_render_png)
    no_bot: Any = SimpleNamespace()  # what the presenter reads of the bot is not reached here
    presenter = Presenter(no_bot)
    names = {"p1": "alice", "p2": "bob"}
    first = await presenter._board_png(record("flagon"), game.view(None), names)
    planner = game.to_act()[0]
    game.play(planner, info.choose_ai_action(game, planner, "easy", 2))
    assert game.view(None)["planning"] != []  # the public view changed (who is still planning)...
    again = await presenter._board_png(record("flagon"), game.view(None), names)
    assert again == first and len(drawn) == 1  # ...but the picture did not
    assert flagon_ui.image_view(game.view(None))["planning"] == []
