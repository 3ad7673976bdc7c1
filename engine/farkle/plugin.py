"""What the platform asks of Dragon Farkle besides its rules: its part of the game's plug-in
record (registered in engine/farkle/__init__.py): the result wording, the card catalogue, the
``farkle_cards`` server setting, and what the leak checks and the fuzzer need to know."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from engine.farkle.cards import check_card_counts, default_cards, load_cards
from engine.farkle.game import FarkleGame
from engine.handbook import CardEntry
from engine.registry import GameSetting, View

RULES_FILE = Path(__file__).with_name("data") / "rules.md"
RULES_MAP_PREFIX = "FA"
FUZZ_SETUPS = (("max_rounds=2", 1), ("max_rounds=1 item_limit=2", 2))  # (options, AI seats)

# -- the end of a game -----------------------------------------------------------------------


def standing(view: View) -> dict[str, float]:
    """The scores so far: each seat's army."""
    return dict(view.get("armies") or {})


def final_view(view: View, why: str) -> View:
    """The public view of a game stopped early: the renderers draw "Game over: <why>" for the
    "over" phase (no dragon slain) and mark nobody's turn."""
    return {**view, "phase": "over", "winner": None, "end_reason": why, "current": None, "to_act": []}


# -- the cards -------------------------------------------------------------------------------


def card_catalogue() -> list[CardEntry]:
    """The bundled card set, for /game card."""
    cards = default_cards()
    out = []
    for card in cards.companions + cards.items:
        kind = "Companion" if card.kind == "companion" else "Magic Item"
        details = [
            f"Copies in the deck: {card.copies}",
            "This is the bundled card set; a server may play with its own (/config farkle_cards).",
        ]
        if card.source == "house":
            status = "House design: the official card texts are not public, so this is our own card" + (
                " (the name Sack of Holding is real)." if card.name == "Sack of Holding" else "."
            )
        else:
            status = f"Source: {card.source}."
        out.append(
            CardEntry("farkle", f"farkle:{card.id}", card.name, kind, card.text, tuple(details), status)
        )
    return out


# -- the server's card set: /config set farkle_cards house|<file> -----------------------------

HOUSE = "house"  # the bundled house cards: the setting's default


def house_cards() -> dict[str, Any]:
    return {"file": HOUSE, "cards": None}


def _parse_cards(raw: str) -> dict[str, Any]:
    """The one value typed rather than read from a file."""
    if raw.strip().lower() == HOUSE:
        return house_cards()
    raise ValueError(f"`farkle_cards` takes `{HOUSE}` or the name of a file in the operator's card folder.")


def _show_cards(value: dict[str, Any]) -> str:
    name = value.get("file") if isinstance(value, dict) else None
    return f"{name}" if name and name != HOUSE else f"{HOUSE} (the bundled house cards)"


def _read_card_file(name: str, data: bytes) -> dict[str, Any]:
    """A card file checked for any table the server may open (the largest too); the value kept is
    its card data, so Start never reads a file. CardFileError (a ValueError) says what is wrong."""
    cards = load_cards(data, name)
    check_card_counts(cards, FarkleGame.MAX_PLAYERS)
    return {"file": name, "cards": cards.to_dict()}


def _start_arguments(value: Any) -> dict[str, Any]:
    """The chosen card set for ``new_game(cards=...)``; the house cards need none."""
    cards = value.get("cards") if isinstance(value, dict) else None
    return {"cards": cards} if cards else {}


CARDS_SETTING = GameSetting(
    key="farkle_cards",
    default=house_cards(),
    help=f"Dragon Farkle cards: `{HOUSE}` or a file in the operator's card folder ({{folder}}); "
    "checked when set, used by games started afterwards.",
    parse=_parse_cards,
    show=_show_cards,
    start_arguments=_start_arguments,
    read_file=_read_card_file,
    suggestions=(HOUSE,),
)

# -- the leak checks -------------------------------------------------------------------------


def secrets(g: Any, viewer: str | None) -> list[re.Pattern[str]]:
    """No Magic Item's name or id in a spectator's view; a player sees only the names of the
    items in their own hand or gained this turn. Once the game is over, everyone sees the names
    of the items still held (never an id)."""
    items = g.cards.items
    s = g.s
    revealed = (
        {i for p in s["players"] for i in s["hands"][p] + s["stuck"][p] + s["pending"][p]}
        if g.is_over
        else set()
    )
    if viewer is None:
        return [re.compile(re.escape(c.name)) for c in items if c.id not in revealed] + [
            re.compile(f'"{re.escape(c.id)}"') for c in items
        ]
    held = set(s["hands"][viewer]) | set(s["pending"][viewer]) | revealed
    return [re.compile(re.escape(c.name)) for c in items if c.id not in held]
