"""Damaged games (``damaged_games``): a game whose saved data cannot be decoded is set aside,
ended and left for the admins, so it never breaks another game or a listing."""

from __future__ import annotations

import logging
from collections.abc import Callable

from storage.backend import Backend, Table
from storage.errors import StorageError
from storage.rowcache import GameRowCache

log = logging.getLogger("dragon_tavern.storage.damage")

DAMAGED_MESSAGE = (
    "This game's saved data is damaged, so it cannot be played or shown. "
    "The server's admins were told; every other game works."
)


class DamagedGames(Table):
    def __init__(self, backend: Backend, clock: Callable[[], float], rows: GameRowCache) -> None:
        super().__init__(backend, clock)
        self._rows = rows
        # Called with a game id when a game is newly found damaged (the bot announces it).
        self.on_damaged: Callable[[int], None] | None = None

    async def mark(self, game_id: int, reason: str) -> bool:
        """Set a game aside because its saved data cannot be used. Logged at ERROR once (the
        first time); ``on_damaged`` is called then. Returns True if it was newly marked."""
        try:
            async with self._transaction():
                rowcount = await self._run(
                    "INSERT INTO damaged_games (game_id, reason, found_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    (game_id, reason[:500], self._clock()),
                )
                # It can't go on, so it must not hold its channel: end it (its data stays for
                # the admins to look at) and drop its timers.
                await self._run(
                    "UPDATE games SET status = 'abandoned' WHERE id = ? AND status IN ('lobby', 'active')",
                    (game_id,),
                )
                await self._run("DELETE FROM timers WHERE game_id = ?", (game_id,))
        except StorageError as exc:
            log.error("game %s is damaged (%s) and could not be marked so: %s", game_id, reason, exc)
            return False
        finally:
            self._rows.forget(game_id)
        if rowcount != 1:
            return False
        log.error("game %s is damaged and set aside: %s", game_id, reason)
        if self.on_damaged is not None:
            self.on_damaged(game_id)
        return True

    async def reasons(self) -> dict[int, str]:
        """Every damaged game's id -> why it was set aside."""
        rows = await self._fetch("SELECT game_id, reason FROM damaged_games ORDER BY game_id")
        return {r[0]: r[1] for r in rows}

    async def unannounced(self) -> list[tuple[int, int]]:
        """(game id, channel id) of damaged games whose channel was not told yet."""
        rows = await self._fetch(
            "SELECT d.game_id, g.channel_id FROM damaged_games d JOIN games g ON g.id = d.game_id "
            "WHERE d.announced_at IS NULL ORDER BY d.game_id"
        )
        return [(r[0], r[1]) for r in rows]

    async def claim_announcement(self, game_id: int) -> bool:
        """Mark a damaged game as announced; True only for the one caller that should post."""
        rowcount = await self._run(
            "UPDATE damaged_games SET announced_at = ? WHERE game_id = ? AND announced_at IS NULL",
            (self._clock(), game_id),
        )
        return rowcount == 1
