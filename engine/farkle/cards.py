"""Companion and Magic Item cards as data (data/cards.toml), with a validating loader.

The official card texts are not public, so the bundled file holds the spec's house designs.
Another card set reaches a game as *data*: :func:`load_cards` parses and checks the text of a
card file (it never opens a path; the bot reads the operator's file, see sessions/cardfiles.py)
and names the card and field of the first problem, and ``new_game(..., cards=cardset.to_dict())``
plays with it. Effects are a closed set implemented by the engine: a card file chooses among
them, it cannot add new code.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.base import InvalidSetup

DEFAULT_CARDS_PATH = Path(__file__).with_name("data") / "cards.toml"

# effect -> needs a numeric ``value``
COMPANION_EFFECTS: dict[str, bool] = {
    "defender_six_dice": False,
    "reroll_event": False,
    "bank_bonus": True,
    "ignore_battle_farkle": False,
    "rally_triple": False,
    "brawl_bonus": True,
    "block_dragon": False,
    "reroll_one_die": False,
    "halve_battle_loss": False,
    "swap_item": False,
}
ITEM_EFFECTS: dict[str, bool] = {
    "raise_item_limit": False,
    "reroll_all": False,
    "set_die": False,
    "dragon_to_blank": False,
    "blank_to_rally": False,
    "cancel_farkle": False,
    "bank_bonus": True,
    "ignore_battle_loss": False,
    "blank_to_dragon": False,
    "attacker_five_dice": False,
    "give_away": False,
}
# ``timing`` says in words when a card works (the spec gives every card one). The engine does
# not read it: the effect alone decides when a card applies. It stays a checked field because
# card files and saved games' custom cards carry it: dropping it would refuse those files and
# change the saved format.
TIMINGS = {
    "passive",
    "after_roll",
    "farkle",
    "bank",
    "battle",
    "defend",
    "own_turn",
    "turn_start",
    "rally",
    "brawl_win",
    "dragon",
}
_ID_RE = re.compile(r"^[a-z0-9_]{1,32}$")
_FIELDS = ("id", "name", "copies", "text", "timing", "effect", "source", "uses_per_turn", "value")
MAX_NESTING = 32  # levels of arrays / inline tables a card file may use (it needs two or three)
_TOML_WHERE_RE = re.compile(r"\(at line \d+, column \d+\)|\(at end of document\)")


class CardFileError(InvalidSetup):
    """A card file or card set that cannot be used; the message names the card and field.

    Messages never quote the file's text or unknown keys beyond a short identifier, so a file
    that is not a card file (a config with secrets) is not echoed into chats or logs."""


@dataclass(frozen=True)
class Card:
    id: str
    kind: str  # "companion" or "item"
    name: str
    copies: int
    text: str
    timing: str
    effect: str
    source: str
    uses_per_turn: int = 1
    value: int = 0


@dataclass(frozen=True)
class CardSet:
    companions: tuple[Card, ...]
    items: tuple[Card, ...]

    def get(self, card_id: str) -> Card:
        for c in self.companions + self.items:
            if c.id == card_id:
                return c
        raise KeyError(card_id)

    def to_dict(self) -> dict[str, Any]:
        strip = ("kind",)
        return {
            "companion": [{k: v for k, v in asdict(c).items() if k not in strip} for c in self.companions],
            "item": [{k: v for k, v in asdict(c).items() if k not in strip} for c in self.items],
        }


def parse_cards(data: dict[str, Any], where: str = "card file") -> CardSet:
    """Validate the parsed TOML ``data`` (tables ``companion`` and ``item``)."""
    if not isinstance(data, dict):
        raise CardFileError(f"{where}: not a table of cards")
    unknown = set(data) - {"companion", "item"}
    if unknown:
        raise CardFileError(f"{where}: unknown table(s); a card file has only [[companion]] and [[item]]")
    seen: set[str] = set()  # card ids across both kinds: an id names one card
    out: dict[str, list[Card]] = {"companion": [], "item": []}
    for kind, effects in (("companion", COMPANION_EFFECTS), ("item", ITEM_EFFECTS)):
        entries = data.get(kind)
        if not isinstance(entries, list) or not entries:
            raise CardFileError(f"{where}: needs at least one [[{kind}]] card")
        for i, raw in enumerate(entries, 1):
            out[kind].append(_parse_card(raw, kind, effects, f"{where}: {kind} #{i}", where, seen))
    return CardSet(tuple(out["companion"]), tuple(out["item"]))


def _parse_card(
    raw: Any, kind: str, effects: dict[str, bool], numbered: str, where: str, seen: set[str]
) -> Card:
    """One ``[[companion]]`` or ``[[item]]`` table as a card; ``numbered`` names it in messages
    until its id is known, and ``seen`` (the ids read so far) gains its id."""
    if not isinstance(raw, dict):
        raise CardFileError(f"{numbered}: not a table")
    cid = raw.get("id")
    if not isinstance(cid, str) or not _ID_RE.match(cid):
        raise CardFileError(f"{numbered}: field `id` must be 1-32 characters of a-z, 0-9 or _")
    label = f"{where}: {kind} `{cid}`"
    if cid in seen:
        raise CardFileError(f"{label}: field `id` is used twice")
    seen.add(cid)
    _check_card_fields(raw, effects, label)
    return Card(
        id=cid,
        kind=kind,
        name=raw["name"],
        copies=raw["copies"],
        text=raw["text"],
        timing=raw["timing"],
        effect=raw["effect"],
        source=raw["source"],
        uses_per_turn=raw.get("uses_per_turn", 1),
        value=raw.get("value", 0),
    )


# numeric field -> (its default when absent, None if required; the least value it may take)
_NUMBERS: tuple[tuple[str, int | None, int], ...] = (
    ("copies", None, 1),
    ("uses_per_turn", 1, 1),
    ("value", 0, 0),
)
_MAX_NUMBER = 100000


def _check_card_fields(raw: dict[str, Any], effects: dict[str, bool], label: str) -> None:
    """Refuse the first field of a card table that is unknown, missing, of the wrong type, out of
    range, not one of the engine's effects or timings, or too long."""
    extra = set(raw) - set(_FIELDS)
    if extra:  # not named: a file that is not a card file must not be quoted
        raise CardFileError(f"{label}: unknown field; the fields are {', '.join(_FIELDS)}")
    for fld in ("name", "text", "timing", "effect", "source"):
        if not isinstance(raw.get(fld), str) or not raw[fld].strip():
            raise CardFileError(f"{label}: field `{fld}` must be a non-empty string")
    for fld, default, lo in _NUMBERS:
        v = raw.get(fld, default)
        if not isinstance(v, int) or isinstance(v, bool) or v < lo or v > _MAX_NUMBER:
            raise CardFileError(f"{label}: field `{fld}` must be a whole number >= {lo}")
    if raw["effect"] not in effects:
        raise CardFileError(f"{label}: field `effect` must be one of {', '.join(sorted(effects))}")
    if effects[raw["effect"]] and "value" not in raw:
        raise CardFileError(f"{label}: field `value` is needed by effect `{raw['effect']}`")
    if raw["timing"] not in TIMINGS:
        raise CardFileError(f"{label}: field `timing` must be one of {', '.join(sorted(TIMINGS))}")
    if len(raw["name"]) > 40 or len(raw["text"]) > 300:
        raise CardFileError(f"{label}: field `name` (<= 40) or `text` (<= 300) is too long")


