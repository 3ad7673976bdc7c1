"""Game constants and option defaults, read from data/rules.toml (spec PROPOSALs live there)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from engine.base import InvalidSetup, OptionSpec, resolve_options
from engine.farkle.scoring import ScoreTable

_PATH = Path(__file__).with_name("data") / "rules.toml"
with _PATH.open("rb") as _fh:
    RULES: dict[str, Any] = tomllib.load(_fh)

CONSTANTS: dict[str, Any] = RULES["constants"]
DEFAULTS: dict[str, Any] = RULES["options"]
EVENT_FACES: tuple[str, ...] = tuple(CONSTANTS["event_faces"])

_HELP = {
    "five_of_a_kind": "Value of five of a kind; 0 = no such row (four of a kind + the fifth die alone). Spec: unknown.",
    "quad_plus_pair": "Four of a kind plus a pair scores as three pairs (inferred).",
    "dragon_eats": "The Dragon face eats this roll's soldiers or the whole turn's (inferred: roll).",
    "rally_double": (
        "What Rally's 'double your score' doubles: 'roll' = this roll's soldiers (our reading, the default), "
        "'turn' = the whole turn total so far (the rulebook's words taken literally)."
    ),
    "battle_dragon_damage": "Final Battle damage of the Dragon face (inferred: 1).",
    "battle_rally_damage": "Final Battle damage of the Rally face (inferred: 2).",
    "battle_score_all": "Final Battle: every scoring die costs soldiers, no choice (proposal).",
    "defender_dice": "Dice the Brawl defender rolls.",
    "defender_hot_dice": "Dice the defender rolls again after hot dice (unknown; proposal 5).",
    "brawl_tie": "Brawl tie: nobody wins, or the defender wins (unknown).",
    "item_limit": "Magic Items a player may hold at the end of any turn.",
    "sack_extra": "Extra Magic Items allowed besides the Sack of Holding (unknown; proposal 2).",
    "battle_rally_item": "In the Final Battle the Rally face also draws a Magic Item (proposal: no).",
    "battle_items": "Magic Items may be used in the Final Battle (proposal: yes).",
    "battle_companion": "Companions work in the Final Battle (proposal: yes).",
    "pending_items_usable": "An item drawn this turn may be used before banking (unknown; proposal yes).",
    "first_player": "First player: random or lobby (seat) order.",
    "max_rounds": "End after this many rounds, largest army wins (0 = off).",
}
_CHOICES: dict[str, tuple[Any, ...]] = {
    "dragon_eats": ("roll", "turn"),
    "rally_double": ("roll", "turn"),
    "brawl_tie": ("no_winner", "defender"),
    "first_player": ("random", "lobby"),
    "defender_dice": (5, 6),
    "defender_hot_dice": (5, 6),
}
_RANGES: dict[str, tuple[int, int]] = {
    "five_of_a_kind": (0, 10000),
    "battle_dragon_damage": (0, 3),
    "battle_rally_damage": (0, 3),
    "item_limit": (0, 10),
    "sack_extra": (0, 10),
    "max_rounds": (0, 1000),
}

OPTIONS: tuple[OptionSpec, ...] = tuple(
    OptionSpec(
        name=name,
        default=default,
        help=_HELP[name],
        choices=_CHOICES.get(name),
        minimum=_RANGES[name][0] if name in _RANGES else None,
        maximum=_RANGES[name][1] if name in _RANGES else None,
    )
    for name, default in DEFAULTS.items()
)


def score_table(options: dict[str, Any]) -> ScoreTable:
    s = RULES["scoring"]
    five = options["five_of_a_kind"]
    return ScoreTable(
        single_1=s["single_1"],
        single_5=s["single_5"],
        triple_1=s["triple_1"],
        triple_face_x=s["triple_face_x"],
        four_kind=s["four_kind"],
        five_kind=five if five else None,
        three_pairs=s["three_pairs"],
        six_kind=s["six_kind"],
        straight=s["straight"],
        quad_plus_pair_is_three_pairs=options["quad_plus_pair"],
    )


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """Fill defaults, refuse unknown names and bad values (ValueError with a readable reason)."""
    resolved = resolve_options(OPTIONS, options, "Dragon Farkle")
    if not resolved["battle_dragon_damage"] and not resolved["battle_rally_damage"] and not resolved["max_rounds"]:
        # The dragon could never be hurt and no round limit would end it: a game nobody can win.
        raise InvalidSetup("Dragon Farkle: with battle_dragon_damage=0 and battle_rally_damage=0 the dragon can't "
                         "be slain, so set max_rounds to end the game.")
    return resolved
