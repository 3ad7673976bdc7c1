"""Nine Sons AI: legal, deterministic, tactically sane, blind to the deck order.

Strength and speed are measured by bench/ninesons.py, not here.
"""

from __future__ import annotations

import random

import pytest

from engine.ninesons import NineSonsGame, new_game
from engine.ninesons.ai import choose_action

P = ["alice", "bob"]
A, B = P
SMALL = 1500  # node budget that keeps these tests fast


def pos(cells, **kw) -> NineSonsGame:
    return NineSonsGame.from_position(P, cells, **kw)


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert", "random", "greedy"])
def test_every_level_returns_a_legal_action(level):
    r = random.Random(5)
    for seed in range(4):
        g = new_game(P, seed)
        for _ in range(r.randrange(0, 25)):
            if g.is_over:
                break
            who = g.to_act()[0]
            g.play(who, r.choice(g.legal_actions(who)))
        if g.is_over:
            continue
        who = g.to_act()[0]
        kw = {"node_budget": SMALL} if level in ("hard", "expert") else {}
        assert choose_action(g, who, level, seed, **kw) in g.legal_actions(who)


def test_unknown_level_and_wrong_player():
    g = new_game(P, 1, first_player="first")
    with pytest.raises(ValueError):
        choose_action(g, A, "grandmaster", 0)
    with pytest.raises(ValueError):
        choose_action(g, B, "easy", 0)


def test_hard_is_deterministic_for_a_seed():
    g = new_game(P, 3)
    r = random.Random(3)
    for _ in range(12):
        who = g.to_act()[0]
        g.play(who, r.choice(g.legal_actions(who)))
    who = g.to_act()[0]
    first = choose_action(g, who, "hard", 9, node_budget=SMALL)
    assert all(choose_action(g, who, "hard", 9, node_budget=SMALL) == first for _ in range(3))


def test_ai_does_not_depend_on_the_deck_order():
    cells = {"c1": "B1 B2", "c2": "A6", "a3": "B4"}
    g1 = pos(cells, deck=["BiAn", "FuXi", "PuLao"])
    g2 = pos(cells, deck=["PuLao", "BiAn", "FuXi"])
    for level in ("medium", "hard", "expert"):
        assert choose_action(g1, A, level, 4, node_budget=SMALL) == choose_action(
            g2, A, level, 4, node_budget=SMALL
        )


@pytest.mark.parametrize("level", ["medium", "hard", "expert", "greedy"])
def test_takes_the_winning_tame(level):
    g = pos({"c1": "B1 B2", "c2": "A6", "a3": "B4"}, slots={"S2": "PuLao"}, deck=["BiAn"], scores=[5, 0])
    assert choose_action(g, A, level, 1, node_budget=SMALL) == "c2-c1"


def test_easy_usually_takes_the_winning_tame():
    g = pos({"c1": "B1 B2", "c2": "A6", "a3": "B4"}, slots={"S2": "PuLao"}, deck=["BiAn"], scores=[5, 0])
    picks = [choose_action(g, A, "easy", seed) for seed in range(20)]
    assert 10 <= picks.count("c2-c1") < 20  # greedy-light, not perfect


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
def test_chooses_to_tame_itself_in_a_contest(level):
    g = pos({"c2": "B4 A6", "c3": "B1 B2", "d3": "A3 B5"}, deck=["BiAn"])
    g.play(A, "c2-c3-d3")
    assert choose_action(g, A, level, 0, node_budget=SMALL) == "tame:S6:d3"


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_does_not_hand_the_opponent_the_game(level):
    # bob has 6 points; a die on the 2-stack at a1 would let bob finish it next turn
    g = pos(
        {"a1": "A2 A3", "b1": "B6"}, scores=[0, 6], deck=["BiAn"], reserves=[[1, 4, 5, 6], [1, 2, 3, 4, 5]]
    )
    act = choose_action(g, A, level, 2, node_budget=4000)
    h = pos(
        {"a1": "A2 A3", "b1": "B6"}, scores=[0, 6], deck=["BiAn"], reserves=[[1, 4, 5, 6], [1, 2, 3, 4, 5]]
    )
    h.play(A, act)
    if not h.is_over:
        # bob has no immediate win after the AI's move
        for reply in h.legal_actions(B):
            k = NineSonsGame.from_dict(h.to_dict())
            k.play(B, reply)
            while k.st.pending is not None and not k.is_over:
                k.play(B, k.legal_actions(B)[0])
            assert not (k.is_over and k.result is not None and k.result.winners == [B]), (act, reply)


