"""The red requirements a card may print (``requires`` in ``data/cards.toml``), registered by
name with ``@requirement("name")``. A card whose requirement does not hold when it is revealed is
cancelled; the AI also uses them to plan only cards that could work now."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from engine.flagon import geometry as G
from engine.flagon.board import DRINKS, PRIZES, THROWABLE

if TYPE_CHECKING:
    from engine.flagon.cards import Card
    from engine.flagon.rules import Rules

Check = Callable[["Rules", str, "Card"], bool]
C = TypeVar("C", bound=Check)

REQUIREMENTS: dict[str, Check] = {}


def requirement(name: str) -> Callable[[C], C]:
    """Register the decorated function as the check of requirement ``name``."""

    def register(check: C) -> C:
        if name in REQUIREMENTS:
            raise ValueError(f"requirement `{name}` has two checks")
        REQUIREMENTS[name] = check
        return check

    return register


@requirement("on_table")
def on_table(r: Rules, cid: str, card: Card) -> bool:
    return r.table_at(r.pos(cid)) is not None


@requirement("holding_throwable")
def holding_throwable(r: Rules, cid: str, card: Card) -> bool:
    # RB: "the Flagon is treated exactly like a Mug. Any action that uses a Mug can use the Flagon
    # instead", so by default it is thrown like a mug. Option ``flagon_not_thrown``: the prize
    # stays in hand, and a Throw holding it is cancelled like a Throw with empty hands.
    held = r.ch(cid)["held"]
    if held in PRIZES and r.s["options"].get("flagon_not_thrown", False):
        return False
    return held in THROWABLE


@requirement("holding_drink")
def holding_drink(r: Rules, cid: str, card: Card) -> bool:
    return r.ch(cid)["held"] in DRINKS


@requirement("facing_table")
def facing_table(r: Rules, cid: str, card: Card) -> bool:
    ah = r.ahead(cid)
    return r.table_at(ah) is not None and r.table_at(ah) != r.table_at(r.pos(cid))


@requirement("barrel_here_or_ahead")
def barrel_here_or_ahead(r: Rules, cid: str, card: Card) -> bool:
    p, ah = r.pos(cid), r.ahead(cid)
    return G.name(p) in r.s["barrels"] or (r.inb(ah) and G.name(ah) in r.s["barrels"])


@requirement("facing_rug_off_it")
def facing_rug_off_it(r: Rules, cid: str, card: Card) -> bool:
    ah = r.ahead(cid)
    return r.rug_at(ah) is not None and r.rug_at(ah) != r.rug_at(r.pos(cid))


@requirement("table_here_or_ahead")
def table_here_or_ahead(r: Rules, cid: str, card: Card) -> bool:
    return r.table_at(r.pos(cid)) is not None or r.table_at(r.ahead(cid)) is not None


@requirement("ahead_free_same_height")
def ahead_free_same_height(r: Rules, cid: str, card: Card) -> bool:
    p, ah = r.pos(cid), r.ahead(cid)
    return r.inb(ah) and r.who(ah) is None and (r.table_at(ah) is None) == (r.table_at(p) is None)


@requirement("ahead_free_not_up")
def ahead_free_not_up(r: Rules, cid: str, card: Card) -> bool:
    p, ah = r.pos(cid), r.ahead(cid)
    return r.inb(ah) and r.who(ah) is None and not (r.table_at(p) is None and r.table_at(ah))


@requirement("shadow_step")
def shadow_step(r: Rules, cid: str, card: Card) -> bool:
    return bool(r.chars_in(r.board_squares(cid, card.squares), exclude=cid)) or (
        r.has(cid, "shadow_dash") and len(r.s["chars"]) > 1
    )
