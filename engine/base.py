"""The contract every game engine follows (see docs/engine.md).

Modelled on python-chess: a game is a plain object with a handful of typed methods.
Actions are short strings in the game's text notation; ``legal_actions`` is the single
source of truth for what is allowed, and ``play`` refuses anything else with
:class:`IllegalAction` without changing the game.

Engines are pure: no discord, asyncio, sqlite or clock imports. All randomness comes from
:class:`engine.rng.Rng`, whose state lives inside the game's state.
"""

from __future__ import annotations

import copy as _copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Self, TypeVar

import orjson

from engine.values import allowed_range, parse_switch, parse_whole_number, shown

# The key of a saved state that holds its format version, the same in every game.
STATE_VERSION_KEY: Final = "version"
# One upgrade step: a state of version n (a private copy it may change) -> the same game as a
# state of version n + 1.
StateUpgrade = Callable[[dict[str, Any]], dict[str, Any]]


T = TypeVar("T")


def copy_state(value: T) -> T:
    """A deep copy of a JSON-safe game state (dicts with str keys, lists, str, int, float,
    bool, None) through orjson: ~10x faster than ``copy.deepcopy`` on a Farkle state. What
    JSON cannot hold exactly (a key that is not a str, an int past 64 bits, any other object)
    makes orjson refuse, and is then copied by ``copy.deepcopy``. A tuple would come back as a
    list, as it does from every save and restore: states hold none (tests/engine/test_copies.py)."""
    try:
        return orjson.loads(orjson.dumps(value))  # type: ignore[no-any-return]
    except TypeError:  # orjson.JSONEncodeError
        return _copy.deepcopy(value)


class IllegalAction(Exception):
    """An action that the rules do not allow now. ``str(err)`` is readable by a player."""


class InvalidSetup(ValueError):
    """``new_game`` cannot start with these players, options or setup data (for example a team
    game with too few players). ``str(err)`` is a sentence a player can read; callers refuse the
    start with it. Anything else ``new_game`` raises is a bug."""


@dataclass(frozen=True)
class Event:
    """Something that happened, for announcing.

    ``to`` is ``None`` for a public event (anyone may read ``text``) or the id of the one
    player allowed to see it. Private events must never reach a public message.
    """

    kind: str
    text: str
    to: str | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "to": self.to, "data": self.data}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        return cls(kind=d["kind"], text=d["text"], to=d.get("to"), data=dict(d.get("data", {})))


@dataclass(frozen=True)
class Result:
    """How a finished game ended.

    ``ranking`` lists places best first; players sharing a place are in one inner list.
    """

    scores: dict[str, float]
    ranking: list[list[str]]
    reason: str
    # Set when players played as sides (a team game): each inner list is one side, so a place
    # shared by a side's members is a team result, not a tie (ratings rate them as a team).
    teams: list[list[str]] | None = None

    @property
    def winners(self) -> list[str]:
        return list(self.ranking[0]) if self.ranking else []

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"scores": self.scores, "ranking": self.ranking, "reason": self.reason}
        if self.teams is not None:
            d["teams"] = self.teams
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Result:
        teams = [list(t) for t in d["teams"]] if d.get("teams") is not None else None
        return cls(scores=dict(d["scores"]), ranking=[list(p) for p in d["ranking"]], reason=d["reason"],
                   teams=teams)


