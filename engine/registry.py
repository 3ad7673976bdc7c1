"""Games by name. Each game package registers a :class:`GameInfo` here on import."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.base import Game

# A seat's AI: given a game and a seat id, return an action string from legal_actions.
# ``seed`` makes the choice reproducible.
AiFunction = Callable[[Game, str, str, int], str]  # (game, player, level, seed) -> action


@dataclass(frozen=True)
class GameInfo:
    name: str
    title: str
    game_class: type[Game]
    new_game: Callable[..., Game]  # (players, seed, **options) -> Game
    choose_ai_action: AiFunction
    ai_levels: tuple[str, ...] = ("easy", "medium", "hard")
    rules_summary: str = ""  # a few lines for /game rules; say which values are reconstructions
    emoji: str = "🎲"
    # The server setting turn_timeout.<name> (seconds to act) takes its default and its
    # /config help from here.
    turn_timeout: int = 300
    turn_timeout_help: str = ""  # e.g. "How long a Tally player has to act"; empty: said generically


_GAMES: dict[str, GameInfo] = {}
# The built-in games, by name: the one list of them. Each lives in the package engine.<name>
# (importing it registers its GameInfo); render.<name> and cogs.ui.<name> follow the same name.
BUILTIN_GAMES = ("farkle", "ninesons", "flagon")
KNOWN_GAME_PACKAGES = tuple(f"engine.{name}" for name in BUILTIN_GAMES)


def register(info: GameInfo) -> None:
    _GAMES[info.name] = info


def load_builtin_games() -> None:
    for module in KNOWN_GAME_PACKAGES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:  # a game not written yet is simply absent
            if exc.name != module:
                raise


def get(name: str) -> GameInfo:
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise KeyError(f"Unknown game `{name}`. Known games: {known}.") from None


def all_games() -> list[GameInfo]:
    return [_GAMES[k] for k in sorted(_GAMES)]


def restore(name: str, state: dict[str, Any]) -> Game:
    return get(name).game_class.from_dict(state)
