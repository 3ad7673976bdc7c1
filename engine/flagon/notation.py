"""The Dragon & Flagon's action notation (docs/flagon.md), read and written in one place (as
python-chess's ``Move.from_uci`` / ``uci()``), and the labels the buttons show.

Setup: ``char:<id>``, ``start:<square>``. Planning (private): ``plan:<char>:<slot>:<card>``.
Choices while a card resolves: ``<verb>:<char>:<answer>`` (``to``, ``target``, ``dir``,
``face``, ``slide``, ``daze`` (private), ``time``, ``vision``, ``item``, ``barrel``, ``from``,
``at``, ``turn``, ``preface``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.flagon.cards import CHARACTER_NAMES, load_cards
from engine.flagon.rules import cname

SLOT_NAMES = ("I", "II", "III")
VERB_LABELS = {
    "to": "go to", "target": "target", "dir": "direction", "face": "face", "slide": "slide to",
    "daze": "Daze card", "time": "Riposte time", "vision": "Vision becomes", "item": "take",
    "barrel": "barrel on", "from": "cast from", "at": "place on", "turn": "turn", "preface": "face first",
}  # fmt: skip
SPECIAL_LABELS = {
    ("to", "stay"): "stay put", ("vision", "cancel"): "cancel the Vision", ("item", "drop"): "drop what you hold",
    ("preface", "after"): "turn after acting instead", ("from", "self"): "cast from yourself",
    ("from", "familiar"): "cast from the Familiar",
    ("dir", "familiar"): "throw at the Familiar",
}  # fmt: skip
# plan/daze pick hidden cards; a Vision prompt lists Tuuli's deck, which would show by absence
# what she has planned, so it is private too (the card it becomes is then announced publicly).
PRIVATE_VERBS = ("plan", "daze", "vision")


@dataclass(frozen=True)
class FlagonAction:
    """One action: its verb, the character it is about (empty for ``start``), and its answer
    (a card, a square, a facing...); ``slot`` only for ``plan``."""

    verb: str
    char: str = ""
    answer: str = ""
    slot: int = 0

    @classmethod
    def from_text(cls, text: str) -> FlagonAction:
        """Read any text (never raises): a malformed action reads as one no game offers."""
        verb, _, rest = text.partition(":")
        if verb == "char":
            return cls(verb, char=rest)
        if verb == "start":
            return cls(verb, answer=rest)
        char, _, answer = rest.partition(":")
        if verb == "plan":
            slot, _, card = answer.partition(":")
            return cls(verb, char, card, int(slot) if slot.isascii() and slot.isdigit() else 0)
        return cls(verb, char, answer)

    @classmethod
    def plan(cls, char: str, slot: int, card: str) -> FlagonAction:
        return cls("plan", char, card, slot)

    def text(self) -> str:
        """The notation ``play`` takes (``FlagonAction.from_text(a).text() == a``)."""
        if self.verb == "char":
            return f"char:{self.char}"
        if self.verb == "start":
            return f"start:{self.answer}"
        if self.verb == "plan":
            return f"plan:{self.char}:{self.slot}:{self.answer}"
        return f"{self.verb}:{self.char}:{self.answer}"

    @property
    def is_private(self) -> bool:
        """Offering it would reveal a secret (Game.is_private_action)."""
        return self.verb in PRIVATE_VERBS


def describe(action: str) -> str:
    """A button's label for ``action`` (at most 80 characters)."""
    cards = load_cards()
    parts = action.split(":")
    verb = parts[0]
    if verb == "char":
        return f"Play {CHARACTER_NAMES.get(parts[1], parts[1])}"
    if verb == "start":
        return f"Start on {parts[1]}"
    if verb == "plan" and len(parts) == 4:
        return f"{cname(parts[1])} slot {SLOT_NAMES[int(parts[2]) - 1]}: {cards[parts[3]].name}"[:80]
    if len(parts) == 3:
        who, arg = cname(parts[1]), parts[2]
        special = SPECIAL_LABELS.get((verb, arg))
        if special:
            return f"{who}: {special}"
        if arg in cards:
            arg = cards[arg].name
        elif arg in CHARACTER_NAMES:
            arg = CHARACTER_NAMES[arg]
        return f"{who}: {VERB_LABELS.get(verb, verb)} {arg}"[:80]
    return action[:80]
