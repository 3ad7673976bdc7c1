"""The effect registry and the card file agree: one source of effect names."""

from __future__ import annotations

import pytest

from engine.flagon.cards import load_cards
from engine.flagon.effects import HANDLERS, effect


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
