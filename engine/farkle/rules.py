"""Game constants and the lobby options, read from data/rules.toml, where each is declared once
(spec PROPOSALs live there)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from engine.base import InvalidSetup, OptionSpec, resolve_options

_PATH = Path(__file__).with_name("data") / "rules.toml"
with _PATH.open("rb") as _fh:
    RULES: dict[str, Any] = tomllib.load(_fh)

CONSTANTS: dict[str, Any] = RULES["constants"]
EVENT_FACES: tuple[str, ...] = tuple(CONSTANTS["event_faces"])


def _declared(name: str, entry: dict[str, Any]) -> OptionSpec:
    choices = entry.get("choices")
    return OptionSpec(
        name=name,
        default=entry["default"],
        help=entry["help"],
        choices=tuple(choices) if choices is not None else None,
        minimum=entry.get("minimum"),
        maximum=entry.get("maximum"),
    )


# Every lobby option, declared once in data/rules.toml ([options.<name>]: default, help, choices
# or range): the engine resolves options against these, /game rules lists them.
OPTIONS: tuple[OptionSpec, ...] = tuple(_declared(name, entry) for name, entry in RULES["options"].items())
DEFAULTS: dict[str, Any] = {spec.name: spec.default for spec in OPTIONS}


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """Fill defaults, refuse unknown names and bad values (ValueError with a readable reason)."""
    resolved = resolve_options(OPTIONS, options, "Dragon Farkle")
    if (
        not resolved["battle_dragon_damage"]
        and not resolved["battle_rally_damage"]
        and not resolved["max_rounds"]
    ):
        # The dragon could never be hurt and no round limit would end it: a game nobody can win.
        raise InvalidSetup(
            "Dragon Farkle: with battle_dragon_damage=0 and battle_rally_damage=0 the dragon can't "
            "be slain, so set max_rounds to end the game."
        )
    return resolved
