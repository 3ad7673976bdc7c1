"""Per-guild settings: every key, its type, default and allowed range, in one place. The
per-game ones come from the games' plug-in records: ``turn_timeout.<game>`` from each
``GameInfo(turn_timeout=...)``, and each game's own settings (``GameInfo(settings=...)``, e.g.
Dragon Farkle's ``farkle_cards``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import registry
from engine.values import duration_text, parse_duration, parse_switch, parse_whole_number
from render.text import echo
from sessions.cardfiles import CARDS_DIR_ENV, choose_file_setting

GAME_KINDS = registry.BUILTIN_GAMES
HIDDEN_PICK_MODES = ("dm", "ephemeral", "both")
AFK_ACTIONS = ("ai", "abandon")
HINT_MODES = ("off", "casual", "all")


@dataclass(frozen=True)
class Setting:
    key: str
    default: Any
    help: str
    parse: Callable[[str], Any]  # user text -> value, or ValueError naming what is allowed
    show: Callable[[Any], str] = str


def _int_range(key: str, low: int, high: int, *, seconds: bool = False) -> Callable[[str], int]:
    def parse(raw: str) -> int:
        return parse_whole_number(raw, key, low=low, high=high, seconds=seconds)

    return parse


WEEK = 7 * 86400


def _duration_range(key: str, low: int, high: int) -> Callable[[str], int]:
    """Seconds, as a number ("600") or with a unit ("10m", "12h", "2d"), from ``low`` to ``high``."""

    def parse(raw: str) -> int:
        return parse_duration(raw, key, low=low, high=high)

    return parse


def _choice(key: str, choices: tuple[str, ...]) -> Callable[[str], str]:
    def parse(raw: str) -> str:
        value = raw.strip().lower()
        if value not in choices:
            raise ValueError(f"`{key}` must be one of: {', '.join(choices)} (got `{echo(raw, 40)}`).")
        return value

    return parse


def _bool(key: str) -> Callable[[str], bool]:
    def parse(raw: str) -> bool:
        return parse_switch(raw, key)

    return parse


def _games(raw: str) -> list[str]:
    if raw.strip().lower() == "all":
        return ["all"]
    known = [info.name for info in registry.all_games()] or list(GAME_KINDS)
    names = [n.strip().lower() for n in raw.replace(",", " ").split() if n.strip()]
    bad = [n for n in names if n not in known]
    if bad or not names:
        raise ValueError(f"`enabled_games` takes `all` or names from: {', '.join(known)}.")
    return sorted(set(names))


def _channels(raw: str) -> list[int]:
    """Channel mentions or ids separated by spaces; `all` clears the list."""
    if raw.strip().lower() in ("all", "any", ""):
        return []
    ids = []
    for token in raw.replace(",", " ").split():
        digits = token.strip("<#>")
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 20:  # a snowflake: <= 20 digits
            raise ValueError("`allowed_channels` takes channel mentions (#games) or ids, or `all`.")
        ids.append(int(digits))
    return sorted(set(ids))


SHOWN_CHANNELS = 20  # a longer list is summed up, so the confirmation fits one message


def _show_channels(value: list[int]) -> str:
    if not value:
        return "all channels"
    shown = " ".join(f"<#{c}>" for c in value[:SHOWN_CHANNELS])
    more = len(value) - SHOWN_CHANNELS
    return f"{shown} and {more} more ({len(value)} channels)" if more > 0 else shown


def _turn_timeouts() -> list[Setting]:
    """turn_timeout.<game> for every registered game, built-ins first in their order, with
    the default and help its GameInfo gives."""
    settings = []
    for info in registry.games_in_order():
        key = f"turn_timeout.{info.name}"
        about = info.turn_timeout_help or f"How long a {info.title} player has to act"
        help_text = f"{about}: seconds, or a duration such as 90m, 12h or 2d (30 seconds to 7 days)."
        settings.append(
            Setting(key, info.turn_timeout, help_text, _duration_range(key, 30, WEEK), duration_text)
        )
    return settings


def _game_settings() -> list[Setting]:
    """Each registered game's own settings, as its plug-in record declares them. A setting that
    may name a file in the operator's card folder parses only its typed values here; the file is
    read by :func:`setting_value`."""
    settings = []
    for info in registry.games_in_order():
        for declared in info.settings:
            parse = declared.parse
            if declared.read_file is not None:
                parse = _typed_or_file(declared.key, declared.parse)
            help_text = declared.help.replace("{folder}", CARDS_DIR_ENV)
            settings.append(Setting(declared.key, declared.default, help_text, parse, declared.show))
    return settings


def _typed_or_file(key: str, parse: Callable[[str], Any]) -> Callable[[str], Any]:
    def parse_typed(raw: str) -> Any:
        try:
            return parse(raw)
        except ValueError:
            raise ValueError(
                f"`{key}` names a file in the operator's card folder ({CARDS_DIR_ENV})."
            ) from None

    return parse_typed


class _Settings(Mapping[str, Setting]):
    """Every setting by key, in /config order; the per-game ones follow the engine registry,
    so a game registered later (or a test double) has its turn timeout and settings too."""

    def __init__(self, head: list[Setting], middle: list[Setting], tail: list[Setting]) -> None:
        self._head = head
        self._middle = middle
        self._tail = tail

    def _all(self) -> dict[str, Setting]:
        return {
            s.key: s for s in [*self._head, *_turn_timeouts(), *self._middle, *_game_settings(), *self._tail]
        }

    def __getitem__(self, key: str) -> Setting:
        return self._all()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


SETTINGS: Mapping[str, Setting] = _Settings(
    [
        Setting(
            "allowed_channels",
            [],
            "Channels where games may be started (`all` for any).",
            _channels,
            _show_channels,
        ),
        Setting(
            "enabled_games",
            ["all"],
            "Games that may be started here (`all` or names).",
            _games,
            lambda v: ", ".join(v),
        ),
    ],
    [
        Setting(
            "afk_strikes",
            3,
            "Timeouts in a row before the AFK action applies (1–10).",
            _int_range("afk_strikes", 1, 10),
        ),
        Setting(
            "afk_action",
            "ai",
            "After that many timeouts: `ai` takes the seat, or `abandon` ends the game.",
            _choice("afk_action", AFK_ACTIONS),
        ),
        Setting(
            "hidden_pick_mode",
            "both",
            "How secrets reach players: `dm` (the board button only for closed DMs), `ephemeral` (the board button), or `both`.",
            _choice("hidden_pick_mode", HIDDEN_PICK_MODES),
        ),
        Setting(
            "ai_seats",
            True,
            "Whether AI seats may be added to games (on/off).",
            _bool("ai_seats"),
            lambda v: "on" if v else "off",
        ),
        Setting(
            "images",
            True,
            "Board images (on) or text boards only (off).",
            _bool("images"),
            lambda v: "on" if v else "off",
        ),
    ],
    [
        Setting(
            "lobby_timeout",
            3600,
            "How long an open lobby waits for its host to press Start before it "
            "closes: seconds, or a duration such as 30m or 12h (1 minute to 1 day).",
            _duration_range("lobby_timeout", 60, 86400),
            duration_text,
        ),
        Setting(
            "hints",
            "casual",
            "/game hint (the AI's suggestion, shown privately): `casual` in unrated games only, `all` in "
            "rated games too (a hint makes that game unrated for its asker), or `off`.",
            _choice("hints", HINT_MODES),
        ),
        Setting(
            "game_threads",
            True,
            "Play each game in a thread of its own, so one channel hosts many games (on), or one game "
            "at a time in the channel itself (off). Needs the bot's Create Public Threads and Send "
            "Messages in Threads in the channel; without them games are played in the channel.",
            _bool("game_threads"),
            lambda v: "on" if v else "off",
        ),
        Setting(
            "max_lobbies_per_member",
            2,
            "Open lobbies one member may host at once in this server (1–20).",
            _int_range("max_lobbies_per_member", 1, 20),
        ),
    ],
)


@dataclass(frozen=True)
class GuildSettings:
    """A guild's settings: stored values over defaults."""

    values: dict[str, Any]

    @classmethod
    def from_stored(cls, stored: dict[str, Any]) -> GuildSettings:
        settings = dict(SETTINGS)
        values = {key: s.default for key, s in settings.items()}
        values.update({k: v for k, v in stored.items() if k in settings})
        return cls(values)

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def turn_timeout(self, kind: str) -> int:
        return int(self.values.get(f"turn_timeout.{kind}", 300))

    def game_enabled(self, kind: str) -> bool:
        enabled = self.values["enabled_games"]
        return "all" in enabled or kind in enabled

    def channel_allowed(self, channel_id: int) -> bool:
        allowed = self.values["allowed_channels"]
        return not allowed or channel_id in allowed

    def start_arguments(self, kind: str) -> dict[str, Any]:
        """Arguments of ``new_game`` that come from the server's settings, not from the lobby's
        options (which any member types): what the game's own settings hand it (e.g. the card
        set an admin chose for Dragon Farkle)."""
        arguments: dict[str, Any] = {}
        for declared in registry.get(kind).settings:
            arguments.update(declared.start_arguments(self.values.get(declared.key, declared.default)))
        return arguments

    def describe(self) -> list[tuple[str, str, str]]:
        """(key, shown value, help) for /config show."""
        return [(k, s.show(self.values[k]), s.help) for k, s in SETTINGS.items()]


async def setting_value(key: str, raw: str, folder: Path | None) -> Any:
    """A /config value as it will be stored. A game setting that takes a file reads and checks
    the operator's file here (off the event loop), once; ValueError with the reason if refused."""
    declared = registry.setting_of(key)
    if declared is not None and declared[1].read_file is not None:
        return await choose_file_setting(declared[1], folder, raw)
    return parse_setting(key, raw)


def parse_setting(key: str, raw: str) -> Any:
    """Parse a /config set value; ValueError with the allowed values on bad input."""
    setting = SETTINGS.get(key)
    if setting is None:
        raise ValueError(f"Unknown setting `{echo(key, 40)}`. Settings: {', '.join(SETTINGS)}.")
    return setting.parse(raw)
