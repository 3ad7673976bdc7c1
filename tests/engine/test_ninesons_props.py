"""Property tests over random Nine Sons games (hypothesis): dice and cards conserved, scores
match tamed cards, only a stack's owner moves it, the deck's order stays hidden. The engine
contract (sorted legal actions, none for the other player, round trip, copy, restore mid-game
and continue, replay) is checked in test_contract.py."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.ninesons import NineSonsGame, new_game
from engine.ninesons.core import CELL_INDEX
from engine.ninesons.notation import exact_legal_action

P = ["p1", "p2"]


def check_invariants(g: NineSonsGame) -> None:
    s = g.st
    # dice conserved: 12 minus those ChiWen removed
    on_board = [0, 0]
    for c in s.cells:
        assert len(c) <= 3
        for d in c:
            on_board[d >> 3] += 1
            assert 1 <= d & 7 <= 6
    for p in (0, 1):
        assert on_board[p] + len(s.reserve[p]) + len(s.removed[p]) == 6
    assert sum(on_board) + len(s.reserve[0]) + len(s.reserve[1]) == 12 - len(s.removed[0]) - len(s.removed[1])
    # removed dice only through ChiWen, one per ChiWen tame
    chiwen = [sum(1 for ci in s.tamed[p] if g.cards[ci].rule == "chiwen") for p in (0, 1)]
    assert [len(s.removed[0]), len(s.removed[1])] == chiwen
    # holes hold no dice; cards are conserved (board + deck + tamed = 9)
    for i, c in enumerate(s.cells):
        if not s.exists(i):
            assert not c
    cards = [k for k in s.slots if k >= 0] + s.deck + s.tamed[0] + s.tamed[1]
    assert sorted(cards) == list(range(9))
    # scores match tamed cards
    for p in (0, 1):
        assert s.score[p] == sum(g.cards[ci].points for ci in s.tamed[p])
    if not g.is_over:
        who = g.to_act()[0]
        for a in g.legal_actions(who):
            if "-" in a and not a.startswith("tame"):
                start = g.st.cells[CELL_INDEX[a.split("-")[0]]]
                # a stack's top die is movable only by its owner
                assert start and g.players[start[-1] >> 3] == who
                assert len(a.split("-")) == len(start) + 1


def play_random(seed: int, choices: list[int], options: dict) -> NineSonsGame:
    g = new_game(P, seed, **options)
    i = 0
    while not g.is_over and i < 400:
        who = g.to_act()[0]
        acts = g.legal_actions(who)
        g.play(who, acts[choices[i % len(choices)] % len(acts)])
        check_invariants(g)
        i += 1
    return g


options_st = st.fixed_dictionaries(
    {
        "compare_die": st.sampled_from(["hand_top", "dropped_die"]),
        "first_player": st.sampled_from(["random", "first", "second"]),
    }
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=60),
    options=options_st,
)
def test_random_games_keep_invariants(seed, choices, options):
    play_random(seed, choices, options)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), choices=st.lists(st.integers(0, 999), min_size=1, max_size=30))
def test_view_never_reveals_deck_order(seed, choices):
    g = new_game(P, seed)
    for i in range(25):
        if g.is_over:
            break
        v = g.view(None)
        assert set(v["deck"]) == {"count", "contents"}
        assert v["deck"]["contents"] == sorted(v["deck"]["contents"])
        assert "deck" not in json.dumps({k: x for k, x in v.items() if k != "deck"})
        who = g.to_act()[0]
        acts = g.legal_actions(who)
        g.play(who, acts[choices[i % len(choices)] % len(acts)])


def every_text_a_click_could_send(g: NineSonsGame) -> list[str]:
    """Placements and moves over every cell (legal or not), in the forms players type."""
    cells = list(CELL_INDEX)
    texts = [f"{v}@{c}" for v in range(0, 8) for c in cells] + ["03@a1", "3@z9", "@a1", "x@a1"]
    texts += [f"{a}-{b}" for a in cells for b in cells] + [f"{a.upper()} -> {b}" for a in cells[:4] for b in cells]
    texts += ["-".join(path) for path in (("a1", "a2", "b2"), ("b2", "b1", "c1", "c2"), ("a1",), ("a1", "q1"))]
    return texts + g.legal_actions(g.to_act()[0]) if not g.is_over else texts


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), choices=st.lists(st.integers(0, 999), min_size=1, max_size=40))
def test_a_click_is_accepted_exactly_when_the_legal_list_has_it(seed, choices):
    """play() checks a placement or move by reading it (not by writing out every legal action):
    it accepts a text exactly when its normalised form is among legal_actions, as before."""
    g = new_game(P, seed)
    for i in range(30):
        if g.is_over:
            break
        who = g.to_act()[0]
        legal = {a.lower() for a in g.legal_actions(who)}
        for text in every_text_a_click_could_send(g):
            key = text.strip().lower().replace(" ", "").replace("->", "-")
            assert (exact_legal_action(g.st, key) or g._legal_map().get(key)) == g._legal_map().get(key)
            assert (g._legal_map().get(key) is not None) == (key in legal)
            if key in legal and g.st.pending is None:  # the fast reading finds every legal one
                assert exact_legal_action(g.st, key) == g._legal_map()[key]
        acts = g.legal_actions(who)
        g.play(who, acts[choices[i % len(choices)] % len(acts)])
