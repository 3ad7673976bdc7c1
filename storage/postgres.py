"""The PostgreSQL backend (asyncpg): a pool of connections, shared by several bot processes.

The queries of the storage modules (storage.games, storage.outbox, ...) are written once, with
``?`` placeholders; they are rewritten here to ``$1..$n`` (once per distinct statement). A transaction holds one pooled
connection for its whole length (kept in a context variable, so the statements of that task go
to it); any other statement takes whichever pooled connection is free. The per-game lock is a
session advisory lock, so two processes serialise their actions on one game.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from typing import Any

import asyncpg

from storage.errors import ConstraintViolation, DatabaseUnavailable, StorageError
from storage.keyed_locks import KeyedLocks
from storage.schema import latest_schema_version, migrations, postgres_ddl

log = logging.getLogger("dragon_tavern.storage.postgres")

# Statements run on these pools at once. The locks have their own pool: a lock holds its
# connection while the action runs, and the action's statements must still find one free.
QUERY_POOL_SIZE = 10
LOCK_POOL_SIZE = 20
# pg_advisory_xact_lock key taken while migrating, so two processes starting together do not
# both apply a migration. Game locks use the game id (positive), so a negative key never meets one.
_MIGRATION_LOCK_KEY = -1_701_730_017

_UNAVAILABLE = (
    OSError,
    asyncio.TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.InsufficientResourcesError,
    asyncpg.OperatorInterventionError,
)


RATINGS_LOCK_CLASS = 16_016  # the ratings' advisory lock: pg_advisory_xact_lock(this, 0)
DELIVERY_LOCK_CLASS = 16_017  # a game's announcement delivery: pg_advisory_lock(this, game id)


def numbered_placeholders(sql: str) -> str:
    """``?`` -> ``$1``, ``$2``, ... outside quoted strings and identifiers."""
    out: list[str] = []
    count = 0
    quote: str | None = None
    for char in sql:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "?":
            count += 1
            out.append(f"${count}")
            continue
        out.append(char)
    return "".join(out)


class PostgresBackend:
    name = "postgres"
    exclusive = False  # several processes write the same games

    def __init__(self, pool: asyncpg.Pool, lock_pool: asyncpg.Pool, url: str) -> None:
        self.pool = pool
        self.lock_pool = lock_pool
        self.url = url
        self._sql: dict[str, str] = {}
        self._tx_conn: contextvars.ContextVar[Any] = contextvars.ContextVar(f"pg_tx_{id(self)}", default=None)
        self._local_locks: KeyedLocks[tuple[int, ...]] = KeyedLocks()  # see _advisory_lock
        self.closed = False

    @classmethod
    async def open(cls, url: str, clock: Callable[[], float]) -> PostgresBackend:
        where = _without_password(url)
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=QUERY_POOL_SIZE,
                                             reset=_keep_query_connection)
            lock_pool = await asyncpg.create_pool(url, min_size=0, max_size=LOCK_POOL_SIZE,
                                                  reset=_end_advisory_lock)
        except (*_UNAVAILABLE, asyncpg.PostgresError) as exc:
            raise StorageError(
                f"Cannot connect to the database {where}: {exc}. Check DATABASE_URL and "
                "that the server is running."
            ) from exc
        backend = cls(pool, lock_pool, url)
        try:
            await backend._migrate(clock, where)
        except BaseException:
            await backend.close()
            raise
        return backend

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        await self.lock_pool.close()
        await self.pool.close()

    def close_now(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.lock_pool.terminate()
        self.pool.terminate()

    # -- the four primitives ------------------------------------------------------------------
    def _numbered(self, sql: str) -> str:
        found = self._sql.get(sql)
        if found is None:
            found = self._sql[sql] = numbered_placeholders(sql)
        return found

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        """The transaction's connection, or a free one from the pool; storage's errors."""
        held = self._tx_conn.get()
        try:
            if held is not None:
                yield held
            else:
                async with self.pool.acquire() as conn:
                    yield conn
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise ConstraintViolation(str(exc)) from exc
        except _UNAVAILABLE as exc:
            raise DatabaseUnavailable(f"The database could not be reached: {exc}.") from exc

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._connection() as conn:
            return list(await conn.fetch(self._numbered(sql), *params))

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Execute one statement; return how many rows it changed."""
        async with self._connection() as conn:
            status = await conn.execute(self._numbered(sql), *params)
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        if not rows:
            return
        async with self._connection() as conn:
            await conn.executemany(self._numbered(sql), rows)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """BEGIN ... COMMIT on one connection held throughout, or ROLLBACK on any exception.
        COMMIT returns once the change is durable (synchronous_commit), before it is announced."""
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                token = self._tx_conn.set(conn)
                try:
                    yield
                finally:
                    self._tx_conn.reset(token)
        except asyncpg.IntegrityConstraintViolationError as exc:  # raised by COMMIT (deferred)
            raise ConstraintViolation(str(exc)) from exc
        except _UNAVAILABLE as exc:
            raise DatabaseUnavailable(f"The database could not be reached: {exc}.") from exc

    async def lock_ratings(self) -> None:
        """A transaction-level advisory lock (released at COMMIT/ROLLBACK) in the two-key space,
        which never meets the per-game locks' one-key space."""
        await self.run("SELECT pg_advisory_xact_lock(?, 0)", (RATINGS_LOCK_CLASS,))

    async def run_steps(self, steps: Sequence[tuple[str, Any, bool]]) -> list[Any]:
        """One write transaction: the statements in order on one connection. Returns the first
        statement's rows; when it returns none (a failed version check) nothing is written."""
        async with self._connection() as conn, conn.transaction():
            sql, args, _ = steps[0]
            first = list(await conn.fetch(self._numbered(sql), *args))
            if len(first) != 1:
                return first  # leaving the block without an error would commit: nothing was written
            for sql, args, many in steps[1:]:
                if many:
                    if args:
                        await conn.executemany(self._numbered(sql), list(args))
                else:
                    await conn.execute(self._numbered(sql), *args)
            return first

    def game_lock(self, game_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """One action at a time per game across every process."""
        return self._advisory_lock((game_id,))

    def delivery_lock(self, game_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """One delivery of a game's announcements at a time across every process (the two-key
        space, apart from the game locks; the game id folded into 31 bits: a collision only
        makes two games' deliveries take turns)."""
        return self._advisory_lock((DELIVERY_LOCK_CLASS, game_id & 0x7FFFFFFF))

    @contextlib.asynccontextmanager
    async def _advisory_lock(self, key: tuple[int, ...]) -> AsyncIterator[None]:
        """A session advisory lock on a connection held for the duration. Tasks of this process
        queue on an asyncio lock first, so one key never holds more than one connection."""
        args = ", ".join(f"${i}" for i in range(1, len(key) + 1))
        # Giving the connection back ends the lock (_end_advisory_lock); a connection whose
        # reset fails is closed by the pool, which ends it too.
        async with self._local_locks.hold(key), self.lock_pool.acquire() as conn:
            await conn.execute(f"SELECT pg_advisory_lock({args})", *key)
            yield

    async def reset_identity(self, table: str) -> None:
        """After rows were inserted with their ids (a copy): the next generated id follows the
        largest one, for each identity column of ``table``."""
        for (column,) in await self.fetch(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = ? AND is_identity = 'YES'",
            (table,),
        ):
            await self.fetch(
                f"SELECT setval(pg_get_serial_sequence(?, ?), COALESCE(MAX({column}), 0) + 1, false) FROM {table}",
                (table, column),
            )

    # -- the schema ----------------------------------------------------------------------------
    async def _migrate(self, clock: Callable[[], float], where: str) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK_KEY)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version BIGINT PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
            )
            done = {r[0] for r in await conn.fetch("SELECT version FROM schema_migrations")}
            if done and max(done) > latest_schema_version():
                raise StorageError(
                    f"The database {where} was written by a newer Dragon Tavern (schema {max(done)}; this "
                    f"version knows up to {latest_schema_version()}). Upgrade the bot; nothing was changed."
                )
            for version, sql in migrations():
                if version not in done:
                    await conn.execute(postgres_ddl(sql))
                    await conn.execute("INSERT INTO schema_migrations VALUES ($1, $2)", version, clock())


async def _keep_query_connection(conn: Any) -> None:
    """A query connection given back to the pool. asyncpg's default reset query (advisory
    unlocks, CLOSE ALL, UNLISTEN, RESET ALL) is a round trip on every release, and these
    connections take no session lock, LISTEN nor SET; an open transaction is rolled back by
    asyncpg before this runs."""


async def _end_advisory_lock(conn: Any) -> None:
    """A lock connection given back to the pool: its one session advisory lock ends here (one
    round trip, where an unlock and then asyncpg's reset query took two)."""
    await conn.execute("SELECT pg_advisory_unlock_all()")


def _without_password(url: str) -> str:
    """The URL to show in a message: no password."""
    head, sep, tail = url.rpartition("@")
    if not sep or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, user_pass = head.partition("//")
    return f"{scheme}//{user_pass.split(':', 1)[0]}:***@{tail}"
