"""WAL checkpoints off the write path (SQLite).

In WAL mode a commit appends pages to the ``-wal`` file; a *checkpoint* copies them back into
the database file and syncs it to disk. By default the connection that commits runs one
whenever the WAL passes 1,000 pages, inside that commit: at a thousand actions a second that
is a 5-10 ms stall every tenth of a second, on the one connection every click waits for.

Here a second connection, on its own aiosqlite thread, runs a PASSIVE checkpoint (it waits
for nobody and blocks nobody) every ``every`` write transactions, so the copying and the
syncing happen beside the writes. The writing connection keeps a larger automatic
checkpoint as a backstop (``BACKSTOP_PAGES``): it restarts the WAL from its beginning, and
by then nearly every page was copied already. Measured in bench/backends.py: p99 of a click
7-10 ms -> 2-5 ms at 1,000 open games.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path

import aiosqlite

log = logging.getLogger("dragon_tavern.storage.checkpoints")

CHECKPOINT_EVERY = 100  # write transactions between background checkpoints (~1,100 pages)
BACKSTOP_PAGES = 4000  # the writing connection's own wal_autocheckpoint (~16 MB of WAL)


class WalCheckpointer:
    def __init__(self, path: Path, check_file: Callable[[], None], every: int = CHECKPOINT_EVERY) -> None:
        self.path = path
        self.every = every
        self._check_file = check_file  # raises when the file was deleted or replaced
        self._writes = 0
        self._conn: aiosqlite.Connection | None = None
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self.checkpoints = 0  # completed, for tests and the bench

    def wrote(self) -> None:
        """A write transaction committed; every ``every`` of them, start a checkpoint unless
        one is still running."""
        self._writes += 1
        if self._writes < self.every or self._closed or (self._task is not None and not self._task.done()):
            return
        self._writes = 0
        self._task = asyncio.get_running_loop().create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        try:
            self._check_file()  # never open (or create) a file that is not ours any more
            if self._conn is None:
                # mode=rw: a missing file is an error here, not a new empty database
                self._conn = await aiosqlite.connect(
                    f"file:{self.path}?mode=rw", uri=True, isolation_level=None
                )
            rows = await self._conn.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
            self.checkpoints += 1
            busy, wal_pages, copied = tuple(next(iter(rows)))
            log.debug(
                "checkpoint: %s of %s WAL pages in the database file (busy=%s)", copied, wal_pages, busy
            )
        except Exception as exc:  # the writer's own checkpoints still run: nothing is lost
            log.warning("A background WAL checkpoint failed (the database keeps working): %s", exc)

    async def wait(self) -> None:
        """Until the checkpoint running now (if any) has finished."""
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def close(self) -> None:
        self._closed = True
        await self.wait()
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error, ValueError):
                await self._conn.close()
            self._conn = None

    def close_now(self) -> None:
        """Without an event loop: stop the checkpoint thread (a running checkpoint ends)."""
        self._closed = True
        if self._conn is not None:
            self._conn.stop()
            self._conn = None
