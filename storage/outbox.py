"""The outbox (``outbox``): what a saved change must announce (Recent lines, the board, pings,
private prompts), written in the save's own transaction and dropped once delivered, so a crash
between the save and the announcement loses nothing."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from storage.backend import Backend, Step, Table, marks
from storage.errors import GameNotFound
from storage.records import encode_json
from storage.rowcache import GameRowCache

PROGRESS_MARK = "✍️"  # a Recent line that says how far a phase is, updated in place


@dataclass
class Announcement:
    """One saved change still to be announced (a row of the outbox)."""

    id: int
    game_id: int
    version: int
    events: list[dict[str, Any]]  # engine events as dicts (Event.to_dict)
    progress: dict[str, Any]  # delivery steps already done, e.g. {"recent": true, "dm": ["p1"]}


def insert_step(game_id: int, version: int, events: Sequence[dict[str, Any]], now: float) -> Step:
    """The outbox row announcing ``version`` of a game, as a write of its save."""
    return (
        "INSERT INTO outbox (game_id, version, events, created_at) VALUES (?, ?, ?, ?)",
        (game_id, version, encode_json(list(events)), now),
        False,
    )


def _appended(old: list[str], lines: Sequence[str], keep: int) -> list[str]:
    """Recent lines ``old`` with ``lines`` appended, the last ``keep`` kept. A line starting with
    PROGRESS_MARK replaces a last line that starts with it too (a progress line such as
    "✍️ still planning: …" is updated, not repeated)."""
    if old and old[-1].startswith(PROGRESS_MARK) and any(x.startswith(PROGRESS_MARK) for x in lines):
        old = old[:-1]
    return (old + list(lines))[-keep:]


class Outbox(Table):
    def __init__(self, backend: Backend, clock: Callable[[], float], rows: GameRowCache) -> None:
        super().__init__(backend, clock)
        self._rows = rows  # save_progress writes a game's Recent lines

    async def queue(self, game_id: int, events: Sequence[dict[str, Any]]) -> None:
        """Queue events that follow no save of the game (e.g. where private prompts go)."""
        async with self._transaction():
            rows = await self._fetch("SELECT version FROM games WHERE id = ?", (game_id,))
            if not rows:
                raise GameNotFound(f"Game {game_id} does not exist.")
            sql, params, _ = insert_step(game_id, rows[0][0], events, self._clock())
            await self._run(sql, params)

    async def pending(self, game_id: int) -> list[Announcement]:
        rows = await self._fetch(
            "SELECT id, game_id, version, events, progress FROM outbox WHERE game_id = ? ORDER BY id",
            (game_id,),
        )
        return [Announcement(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4])) for r in rows]

    async def games_waiting(self) -> list[int]:
        """Games with changes not yet announced (oldest first): delivered again at start-up."""
        rows = await self._fetch("SELECT game_id FROM outbox GROUP BY game_id ORDER BY MIN(id)")
        return [r[0] for r in rows]

    async def save_progress(
        self, announcements: Sequence[Announcement], *, recent: tuple[Sequence[str], int] | None = None
    ) -> list[str] | None:
        """Store these rows' ``progress`` (the delivery steps done) in one transaction, in one
        trip to the database (the deliveries of a busy bot make ~2 of these per move); with
        ``recent=(lines, keep)`` the board's Recent lines are appended in that same transaction,
        so they are written exactly once. A line starting with PROGRESS_MARK replaces a last
        line that starts with it too. Returns the new Recent list if it was changed."""
        if not announcements:
            return None
        game_id = announcements[0].game_id
        progress_step: Step = (
            "UPDATE outbox SET progress = ? WHERE id = ?",
            [(json.dumps(a.progress), a.id) for a in announcements],
            True,
        )
        new_recent = None
        if recent is None:
            # A check that the game is there, then the progress: one trip (run_steps).
            first: Step = ("SELECT id FROM games WHERE id = ?", (game_id,), False)
        else:
            # Only this step writes Recent, under the game's delivery lock: what was read before
            # the transaction is still what is stored when it writes.
            new_recent = _appended(await self._stored_recent(game_id), *recent)
            first = (
                "UPDATE games SET recent = ? WHERE id = ? RETURNING id",
                (json.dumps(new_recent), game_id),
                False,
            )
        if len(await self._backend.run_steps([first, progress_step])) != 1:
            return None  # the game is gone (and its outbox rows with it): nothing was written
        if new_recent is not None:
            self._rows.wrote(game_id, {"recent": json.dumps(new_recent)})
        return new_recent

    async def _stored_recent(self, game_id: int) -> list[str]:
        """The game's Recent lines as stored: from the row cache when this process owns the
        database (a trip to the database thread saved per delivery), else read."""
        rows = self._rows.get(game_id)
        if rows is not None:
            return list(json.loads(rows.game["recent"]))
        stored = await self._fetch("SELECT recent FROM games WHERE id = ?", (game_id,))
        return list(json.loads(stored[0][0])) if stored else []

    async def finish(self, announcements: Sequence[Announcement]) -> None:
        """Delivered: drop the rows."""
        ids = [a.id for a in announcements]
        if ids:
            await self._run(f"DELETE FROM outbox WHERE id IN ({marks(len(ids))})", ids)
