"""Turn pings still standing (``pings``, migration 005): the messages that told a seat to act,
deleted once they are stale."""

from __future__ import annotations

from storage.backend import Table


class PingTable(Table):
    async def of_game(self, game_id: int) -> list[tuple[int, int]]:
        """The game's turn pings still standing, as (channel id, message id), oldest first
        (Discord's message ids grow with time)."""
        rows = await self._fetch(
            "SELECT channel_id, message_id FROM pings WHERE game_id = ? ORDER BY message_id", (game_id,)
        )
        return [(r[0], r[1]) for r in rows]

    async def add(self, game_id: int, channel_id: int, message_id: int) -> None:
        await self._run(
            "INSERT INTO pings (game_id, channel_id, message_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (game_id, channel_id, message_id),
        )

    async def drop(self, game_id: int, message_id: int) -> None:
        await self._run("DELETE FROM pings WHERE game_id = ? AND message_id = ?", (game_id, message_id))
