"""The SQLite backend (aiosqlite): one file, WAL mode, one connection (and one for background
checkpoints, storage.checkpoints), one process.

It runs the statements of the storage modules (storage.games, storage.outbox, ...). One
connection serves every game, so a transaction holds a connection lock for its whole length
(statements of other tasks wait instead of joining it). The file is checked before use (header, ``quick_check``, schema
version) and before each write (still the same file), because a SQLite file can be replaced or
deleted under a running bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from storage.checkpoints import BACKSTOP_PAGES, WalCheckpointer
from storage.errors import ConstraintViolation, DatabaseGone, DatabaseUnavailable, StorageError
from storage.keyed_locks import KeyedLocks
from storage.schema import latest_schema_version, migrations

log = logging.getLogger("dragon_tavern.storage.sqlite")

_SQLITE_HEADER = b"SQLite format 3\x00"
CACHE_KIB = 65536  # PRAGMA cache_size: the most memory SQLite keeps pages in


class SqliteBackend:
    name = "sqlite"
    exclusive = True  # one process owns the file

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        self._lock = asyncio.Lock()
        # Per backend, not per module: two open databases must not see each other's transaction.
        self._in_transaction: contextvars.ContextVar[bool] = contextvars.ContextVar(
            f"sqlite_tx_{id(self)}", default=False
        )
        # (st_dev, st_ino) of the file opened; checked before each write (see check_same_file).
        self._identity: tuple[int, int] | None = None
        self.gone: str | None = None
        self._game_locks: KeyedLocks[tuple[str, int]] = KeyedLocks()
        self.checkpointer = WalCheckpointer(path, self.check_same_file)
        self.closed = False

    @classmethod
    async def open(cls, path: Path, clock: Callable[[], float], busy_timeout_ms: int) -> SqliteBackend:
        _refuse_foreign_file(path)
        try:
            conn = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StorageError(f"Cannot open the database {path}: {exc}.") from exc
        conn.row_factory = aiosqlite.Row
        backend = cls(conn, path)
        try:
            await backend._check_readable()
            await backend.run("PRAGMA foreign_keys = ON")
            await backend.run(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await backend.run("PRAGMA journal_mode = WAL")
            await backend.run("PRAGMA synchronous = NORMAL")
            # The checkpointer copies the WAL back beside the writes; this is its backstop.
            await backend.run(f"PRAGMA wal_autocheckpoint = {BACKSTOP_PAGES}")
            # Up to 64 MiB of pages in memory (the default is 2 MiB): at a thousand open games
            # the default cache misses, and each miss is a read from the file (5-10 % of a click).
            await backend.run(f"PRAGMA cache_size = -{CACHE_KIB}")
            await backend._migrate(clock)
            backend._identity = _file_identity(path)
        except BaseException:
            await conn.close()
            raise
        return backend

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        await self.checkpointer.close()
        await self.conn.close()

    def close_now(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.checkpointer.close_now()
        self.conn.stop()

    # -- the four primitives ------------------------------------------------------------------
    def _exclusive(self) -> contextlib.AbstractAsyncContextManager[None]:
        """The connection lock, unless this task already holds it for its transaction."""
        return contextlib.nullcontext() if self._in_transaction.get() else self._lock  # type: ignore[return-value]

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._exclusive():
            with _storage_errors("read"):  # IntegrityError: an INSERT ... RETURNING
                return list(await self.conn.execute_fetchall(sql, params))

    async def run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        if not self._in_transaction.get():
            self.check_same_file()
        async with self._exclusive():
            with _storage_errors("written"):
                cursor = await self.conn.executemany(sql, rows)
            await cursor.close()
        self._committed_unless_in_transaction()

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Execute one statement and close its cursor (an open cursor blocks COMMIT); return
        its rowcount. Operational failures (locked, disk full) become DatabaseUnavailable."""
        if not self._in_transaction.get():  # a transaction checked at BEGIN
            self.check_same_file()
        async with self._exclusive():
            with _storage_errors("written"):
                cursor = await self.conn.execute(sql, params)
            try:
                return cursor.rowcount
            finally:
                await cursor.close()
                self._committed_unless_in_transaction()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any exception."""
        await self._lock.acquire()
        token = self._in_transaction.set(True)
        try:
            self.check_same_file()
            await self.run("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                await self._rollback()
                raise
            try:
                await self.run("COMMIT")
            except BaseException:
                await self._rollback()
                raise
            self.checkpointer.wrote()
        finally:
            self._in_transaction.reset(token)
            self._lock.release()

    async def run_steps(self, steps: Sequence[tuple[str, Any, bool]]) -> list[Any]:
        """One write transaction in a single trip to aiosqlite's thread (each trip costs ~0.15
        ms here, more than SQLite's own work): BEGIN IMMEDIATE, the statements, COMMIT. Returns
        the first statement's rows; when it returns none (a failed version check) or any
        statement fails, everything is rolled back. aiosqlite has no public way to run a
        function on its thread, hence its ``_execute``."""
        async with self._lock:
            self.check_same_file()
            with _storage_errors("written"):
                rows: list[Any] = await self.conn._execute(_write_transaction, self.conn._conn, steps)
            if rows:
                self.checkpointer.wrote()
            return rows

    def _committed_unless_in_transaction(self) -> None:
        """A statement outside a transaction commits by itself (autocommit)."""
        if not self._in_transaction.get():
            self.checkpointer.wrote()

    async def _rollback(self) -> None:
        # SQLite may already have rolled back by itself (e.g. after SQLITE_FULL).
        with contextlib.suppress(StorageError, sqlite3.Error):
            await self.run("ROLLBACK")

    async def lock_ratings(self) -> None:
        """Nothing to do: a write transaction (BEGIN IMMEDIATE) already excludes every other."""

    def game_lock(self, game_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """One action at a time per game. One process owns a SQLite file, so a lock in this
        process is enough."""
        return self._game_locks.hold(("game", game_id))

    def delivery_lock(self, game_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """One delivery of a game's announcements at a time (separate from the game lock)."""
        return self._game_locks.hold(("delivery", game_id))

    # -- copying out (storage.copy) ------------------------------------------------------------
    async def table_names(self) -> list[str]:
        """The data tables, those others refer to first (games), without schema bookkeeping."""
        rows = await self.fetch(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite%' AND name != 'schema_migrations' ORDER BY name"
        )
        return sorted((r[0] for r in rows), key=lambda name: name != "games")

    async def table_chunks(self, table: str, size: int = 5000) -> AsyncIterator[tuple[list[str], list[Any]]]:
        """(column names, rows) of a table, ``size`` rows at a time, in rowid order."""
        columns = [r["name"] for r in await self.fetch(f"PRAGMA table_info({table})")]
        last = -(2**63)
        while True:
            rows = await self.fetch(
                f"SELECT rowid, * FROM {table} WHERE rowid > ? ORDER BY rowid LIMIT ?", (last, size)
            )
            if not rows:
                return
            last = rows[-1][0]
            yield columns, [tuple(r)[1:] for r in rows]

    # -- the file ------------------------------------------------------------------------------
    def check_same_file(self) -> None:
        """Refuse to write when the path no longer names the file that was opened (deleted,
        renamed, or replaced by another file): the writes would vanish at restart. One
        ``os.stat`` per write transaction (a few microseconds against a commit's fsync)."""
        if self.gone is not None:
            raise DatabaseGone(self.gone)
        if self._identity is None:  # still opening
            return
        try:
            now = _file_identity(self.path)
        except OSError:
            now = None
        if now == self._identity:
            return
        what = "deleted" if now is None else "replaced by another file"
        self.gone = (
            f"The database file {self.path} was {what} while the bot was running; "
            "nothing more is written until the bot is restarted."
        )
        log.critical("%s Restore or move the file back and restart the bot.", self.gone)
        raise DatabaseGone(self.gone)

    async def _check_readable(self) -> None:
        """Refuse a corrupt file or one written by a newer Dragon Tavern, before writing."""
        try:
            rows = await self.fetch("PRAGMA quick_check")
        except sqlite3.DatabaseError as exc:
            raise StorageError(
                f"The database {self.path} is corrupt or not a SQLite file ({exc}). "
                "Move it away (or set DATABASE_PATH to another file) and start again."
            ) from exc
        if rows and rows[0][0] != "ok":
            raise StorageError(
                f"The database {self.path} failed its integrity check ({rows[0][0]}). "
                "Restore a backup or move it away and start again."
            )
        has_table = await self.fetch(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        )
        if has_table:
            row = await self.fetch("SELECT MAX(version) FROM schema_migrations")
            current = row[0][0] or 0
            if current > latest_schema_version():
                raise StorageError(
                    f"The database {self.path} was written by a newer Dragon Tavern "
                    f"(schema {current}; this version knows up to {latest_schema_version()}). "
                    "Upgrade the bot; the file was not changed."
                )

    async def _migrate(self, clock: Callable[[], float]) -> None:
        await self.run(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)"
        )
        rows = await self.fetch("SELECT version FROM schema_migrations")
        done = {r[0] for r in rows}
        for version, sql in migrations():
            if version in done:
                continue
            # executescript commits first, so wrap the script in its own transaction.
            await self.conn.executescript(
                f"BEGIN;\n{sql}\nINSERT INTO schema_migrations VALUES ({version}, {clock()});\nCOMMIT;"
            )


