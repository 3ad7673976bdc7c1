"""Property tests over random Dragon Farkle games: soldiers move only through the rules, Magic
Item names never leak into public events, cards are conserved. The engine contract (sorted legal
actions, views without secrets, round trip, copy, replay) is checked in test_contract.py."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.farkle import FarkleGame, new_game
from engine.farkle.cards import default_cards

ITEM_NAMES = [c.name for c in default_cards().items]


def _expected_deltas(events: list, players: list[str]) -> dict[str, int]:
    delta = dict.fromkeys(players, 0)
    for e in events:
        if e.kind == "bank":
            delta[e.data["player"]] += e.data["gain"]
        elif e.kind == "brawl_result":
            delta[e.data["winner"]] += e.data["taken"] + e.data["bonus"]
            delta[e.data["loser"]] -= e.data["taken"]
        elif e.kind == "battle_roll":
            delta[e.data["player"]] -= e.data["loss"]
    return delta


def _card_total(g: FarkleGame) -> int:
    s = g.s
    return (
        len(s["item_deck"])
        + len(s["item_discard"])
        + sum(len(v) for v in s["hands"].values())
        + sum(len(v) for v in s["stuck"].values())
        + sum(len(v) for v in s["pending"].values())
    )


def _playout(seed: int, n_players: int, max_actions: int = 300) -> tuple[FarkleGame, list[tuple[str, str]]]:
    r = random.Random(seed)
    players = [f"p{i + 1}" for i in range(n_players)]
    g = new_game(players, seed, max_rounds=r.choice([0, 0, 8]))
    log: list[tuple[str, str]] = []
    for _ in range(max_actions):
        if g.is_over:
            break
        p = r.choice(g.to_act())
        acts = g.legal_actions(p)
        # Lean towards stopping so that games progress to battles.
        if "stop" in acts and r.random() < 0.5:
            a = "stop"
        elif "battle" in acts and r.random() < 0.7:
            a = "battle"
        else:
            a = r.choice(acts)
        before = dict(g.s["armies"])
        events = g.play(p, a)
        log.append((p, a))
        expected = _expected_deltas(events, g.players)
        for q in g.players:
            assert g.s["armies"][q] - before[q] == expected[q], (a, events)
            assert g.s["armies"][q] >= 0
        assert _card_total(g) == 20
        for e in events:
            if e.to is None and e.kind != "use_item":
                assert not any(name in e.text for name in ITEM_NAMES), e
    return g, log


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 5))
def test_random_games_keep_the_invariants(seed: int, n: int) -> None:
    _playout(seed, n)


def test_some_random_games_finish_with_a_dragon_slayer() -> None:
    winners = 0
    for seed in range(40):
        g, _ = _playout(seed, 2, max_actions=2000)
        if g.is_over and g.result is not None and g.s["winner"]:
            winners += 1
            assert g.result.ranking[0] == [g.s["winner"]]
    assert winners > 0
