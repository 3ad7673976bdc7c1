"""The one table of card effects: ``@effect("name")`` registers a handler under the name that
``data/cards.toml`` gives in a card's ``effect`` field.

A handler gets the rules for the game state, the acting character and the card, and returns the
time cost when it differs from the card's printed time (``None``: the printed time).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from engine.flagon.cards import Card
    from engine.flagon.rules import Rules

Handler = Callable[["Rules", str, "Card"], "int | None"]
H = TypeVar("H", bound=Handler)

HANDLERS: dict[str, Handler] = {}


def effect(name: str) -> Callable[[H], H]:
    """Register the decorated function as the handler of effect ``name``."""

    def register(handler: H) -> H:
        if name in HANDLERS:
            raise ValueError(f"effect `{name}` has two handlers")
        HANDLERS[name] = handler
        return handler

    return register
