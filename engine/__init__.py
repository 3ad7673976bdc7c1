"""Pure, deterministic rules engines. See engine.base for the contract."""

from engine.base import (
    STATE_VERSION_KEY,
    TABLE_OPTIONS,
    Event,
    Game,
    IllegalAction,
    InvalidSetup,
    OptionSpec,
    Result,
    check_legal,
    game_options,
    resolve_options,
)
from engine.rng import Rng

__all__ = [
    "STATE_VERSION_KEY",
    "TABLE_OPTIONS",
    "Event",
    "Game",
    "IllegalAction",
    "InvalidSetup",
    "OptionSpec",
    "Result",
    "Rng",
    "check_legal",
    "game_options",
    "resolve_options",
]