def load_cards(text: str | bytes, where: str = "card file") -> CardSet:
    """Parse and validate the TOML text of a card file (``where`` names it in messages).

    Pure: it opens nothing (a path is refused). Raises :class:`CardFileError` naming the card
    and field of the first problem."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise CardFileError(f"{where}: not UTF-8 text") from None
    if not isinstance(text, str):
        raise TypeError("load_cards takes the text of a card file, not a path")
    if _nested_too_deeply(text):
        # tomllib parses nested arrays and inline tables recursively: thousands of levels
        # would raise RecursionError (a crash, not a refusal); no card file needs more than a few.
        raise CardFileError(f"{where}: nested too deeply (more than {MAX_NESTING} levels of [ ] or {{ }})")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # Only the position: tomllib's messages can quote keys of the file.
        found = _TOML_WHERE_RE.search(str(exc))
        raise CardFileError(f"{where}: not valid TOML {found.group(0) if found else ''}".rstrip()) from None
    return parse_cards(data, where)


def _nested_too_deeply(text: str) -> bool:
    """Whether arrays and inline tables nest deeper than MAX_NESTING, counting the brackets
    outside strings and comments (a card's text may well contain brackets)."""
    depth, i, end = 0, 0, len(text)
    while i < end:
        char = text[i]
        if char == "#":  # a comment runs to the end of its line
            newline = text.find("\n", i)
            i = end if newline < 0 else newline
        elif char in "\"'":
            quote = char * 3 if text.startswith(char * 3, i) else char
            i += len(quote)
            while i < end and not text.startswith(quote, i):
                if len(quote) == 1 and text[i] == "\n":
                    break  # an unterminated string: tomllib says so
                i += 2 if char == '"' and text[i] == "\\" else 1
            i += len(quote)
            continue
        elif char in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return True
        elif char in "]}":
            depth -= 1
        i += 1
    return False


def check_card_counts(cards: CardSet, players: int) -> None:
    """Every player is dealt one Companion and one Magic Item: refuse a set too small for that."""
    for kind, deck in (("Companion", cards.companions), ("Magic Item", cards.items)):
        count = sum(c.copies for c in deck)
        if count < players:
            raise CardFileError(
                f"the card set has {count} {kind} card{'s' if count != 1 else ''}, "
                f"fewer than the {players} players (each is dealt one)"
            )


@lru_cache(maxsize=1)
def default_cards() -> CardSet:
    return load_cards(DEFAULT_CARDS_PATH.read_bytes(), DEFAULT_CARDS_PATH.name)
