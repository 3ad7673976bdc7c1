"""Games by name: each game is one plug-in record, a :class:`GameInfo`, registered here when
its plug-in package is imported (``engine.<name>`` for a built-in game).

The record is declared by the engine layer but describes the whole game: its rules and AI, and,
as module paths (text, never imported here), its renderer and its Discord UI. The one loader,
:func:`cogs.plugins.load_plugins`, imports a plug-in package and then the modules its record
names; each of those registers its part with its own layer (``render.register``,
``cogs.ui.register``). So the engine imports no outer layer, and shared code asks the record,
never the game's package, for what differs between games (result wording, card catalogue,
per-game settings, secrets for the leak checks, fuzz set-ups).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from engine.base import Game

if TYPE_CHECKING:
    from engine.handbook import CardEntry

# A seat's AI: given a game and a seat id, return an action string from legal_actions.
# ``seed`` makes the choice reproducible.
AiFunction = Callable[[Game, str, str, int], str]  # (game, player, level, seed) -> action
View = dict[str, Any]
T = TypeVar("T")


@dataclass(frozen=True)
class GameSetting:
    """A server setting a game declares (``/config set <key> <value>``), whose value games
    started afterwards receive as ``new_game`` keywords.

    The platform lists it in /config, parses and stores it, and hands ``start_arguments(value)``
    to ``new_game`` at Start. With ``read_file`` the value may also name a file in the operator's
    card folder (the ``FARKLE_CARDS_DIR`` environment variable, read safely by the platform):
    the file is read once when set and ``read_file(name, data)`` returns the value to store."""

    key: str  # unique across every game, e.g. "farkle_cards"
    default: Any
    help: str
    parse: Callable[[str], Any]  # /config text -> value, or ValueError naming what is allowed
    show: Callable[[Any], str] = str
    start_arguments: Callable[[Any], dict[str, Any]] = lambda value: {}  # value -> new_game keywords
    # (file name, bytes) -> the value to store; ValueError saying why the file is unusable
    read_file: Callable[[str, bytes], Any] | None = None
    suggestions: tuple[str, ...] = ()  # what /config's autocomplete offers (a file setting: before its files)


@dataclass(frozen=True)
class GameInfo:
    """One game's plug-in record (see the module text)."""

    name: str
    title: str
    game_class: type[Game]
    new_game: Callable[..., Game]  # (players, seed, **options) -> Game
    choose_ai_action: AiFunction
    ai_levels: tuple[str, ...] = ("easy", "medium", "hard")
    # Levels a game no longer offers -> the level that plays them now (a saved game, a lobby or a
    # rematch may still name one); its choose_ai_action accepts them too.
    ai_level_aliases: Mapping[str, str] = field(default_factory=dict)
    rules_summary: str = ""  # a few lines for /game rules; say which values are reconstructions
    emoji: str = "🎲"
    # The server setting turn_timeout.<name> (seconds to act) takes its default and its
    # /config help from here.
    turn_timeout: int = 300
    turn_timeout_help: str = ""  # e.g. "How long a Tally player has to act"; empty: said generically
    # The other layers' parts, as module paths the loader imports (each registers itself there).
    renderer: str | None = None  # e.g. "render.farkle"; None: the board is the view as JSON
    ui: str | None = None  # e.g. "cogs.ui.farkle"; required to play on Discord
    rules_file: Path | None = None  # the full rules for players (## sections); None: rules_summary
    settings: tuple[GameSetting, ...] = ()  # its own /config settings (besides turn_timeout.<name>)
    # Result wording: the scores so far from the public view (for a game stopped early), and the
    # public view without turn markers once the record ended a game the engine still runs
    # ((view, why) -> view; "why" is e.g. "abandoned").
    standing: Callable[[View], dict[str, float]] | None = None
    final_view: Callable[[View, str], View] | None = None
    cards: Callable[[], Sequence[CardEntry]] | None = None  # its cards for /game card
    # For the tests: what a viewer's view must not show ((game, viewer or None) -> patterns),
    # the fuzzer's lobby set-ups (options text, AI seats), the id prefix of its rules map.
    secrets: Callable[[Any, str | None], list[re.Pattern[str]]] | None = None
    fuzz_setups: tuple[tuple[str, int], ...] = (("", 1),)
    rules_map_prefix: str = ""


_GAMES: dict[str, GameInfo] = {}
# The built-in games, by name: the one list of them. Each is the plug-in package engine.<name>
# (importing it registers its GameInfo, which names its renderer and UI modules).
BUILTIN_GAMES = ("farkle", "ninesons", "flagon")


def register(info: GameInfo) -> None:
    _GAMES[info.name] = info


def get(name: str) -> GameInfo:
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise KeyError(f"Unknown game `{name}`. Known games: {known}.") from None


def all_games() -> list[GameInfo]:
    return [_GAMES[k] for k in sorted(_GAMES)]


def games_in_order() -> list[GameInfo]:
    """The registered games as lists show them: the built-ins first in their order, then the
    others by name."""
    games = {info.name: info for info in all_games()}
    return [games[n] for n in BUILTIN_GAMES if n in games] + [
        info for name, info in sorted(games.items()) if name not in BUILTIN_GAMES
    ]


def setting_of(key: str) -> tuple[GameInfo, GameSetting] | None:
    """The game that declares the setting ``key``, and its declaration."""
    for info in all_games():
        for setting in info.settings:
            if setting.key == key:
                return info, setting
    return None


def per_record(compute: Callable[[str], T]) -> Callable[[str], T]:
    """Cache ``compute(name)`` for as long as the game's record stays the one registered (a
    plug-in registered again, as tests do, is computed afresh). KeyError for an unknown name."""
    kept: dict[str, tuple[GameInfo, T]] = {}

    @functools.wraps(compute)
    def cached(name: str) -> T:
        info = get(name)
        hit = kept.get(name)
        if hit is None or hit[0] is not info:
            hit = kept[name] = (info, compute(name))
        return hit[1]

    return cached


def restore(name: str, state: dict[str, Any]) -> Game:
    return get(name).game_class.from_dict(state)
