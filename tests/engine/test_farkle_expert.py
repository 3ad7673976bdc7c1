"""Dragon Farkle ``expert``: decisions from the shipped game-state table (expected turns to win).

The table is solved offline (``python -m bench.farkle_table``); these tests re-solve slices of it
and check that the shipped file is that solution and that the AI follows it.
"""

from __future__ import annotations

import pytest

from engine.farkle import new_game, turn_solver
from engine.farkle.ai import choose_action
from engine.farkle.turn_solver import A_MAX, KEEP_MIN_ARMY, STEP, battle_outcomes, recruit_costs, shipped
from tests.engine.farkle_support import setup

SLICE = (0, 2500, 4000, 4650, 4950)  # armies whose Recruit turns are re-solved here
TOLERANCE = 5e-4  # turns: the shipped value iteration stopped within this of its fixed point


@pytest.fixture(scope="module")
def fresh() -> dict[int, tuple[list[list[float]], list[list[float]]]]:
    table = shipped()
    return {a: recruit_costs(a, table.army_cost(a), table.army_cost) for a in SLICE}


def test_shipped_turn_values_are_a_fixed_point_of_a_fresh_solution(fresh) -> None:
    """T(a) = 1 + the expected T after one optimal turn, below the Keep (Recruit) and above it
    (the Final Battle), recomputed here from scratch."""
    table = shipped()
    for a, (_, roll) in fresh.items():
        assert table.army_cost(a) == pytest.approx(1.0 + roll[6][0], abs=TOLERANCE)
    wins, lost = battle_outcomes()
    for x in range(KEEP_MIN_ARMY // STEP, A_MAX // STEP + 1, 10):
        expect = 1.0 + sum(p * table.T[y] for y, p in lost[x].items())
        assert table.T[x] == pytest.approx(expect, abs=TOLERANCE)
        assert 0.3 < wins[x] < 0.45  # the spec's "roughly 40 % of battles are won"


def test_shipped_costs_and_stops_equal_a_fresh_computation(fresh) -> None:
    table = shipped()
    for a, (best, roll) in fresh.items():
        for n in range(1, 7):
            for i in range(1, (A_MAX - a) // STEP + 1):
                t = i * STEP
                assert table.cost(a, n, t) == pytest.approx(best[n][i], abs=1 / turn_solver.QUANTUM_SCALE)
                if abs(best[n][i] - roll[n][i]) > 1e-9:  # an exact tie may go either way
                    assert table.should_stop(a, n, t) == (best[n][i] < roll[n][i])


def test_expert_never_stops_when_rolling_is_worth_more(fresh) -> None:
    """By the exact turn solution: wherever the expert stops, rolling on is not better."""
    table = shipped()
    stops = 0
    for a, (_, roll) in fresh.items():
        for n in range(1, 7):
            for i in range(1, (A_MAX - a) // STEP + 1):
                if table.should_stop(a, n, i * STEP):
                    stops += 1
                    assert roll[n][i] >= table.army_cost(a + i * STEP) - 1e-12
    assert stops > 100  # the check is not empty


def test_expert_rolls_on_with_fresh_dice_where_hard_banks_at_the_keep() -> None:
    """Army 4,600 and 400 banked with six fresh dice: hard banks (the Keep is reached); rolling
    six dice risks little and more soldiers survive the battle better, so the expert rolls."""
    g = setup([([1, 1, 5, 5, 2, 3], "blank"), ([5, 5], "blank")], armies={"p1": 4600})
    g.play("p1", "recruit")
    g.play("p1", "keep:1,1,5,5")
    g.play("p1", "roll")
    g.play("p1", "keep:5,5")
    assert (g.s["total"], g.s["pool"]) == (400, 0)
    assert choose_action(g, "p1", "hard", 0) == "stop"
    table = shipped()
    rolling_better = not table.should_stop(4600, 6, 400)
    assert choose_action(g, "p1", "expert", 0) == ("roll" if rolling_better else "stop")
    assert rolling_better


def test_expert_plays_whole_games_and_falls_back_to_hard_under_other_rules() -> None:
    for seed in range(2):
        g = new_game(["p1", "p2"], seed)
        for k in range(5000):
            if g.is_over:
                break
            p = g.to_act()[0]
            a = choose_action(g, p, "expert", k)
            assert a in g.legal_actions(p)
            g.play(p, a)
        assert g.is_over
    g = setup([([1, 1, 5, 5, 2, 3], "blank")], armies={"p1": 4600}, dragon_eats="turn")
    g.play("p1", "recruit")
    assert choose_action(g, "p1", "expert", 0) == choose_action(g, "p1", "hard", 0)


def test_expert_keeps_by_the_table() -> None:
    """Three 1s (1,000 soldiers) beat a single 1 with five dice left: the expert keeps them."""
    g = setup([([1, 1, 1, 2, 4, 5], "blank")], armies={"p1": 2850})
    g.play("p1", "recruit")
    keep = choose_action(g, "p1", "expert", 0)
    assert keep in ("keep:1,1,1", "keep:1,1,1,5")
    table = shipped()
    left = 3 if keep == "keep:1,1,1" else 2
    gain = 1000 if left == 3 else 1050
    assert table.cost(2850, left, gain) < table.cost(2850, 5, 100)
