"""The Flagon AI levels (issue 28): deterministic per seed, only legal plans, within the time
budget (CPU time), hard turning to feed its next card, and the removed ``expert`` playing hard."""

from __future__ import annotations

import time

import pytest

from engine.flagon import new_game
from engine.flagon.ai import choose_action
from engine.flagon.game import FlagonGame
from tests.engine.flagon_support import position, step

LEVELS = ("easy", "medium", "hard")
BUDGET_S = 1.0  # hard, CPU time per decision (issue 28)


def _positions() -> list[FlagonGame]:
    """A few fixed positions of one seeded game (medium against medium): the first plans, an early
    brawl, a middle game, before the end; 2 and 4 seats."""
    out = []
    for players, stops in ((["p1", "p2"], (8, 30, 60, 95)), (["p1", "p2", "p3", "p4"], (16, 70, 140))):
        g = new_game(players, 7)
        k = 0
        while not g.is_over and k <= max(stops):
            if k in stops:
                out.append(FlagonGame.from_dict(g.to_dict()))
            p = g.to_act()[0]
            g.play(p, choose_action(g, p, "medium", k))
            k += 1
    assert len(out) == 7
    return out


POSITIONS = _positions()


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_is_deterministic_per_seed(level):
    for g in POSITIONS:
        p = g.to_act()[0]
        a = choose_action(FlagonGame.from_dict(g.to_dict()), p, level, 12345)
        b = choose_action(FlagonGame.from_dict(g.to_dict()), p, level, 12345)
        assert a == b
        assert a in g.legal_actions(p)


def test_no_level_ever_plans_an_illegal_card():
    """A four-seat game, one player of each level and a second hard (its first 120 answers, to keep
    the test short): every answer, every planned card legal."""
    g = new_game(["p1", "p2", "p3", "p4"], 3)
    level_of = dict(zip(g.players, (*LEVELS, "hard"), strict=True))
    plans = 0
    i = 0
    while not g.is_over and i < 120:
        p = g.to_act()[0]
        a = choose_action(g, p, level_of[p], i)
        assert a in g.legal_actions(p), (level_of[p], a)
        plans += a.startswith("plan:")
        g.play(p, a)
        i += 1
    assert plans > 30


def test_hard_decides_within_a_second_of_cpu():
    """CPU time (time.process_time), not wall time: the machine's cores are shared."""
    worst = 0.0
    for g in POSITIONS:
        p = g.to_act()[0]
        t = time.process_time()
        choose_action(g, p, "hard", 99)
        worst = max(worst, time.process_time() - t)
    assert worst <= BUDGET_S


def _charge_next() -> FlagonGame:
    """Thras (p1, e5) stays put with Move and has Charge next: Asma stands right north of him
    (the nearest enemy; a Charge north is blocked), Montero two squares east (a Charge east hits)."""
    g = position(
        {"thras": ("p1", "e5", "N"), "asma": ("p2", "e4", "S"), "montero": ("p2", "g5", "W")}, flagon=None
    )
    step(g, {"thras": ["move", "charge"]})
    g.play("p1", "to:thras:stay")
    assert g.legal_actions("p1") == [f"face:thras:{f}" for f in "ENSW"]
    return g


def test_hard_turns_to_where_its_next_card_hits():
    assert choose_action(_charge_next(), "p1", "hard", 1) == "face:thras:E"


def test_medium_turns_to_the_nearest_enemy():
    """What makes medium weaker: it faces the nearest enemy, whatever its next card needs."""
    assert choose_action(_charge_next(), "p1", "medium", 1) == "face:thras:N"


def test_the_removed_expert_level_plays_hard():
    for g in POSITIONS[:3]:
        p = g.to_act()[0]
        assert choose_action(g, p, "expert", 8) == choose_action(g, p, "hard", 8)
