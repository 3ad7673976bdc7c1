"""The action log (``actions``): every move of a game in order, written with the save that
made it (the log is the game's replay, and how a repeated click is recognised)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage.backend import Step, Table


@dataclass(frozen=True)
class ActionRow:
    """A move to log with a save."""

    seat: str
    action: str
    source: str = "player"  # player / ai / timeout / system
    user_id: int | None = None


@dataclass(frozen=True)
class LoggedAction:
    seq: int
    seat: str
    user_id: int | None
    source: str
    action: str
    created_at: float


_COLUMNS = "seq, seat, user_id, source, action, created_at"


class ActionLog(Table):
    async def of_game(self, game_id: int) -> list[LoggedAction]:
        """The game's moves, first to last."""
        rows = await self._fetch(f"SELECT {_COLUMNS} FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
        return [LoggedAction(*tuple(r)) for r in rows]

    async def at_version(self, game_id: int, version: int) -> LoggedAction | None:
        """The action whose save produced ``version`` (to recognise a repeated click)."""
        rows = await self._fetch(
            f"SELECT {_COLUMNS} FROM actions WHERE game_id = ? AND version = ?", (game_id, version)
        )
        return LoggedAction(*tuple(rows[0])) if rows else None

    async def resigned_seats(self, game_id: int) -> set[str]:
        """Seats whose player resigned in this game (an AI may have played on for them)."""
        rows = await self._fetch(
            "SELECT seat FROM actions WHERE game_id = ? AND action = 'resign' AND source = 'system'",
            (game_id,),
        )
        return {r[0] for r in rows}


def append_steps(game_id: int, version: int, actions: Sequence[ActionRow], now: float) -> list[Step]:
    """The log rows of a save that makes ``version``; seq continues the log, computed in the
    INSERT itself."""
    return [
        (
            "INSERT INTO actions (game_id, seq, version, seat, user_id, source, action, created_at) "
            "SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ? FROM actions WHERE game_id = ?",
            (game_id, version, a.seat, a.user_id, a.source, a.action, now, game_id),
            False,
        )
        for a in actions
    ]
