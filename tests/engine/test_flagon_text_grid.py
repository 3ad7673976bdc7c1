"""The Flagon text board drawn by layers (and its wraps kept) is the board drawn square by
square as before: byte for byte, over seeded games and over squares random play rarely makes
(two mugs, chairs on a table, a barrage, a prize held). The old drawing is frozen below."""

from __future__ import annotations

import copy
import random
import textwrap
from typing import Any

import pytest

from engine.flagon import new_game
from engine.flagon.board import layout_names
from render.flagon import text as board
from render.flagon.text import ARROW, LETTER, WRAP, render_text, things_by_square

NAMES = {"p1": "alice", "p2": "bob the long-named", "p3": "carol", "p4": "dave", "p5": "erin"}


# -- the drawing before round 9 (render/flagon/text.py), frozen -----------------------------------
def _cell_text_before(cell: dict[str, Any]) -> str:
    c = cell.get("char")
    if c is not None:
        letter = LETTER.get(c["id"], "?")
        return (letter.lower() if c["prone"] else letter) + ARROW.get(c["facing"], " ")
    if "prizes" in cell:
        return "F!" if "flagon" in cell["prizes"] else "C!"
    if cell.get("barrel"):
        return "()"
    if "familiar" in cell:
        return "ff"
    if cell.get("barrage"):
        return "xx"
    mugs, chairs = cell.get("mugs", 0), cell.get("chairs", 0)
    if "table" in cell:
        return "#u" if mugs else "#h" if chairs else "##"
    if mugs and chairs:
        return "hu"
    if mugs:
        return "u " if mugs == 1 else f"u{min(mugs, 9)}"
    if chairs:
        return "h " if chairs == 1 else f"h{min(chairs, 9)}"
    if "rug" in cell:
        return "~ "
    if cell.get("start"):
        return "+ "
    return ". "


def _grid_lines_before(view: dict[str, Any]) -> list[str]:
    w, h = view["grid"]["width"], view["grid"]["height"]
    cells = things_by_square(view)
    cols = "".join(chr(ord("a") + x) + " " for x in range(w))
    lines = ["   " + cols.rstrip()]
    for y in range(h):
        row = "".join(_cell_text_before(cells.get((x, y), {})) for x in range(w))
        lines.append(f"{y + 1:>2} {row.rstrip()}")
    return lines


def _wrapped_before(text: str, initial: str = "", subsequent: str = "") -> tuple[str, ...]:
    return tuple(textwrap.wrap(text, WRAP, initial_indent=initial, subsequent_indent=subsequent))


def render_before(view: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> str:
    with monkeypatch.context() as m:
        m.setattr(board, "_grid_lines", _grid_lines_before)
        m.setattr(board, "_wrapped", _wrapped_before)
        return render_text(view, NAMES)


# -- positions ----------------------------------------------------------------------------------
def seeded_views() -> list[dict[str, Any]]:
    """Every 3rd position of 5 seeded random games (2-5 players, each option, two layouts),
    as the public board and as one player's own board."""
    configs: list[tuple[int, dict[str, Any]]] = [
        (2, {}),
        (3, {"extended": True, "late_night": True}),
        (4, {"cookies": "instead"}),
        (4, {"cookies": "with", "team": True}),
        (5, {"late_night": True}),
    ]
    views = []
    for seed, (count, opts) in enumerate(configs):
        players = [f"p{i}" for i in range(1, count + 1)]
        game = new_game(players, seed, layout=layout_names()[seed % len(layout_names())], **opts)
        pick = random.Random(seed)
        for move in range(400):
            if game.is_over:
                break
            seat = pick.choice(sorted(game.to_act()))
            game.play(seat, pick.choice(game.legal_actions(seat)))
            if move % 3 == 0:
                views += [game.view(None), game.view(pick.choice(players))]
        views += [game.view(None), game.view(players[0])]
    return views


def unusual(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Squares random play seldom makes, on a copy of ``view`` each."""
    table = view["tables"][0]["squares"][0] if view["tables"] else "a1"
    rug = view["rugs"][0]["squares"][0] if view["rugs"] else "b2"
    out = []
    for change in (
        {"chairs": {"c3": 2, "d3": 12, "e3": 1, table: 1}, "mugs": {"c3": 1, "f3": 3, "g3": 0, rug: 1}},
        {"chairs": {"c4": 0, "z99": 1}, "mugs": {"h3": 11, "c5": 1}},
        {"barrage": {"at": "c3"}, "familiar": {"at": "d3"}, "barrels": ["c3", "d3", "k1"]},
        {"barrage": {"at": None}, "familiar": {"at": rug}},
        {"prizes": {"flagon": {"at": "e5", "held_by": None}, "cookies": {"at": "e5", "held_by": None}}},
        {"prizes": {"cookies": {"at": "e6", "held_by": None}, "flagon": {"at": "e6", "held_by": "thras"}}},
        {"start_squares": ["a1", "b1", table], "rugs": [{"id": "r", "squares": ["a1", "z1", "a40"]}]},
    ):
        v = copy.deepcopy(view)
        v.update(change)
        out.append(v)
    return out


def test_the_grid_drawn_by_layers_is_the_grid_drawn_square_by_square(monkeypatch: pytest.MonkeyPatch) -> None:
    views = seeded_views()
    drawn = {line for v in views for line in board._grid_lines(v)}
    assert any("F!" in line for line in drawn) and any("#u" in line for line in drawn)  # a real mix
    for view in views + [u for v in views[::40] for u in unusual(v)]:
        assert board._grid_lines(view) == _grid_lines_before(view)
        assert render_text(view, NAMES) == render_before(view, monkeypatch)


def test_a_kept_wrap_is_the_wrap_textwrap_makes() -> None:
    deck = "deck: " + ", ".join(["Dash", "Mug Throw", "Table Flip", "Sidestep", "Brawl"] * 3)
    assert board._wrapped(deck, "  ", "    ") == _wrapped_before(deck, "  ", "    ")
    assert board._wrapped(deck, "  ", "    ") == _wrapped_before(deck, "  ", "    ")  # from the cache
    assert board._wrapped("", "", "  ") == ()
