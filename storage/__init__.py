"""Persistence: SQLite (aiosqlite, the default) or PostgreSQL (asyncpg), one interface. See
storage.db (the queries), storage.sqlite and storage.postgres (the backends), storage.ratings."""

from storage.db import (
    ActionRow,
    Announcement,
    ChannelBusy,
    ConstraintViolation,
    Database,
    DatabaseGone,
    DatabaseUnavailable,
    GameAccess,
    GameDamaged,
    GameNotFound,
    GameRecord,
    HandMessage,
    LoggedAction,
    ResultRow,
    SeatRecord,
    StorageError,
    VersionConflict,
)
from storage.ratings import FinishedGame, HistoryGame, RateGame, RatingChange, StoredRating, player_of

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
    "HandMessage",
    "HistoryGame",
    "LoggedAction",
    "RateGame",
    "RatingChange",
    "ResultRow",
    "SeatRecord",
    "StorageError",
    "StoredRating",
    "VersionConflict",
    "player_of",
]
