"""The Nine Sons move menu's "where to place" labels, worked out once per ply for all cells,
name the same card as a search of the board for each cell (the reference below)."""

from __future__ import annotations

from typing import Any

from cogs.plugins import load_plugins
from cogs.ui import ninesons as ui
from engine import registry
from engine.ninesons.game import NineSonsGame


def searched_label(view: Any, cell: str) -> str:
    slot = next((c["slot"] for c in view["cells"] if c["cell"] == cell), None)
    card = next((s["card"] for s in view["slots"] if s["slot"] == slot and s["card"]), None)
    return f"{cell} · {card['name']} ({slot})" if card else cell


def test_place_labels_name_the_card_each_cell_counts_towards():
    load_plugins(ui=False)
    info = registry.get("ninesons")
    checked = 0
    for seed in range(3):
        game = info.new_game(["p1", "p2"], seed)
        assert isinstance(game, NineSonsGame)
        for ply in range(80):
            if game.is_over:
                break
            seat = game.to_act()[0]
            view = ui.menu_view(game, seat)
            for action in game.legal_actions(seat):
                move = ui.NineSonsAction.from_text(action)
                if move.kind == "place":
                    cell = move.cells[0]
                    assert ui.menu_cell_label(game, seat, cell) == searched_label(view, cell)
                    assert ui.cell_label(view, cell) == searched_label(view, cell)
                    checked += 1
            game.play(seat, info.choose_ai_action(game, seat, "easy", ply))
    assert checked > 100
