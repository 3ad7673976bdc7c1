"""Each seat's message of a game (``db.seat_messages``): where its private message (a DM) is
and what it last showed, so it is edited rather than sent again.

The SQL table keeps its first name, ``hands`` (storage/migrations/005_notices.sql): renaming
it would need a migration on every deployed database for no change in behaviour."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from storage.backend import Backend, Table
from storage.kept import KeptRows

# Seat messages kept when this process alone writes the database (storage.kept): two or three
# per open game.
KEPT = 16384


@dataclass(frozen=True)
class SeatMessage:
    """A seat's private message of a game (a DM): where it is and what it last showed."""

    channel_id: int
    message_id: int
    prompt_key: str
    asked: bool  # sent as a call to act (a new DM), not only an update of the message


class SeatMessageTable(Table):
    def __init__(self, backend: Backend, clock: Callable[[], float]) -> None:
        super().__init__(backend, clock)
        self._kept: KeptRows[tuple[int, str], SeatMessage | None] = KeptRows(KEPT if backend.exclusive else 0)

    async def get(self, game_id: int, seat: str) -> SeatMessage | None:
        return await self._kept.get((game_id, seat), lambda: self._read(game_id, seat))

    async def set(self, game_id: int, seat: str, message: SeatMessage) -> None:
        await self._kept.put((game_id, seat), message, lambda: self._write(game_id, seat, message))

    async def _read(self, game_id: int, seat: str) -> SeatMessage | None:
        rows = await self._fetch(
            "SELECT channel_id, message_id, prompt_key, asked FROM hands WHERE game_id = ? AND seat = ?",
            (game_id, seat),
        )
        return SeatMessage(rows[0][0], rows[0][1], rows[0][2], bool(rows[0][3])) if rows else None

    async def _write(self, game_id: int, seat: str, message: SeatMessage) -> None:
        await self._run(
            "INSERT INTO hands (game_id, seat, channel_id, message_id, prompt_key, asked) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (game_id, seat) DO UPDATE SET channel_id = excluded.channel_id, "
            "message_id = excluded.message_id, prompt_key = excluded.prompt_key, asked = excluded.asked",
            (game_id, seat, message.channel_id, message.message_id, message.prompt_key, int(message.asked)),
        )
