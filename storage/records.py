"""A game as stored: :class:`GameRecord` with its :class:`SeatRecord` list, and how their
rows and JSON columns are read and written (shared by storage.games and storage.ratings)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import orjson

# What decoding a corrupt row raises (JSONDecodeError is a ValueError; a non-text column or a
# JSON value of the wrong shape is a TypeError).
DECODE_ERRORS = (ValueError, TypeError)


@dataclass
class SeatRecord:
    seat: str
    position: int
    user_id: int | None
    ai_level: str | None
    display_name: str
    timeouts_in_a_row: int = 0
    private_route: str = "unknown"

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None


@dataclass
class GameRecord:
    id: int
    kind: str
    guild_id: int
    channel_id: int
    host_user_id: int
    status: str
    options: dict[str, Any]
    seed: int
    state: dict[str, Any] | None
    version: int
    board_message_id: int | None
    result: dict[str, Any] | None
    created_at: float
    updated_at: float
    seats: list[SeatRecord] = field(default_factory=list)
    recent: list[str] = field(default_factory=list)  # last public lines, for the board
    in_thread: bool = False  # opened to be played in a thread of its channel (migration 008)
    thread_id: int | None = None  # where a started in_thread game is played
    rematch_of: int | None = None  # the ended game this lobby repeats (its Rematch button)

    @property
    def table_channel_id(self) -> int:
        """Where the game's board and turn pings are posted: its thread once it has one, else its channel."""
        return self.thread_id or self.channel_id

    def seat_of_user(self, user_id: int) -> SeatRecord | None:
        return next((s for s in self.seats if s.user_id == user_id and not s.is_ai), None)

    def seat(self, seat_id: str) -> SeatRecord:
        return next(s for s in self.seats if s.seat == seat_id)


@dataclass(frozen=True)
class GameAccess:
    """Who a game belongs to, read without decoding its saved data (for routing a click)."""

    guild_id: int
    channel_id: int
    status: str
    seated: bool  # the asking user holds a seat (their own, or one an AI took over)
    damaged: bool


def encode_json(value: Any) -> str:
    """Compact JSON text for a column. orjson is several times faster than the standard
    library on game states; the standard library takes what orjson refuses (integers past 64
    bits), so anything that saved before still saves."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))


def decode_json(raw: str | bytes) -> Any:
    """The value of a JSON column. Rows written by the standard library may hold what orjson
    refuses to read (NaN, integers past 64 bits): those are read the standard way."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return json.loads(raw)


def _json_field(r: Any, column: str, kind: type, *, nullable: bool = True) -> Any:
    raw = r[column]
    if raw is None and nullable:
        return None
    value = decode_json(raw)
    if not isinstance(value, kind):
        raise TypeError(f"{column} is {type(value).__name__}, not {kind.__name__}")
    return value


def game_from_row(r: Any) -> GameRecord:
    """A ``games`` row as a record without its seats; raises one of DECODE_ERRORS if its
    JSON columns cannot be read."""
    return GameRecord(
        id=r["id"],
        kind=r["kind"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        host_user_id=r["host_user_id"],
        status=r["status"],
        options=_json_field(r, "options", dict, nullable=False),
        seed=r["seed"],
        state=_json_field(r, "state", dict),
        version=r["version"],
        board_message_id=r["board_message_id"],
        result=_json_field(r, "result", dict),
        created_at=r["created_at"],
        updated_at=r["updated_at"],
        recent=_json_field(r, "recent", list, nullable=False),
        in_thread=bool(r["in_thread"]),
        thread_id=r["thread_id"],
        rematch_of=r["rematch_of"],
    )


INSERT_SEAT = (
    "INSERT INTO seats (game_id, seat, position, user_id, ai_level, display_name, timeouts_in_a_row, "
    "private_route) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def seat_columns(s: SeatRecord) -> dict[str, Any]:
    """A seat's columns as stored, in INSERT_SEAT's order (after game_id)."""
    return {
        "seat": s.seat,
        "position": s.position,
        "user_id": s.user_id,
        "ai_level": s.ai_level,
        "display_name": s.display_name,
        "timeouts_in_a_row": s.timeouts_in_a_row,
        "private_route": s.private_route,
    }


def seat_from_row(r: Any) -> SeatRecord:
    return SeatRecord(
        seat=r["seat"],
        position=r["position"],
        user_id=r["user_id"],
        ai_level=r["ai_level"],
        display_name=r["display_name"],
        timeouts_in_a_row=r["timeouts_in_a_row"],
        private_route=r["private_route"],
    )
