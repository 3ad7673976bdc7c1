"""Rows this process last read or wrote, kept when it alone writes the database (SQLite).

Each statement through aiosqlite is a trip to its thread, which costs more than SQLite's own
work; a delivery looks up every human seat's message and every pinged member's choice, a few
reads per move. On PostgreSQL other processes write the same rows, so nothing is kept (as
storage.rowcache does for games)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class ReadsInFlight(Generic[K]):
    """The reads of each key still waiting for the database, and which of them a write of the
    same key overtook: what such a read returns may be older than what was written, and must
    not be kept (storage.rowcache for games, KeptRows below for other rows)."""

    def __init__(self) -> None:
        self._reading: dict[K, int] = {}
        self._overtaken: set[K] = set()

    def start(self, key: K) -> None:
        self._reading[key] = self._reading.get(key, 0) + 1

    def finish(self, key: K) -> bool:
        """The read of ``key`` ended; whether a write overtook it."""
        left = self._reading.pop(key) - 1
        overtaken = key in self._overtaken
        if left:
            self._reading[key] = left
        else:
            self._overtaken.discard(key)
        return overtaken

    def wrote(self, key: K) -> None:
        if key in self._reading:
            self._overtaken.add(key)

    def wrote_all(self) -> None:
        """Everything may have changed: no read in flight is kept."""
        self._overtaken.update(self._reading)


class KeptRows(Generic[K, V]):
    """Values by key, least recently used dropped past ``capacity`` (0: keep nothing). A read
    that a write of the same key overtook is not kept: it may hold what was there before."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._kept: OrderedDict[K, V] = OrderedDict()
        self._reads: ReadsInFlight[K] = ReadsInFlight()

    async def get(self, key: K, read: Callable[[], Awaitable[V]]) -> V:
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        self._reads.start(key)
        try:
            value = await read()
        finally:
            overtaken = self._reads.finish(key)
        if not overtaken:
            self._keep(key, value)
        return value

    async def put(self, key: K, value: V, write: Callable[[], Awaitable[object]]) -> None:
        """Run ``write`` (which stores ``value``) and keep ``value`` once it succeeded."""
        self._kept.pop(key, None)  # failed or cancelled, the next read asks the database
        self._reads.wrote(key)
        await write()
        self._keep(key, value)

    def __len__(self) -> int:
        return len(self._kept)

    def _keep(self, key: K, value: V) -> None:
        if not self.capacity:
            return
        self._kept[key] = value
        self._kept.move_to_end(key)
        while len(self._kept) > self.capacity:
            self._kept.popitem(last=False)