@contextlib.contextmanager
def _storage_errors(doing: str) -> Iterator[None]:
    """sqlite3's failures as storage's: locked, disk full, I/O -> DatabaseUnavailable ("could
    not be <doing>"); a broken constraint -> ConstraintViolation."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        raise DatabaseUnavailable(f"The database could not be {doing}: {exc}.") from exc
    except sqlite3.IntegrityError as exc:
        raise ConstraintViolation(str(exc)) from exc


def _write_transaction(conn: sqlite3.Connection, steps: Sequence[tuple[str, Any, bool]]) -> list[Any]:
    """Runs on aiosqlite's thread (see SqliteBackend.run_steps). A step is (sql, parameters,
    many); ``many`` runs the statement once per row."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        sql, args, _ = steps[0]
        first = conn.execute(sql, args).fetchall()
        if len(first) == 1:
            for sql, args, many in steps[1:]:
                if many:
                    conn.executemany(sql, args)
                else:
                    conn.execute(sql, args)
            conn.execute("COMMIT")
            return first
    except BaseException:
        # SQLite may already have rolled back by itself (e.g. after SQLITE_FULL).
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise
    conn.execute("ROLLBACK")
    return first


def _file_identity(path: Path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_dev, st.st_ino


def _refuse_foreign_file(path: Path) -> None:
    if not path.exists():
        if not path.parent.exists():
            raise StorageError(
                f"The folder for the database, {path.parent}, does not exist. Create it or "
                "set DATABASE_PATH to a file in an existing folder."
            )
        return
    if path.is_dir():
        raise StorageError(f"DATABASE_PATH points at a folder ({path}); give a file name.")
    with path.open("rb") as fh:
        head = fh.read(16)
    if head and head != _SQLITE_HEADER:
        raise StorageError(
            f"{path} is not a SQLite database (corrupt or another kind of file); it was not changed. "
            "Move it away or set DATABASE_PATH to another file."
        )
