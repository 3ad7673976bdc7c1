"""Persistence: one SQLite file through aiosqlite. See storage.db."""

from storage.db import (
    ActionRow,
    ChannelBusy,
    Database,
    DatabaseGone,
    DatabaseUnavailable,
    GameAccess,
    GameDamaged,
    GameNotFound,
    GameRecord,
    LoggedAction,
    ResultRow,
    SeatRecord,
    StorageError,
    VersionConflict,
)

__all__ = [
    "ActionRow",
    "ChannelBusy",
    "Database",
    "DatabaseGone",
    "DatabaseUnavailable",
    "GameAccess",
    "GameDamaged",
    "GameNotFound",
    "GameRecord",
    "LoggedAction",
    "ResultRow",
    "SeatRecord",
    "StorageError",
    "VersionConflict",
]
