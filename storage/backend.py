"""What every storage module stands on: the :class:`Backend` protocol (SQLite in
storage.sqlite, PostgreSQL in storage.postgres) and :class:`Table`, the base of each module's
class (games, log, outbox, timers, ...), which runs its statements on the backend.

The queries are written once, with ``?`` placeholders, and both backends run them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

# A write of a transaction run in one trip (Backend.run_steps): (sql, parameters, many); with
# ``many`` the statement runs once per row of parameters.
Step = tuple[str, Any, bool]


class Backend(Protocol):
    """What a backend gives the storage modules: four primitives, per-game locks, closing."""

    name: str
    closed: bool
    # True when this process alone writes the data (SQLite: one process owns the file), so
    # game loads may be served from what it read and wrote (storage.rowcache).
    exclusive: bool

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int: ...

    async def run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    def transaction(self) -> contextlib.AbstractAsyncContextManager[None]: ...

    def game_lock(self, game_id: int) -> contextlib.AbstractAsyncContextManager[None]: ...

    async def run_steps(self, steps: Sequence[Step]) -> list[Any]: ...

    def delivery_lock(self, game_id: int) -> contextlib.AbstractAsyncContextManager[None]: ...

    async def lock_ratings(self) -> None: ...

    async def close(self) -> None: ...

    def close_now(self) -> None: ...


class Table:
    """One concern's queries (a table or a few): statements go to the shared backend. The
    backend is looked up on every call, so a test may patch its methods."""

    def __init__(self, backend: Backend, clock: Callable[[], float]) -> None:
        self._backend = backend
        self._clock = clock

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await self._backend.fetch(sql, params)

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Execute one statement; return its rowcount. Operational failures (locked, disk
        full, server gone) become DatabaseUnavailable, which the bot explains to the user."""
        return await self._backend.run(sql, params)

    async def _run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._backend.run_many(sql, rows)

    def _transaction(self) -> contextlib.AbstractAsyncContextManager[None]:
        return self._backend.transaction()


def marks(count: int) -> str:
    """``?, ?, ?``: ``count`` placeholders."""
    return ", ".join("?" * count)
