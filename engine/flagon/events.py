"""What Flagon's events carry besides their text: typed readers of ``Event.data``.

The Discord UI folds a revealed card, its effects and the time token's move into one board
line; it reads these fields, never the wording of ``Event.text`` (rewording an event must not
break the board). Events saved before a field existed (an outbox row queued by an older bot)
lack it: the readers then return None and the UI shows the event's text as it is.
"""

from __future__ import annotations

from typing import TypedDict

from engine.base import Event
from engine.flagon.rules import cname


class CardRevealed(TypedDict):
    """A character's planned card turned face up as it acts (kind ``reveal``)."""

    owner: str  # the seat playing the character
    char: str  # character id
    card: str  # card id


class TokenMoved(TypedDict):
    """The acting character's time token moving on after its card (kind ``token``)."""

    char: str
    facing: str  # the facing it ends its action with (N, E, S, W)
    cost: int  # spaces moved
    space: int  # the space it now stands on


def card_revealed(event: Event) -> CardRevealed | None:
    """The reveal of a planned card at the start of an action, or None (another event, a
    Vision becoming a card, or an event saved without data)."""
    data = event.data
    if event.kind != "reveal" or not all(isinstance(data.get(k), str) for k in ("owner", "char", "card")):
        return None
    return CardRevealed(owner=data["owner"], char=data["char"], card=data["card"])


def token_moved(event: Event) -> TokenMoved | None:
    """The time token's move that ends an action, or None (another event, a token pushed by
    a card, or an event saved without data)."""
    data = event.data
    if (
        event.kind != "token"
        or not isinstance(data.get("char"), str)
        or not isinstance(data.get("facing"), str)
    ):
        return None
    if not isinstance(data.get("cost"), int) or not isinstance(data.get("space"), int):
        return None
    return TokenMoved(char=data["char"], facing=data["facing"], cost=data["cost"], space=data["space"])


def order_text(space: int, order: list[str]) -> str:
    """The line announcing a time step's acting order ("Time step 4: Jack, Mo act, in this order.")."""
    names = [cname(c) for c in order]
    if len(names) == 1:
        return f"Time step {space}: {names[0]} acts."
    return f"Time step {space}: " + ", ".join(names) + " act, in this order."
