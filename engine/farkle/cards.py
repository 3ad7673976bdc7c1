"""Companion and Magic Item cards as data (data/cards.toml), with a validating loader.

The official card texts are not public, so the bundled file holds the spec's house designs.
An admin may load another file (the ``cards_file`` option); :func:`load_cards` checks it and
names the card and field of the first problem. Effects are a closed set implemented by the
engine: a card file chooses among them, it cannot add new code.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

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


class CardFileError(ValueError):
    """A card file that cannot be used; the message names the card and field."""


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
    unknown = set(data) - {"companion", "item"}
    if unknown:
        raise CardFileError(f"{where}: unknown table(s) {sorted(unknown)}; use [[companion]] and [[item]]")
    seen: set[str] = set()
    out: dict[str, list[Card]] = {"companion": [], "item": []}
    for kind, effects in (("companion", COMPANION_EFFECTS), ("item", ITEM_EFFECTS)):
        entries = data.get(kind)
        if not isinstance(entries, list) or not entries:
            raise CardFileError(f"{where}: needs at least one [[{kind}]] card")
        for i, raw in enumerate(entries, 1):
            label = f"{where}: {kind} #{i}"
            if not isinstance(raw, dict):
                raise CardFileError(f"{label}: not a table")
            cid = raw.get("id")
            if not isinstance(cid, str) or not _ID_RE.match(cid):
                raise CardFileError(f"{label}: field `id` must be 1-32 characters of a-z, 0-9 or _")
            label = f"{where}: {kind} `{cid}`"
            if cid in seen:
                raise CardFileError(f"{label}: field `id` is used twice")
            seen.add(cid)
            allowed = {"id", "name", "copies", "text", "timing", "effect", "source", "uses_per_turn", "value"}
            extra = set(raw) - allowed
            if extra:
                raise CardFileError(f"{label}: unknown field `{sorted(extra)[0]}`")
            for fld in ("name", "text", "timing", "effect", "source"):
                if not isinstance(raw.get(fld), str) or not raw[fld].strip():
                    raise CardFileError(f"{label}: field `{fld}` must be a non-empty string")
            for fld, default, lo in (("copies", None, 1), ("uses_per_turn", 1, 1), ("value", 0, 0)):
                v = raw.get(fld, default)
                if not isinstance(v, int) or isinstance(v, bool) or v < lo or v > 100000:
                    raise CardFileError(f"{label}: field `{fld}` must be a whole number >= {lo}")
            if raw["effect"] not in effects:
                raise CardFileError(f"{label}: field `effect` must be one of {', '.join(sorted(effects))}")
            if effects[raw["effect"]] and "value" not in raw:
                raise CardFileError(f"{label}: field `value` is needed by effect `{raw['effect']}`")
            if raw["timing"] not in TIMINGS:
                raise CardFileError(f"{label}: field `timing` must be one of {', '.join(sorted(TIMINGS))}")
            if len(raw["name"]) > 40 or len(raw["text"]) > 300:
                raise CardFileError(f"{label}: field `name` (<= 40) or `text` (<= 300) is too long")
            out[kind].append(
                Card(
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
            )
    return CardSet(tuple(out["companion"]), tuple(out["item"]))


def load_cards(path: str | Path) -> CardSet:
    """Load and validate a card file. Raises :class:`CardFileError` naming card and field."""
    p = Path(path)
    try:
        with p.open("rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise CardFileError(f"cannot read card file {p.name}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise CardFileError(f"{p.name}: not valid TOML ({exc})") from None
    return parse_cards(data, p.name)


@lru_cache(maxsize=1)
def default_cards() -> CardSet:
    return load_cards(DEFAULT_CARDS_PATH)
