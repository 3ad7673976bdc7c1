"""Pure, deterministic rules engines. See engine.base for the contract."""

from engine.base import (
    STATE_VERSION_KEY,
    Event,
    Game,
    IllegalAction,
    InvalidSetup,
    OptionSpec,
    Result,
    check_legal,
    resolve_options,
)
from engine.rng import Rng

__all__ = [
    "STATE_VERSION_KEY",
    "Event",
    "Game",
    "IllegalAction",
    "InvalidSetup",
    "OptionSpec",
    "Result",
    "Rng",
    "check_legal",
    "resolve_options",
]
