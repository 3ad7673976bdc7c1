"""Nine Sons renderers: the text board mentions the right things; the PNG decodes at a sane size."""

from __future__ import annotations

import io
import random

from PIL import Image

from engine.ninesons import NineSonsGame, new_game
from render.ninesons import render_png, render_text

P = ["alice", "bob"]


def midgame(seed: int = 4, plies: int = 23) -> NineSonsGame:
    g = new_game(P, seed)
    r = random.Random(seed)
    for _ in range(plies):
        if g.is_over:
            break
        who = g.to_act()[0]
        g.play(who, r.choice(g.legal_actions(who)))
    return g


def test_text_mentions_board_cards_players_and_turn():
    g = NineSonsGame.from_position(
        P, {"c2": "B6 A4", "c1": "A2 B3"}, slots={"S2": "YaZi", "S3": "BaXia"}, deck=["BiAn"], scores=[2, -2]
    )
    text = render_text(g.view(None))
    assert text.startswith("```\n") and text.endswith("\n```")
    assert "B6A4" in text and "A2B3" in text  # stacks bottom to top with owner and value
    assert "S2 YaZi R-2" in text and "S3 BaXia Y+2" in text and "QiuNiu G+1" in text
    assert "alice" in text and "bob" in text and "+2 pts" in text and "-2 pts" in text
    assert "A (alice) to play" in text
    assert "Deck 1: BiAn" in text
    assert max(len(line) for line in text.splitlines()) <= 40  # phone width


def test_text_marks_last_move_holes_and_game_over():
    g = NineSonsGame.from_position(
        P,
        {"b2": "A3 A5", "b1": "B1 B2", "c1": "B3 B4"},
        slots=["QiuNiu", "ChiWen", "BiAn", "FuXi", "SuanNi", None],
    )
    g.play("alice", "b2-b1-c1")
    text = render_text(g.view(None))
    assert "*" in text and "chooses: tame:S1, tame:S2" in text
    assert "(hole)" in text and "xxxx" in text
    g.play("alice", "tame:S1")
    text = render_text(g.view(None))
    assert "Game over" in text and "alice wins" in text
    assert "tamed QiuNiu" in text


def test_text_does_not_reveal_deck_order():
    g = midgame(7, 3)
    text = render_text(g.view(None))
    deck_line = next(line for line in text.splitlines() if line.startswith("Deck"))
    names = deck_line.split(": ", 1)[1].split(", ")
    assert names == sorted(names)


def test_png_decodes_with_a_sane_size():
    for g in (new_game(P, 1), midgame(), midgame(9, 60)):
        data = render_png(g.view(None))
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        img = Image.open(io.BytesIO(data))
        img.load()
        assert 400 <= img.width <= 1200 and 300 <= img.height <= 1200
        assert 2_000 < len(data) < 500_000


def test_png_draws_the_dice_in_owner_colours():
    g = NineSonsGame.from_position(P, {"a1": "A3"})
    img = Image.open(io.BytesIO(render_png(g.view(None)))).convert("RGB")
    colours = [c for _, c in img.getcolors(1 << 20) or [] if isinstance(c, tuple)]
    assert any(abs(r - 30) + abs(g - 90) + abs(b - 190) < 12 for r, g, b in colours)  # seat A blue
