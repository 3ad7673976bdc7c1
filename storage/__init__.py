"""Persistence: one SQLite file through aiosqlite. See storage.db."""

from storage.db import (
    ActionRow,
    Announcement,
    ChannelBusy,
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

__all__ = [
    "ActionRow",
    "Announcement",
    "ChannelBusy",
    "Database",
    "DatabaseGone",
    "DatabaseUnavailable",
    "GameAccess",
    "GameDamaged",
    "GameNotFound",
    "GameRecord",
    "HandMessage",
    "LoggedAction",
    "ResultRow",
    "SeatRecord",
    "StorageError",
    "VersionConflict",
]
