"""Card data: loads and validates ``data/cards.toml``.

Every field of every card is stored with its provenance (``confirmed`` / ``inferred`` /
``proposed`` and a source), so the numbers can be corrected from a physical deck without code
changes. Loading refuses a bad file with a message naming the card and the field.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.flagon.effects import HANDLERS, REQUIREMENTS
from engine.flagon.geometry import PATTERNS, RAYS, Sq

DATA = Path(__file__).parent / "data"
STATUSES = ("confirmed", "inferred", "proposed")
CHARACTERS = ("thras", "jack", "tuuli", "margalo", "teo", "goodheart", "nari", "montero", "asma")
CHARACTER_NAMES = {
    "thras": "Thras",
    "jack": "Two-Eyed Jack",
    "tuuli": "Tuuli",
    "margalo": "Margalo",
    "teo": "Teo",
    "goodheart": "Sir Goodheart",
    "nari": "Nari",
    "montero": "Montero",
    "asma": "Asma",
}
# field -> accepted python types of its value
FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "time": (int, list),
    "rep": (int,),
    "daze": (int,),
    "fall": (bool,),
    "knockback": (int,),
    "duration": (int,),
    "purple": (bool,),
    "requires": (list,),
    "weapon": (bool,),
    "squares": (str, list),
}


class CardDataError(ValueError):
    """The card file is malformed; the message names the card and field."""


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    owner: str  # "common" or a character id
    kind: str  # common / special / dragon
    effect: str
    text: str
    fields: dict[str, Any]  # field -> value
    provenance: dict[str, tuple[str, str]]  # field -> (status, source)

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)

    @property
    def squares(self) -> list[Sq]:
        return self.fields["_squares"]  # type: ignore[no-any-return]

    @property
    def rays(self) -> list[Sq]:
        return self.fields["_rays"]  # type: ignore[no-any-return]

    @property
    def base_time(self) -> int:
        t = self.fields["time"]
        return int(max(t)) if isinstance(t, list) else int(t)

    @property
    def is_dragon(self) -> bool:
        return self.kind == "dragon"


def _offsets(cid: str, field: str, raw: Any) -> list[Sq]:
    if not isinstance(raw, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(v, int) for v in p) for p in raw
    ):
        raise CardDataError(f"card `{cid}` field `{field}`: expected a list of [x, y] offsets")
    return [(p[0], p[1]) for p in raw]


_HEADINGS = ("name", "owner", "kind", "effect", "text")  # plain text fields; every other field has provenance


def parse_cards(raw: dict[str, Any]) -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for cid, entry in raw.items():
        _check_headings(cid, entry)
        fields, prov = _read_fields(cid, entry)
        _check_costs_and_requirements(cid, fields)
        _resolve_squares(cid, fields)
        cards[cid] = Card(
            cid, entry["name"], entry["owner"], entry["kind"], entry["effect"], entry["text"], fields, prov
        )
    _check_decks(cards)
    return cards


def _check_headings(cid: str, entry: Any) -> None:
    """A card is a table whose name, owner, kind, effect and text are text the engine knows."""
    if not isinstance(entry, dict):
        raise CardDataError(f"card `{cid}`: expected a table")
    for key in _HEADINGS:
        if not isinstance(entry.get(key), str):
            raise CardDataError(f"card `{cid}` field `{key}`: missing or not text")
    if entry["owner"] not in ("common", *CHARACTERS):
        raise CardDataError(f"card `{cid}` field `owner`: unknown owner `{entry['owner']}`")
    if entry["kind"] not in ("common", "special", "dragon"):
        raise CardDataError(f"card `{cid}` field `kind`: must be common, special or dragon")
    if entry["effect"] not in HANDLERS:
        raise CardDataError(f"card `{cid}` field `effect`: unknown effect `{entry['effect']}`")


def _read_fields(cid: str, entry: dict[str, Any]) -> tuple[dict[str, Any], dict[str, tuple[str, str]]]:
    """The card's game fields (field -> value) and their provenance (field -> (status, source));
    every field of :data:`FIELD_TYPES` must be there."""
    fields: dict[str, Any] = {}
    prov: dict[str, tuple[str, str]] = {}
    for key, val in entry.items():
        if key not in _HEADINGS:
            fields[key], prov[key] = _read_field(cid, key, val)
    for key in FIELD_TYPES:
        if key not in fields:
            raise CardDataError(f"card `{cid}` field `{key}`: missing")
    return fields, prov


def _read_field(cid: str, key: str, val: Any) -> tuple[Any, tuple[str, str]]:
    """One ``{ v = ..., s = ..., src = ... }`` field: its value and its (status, source)."""
    if not isinstance(val, dict) or "v" not in val:
        raise CardDataError(f"card `{cid}` field `{key}`: expected {{ v = ..., s = ..., src = ... }}")
    if val.get("s") not in STATUSES:
        raise CardDataError(
            f"card `{cid}` field `{key}`: status must be one of {', '.join(STATUSES)}, not `{val.get('s')}`"
        )
    if not isinstance(val.get("src"), str) or not val["src"]:
        raise CardDataError(f"card `{cid}` field `{key}`: missing source")
    types = FIELD_TYPES.get(key)
    v = val["v"]
    # bool is an int to Python, but a `true` is no number of time units
    if types is not None and (
        not isinstance(v, types) or (int in types and bool not in types and isinstance(v, bool))
    ):
        raise CardDataError(f"card `{cid}` field `{key}`: wrong type {type(v).__name__}")
    return v, (val["s"], val["src"])


def _check_costs_and_requirements(cid: str, fields: dict[str, Any]) -> None:
    """``time`` is a positive cost (or a list of them) and ``requires`` names known requirements."""
    t = fields["time"]
    if isinstance(t, list) and (not t or not all(isinstance(x, int) and x >= 1 for x in t)):
        raise CardDataError(f"card `{cid}` field `time`: a list of positive costs expected")
    if isinstance(t, int) and t < 1:
        raise CardDataError(f"card `{cid}` field `time`: must be at least 1")
    for req in fields["requires"]:
        if req not in REQUIREMENTS:
            raise CardDataError(f"card `{cid}` field `requires`: unknown requirement `{req}`")


def _resolve_squares(cid: str, fields: dict[str, Any]) -> None:
    """Turn ``squares`` (a named pattern, a named ray or a list of offsets) into the card's
    ``_squares`` and ``_rays``, and ``landing`` (if any) into offsets."""
    sq = fields["squares"]
    if isinstance(sq, str):
        if sq in PATTERNS:
            fields["_squares"], fields["_rays"] = list(PATTERNS[sq]), []
        elif sq in RAYS:
            fields["_squares"], fields["_rays"] = [], list(RAYS[sq])
        else:
            raise CardDataError(f"card `{cid}` field `squares`: unknown pattern `{sq}`")
    else:
        fields["_squares"], fields["_rays"] = _offsets(cid, "squares", sq), []
    if "landing" in fields:
        fields["landing"] = _offsets(cid, "landing", fields["landing"])


def _check_decks(cards: dict[str, Card]) -> None:
    """13 shared commons, and 4 specials and 1 Dragon card for every character."""
    commons = [c for c in cards.values() if c.owner == "common"]
    if len(commons) != 13:
        raise CardDataError(f"expected 13 common cards, found {len(commons)}")
    for ch in CHARACTERS:
        mine = [c for c in cards.values() if c.owner == ch]
        if sum(c.kind == "special" for c in mine) != 4 or sum(c.kind == "dragon" for c in mine) != 1:
            raise CardDataError(f"character `{ch}` needs 4 special cards and 1 Dragon card")


@cache
def load_cards(path: str | None = None) -> dict[str, Card]:
    p = Path(path) if path else DATA / "cards.toml"
    with p.open("rb") as fh:
        try:
            raw = tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise CardDataError(f"{p.name}: {exc}") from None
    return parse_cards(raw)


@cache
def deck_of(char: str) -> tuple[str, ...]:
    """Card ids of one character's 18-card deck (13 shared commons, own 4 specials and Dragon)."""
    cards = load_cards()
    return tuple(c.id for c in cards.values() if c.owner in ("common", char))


@cache
def dragon_of(char: str) -> str:
    return next(c.id for c in load_cards().values() if c.owner == char and c.kind == "dragon")