@dataclass(frozen=True)
class OptionSpec:
    """One option of ``new_game``: its type, default and allowed values, for help and parsing."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None  # allowed values; None = any value of the default's type
    minimum: int | None = None
    maximum: int | None = None

    def parse(self, raw: str) -> Any:
        """Turn user text into a value, or raise ValueError naming what is allowed."""
        raw = raw.strip()
        kind = type(self.default)
        value: Any
        if kind is bool:
            value = parse_switch(raw, self.name)
        elif kind is int and self.choices is not None:
            try:
                value = parse_whole_number(raw, self.name)
            except ValueError:
                raise ValueError(f"`{self.name}` must be one of: {self._choices()} (not `{shown(raw)}`).") from None
        elif kind is int:
            value = parse_whole_number(raw, self.name, low=self.minimum, high=self.maximum)
        elif not raw:
            raise ValueError(f"`{self.name}` needs a value" + (f": one of {self._choices()}." if self.choices else "."))
        else:
            value = raw
        return self.check(value)

    def _choices(self) -> str:
        return ", ".join(str(c) for c in self.choices or ())

    def check(self, value: Any) -> Any:
        """Return ``value`` if it is allowed, else raise ValueError naming what is allowed."""
        expected = type(self.default)
        if type(value) is not expected and not (expected is float and type(value) is int):
            raise ValueError(f"`{self.name}` takes a {expected.__name__}, not {value!r}.")
        if self.choices is not None and value not in self.choices:
            raise ValueError(f"`{self.name}` must be one of: {self._choices()} (not `{shown(str(value))}`).")
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            raise ValueError(f"`{self.name}` must be{allowed_range(self.minimum, self.maximum)} (got {value}).")
        return value


# Options every game takes at the table, kept by the platform with the game's own options and
# never passed to ``new_game`` (see :func:`game_options`).
TABLE_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("rated", True, "Rated game: the result moves the players' ratings (see /game leaderboard). "
               "Off for a friendly or practice game."),
)


def game_options(options: dict[str, Any]) -> dict[str, Any]:
    """A saved game's options without the table's own (what ``new_game`` takes)."""
    table = {o.name for o in TABLE_OPTIONS}
    return {k: v for k, v in options.items() if k not in table}


def resolve_options(specs: tuple[OptionSpec, ...], given: dict[str, Any], title: str) -> dict[str, Any]:
    """Every option of a game: defaults filled in, unknown names refused, text parsed, values
    checked. Raises :class:`InvalidSetup` (a ValueError) with a reason a player can read."""
    by_name = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        raise InvalidSetup(f"{title} has no option {', '.join(f'`{u}`' for u in unknown)}.")
    values = {spec.name: spec.default for spec in specs}
    for name, value in given.items():
        spec = by_name[name]
        try:
            values[name] = spec.parse(value) if isinstance(value, str) and not isinstance(spec.default, str) \
                else spec.check(value)
        except ValueError as exc:
            raise InvalidSetup(str(exc)) from None
    return values


class Game(ABC):
    """Base class of every game. Subclasses set the class attributes and implement the methods.

    Player ids are opaque strings chosen by the caller (the bot uses seat ids such as ``"p1"``).
    """

    NAME: ClassVar[str]  # registry key, e.g. "ninesons"
    TITLE: ClassVar[str]  # shown to people
    MIN_PLAYERS: ClassVar[int]
    MAX_PLAYERS: ClassVar[int]
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = ()
    # The format of ``to_dict()``, saved under STATE_VERSION_KEY. Raise it when the format
    # changes, and add the step from the old version to STATE_UPGRADES so saved games still load.
    STATE_VERSION: ClassVar[int] = 1
    # version n -> the step that turns a version-n state into a version n + 1 state.
    STATE_UPGRADES: ClassVar[Mapping[int, StateUpgrade]] = {}
    # Where states saved before STATE_VERSION_KEY was common to all games kept their version
    # (Flagon's said ``"v": 1``); read only when STATE_VERSION_KEY is absent.
    OLD_STATE_VERSION_KEY: ClassVar[str | None] = None
    # True when players hold secrets (a hand, a plan): the bot then offers private prompts
    # (DM, or an ephemeral "Show my hand" button) and checks DM reachability at the start.
    HIDDEN_INFORMATION: ClassVar[bool] = False

    players: list[str]

    # -- whose move ---------------------------------------------------------------------
    @abstractmethod
    def to_act(self) -> list[str]:
        """Players who may act now (several at once during simultaneous phases)."""

    @abstractmethod
    def legal_actions(self, player: str) -> list[str]:
        """Every legal action for ``player`` now, in text notation, sorted. Empty if none."""

    @abstractmethod
    def play(self, player: str, action: str) -> list[Event]:
        """Apply one action; raise :class:`IllegalAction` (changing nothing) if it is not legal."""

    def shortcuts(self, player: str) -> list[str]:
        """Extra notations ``play`` accepts now, each standing for several legal actions in a
        row played as one (Farkle's ``keep:1,5+roll``), for people typing moves; never
        among ``legal_actions`` (buttons, AIs and fuzzers use those). Default: none."""
        return []

    def is_private_action(self, player: str, action: str) -> bool:
        """True when offering or announcing ``action`` would reveal hidden information (a card
        being planned, a Magic Item in hand). Such actions are offered only in ``player``'s
        private prompt (DM or ephemeral), never as public buttons, and their events must be
        private. Default: every action is public."""
        return False

    # -- what people see ----------------------------------------------------------------
    @abstractmethod
    def view(self, player: str | None) -> dict[str, Any]:
        """What ``player`` may see; ``None`` is a spectator. JSON-safe."""

    def describe_action(self, player: str, action: str) -> str:
        """A short human label for an action (button text). Default: the notation itself."""
        return action

    def private_summary(self, player: str) -> list[str]:
        """What ``player`` holds now that others cannot see (Magic Items in hand, cards planned
        face down), as short lines a person can read. Only ever shown once the game is over
        (the replay of a finished game shows it ply by ply); never in a running game's
        messages. Default: nothing, for a game without secrets."""
        return []

    # -- persistence --------------------------------------------------------------------
    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """JSON-safe state including the RNG; ``from_dict(to_dict())`` is an exact copy."""

    @classmethod
    @abstractmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        """Rebuild a game saved with :meth:`to_dict`, by this or an earlier version of the
        engine: implementations start with ``d = cls.upgrade(d)`` and never change ``d``."""

    @classmethod
    def upgrade(cls, d: dict[str, Any]) -> dict[str, Any]:
        """``d`` brought to the current format (``STATE_VERSION``), one STATE_UPGRADES step per
        version. A current state is returned as it is; an older one as a new dict (``d`` is not
        changed). Raises ValueError for a state of unknown version or from a newer engine."""
        version = d.get(STATE_VERSION_KEY)
        if STATE_VERSION_KEY not in d and cls.OLD_STATE_VERSION_KEY is not None:
            version = d.get(cls.OLD_STATE_VERSION_KEY)
        if type(version) is not int or version < 1:
            raise ValueError(f"{cls.TITLE}: the saved state has no valid `{STATE_VERSION_KEY}` ({version!r}).")
        if version > cls.STATE_VERSION:
            raise ValueError(f"{cls.TITLE}: the saved state is version {version}, newer than this "
                             f"engine's {cls.STATE_VERSION}.")
        if version == cls.STATE_VERSION:
            return d
        d = _copy.deepcopy(d)
        while version < cls.STATE_VERSION:
            step = cls.STATE_UPGRADES.get(version)
            if step is None:
                raise ValueError(f"{cls.TITLE}: no upgrade from state version {version}.")
            d = step(d)
            version += 1
        d[STATE_VERSION_KEY] = version
        return d

    def copy(self) -> Self:
        """A deep, independent copy: playing on one never changes the other. The default goes
        through :meth:`to_dict` / :meth:`from_dict`, so it is exact; a game may override it for
        speed as long as the copy's ``to_dict()`` stays equal and shares nothing mutable."""
        return type(self).from_dict(self.to_dict())  # type: ignore[return-value]

    def setup_arguments(self) -> dict[str, Any]:
        """The keyword arguments of ``new_game`` that did not come from the lobby's options (for
        example the card set a server chose), JSON-safe, so a replay from seed + action log can
        pass them again. Default: none."""
        return {}

    # -- the end ------------------------------------------------------------------------
    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abstractmethod
    def result(self) -> Result | None:
        """``None`` while the game runs."""


def check_legal(game: Game, player: str, action: str) -> None:
    """Raise IllegalAction with a readable reason unless ``action`` is legal for ``player``."""
    if game.is_over:
        raise IllegalAction("The game is over.")
    if player not in game.players:
        raise IllegalAction("You are not playing in this game.")
    if player not in game.to_act():
        raise IllegalAction("It is not your turn.")
    if action not in game.legal_actions(player):
        raise IllegalAction(f"`{action}` is not a legal action now. Try /play to see the options.")
