"""What this process last read or wrote of each game's row and seats.

A click loads its game and saves it; the announcement that follows loads it again. On SQLite
each load is a trip to aiosqlite's thread, and that trip (0.03 ms with both threads on one
core, 0.17 ms and more when the thread wakes on another core) costs more than SQLite's own
work. When one process owns the database (SQLite: the bot refuses to share the file) nothing
else writes a game, so :class:`storage.games.GameTable` keeps the rows it read and updates them
with what it writes, and a load is served from here.

The rows are kept as stored (JSON columns as text), and every load decodes them again: a
caller that changes what it loaded changes nothing here. On PostgreSQL other processes write
the same games, so nothing is kept (``capacity=0``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from storage.kept import ReadsInFlight

# Enough for every open game of a busy single-process bot; a Nine Sons row is ~2 KB, a
# Flagon row up to ~30 KB (see bench/backends.py for the memory per open game).
DEFAULT_CAPACITY = 4096


@dataclass
class GameRows:
    """One game's ``games`` row and its ``seats`` rows, column name -> stored value."""

    game: dict[str, Any]
    seats: list[dict[str, Any]]


class GameRowCache:
    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self.capacity = capacity
        self._rows: OrderedDict[int, GameRows] = OrderedDict()
        # A read of a game that is not kept yet may overlap a write of it: the read's rows may
        # then be older than the write, and are not kept. Readers in flight per game, and the
        # games written while one was in flight.
        self._reads: ReadsInFlight[int] = ReadsInFlight()

    def get(self, game_id: int) -> GameRows | None:
        rows = self._rows.get(game_id)
        if rows is not None:
            self._rows.move_to_end(game_id)
        return rows

    def start_read(self, game_id: int) -> None:
        if self.capacity:
            self._reads.start(game_id)

    def finish_read(self, game_id: int, rows: GameRows | None) -> None:
        """End a read started with :meth:`start_read`; keep ``rows`` (None: the read failed)
        unless a write of the game happened meanwhile."""
        if not self.capacity:
            return
        stale = self._reads.finish(game_id)
        if rows is None or stale:
            return
        self._rows[game_id] = rows
        self._rows.move_to_end(game_id)
        while len(self._rows) > self.capacity:
            self._rows.popitem(last=False)

    def wrote(
        self,
        game_id: int,
        columns: Mapping[str, Any],
        *,
        expected_version: int | None = None,
        seats: list[dict[str, Any]] | None = None,
    ) -> None:
        """A committed write of these ``games`` columns (and, with ``seats``, all its seats).
        ``expected_version``: the version the write replaced; a kept row of another version is
        dropped rather than patched."""
        self._note_write(game_id)
        rows = self._rows.get(game_id)
        if rows is None:
            return
        if expected_version is not None and rows.game.get("version") != expected_version:
            self.forget(game_id)
            return
        rows.game.update(columns)
        if seats is not None:
            rows.seats = sorted(seats, key=lambda seat: seat["position"])

    def wrote_seat(self, game_id: int, seat: str, columns: Mapping[str, Any]) -> None:
        """A committed write of one seat's columns."""
        self._note_write(game_id)
        rows = self._rows.get(game_id)
        if rows is None:
            return
        for row in rows.seats:
            if row["seat"] == seat:
                row.update(columns)

    def forget(self, game_id: int) -> None:
        """Drop the game: its next load reads the database (a write whose outcome is unknown,
        or one not worth patching in)."""
        self._note_write(game_id)
        self._rows.pop(game_id, None)

    def clear(self) -> None:
        self._reads.wrote_all()
        self._rows.clear()

    def __len__(self) -> int:
        return len(self._rows)

    def _note_write(self, game_id: int) -> None:
        self._reads.wrote(game_id)
