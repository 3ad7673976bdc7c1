"""Persistence: SQLite (aiosqlite, the default) or PostgreSQL (asyncpg), one interface.
storage.db opens a :class:`Database`, whose parts each live in a module by concern (games,
log, outbox, timers, settings, ratings, damage, pings, old boards, seat messages, prefs);
storage.sqlite and storage.postgres are the backends."""

from storage.db import Database
from storage.errors import (
    ChannelBusy,
    ConstraintViolation,
    DatabaseGone,
    DatabaseUnavailable,
    GameDamaged,
    GameNotFound,
    StorageError,
    VersionConflict,
)
from storage.log import ActionRow, LoggedAction
from storage.outbox import Announcement
from storage.ratings import (
    FinishedGame,
    HistoryGame,
    RateGame,
    RatingChange,
    ResultRow,
    StoredRating,
    player_of,
)
from storage.records import GameAccess, GameRecord, SeatRecord
from storage.seat_messages import SeatMessage

__all__ = [
    "ActionRow",
    "Announcement",
    "ChannelBusy",
    "ConstraintViolation",
    "Database",
    "DatabaseGone",
    "DatabaseUnavailable",
    "FinishedGame",
    "GameAccess",
    "GameDamaged",
    "GameNotFound",
    "GameRecord",
    "HistoryGame",
    "LoggedAction",
    "RateGame",
    "RatingChange",
    "ResultRow",
    "SeatMessage",
    "SeatRecord",
    "StorageError",
    "StoredRating",
    "VersionConflict",
    "player_of",
]
