"""engine.handbook: the rules texts players read and the card catalogue of every game."""

from __future__ import annotations

import pytest

from engine import handbook, registry
from engine.farkle import score
from engine.farkle.cards import default_cards
from engine.flagon.cards import load_cards as flagon_cards
from engine.ninesons.cards import load_cards as ninesons_cards


@pytest.mark.parametrize("game", registry.BUILTIN_GAMES)
def test_every_built_in_game_has_rules_in_sections(game):
    sections = handbook.rules_sections(game)
    assert len(sections) >= 5 and sections[0].title == "Overview"
    assert all(s.title and s.text for s in sections)
    assert len({s.title for s in sections}) == len(sections)


def test_no_name_a_user_types_selects_a_file():
    for typed in ("../../etc/passwd", "farkle/../ninesons", "", "FARKLE"):
        with pytest.raises(KeyError):
            handbook.rules_sections(typed)


def test_the_farkle_scoring_page_says_what_the_engine_scores():
    (page,) = [s.text for s in handbook.rules_sections("farkle") if s.title == "Scoring table"]
    shown = {  # line of the page -> (dice, soldiers)
        "A single 1: **100**": ([1], 100),
        "A single 5: **50**": ([5], 50),
        "Three 1s: **1,000**": ([1, 1, 1], 1000),
        "Four of a kind, any face: **1,500**": ([3, 3, 3, 3], 1500),
        "Three pairs (all six dice): **2,000**": ([2, 2, 4, 4, 6, 6], 2000),
        "Six of a kind: **2,500**": ([4] * 6, 2500),
        "A straight 1-2-3-4-5-6: **3,000**": ([1, 2, 3, 4, 5, 6], 3000),
        "make 200 + 400 = 600": ([2, 2, 2, 4, 4, 4], 600),
    }
    for line, (dice, value) in shown.items():
        assert line in page
        assert score(dice) == value, line
    assert "**200, 300, 400, 500 or 600**" in page
    assert [score([face] * 3) for face in range(2, 7)] == [200, 300, 400, 500, 600]


def test_the_card_catalogue_holds_every_card_of_every_game_once():
    cards = handbook.all_cards()
    assert len({c.key for c in cards}) == len(cards)
    by_game = {game: [c for c in cards if c.game == game] for game in registry.BUILTIN_GAMES}
    farkle = default_cards()
    assert len(by_game["farkle"]) == len(farkle.companions) + len(farkle.items)
    assert len(by_game["ninesons"]) == len(ninesons_cards()) == 9
    assert len(by_game["flagon"]) == len(flagon_cards()) == 58
    assert all(c.text and c.status for c in cards)


def test_cards_are_found_by_key_or_name_in_any_case_and_near_misses_suggested():
    assert handbook.find_card("farkle:sack_of_holding").name == "Sack of Holding"  # type: ignore[union-attr]
    assert handbook.find_card("  sack   of HOLDING ").name == "Sack of Holding"  # type: ignore[union-attr]
    assert handbook.find_card("Sack") is None
    assert [c.name for c in handbook.similar_cards("Backstabb")][:1] == ["Backstab"]
    assert handbook.similar_cards("qqqqqq") == []


def test_reconstructed_values_are_labelled_as_such():
    cards = {c.key: c for c in handbook.all_cards()}
    assert "Reconstruction" in cards["ninesons:yazi"].status
    assert "Points: -2 (reconstruction)" in cards["ninesons:yazi"].details
    move = cards["flagon:move"]
    assert "Time: 1 or 2 (from the rulebook)" in move.details and "Reconstruction" in move.status
    assert cards["farkle:scout"].status.startswith("House design")
