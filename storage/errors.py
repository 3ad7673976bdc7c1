"""What storage raises, whichever backend is behind it."""

from __future__ import annotations


class StorageError(Exception):
    """The database cannot be used; the message says why and what to do."""


class ChannelBusy(StorageError):
    """The channel already has a lobby or a running game."""


class VersionConflict(StorageError):
    """The game changed since it was loaded (another click got there first)."""


class GameNotFound(StorageError):
    pass


class DatabaseUnavailable(StorageError):
    """The database could not be reached or written now (SQLite locked by another process, disk
    full, I/O error; PostgreSQL down or unreachable)."""


class DatabaseGone(StorageError):
    """The database file was deleted or replaced under the running bot: writing on would go
    into an unlinked file and be lost at restart, so every write is refused until a restart."""


class GameDamaged(StorageError):
    """A game's saved data cannot be decoded; the game is set aside, every other game works."""


class ConstraintViolation(Exception):
    """A statement broke a constraint of the schema (a CHECK, a unique or foreign key). Not a
    StorageError: outside the cases storage turns into one (ChannelBusy), it is a bug."""
