"""The Nine Sons of the Dragon: rulebook sentences no other test checked (docs/rules-map/ninesons.md).

Each test quotes the sentence of the rulebook it checks, with its map id."""

from __future__ import annotations

import random

import pytest

from engine.base import InvalidSetup
from engine.ninesons import NineSonsGame, new_game
from engine.ninesons.core import CELL_INDEX

P = ["alice", "bob"]
A, B = P


def test_exactly_two_players() -> None:
    """NS-1.7: "…is a chess game that supports 2 players…"."""
    with pytest.raises(InvalidSetup, match="exactly 2"):
        new_game(["a", "b", "c"], 1)
    with pytest.raises(InvalidSetup):
        new_game(["a"], 1)
    assert new_game(P, 1).players == P


def test_a_tame_with_an_empty_deck_leaves_a_hole() -> None:
    """NS-8.6/8.7: "Turn over a new dragon son card from the deck and place it where the tamed
    dragon son card was… If the deck is empty at this time, ignore this step." The tamed card's
    two grids are gone: nobody can place or move there any more."""
    g = NineSonsGame.from_position(P, {"c1": "B1 B2", "c2": "A6"}, deck=[])
    g.play(A, "c2-c1")  # alice's 6 tops c1 (QiuNiu on slot S2): tamed, no card to replace it
    assert g.st.score == [1, 0]
    assert g.view(None)["slots"][1]["hole"] is True
    assert not any(a.endswith(("@c1", "@d1")) for a in g.legal_actions(B))
    assert not g.st.cells[CELL_INDEX["c1"]] and not g.st.cells[CELL_INDEX["d1"]]


def test_a_tame_with_cards_in_the_deck_fills_the_space() -> None:
    """NS-8.6, the other half: with a card in the deck the space is filled at once."""
    g = NineSonsGame.from_position(P, {"c1": "B1 B2", "c2": "A6"}, deck=["BiAn"])
    g.play(A, "c2-c1")
    slot = g.view(None)["slots"][1]
    assert slot["hole"] is False and slot["card"]["name"] == "BiAn"
    assert "1@c1" in g.legal_actions(B)


@pytest.mark.parametrize("seed", range(6))
def test_dice_keep_their_points_unless_pulao_changes_them(seed: int) -> None:
    """NS-3.2: "Normally, the points on this dice cannot be changed." Through whole random games
    each player's dice stay 1 to 6 (wherever they are: reserve, board, removed by ChiWen) until
    that player tames PuLao (NS-9.11), the one card that changes them."""
    r = random.Random(seed)
    g = new_game(P, seed)
    pulao = g._index["PuLao"]
    while not g.is_over:
        for seat in (0, 1):
            if pulao in g.st.tamed[seat]:
                continue
            on_board = [d & 7 for cell in g.st.cells for d in cell if d >> 3 == seat]
            assert sorted(on_board + g.st.reserve[seat] + g.st.removed[seat]) == [1, 2, 3, 4, 5, 6]
        (who,) = g.to_act()
        g.play(who, r.choice(g.legal_actions(who)))
