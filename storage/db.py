"""The open database: which backend (SQLite or PostgreSQL), its locks and lifetime, and one
object per concern, each in its own module:

====================  ===========================  =========================================
``db.games``          storage.games.GameTable      games and seats: create, load, find, save
``db.log``            storage.log.ActionLog        the action log
``db.outbox``         storage.outbox.Outbox        what a saved change must still announce
``db.timers``         storage.timers.TimerTable    turn, reminder and lobby deadlines
``db.settings``       storage.settings             server settings as stored
``db.ratings``        storage.ratings              ratings, results, history, stats
``db.damage``         storage.damage               games set aside as damaged
``db.pings``          storage.pings                turn pings still standing
``db.old_boards``     storage.old_boards           board messages to delete (the board moved)
``db.seat_messages``  storage.seat_messages        each seat's private message (DM)
``db.prefs``          storage.prefs                members' own choices
====================  ===========================  =========================================

Every module runs the same queries on both backends (storage.sqlite, the default: one file,
one process; storage.postgres, shared by several processes); see storage.backend.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from storage.backend import Backend
from storage.damage import DamagedGames
from storage.errors import StorageError
from storage.games import GameTable
from storage.log import ActionLog
from storage.old_boards import OldBoardTable
from storage.outbox import Outbox
from storage.pings import PingTable
from storage.prefs import MemberPrefs
from storage.ratings import RatingTables
from storage.rowcache import DEFAULT_CAPACITY, GameRowCache
from storage.seat_messages import SeatMessageTable
from storage.settings import SettingsTable
from storage.sqlite import SqliteBackend
from storage.timers import TimerTable


class Database:
    """An open database. Open it with ``async with await Database.open(target) as db:`` (or
    ``await Database.open(target)`` and ``await db.close()`` on every path): an unclosed
    SQLite connection's worker thread keeps the process from exiting."""

    def __init__(self, backend: Backend, clock: Callable[[], float]) -> None:
        self._backend = backend
        # What this process last read and wrote of each game (kept only when it owns the data).
        self._rows = GameRowCache(DEFAULT_CAPACITY if backend.exclusive else 0)
        self.damage = DamagedGames(backend, clock, self._rows)
        self.ratings = RatingTables(backend, clock)
        self.games = GameTable(backend, clock, self._rows, self.damage, self.ratings)
        self.log = ActionLog(backend, clock)
        self.outbox = Outbox(backend, clock, self._rows)
        self.timers = TimerTable(backend, clock)
        self.settings = SettingsTable(backend, clock)
        self.pings = PingTable(backend, clock)
        self.old_boards = OldBoardTable(backend, clock, self._rows)
        self.seat_messages = SeatMessageTable(backend, clock)
        self.prefs = MemberPrefs(backend, clock)

    @classmethod
    async def open(
        cls, target: str | Path, *, clock: Callable[[], float] = time.time, busy_timeout_ms: int = 5000
    ) -> Database:
        """Open (and migrate) the database at ``target``: a SQLite file (a path, or
        ``sqlite:///path``) or a PostgreSQL server (``postgresql://user:pass@host:port/db``)."""
        text = str(target)
        if text.startswith(("postgresql://", "postgres://")):
            from storage.postgres import PostgresBackend  # asyncpg is needed only for PostgreSQL

            return cls(await PostgresBackend.open(text, clock), clock)
        if text.startswith("sqlite://"):
            target = text.removeprefix("sqlite://")  # sqlite:///abs/path or sqlite://relative/path
        elif "://" in text:
            raise StorageError(
                f"DATABASE_URL must start with sqlite:// or postgresql://, not "
                f"`{text.split('://', 1)[0]}://`."
            )
        return cls(await SqliteBackend.open(Path(target), clock, busy_timeout_ms), clock)

    @property
    def backend_name(self) -> str:
        """'sqlite' or 'postgres'."""
        return self._backend.name

    @property
    def exclusive(self) -> bool:
        """True when this process alone writes the database (SQLite): what it read and wrote
        stays true; False on PostgreSQL, where other processes write too."""
        return self._backend.exclusive

    @property
    def path(self) -> Path | None:
        """The SQLite file, or None on PostgreSQL."""
        return self._backend.path if isinstance(self._backend, SqliteBackend) else None

    @property
    def _conn(self) -> Any:
        """The SQLite connection (tests that simulate a full disk patch it)."""
        assert isinstance(self._backend, SqliteBackend)
        return self._backend.conn

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, exc_type: object, exc: BaseException | None, tb: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the connection (pool) and stop its worker thread (safe to call twice)."""
        await self._backend.close()

    def close_now(self) -> None:
        """Close without awaiting (no event loop needed): stops the worker thread."""
        self._backend.close_now()

    @property
    def _closed(self) -> bool:
        return self._backend.closed

    @property
    def read_only_reason(self) -> str | None:
        """Why writes are refused (the SQLite file was deleted or replaced), or None."""
        return self._backend.gone if isinstance(self._backend, SqliteBackend) else None

    def game_lock(self, game_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold while acting on a game: one action at a time per game. SQLite: a lock in this
        process (one process owns the file); PostgreSQL: an advisory lock, across processes."""
        return self._backend.game_lock(game_id)

    def delivery_lock(self, game_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold while announcing a game's saved changes (the outbox): one delivery per game at
        a time, across processes on PostgreSQL, so no Recent line or ping goes out twice."""
        return self._backend.delivery_lock(game_id)

    async def applied_migrations(self) -> list[int]:
        rows = await self._backend.fetch("SELECT version FROM schema_migrations ORDER BY version")
        return [r[0] for r in rows]