def _repetition_position(scores):
    g = pos({"a1": "B3", "c3": "A3"}, turn=0, scores=scores)
    g.play(A, "c3-d3")
    cycle = [(B, "a1-b1"), (A, "d3-c3"), (B, "b1-a1")]
    for who, act in [*cycle, (A, "c3-d3"), *cycle]:
        g.play(who, act)
    # c3-d3 now repeats the position for the third time: the game ends and is scored
    assert "c3-d3" in g.legal_actions(A)
    return g


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_uses_the_repetition_rule(level):
    ahead = _repetition_position([2, 0])
    assert choose_action(ahead, A, level, 0, node_budget=SMALL) == "c3-d3"  # ends the game as the winner
    behind = _repetition_position([0, 2])
    assert choose_action(behind, A, level, 0, node_budget=SMALL) != "c3-d3"  # would end it as the loser


def test_search_depends_on_nodes_not_on_the_clock(monkeypatch):
    """A machine ten times slower (a clock that runs fast) still gives the same move for a seed."""
    import engine.ninesons.ai as ai_mod

    g = new_game(P, 3)
    r = random.Random(7)
    for _ in range(14):
        who = g.to_act()[0]
        g.play(who, r.choice(g.legal_actions(who)))
    who = g.to_act()[0]
    levels = [lv for lv in ai_mod.LEVELS if lv not in ("easy",)]
    normal = {lv: choose_action(g, who, lv, 5) for lv in levels}
    ticks = iter(range(10**9))
    monkeypatch.setattr(ai_mod.time, "perf_counter", lambda: next(ticks) * 0.1)
    slow = {lv: choose_action(g, who, lv, 5) for lv in levels}
    assert slow == normal


def test_expert_reach_matches_the_rules_move_generator():
    """The expert's evaluation walks the moves itself: same cells and count as core.gen_moves."""
    from engine.ninesons import core
    from engine.ninesons.expert import _reach

    r = random.Random(11)
    checked = 0
    for seed in range(6):
        g = new_game(P, seed)
        for _ in range(60):
            if g.is_over:
                break
            masks, counts = _reach(g.st)
            for p in (0, 1):
                moves = core.gen_moves(g.st, p)
                cells = {c for _, path in moves for c in path[1:]}
                assert masks[p] == sum(1 << c for c in cells)
                assert counts[p] == len(moves)
                checked += 1
            who = g.to_act()[0]
            g.play(who, r.choice(g.legal_actions(who)))
    assert checked > 100


def test_expert_null_windows_find_the_same_move_in_fewer_nodes():
    """Principal variation search proves the moves after the first no better with a null window:
    at a fixed depth it must agree with plain alpha-beta on the move and its value, and spend
    fewer nodes (which, under the node budget, is what lets it search deeper)."""
    from engine.ninesons.ai import _determinise
    from engine.ninesons.expert import ExpertSearch
    from engine.rng import Rng

    nodes = {True: 0, False: 0}
    for gseed, plies in ((11, 4), (11, 12), (12, 20), (12, 28)):
        g = new_game(P, gseed, first_player="first")
        for k in range(plies):
            who = g.to_act()[0]
            g.play(who, choose_action(g, who, "medium", k))
        results = {}
        for null_window in (True, False):
            s = ExpertSearch(10**7, 600, Rng(5), null_window=null_window)
            move, value, depth = s.root(_determinise(g, 3), max_depth=4)
            assert depth == 4
            results[null_window] = (move, value)
            nodes[null_window] += s.nodes
        assert results[True] == results[False]
    assert nodes[True] < 0.95 * nodes[False], nodes
