"""What the platform asks of The Dragon & Flagon besides its rules: its part of the game's
plug-in record (registered in engine/flagon/__init__.py): the result wording, the card
catalogue, and what the leak checks and the fuzzer need to know."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from engine.handbook import STATUS_WORDS, CardEntry
from engine.registry import View

RULES_FILE = Path(__file__).with_name("data") / "rules.md"
RULES_MAP_PREFIX = "FL"
FUZZ_SETUPS = (("", 0), ("late_night=on", 1))  # (options, AI seats)


def standing(view: View) -> dict[str, float]:
    """The scores so far: each seat's reputation (in a team game, its team's)."""
    scores, teams = view.get("scores") or {}, view.get("teams")
    if teams:
        return {seat: scores[team] for seat, team in teams.items() if team in scores}
    return dict(scores)


def final_view(view: View, why: str) -> View:
    """The public view of a game stopped early: nobody planning, acting or setting up."""
    characters = [{**c, "planning": False} for c in view.get("characters", [])]
    return {
        **view,
        "planning": [],
        "current": None,
        "pending": None,
        "setup": None,
        "to_act": [],
        "characters": characters,
    }


# Flagon fields a player reads on a card, with their labels (other fields are geometry).
_CARD_FIELDS = (
    ("time", "Time"),
    ("rep", "Reputation"),
    ("daze", "Daze"),
    ("knockback", "Knockback"),
    ("duration", "Lasts (time steps)"),
)


def _card_value(value: object) -> str:
    if isinstance(value, list):
        from engine.flagon.face import choice_words

        return choice_words(value)
    return str(value)


def card_catalogue() -> list[CardEntry]:
    """Every card (common, special, Dragon), for /game card."""
    from engine.flagon.cards import CHARACTER_NAMES, load_cards
    from engine.flagon.face import diagram, face_of, printed_lines

    out = []
    for card in load_cards().values():
        owner = CHARACTER_NAMES.get(card.owner, card.owner)
        kind = {"common": "Common card (every character)", "dragon": f"{owner}'s Dragon card"}.get(
            card.kind, f"{owner}'s special card"
        )
        details = []
        for field, label in _CARD_FIELDS:
            value = card.get(field)
            if field != "time" and not value:
                continue  # a zero daze or knockback says nothing
            status = card.provenance.get(field, ("", ""))[0]
            details.append(f"{label}: {_card_value(value)} ({STATUS_WORDS.get(status, 'unknown source')})")
        face = face_of(card)
        for field, line in printed_lines(face):
            status = card.provenance.get(field, ("", ""))[0]
            details.append(f"{line} ({STATUS_WORDS.get(status, 'unknown source')})")
        guessed = sorted(f for f, (s, _src) in card.provenance.items() if s == "proposed")
        status = (
            "Reconstruction: the printed card was not available, so these values are our reading: "
            + ", ".join(guessed)
            + "."
            if guessed
            else "All values from the rulebook or inferred from it."
        )
        out.append(
            CardEntry(
                "flagon",
                f"flagon:{card.id}",
                card.name,
                kind,
                card.text,
                tuple(details),
                status,
                face=face,
                squares=tuple(diagram(face)),
            )
        )
    return out


def secrets(g: Any, viewer: str | None) -> list[re.Pattern[str]]:
    """No planned card as a value in a spectator's view unless the rules showed it (face-up,
    removed, the one being played, a lasting status). Players: see test_flagon_props's
    hidden-views invariant (a card id may be in several decks, so a string cannot tell)."""
    if viewer is not None:
        return []
    s = g.s
    shown = json.dumps(
        [[c["faceup"], c["removed"]] for c in s["chars"].values()] + [s["current"], s["statuses"]]
    )
    planned = {k for c in s["chars"].values() for k in c["slots"]}
    return [re.compile(f'"{re.escape(k)}"(?!:)') for k in sorted(planned) if f'"{k}"' not in shown]
