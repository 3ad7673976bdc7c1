"""Dragon Farkle ``expert``: decisions from the shipped win-probability table.

The table is solved offline (``python -m bench.farkle_winprob``, numpy). These tests re-solve
Recruit turns from the shipped values with the pure-Python turn solution
(:func:`engine.farkle.turn_solver.recruit_costs`) and check that the shipped stop decisions are
that solution's and that the expert, in real games, never stops where rolling on wins more often.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from engine.farkle import FarkleGame, new_game
from engine.farkle.ai import KEEP_MIN_ARMY, STEP, choose_action
from engine.farkle.turn_solver import A_MAX, battle_outcomes, recruit_costs
from engine.farkle.winprob import shipped
from tests.engine.farkle_support import setup

TOLERANCE = 2e-4  # the value iteration stopped within 1e-5; the shipped values are 1/65535ths


@cache
def turn(mine: int, theirs: int) -> tuple[list[list[float]], list[list[float]]]:
    """The exact Recruit turn from the shipped values: ``(best, roll)`` chances to lose."""
    table = shipped()
    return recruit_costs(mine, table.after_turn(mine, theirs), lambda x: table.after_turn(x, theirs))


PAIRS = ((0, 0), (2500, 3000), (4000, 1000), (4650, 4800), (4950, 5200), (3000, 6000))


def test_shipped_values_are_a_fixed_point() -> None:
    """lose(m, o) is the best of Recruit and (from 5,000) the Final Battle, recomputed here,
    or a Brawl that is better still; the first player is favoured but not by much."""
    table = shipped()
    wins, lost = battle_outcomes()
    for m, o in PAIRS:
        _, roll = turn(m, o)
        options = {"recruit": roll[6][0]}
        if m >= KEEP_MIN_ARMY:
            options["battle"] = sum(p * table.after_turn(y * STEP, o) for y, p in lost[m // STEP].items())
        plan, _ = table.action(m, o)
        best = min(options.values())
        if plan in options:
            assert table.lose(m, o) == pytest.approx(options[plan], abs=TOLERANCE)
            assert options[plan] <= best + TOLERANCE
        else:  # a Brawl: it must beat the others
            assert table.lose(m, o) <= best + TOLERANCE
    assert 0.40 < table.lose(0, 0) < 0.5


def test_shipped_stops_are_the_exact_turn_solution() -> None:
    table = shipped()
    checked = 0
    for m, o in PAIRS:
        best, roll = turn(m, o)
        for n in range(1, 7):
            for i in range(1, (A_MAX - m) // STEP + 1):
                if abs(best[n][i] - roll[n][i]) > TOLERANCE:  # near-ties may go either way
                    checked += 1
                    stop = roll[n][i] > table.after_turn(m + i * STEP, o)
                    assert table.should_stop(m, o, n, i * STEP) == stop, (m, o, n, i)
    assert checked > 1000


def test_expert_never_stops_when_rolling_on_wins_more_often() -> None:
    """Whole games, expert against hard: at every Recruit stop the expert makes, the exact turn
    solution says rolling on would not have won more often."""
    stops = 0
    for seed in range(6):
        g = new_game(["p1", "p2"], seed, first_player="lobby")
        levels = {"p1": "expert", "p2": "hard"} if seed % 2 == 0 else {"p1": "hard", "p2": "expert"}
        for k in range(3000):
            if g.is_over:
                break
            p = g.to_act()[0]
            a = choose_action(g, p, levels[p], k)
            s = g.s
            if levels[p] == "expert" and s["phase"] == "decide" and s["action"] == "recruit" and a != "roll":
                mine, theirs = s["armies"][p], s["armies"]["p2" if p == "p1" else "p1"]
                i, n = s["total"] // STEP, s["pool"] or s["full"]
                if i <= (A_MAX - mine) // STEP:
                    _, roll = turn(mine, theirs)
                    assert roll[n][i] >= shipped().after_turn(mine + s["total"], theirs) - TOLERANCE
                stops += 1
            g.play(p, a)
        assert g.is_over
    assert stops > 10


def keep_reached_with_hot_dice(**options: Any) -> FarkleGame:
    """Army 4,600 and 400 banked with six fresh dice against a rival at 4,000."""
    g = setup([([1, 1, 5, 5, 2, 3], "blank"), ([5, 5], "blank")], armies={"p1": 4600, "p2": 4000}, **options)
    g.play("p1", "recruit")
    g.play("p1", "keep:1,1,5,5")
    g.play("p1", "roll")
    g.play("p1", "keep:5,5")
    assert (g.s["total"], g.s["pool"]) == (400, 0)
    return g


def test_expert_rolls_on_with_fresh_dice_where_medium_banks_at_the_keep() -> None:
    """medium banks (the Keep is reached); the expert rolls on, as the exact turn solution says."""
    g = keep_reached_with_hot_dice()
    assert choose_action(g, "p1", "medium", 0) == "stop"
    _, roll = turn(4600, 4000)
    assert roll[6][8] < shipped().after_turn(5000, 4000)  # rolling on loses less often
    assert choose_action(g, "p1", "expert", 0) == "roll"


def test_expert_plays_whole_games_at_three_seats_and_knows_the_score_under_other_rules() -> None:
    """Under rules the win table was not solved for, the expert plays the exact turn solution
    aware of the score: it banks when the bank reaches the Keep (hard, blind to it, rolls on)."""
    for seed in range(2):
        g = new_game(["p1", "p2", "p3"], seed)
        for k in range(5000):
            if g.is_over:
                break
            p = g.to_act()[0]
            a = choose_action(g, p, "expert", k)
            assert a in g.legal_actions(p)
            g.play(p, a)
        assert g.is_over
    g = keep_reached_with_hot_dice(dragon_eats="turn")
    assert choose_action(g, "p1", "expert", 0) == "stop"
    assert choose_action(g, "p1", "hard", 0) == "roll"


def test_expert_chooses_its_action_from_the_table() -> None:
    """At the start of a turn the expert does what the table's best action is (hard always
    attacks the dragon from 5,000)."""
    seen = set()
    for mine, theirs in ((5000, 1000), (5200, 6000), (1000, 5000), (2000, 2000), (6500, 3000)):
        g = setup([], armies={"p1": mine, "p2": theirs})
        plan, _ = shipped().action(mine, theirs)
        want = {"recruit": "recruit", "battle": "battle", "brawl": "brawl:p2"}[plan]
        assert choose_action(g, "p1", "expert", 0) == want
        seen.add(plan)
    assert "battle" in seen and "recruit" in seen
