"""Property tests over random full games (every seat a random legal player): reputation and
cards conserved, hidden plans never shape what others see. The engine contract (sorted legal
actions, planned cards absent from view(None), round trip, copy, replay, a complete ranking) is
checked in test_contract.py."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.flagon import FlagonGame, new_game
from engine.flagon.ai import choose_action
from engine.flagon.cards import deck_of

LAYOUTS = ("first-game", "open-hall", "cellar")


def _hidden_views_invariant(g: FlagonGame) -> None:
    """Views must not change when the hidden cards of other players change. (That view(None)
    shows no planned card the rules did not reveal is test_contract.py's Flagon SECRETS.)"""
    viewers = [None, *g.players]
    before = {v: g.view(v) for v in viewers}
    saved = {cid: list(c["slots"]) for cid, c in g.s["chars"].items()}
    for c in g.s["chars"].values():
        c["slots"] = ["move2" if k != "move2" else "move" for k in c["slots"]]
    for v in viewers:
        after = g.view(v)
        if v is None:
            assert after == before[v], "view(None) depends on hidden cards"
        else:
            mine = set(after.get("me", {}).get("characters", {}))
            a = {k: x for k, x in after.items() if k != "me"}
            b = {k: x for k, x in before[v].items() if k != "me"}
            assert a == b, f"view({v}) depends on other players' hidden cards"
            assert mine == set(before[v].get("me", {}).get("characters", {}))
    for cid, c in g.s["chars"].items():
        c["slots"] = saved[cid]


def _check(g: FlagonGame, n_chars: int, removed_before: int) -> None:
    s = g.s
    assert sum(c["rep"] for c in s["chars"].values()) + s["removed_rep"] == 20 * n_chars
    assert s["removed_rep"] >= removed_before
    assert all(c["rep"] >= 0 for c in s["chars"].values())
    table_squares = {q for sqs in s["tables"].values() for q in sqs}
    assert not set(s["barrels"]) & table_squares, "a barrel under a table"
    if not s["pending"]:
        spots = [c["pos"] for c in s["chars"].values()]
        assert len(spots) == len(set(spots)), "two characters at rest in one square"
    for cid, c in s["chars"].items():
        zones = c["slots"] + c["faceup"] + c["removed"] + c["mat"] + ([c["playing"]] if c["playing"] else [])
        assert len(zones) == len(set(zones)) and set(zones) <= set(deck_of(cid)), (cid, zones)
        assert len(c["slots"]) <= 3
    held = {c["held"] for c in s["chars"].values()}
    for item, at in s["prizes"].items():
        assert (at is None) == (item in held)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 8), flags=st.integers(0, 63))
def test_random_games_keep_invariants(seed, n, flags):
    opts = {
        "extended": bool(flags & 1),
        "team": bool(flags & 2) and n >= 4,
        "late_night": bool(flags & 4),
        "cookies": ("off", "instead", "with")[(flags >> 3) % 3],
        "layout": LAYOUTS[(flags >> 4) % 3],
    }
    players = [f"p{i + 1}" for i in range(n)]
    g = new_game(players, seed, **opts)
    rnd = random.Random(seed)
    removed = 0
    k = 0
    while not g.is_over:
        p = rnd.choice(g.to_act())
        a = rnd.choice(g.legal_actions(p))
        events = g.play(p, a)
        if a.startswith("plan:"):
            card = a.split(":")[3]
            planning = []
            for e in events:  # what is announced before the step's actions start
                if e.kind == "order":
                    break
                planning.append(e)
            assert all(card not in json.dumps(e.to_dict()).lower() for e in planning if e.to is None)
        if g.s["phase"] != "setup":
            n_chars = len(g.s["chars"])
            _check(g, n_chars, removed)
            removed = g.s["removed_rep"]
        k += 1
        if k % 40 == 0 and not g.is_over:  # at the end the last plans are revealed (the result)
            _hidden_views_invariant(g)


def test_eight_character_all_ai_game_finishes():
    players = [f"p{i + 1}" for i in range(8)]
    g = new_game(players, 11)
    i = 0
    while not g.is_over:
        p = g.to_act()[0]
        level = "medium" if p in ("p1", "p2") else "easy"
        a = choose_action(g, p, level, i)
        assert a in g.legal_actions(p)
        g.play(p, a)
        i += 1
    assert g.result is not None
    assert len(g.s["chars"]) == 8 and g.result.ranking


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
def test_ai_does_not_peek_at_hidden_plans(level):
    """The AI's choice is the same whatever the opponent has actually planned."""
    g = new_game(["p1", "p2"], 21)
    while g.s["phase"] == "setup":
        p = g.to_act()[0]
        g.play(p, g.legal_actions(p)[0])
    for _ in range(4):  # p2 plans both characters first
        g.play("p2", g.legal_actions("p2")[0])
    first = choose_action(g, "p1", level, 5)
    for c in g.s["chars"].values():
        if c["owner"] == "p2":
            c["slots"] = ["slash", "charge"]
    assert choose_action(g, "p1", level, 5) == first


def test_hard_samples_the_other_plans_from_its_opponent_model():
    """hard's opponent model fills hidden slots with cards whose requirements hold (the ones a
    player plans); blind samples (medium's) often hold cards the character could not perform."""
    import random as _random

    from engine.flagon.ai_policies import _determinize, _usable
    from engine.flagon.ai_threat import opponent_model

    g = new_game(["p1", "p2"], 21)
    while g.s["phase"] == "setup":
        p = g.to_act()[0]
        g.play(p, g.legal_actions(p)[0])
    for _ in range(4):
        g.play("p2", g.legal_actions("p2")[0])
    theirs = [cid for cid, c in g.s["chars"].items() if c["owner"] == "p2"]
    model = opponent_model(g, "p1")

    def unusable_share(weights) -> float:
        bad = total = 0
        for seed in range(30):
            d = _determinize(g, "p1", _random.Random(seed), weights)
            for cid in theirs:
                for card in d.s["chars"][cid]["slots"]:
                    total += 1
                    bad += f"plan:{cid}:0:{card}" not in _usable(g, [f"plan:{cid}:0:{card}"])
        return bad / total

    assert unusable_share(model) < unusable_share(None)
    assert unusable_share(model) < 0.05
