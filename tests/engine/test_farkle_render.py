"""Dragon Farkle renderers: what a player reads in the text block and the PNG."""

from __future__ import annotations

import io

from PIL import Image

from engine.farkle.cards import default_cards
from render.farkle import render_png, render_text
from tests.engine.farkle_support import setup

NAMES = {"p1": "Alice", "p2": "Bob"}
ITEM_NAMES = [c.name for c in default_cards().items]


def _recruit_mid_turn():
    g = setup(
        [([1, 1, 2, 3, 4, 6], "rally")],
        hands={"p1": ["lucky_charm"], "p2": ["war_horn"]},
        companions={"p1": "minstrel", "p2": "scout"},
        armies={"p1": 1250, "p2": 5300},
    )
    g.play("p1", "recruit")
    g.play("p1", "keep:1,1")
    g.play("p1", "rally:double")
    return g


def test_text_shows_armies_companions_counts_turn_roll_and_total() -> None:
    g = _recruit_mid_turn()
    text = render_text(g.view(None), NAMES)
    assert text.startswith("```") and len(text) <= 1800
    for needle in ("Alice", "Bob", "1,250", "5,300", "Minstrel", "Scout", "1 item", "Turn: Alice", "Recruit"):
        assert needle in text, needle
    assert "2 3 4 6" in text and "RALLY" in text
    assert "Set aside: 1 1" in text
    assert "Turn total: 600" in text  # Minstrel triples the Rally
    assert max(len(line) for line in text.splitlines()) <= 40  # phone width


def test_public_text_never_names_items_but_owner_sees_theirs() -> None:
    g = _recruit_mid_turn()
    public = render_text(g.view(None), NAMES)
    assert not any(n in public for n in ITEM_NAMES)
    other = render_text(g.view("p2"), NAMES)
    assert "Lucky Charm" not in other and "War Horn" in other
    mine = render_text(g.view("p1"), NAMES)
    assert "Your Magic Items: Lucky Charm" in mine


def test_text_shows_dragon_damage_in_battle() -> None:
    g = setup([([1, 2, 3, 3, 4, 6], "rally")], armies={"p1": 6000})
    g.play("p1", "battle")
    text = render_text(g.view(None), NAMES)
    assert "Final Battle" in text and "2/3 damage" in text


def test_text_shows_brawl_attack_score_for_the_defender_phase() -> None:
    g = setup([([1, 1, 1, 2, 3, 4], "blank"), ([1, 2, 3, 4, 6], "blank")])
    g.play("p1", "brawl:p2")
    g.play("p1", "keep:1,1,1")
    g.play("p1", "stop")
    text = render_text(g.view(None), NAMES)
    assert "Brawl vs Bob" in text and "Attack score: 1,000" in text and "Waiting for Bob" in text


def test_text_announces_the_winner() -> None:
    g = setup([([2, 2, 3, 3, 4, 6], "rally"), ([2, 2, 3, 3, 4, 6], "dragon")], armies={"p1": 5000})
    g.play("p1", "battle")
    g.play("p1", "roll")
    assert "Alice slew the dragon!" in render_text(g.view(None), NAMES)


def test_png_is_a_readable_image_and_hides_nothing_it_was_not_given() -> None:
    g = _recruit_mid_turn()
    data = render_png(g.view(None), NAMES)
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG" and img.size == (720, 420)
    # The spectator view has no item names to draw; the renderer only reads the view.
    assert "my_items" not in g.view(None)
    assert render_png(g.view(None), NAMES) == data  # deterministic


def test_png_changes_with_the_dice_and_the_dragon() -> None:
    g = setup([([1, 2, 3, 3, 4, 6], "rally")], armies={"p1": 6000})
    before = render_png(g.view(None), NAMES)
    g.play("p1", "battle")
    after = render_png(g.view(None), NAMES)
    assert before != after


def test_paused_battle_roll_asks_for_what_its_button_says() -> None:
    # A held Magic Item pauses the Final Battle roll: the board's button is "Resolve the roll".
    g = setup([([1, 2, 3, 3, 4, 6], "blank")], armies={"p1": 6000}, hands={"p1": ["lucky_charm"]})
    g.play("p1", "battle")
    assert g.view(None)["phase"] == "roll" and g.describe_action("p1", "accept") == "Resolve the roll"
    assert "Waiting for Alice: resolve the roll" in render_text(g.view(None), NAMES)


def test_a_finished_board_shows_the_last_round_and_nobody_to_play():
    import random

    from engine.farkle import FarkleGame

    g = FarkleGame.new(["p1", "p2"], 5, max_rounds=1)
    rng = random.Random(1)
    while not g.is_over:
        seat = g.to_act()[0]
        g.play(seat, rng.choice(g.legal_actions(seat)))
    board = render_text(g.view(None), {"p1": "ann", "p2": "bo"})
    assert "round 1/1" in board and "round 2" not in board  # the counter passes the limit as it ends
    assert not any(line.startswith(">") for line in board.splitlines())  # nobody is "to play" any more
    assert "1 round played" in board
