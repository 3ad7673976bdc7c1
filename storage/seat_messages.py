"""Each seat's message of a game (``db.seat_messages``): where its private message (a DM) is
and what it last showed, so it is edited rather than sent again.

The SQL table keeps its first name, ``hands`` (storage/migrations/005_notices.sql): renaming
it would need a migration on every deployed database for no change in behaviour."""

from __future__ import annotations

from dataclasses import dataclass

from storage.backend import Table


@dataclass(frozen=True)
class SeatMessage:
    """A seat's private message of a game (a DM): where it is and what it last showed."""

    channel_id: int
    message_id: int
    prompt_key: str
    asked: bool  # sent as a call to act (a new DM), not only an update of the message


class SeatMessageTable(Table):
    async def get(self, game_id: int, seat: str) -> SeatMessage | None:
        rows = await self._fetch(
            "SELECT channel_id, message_id, prompt_key, asked FROM hands WHERE game_id = ? AND seat = ?",
            (game_id, seat),
        )
        return SeatMessage(rows[0][0], rows[0][1], rows[0][2], bool(rows[0][3])) if rows else None

    async def set(self, game_id: int, seat: str, message: SeatMessage) -> None:
        await self._run(
            "INSERT INTO hands (game_id, seat, channel_id, message_id, prompt_key, asked) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (game_id, seat) DO UPDATE SET channel_id = excluded.channel_id, "
            "message_id = excluded.message_id, prompt_key = excluded.prompt_key, asked = excluded.asked",
            (game_id, seat, message.channel_id, message.message_id, message.prompt_key, int(message.asked)),
        )
