"""What the platform asks of The Nine Sons of the Dragon besides its rules: its part of the
game's plug-in record (registered in engine/ninesons/__init__.py): the result wording, the card
catalogue, and what the leak checks and the fuzzer need to know."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from engine.handbook import STATUS_WORDS, CardEntry
from engine.registry import View

RULES_FILE = Path(__file__).with_name("data") / "rules.md"
RULES_MAP_PREFIX = "NS"
FUZZ_SETUPS = (("win_points=3", 0), ("win_points=2 first_player=second", 1))  # (options, AI seats)


def standing(view: View) -> dict[str, float]:
    """The scores so far: each seat's points."""
    return dict(view.get("points") or {})


def final_view(view: View, why: str) -> View:
    """The public view of a game stopped early, with nobody to move."""
    return {**view, "turn": None, "pending": None}


def card_catalogue() -> list[CardEntry]:
    """The nine Dragon Son cards, for /game card."""
    from engine.ninesons.cards import load_table

    out = []
    for card in load_table()["card"]:
        points = int(card["points"])
        details = [
            f"Chinese name: {card.get('chinese', '')}" if card.get("chinese") else "",
            f"Colour: {card['colour']} ({STATUS_WORDS.get(card.get('colour_status', ''), 'unknown source')})",
            f"Points: {points:+d} ({STATUS_WORDS.get(card.get('points_status', ''), 'unknown source')})",
        ]
        guessed = [f for f in ("name", "colour", "points") if card.get(f"{f}_status") == "proposed"]
        inferred = [f for f in ("name", "colour", "points") if card.get(f"{f}_status") == "inferred"]
        parts = []
        if guessed:
            parts.append(f"Reconstruction: no public source gives its {' or '.join(guessed)}.")
        if inferred:
            parts.append(
                f"Its {' and '.join(inferred)} {'is' if len(inferred) == 1 else 'are'} inferred "
                "from the rulebook."
            )
        status = " ".join(parts)
        out.append(
            CardEntry(
                "ninesons",
                f"ninesons:{card['name'].lower()}",
                card["name"],
                "Dragon Son card",
                card.get("text", ""),
                tuple(d for d in details if d),
                status or "From the rulebook.",
            )
        )
    return out


def secrets(g: Any, viewer: str | None) -> list[re.Pattern[str]]:
    """The deck's order (its contents are public, sorted)."""
    order = [g.cards[ci].name for ci in g.st.deck]
    if len(order) < 2 or order == sorted(order):
        return []
    return [re.compile(re.escape(json.dumps(order)[1:-1]))]
