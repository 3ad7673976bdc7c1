"""The card table, loaded from ``data/cards.toml`` (values there are tagged confirmed /
inferred / proposed; all point values are reconstructions, see that file)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).with_name("data") / "cards.toml"

RULES = ("green", "suanni", "baxia", "chaofeng", "pulao", "yazi", "chiwen")


@dataclass(frozen=True)
class Card:
    name: str
    chinese: str
    colour: str
    rule: str
    points: int
    text: str = ""
    condition: str = ""  # the taming condition in a few words (cards.toml), for the board

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "chinese": self.chinese,
            "colour": self.colour,
            "rule": self.rule,
            "points": self.points,
            "text": self.text,
            "condition": self.condition,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Card:
        return cls(
            d["name"],
            d["chinese"],
            d["colour"],
            d["rule"],
            int(d["points"]),
            d.get("text", ""),
            d.get("condition") or condition_of(d["rule"]),
        )


@lru_cache(maxsize=4)
def load_table(path: str | None = None) -> dict[str, Any]:
    """The raw TOML table (``meta`` and ``card`` entries with their provenance tags)."""
    with open(path or DATA_FILE, "rb") as fh:
        data = tomllib.load(fh)
    names = [c["name"] for c in data["card"]]
    if len(names) != 9 or len(set(names)) != 9:
        raise ValueError("cards.toml must list 9 differently named cards")
    for c in data["card"]:
        if c["rule"] not in RULES:
            raise ValueError(f"card {c['name']}: unknown rule {c['rule']!r}")
    return data


def load_cards(path: str | None = None) -> list[Card]:
    """The nine cards in file order."""
    return [
        Card(
            c["name"],
            c.get("chinese", ""),
            c["colour"],
            c["rule"],
            int(c["points"]),
            c.get("text", ""),
            c.get("condition", ""),
        )
        for c in load_table(path)["card"]
    ]


def condition_of(rule: str) -> str:
    """The short taming condition cards.toml gives cards of this rule (for states saved
    before cards carried it)."""
    return next((c.condition for c in load_cards() if c.rule == rule and c.condition), "")


def provenance(path: str | None = None) -> dict[str, dict[str, str]]:
    """Per card: status and source of its name, colour and points (for /rules text)."""
    out = {}
    for c in load_table(path)["card"]:
        out[c["name"]] = {k: v for k, v in c.items() if k.endswith(("_status", "_source"))}
    return out
