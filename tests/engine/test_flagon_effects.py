"""The effect and requirement registries and the card file agree: one source of names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.flagon.cards import CardDataError, load_cards
from engine.flagon.effects import HANDLERS, REQUIREMENTS, effect, requirement

CARDS_TOML = Path(__file__).resolve().parents[2] / "engine" / "flagon" / "data" / "cards.toml"


def test_every_card_effect_has_a_handler():
    cards = load_cards()
    missing = sorted({c.effect for c in cards.values()} - set(HANDLERS))
    assert missing == [], f"cards name effects without a handler: {missing}"


def test_every_handler_is_used_by_some_card():
    used = {c.effect for c in load_cards().values()}
    unused = sorted(set(HANDLERS) - used)
    assert unused == [], f"handlers no card uses: {unused}"
    assert len(HANDLERS) == 34


def test_an_effect_name_cannot_get_a_second_handler():
    with pytest.raises(ValueError, match="effect `move` has two handlers"):

        @effect("move")
        def another_move(r, cid, card):  # pragma: no cover - never registered
            return None

    assert HANDLERS["move"].__name__ == "move"


def test_every_card_requirement_has_a_check_and_every_check_is_used():
    used = {req for c in load_cards().values() for req in c["requires"]}
    assert sorted(used - set(REQUIREMENTS)) == []
    assert sorted(set(REQUIREMENTS) - used) == []
    assert len(REQUIREMENTS) == 10


def test_a_requirement_name_cannot_get_a_second_check():
    with pytest.raises(ValueError, match="requirement `on_table` has two checks"):

        @requirement("on_table")
        def another_on_table(r, cid, card):  # pragma: no cover - never registered
            return True

    assert REQUIREMENTS["on_table"].__name__ == "on_table"


def test_a_card_naming_an_unknown_requirement_is_refused(tmp_path):
    text = CARDS_TOML.read_text()
    old = 'requires = { v = ["holding_throwable"]'
    assert old in text
    bad = tmp_path / "cards.toml"
    bad.write_text(text.replace(old, 'requires = { v = ["juggling"]', 1))
    with pytest.raises(CardDataError, match=re.escape("field `requires`: unknown requirement `juggling`")):
        load_cards(str(bad))
