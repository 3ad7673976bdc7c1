"""Board messages to delete (``old_boards``, migration 009): a game's board moved to a new
message (cogs.board_hop), and the old one is deleted once Discord took the delete."""

from __future__ import annotations

from collections.abc import Callable

from storage.backend import Backend, Table
from storage.rowcache import GameRowCache


class OldBoardTable(Table):
    def __init__(self, backend: Backend, clock: Callable[[], float], rows: GameRowCache) -> None:
        super().__init__(backend, clock)
        self._rows = rows  # move() writes the game's board_message_id

    async def move(self, game_id: int, new_message_id: int, old: tuple[int, int]) -> None:
        """Make ``new_message_id`` the game's board and note ``old`` (channel id, message id) to
        delete, in one transaction: after a crash the board is the new message, and the old one
        is still to be deleted."""
        try:
            async with self._transaction():
                await self._run(
                    "UPDATE games SET board_message_id = ? WHERE id = ?", (new_message_id, game_id)
                )
                await self._run(
                    "INSERT INTO old_boards (game_id, channel_id, message_id) VALUES (?, ?, ?) "
                    "ON CONFLICT DO NOTHING",
                    (game_id, *old),
                )
        except BaseException:
            self._rows.forget(game_id)
            raise
        self._rows.wrote(game_id, {"board_message_id": new_message_id})

    async def of_game(self, game_id: int) -> list[tuple[int, int]]:
        """The game's old boards still to delete, as (channel id, message id)."""
        rows = await self._fetch(
            "SELECT channel_id, message_id FROM old_boards WHERE game_id = ?", (game_id,)
        )
        return [(r[0], r[1]) for r in rows]

    async def waiting(self) -> list[tuple[int, int, int]]:
        """Every old board still to delete, as (game id, channel id, message id): at start-up."""
        rows = await self._fetch("SELECT game_id, channel_id, message_id FROM old_boards ORDER BY message_id")
        return [(r[0], r[1], r[2]) for r in rows]

    async def drop(self, game_id: int, message_id: int) -> None:
        await self._run("DELETE FROM old_boards WHERE game_id = ? AND message_id = ?", (game_id, message_id))
