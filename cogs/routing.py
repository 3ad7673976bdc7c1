"""custom_id routing: every component the bot sends carries ``dt:<game_id>:<verb>[:<args>]``.

The game id in every id means a click can be routed from the database alone: it works after
a restart, inside DMs (which have no guild), and for a player sitting in two games at once.
"""

from __future__ import annotations

from dataclasses import dataclass

PREFIX = "dt"
MAX_CUSTOM_ID = 100
MAX_GAME_ID = 2**63 - 1  # SQLite's largest INTEGER; larger ids are parsed as MAX_GAME_ID + 1


@dataclass(frozen=True)
class Route:
    game_id: int
    verb: str
    args: tuple[str, ...] = ()

    def arg(self, index: int, default: str = "") -> str:
        return self.args[index] if index < len(self.args) else default

    def int_arg(self, index: int, default: int = 0) -> int:
        try:
            return int(self.arg(index, str(default)))
        except ValueError:
            return default


def make(game_id: int, verb: str, *args: object) -> str:
    """Build a custom_id; raises ValueError if it would exceed Discord's 100 characters."""
    custom_id = ":".join([PREFIX, str(game_id), verb, *map(str, args)])
    if len(custom_id) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id too long: {custom_id[:40]}...")
    return custom_id


def fits(game_id: int, verb: str, *args: object) -> bool:
    return len(":".join([PREFIX, str(game_id), verb, *map(str, args)])) <= MAX_CUSTOM_ID


def parse(custom_id: str) -> Route | None:
    """The route in a custom_id, or None if it is not ours or is malformed.

    The last field may itself contain ':' (action notation), so only the first three
    separators split; verbs that take several args split the rest themselves.
    """
    parts = custom_id.split(":", 3)
    digits = parts[1] if len(parts) > 1 else ""
    if len(parts) < 3 or parts[0] != PREFIX or not (digits.isascii() and digits.isdigit()) or not parts[2]:
        return None
    args: tuple[str, ...] = ()
    if len(parts) == 4:
        args = tuple(parts[3].split(":", 1))  # e.g. "<version>:<action with colons>"
    # A forged id beyond SQLite's integer range names no game (and would overflow a query):
    # cap it to one past the range, which the router answers with "no longer exists".
    game_id = int(digits) if len(digits) <= 19 else MAX_GAME_ID + 1
    return Route(min(game_id, MAX_GAME_ID + 1), parts[2], args)
