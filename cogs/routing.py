"""custom_id routing: every component the bot sends carries ``dt:<game_id>:<verb>[:<args>]``.

The game id in every id means a click can be routed from the database alone: it works after
a restart, inside DMs (which have no guild), and for a player sitting in two games at once.
"""

from __future__ import annotations

from dataclasses import dataclass

PREFIX = "dt"
MAX_CUSTOM_ID = 100
MAX_NUMBER = 2**63 - 1  # SQLite's largest INTEGER (PostgreSQL's BIGINT): every number in an id fits
MAX_NUMBER_DIGITS = len(str(MAX_NUMBER))


def number(field: str, *, limit: int = MAX_NUMBER) -> int | None:
    """The number a field of a component id carries, or None if the bot could not have written
    it. Custom ids and select values are client data: this is the one check every parser of
    ``dt:``, ``dtr:`` and ``dtl:`` ids uses before a number reaches a query or an index.
    Written by the bot means ASCII digits in canonical form (no sign, no leading zero) and at
    most ``limit``; so a forged 20-digit id is refused here and never overflows SQLite."""
    if not (field.isascii() and field.isdigit()) or len(field) > MAX_NUMBER_DIGITS:
        return None
    if len(field) > 1 and field[0] == "0":
        return None
    value = int(field)
    return value if value <= limit else None


@dataclass(frozen=True)
class Route:
    game_id: int
    verb: str
    args: tuple[str, ...] = ()

    def arg(self, index: int, default: str = "") -> str:
        return self.args[index] if index < len(self.args) else default

    def int_arg(self, index: int, default: int = 0) -> int:
        """The number in argument ``index``; ``default`` if it is missing or not one the bot
        writes (see ``number``): a stale version or page then, never an overflow."""
        value = number(self.arg(index))
        return default if value is None else value


def make(game_id: int, verb: str, *args: object) -> str:
    """Build a custom_id; raises ValueError if it would exceed Discord's 100 characters."""
    custom_id = ":".join([PREFIX, str(game_id), verb, *map(str, args)])
    if len(custom_id) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id too long: {custom_id[:40]}...")
    return custom_id


def fits(game_id: int, verb: str, *args: object) -> bool:
    return len(":".join([PREFIX, str(game_id), verb, *map(str, args)])) <= MAX_CUSTOM_ID


def parse(custom_id: str) -> Route | None:
    """The route in a custom_id, or None if it is not ours or is malformed (the game id
    included: an id out of SQLite's range is answered like any broken control).

    The last field may itself contain ':' (action notation), so only the first three
    separators split; verbs that take several args split the rest themselves.
    """
    parts = custom_id.split(":", 3)
    game_id = number(parts[1]) if len(parts) > 1 else None
    if len(parts) < 3 or parts[0] != PREFIX or game_id is None or not parts[2]:
        return None
    args: tuple[str, ...] = ()
    if len(parts) == 4:
        args = tuple(parts[3].split(":", 1))  # e.g. "<version>:<action with colons>"
    return Route(game_id, parts[2], args)
