"""Timers (``timers``: one deadline per game and purpose, e.g. ``turn``, ``remind``,
``lobby``): set with a game's save or on their own, and claimed by exactly one process when due."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from storage.backend import Step, Table, marks

_UPSERT = (
    "INSERT INTO timers (game_id, purpose, deadline) VALUES {rows} "
    "ON CONFLICT (game_id, purpose) DO UPDATE SET deadline = excluded.deadline"
)


class TimerTable(Table):
    async def set(self, game_id: int, purpose: str, deadline: float) -> None:
        await self._run(_UPSERT.format(rows="(?, ?, ?)"), (game_id, purpose, deadline))

    async def set_many(self, game_id: int, deadlines: dict[str, float]) -> None:
        """Several timers of a game in one statement (one commit), e.g. a turn and its reminder."""
        sql, params, _ = _upsert_step(game_id, list(deadlines.items()))
        await self._run(sql, params)

    async def clear(self, game_id: int, purpose: str) -> None:
        await self._run("DELETE FROM timers WHERE game_id = ? AND purpose = ?", (game_id, purpose))

    async def clear_many(self, game_id: int, purposes: Sequence[str]) -> None:
        await self._run(
            f"DELETE FROM timers WHERE game_id = ? AND purpose IN ({marks(len(purposes))})",
            (game_id, *purposes),
        )

    async def claim(self, game_id: int, purpose: str, now: float) -> bool:
        """Take a due timer: delete its row if its deadline has passed. True for exactly one
        caller, whichever process asks, so a timer fires once."""
        count = await self._run(
            "DELETE FROM timers WHERE game_id = ? AND purpose = ? AND deadline <= ?", (game_id, purpose, now)
        )
        return count == 1

    async def pending(
        self, *, due_by: float | None = None, game_id: int | None = None
    ) -> list[tuple[int, str, float]]:
        """Pending timers (game id, purpose, deadline) by deadline, except those of damaged
        games; only those due by ``due_by`` and / or of ``game_id`` when given."""
        where, params = ["game_id NOT IN (SELECT game_id FROM damaged_games)"], []
        if due_by is not None:
            where.append("deadline <= ?")
            params.append(due_by)
        if game_id is not None:
            where.append("game_id = ?")
            params.append(game_id)
        rows = await self._fetch(
            f"SELECT game_id, purpose, deadline FROM timers WHERE {' AND '.join(where)} ORDER BY deadline",
            params,
        )
        return [(r[0], r[1], r[2]) for r in rows]

    async def deadline(self, game_id: int, purpose: str) -> float | None:
        """When the game's ``purpose`` timer is due, or None (none set, or the game is damaged)."""
        rows = await self._fetch(
            "SELECT deadline FROM timers WHERE game_id = ? AND purpose = ? "
            "AND game_id NOT IN (SELECT game_id FROM damaged_games)",
            (game_id, purpose),
        )
        return rows[0][0] if rows else None


def save_steps(game_id: int, clear_all: bool, timers: Mapping[str, float | None] | None) -> list[Step]:
    """The timer writes of a game's save: ``clear_all`` drops every timer first, then each of
    ``timers`` is set to its deadline (None drops it)."""
    steps: list[Step] = []
    if clear_all:
        steps.append(("DELETE FROM timers WHERE game_id = ?", (game_id,), False))
    due = [(purpose, deadline) for purpose, deadline in (timers or {}).items() if deadline is not None]
    gone = [purpose for purpose, deadline in (timers or {}).items() if deadline is None]
    if due:
        steps.append(_upsert_step(game_id, due))
    if gone and not clear_all:
        steps.append(
            (
                f"DELETE FROM timers WHERE game_id = ? AND purpose IN ({marks(len(gone))})",
                (game_id, *gone),
                False,
            )
        )
    return steps


def _upsert_step(game_id: int, deadlines: Sequence[tuple[str, float]]) -> Step:
    params: list[Any] = [value for purpose, deadline in deadlines for value in (game_id, purpose, deadline)]
    return _UPSERT.format(rows=", ".join(["(?, ?, ?)"] * len(deadlines))), params, False
