"""Seats and lobbies for the storage tests (one copy for every storage test file)."""

from __future__ import annotations

from typing import Any

from storage import Database, GameRecord, SeatRecord


def seat(n: int, user: int | None = None, ai: str | None = None) -> SeatRecord:
    return SeatRecord(seat=f"p{n}", position=n - 1, user_id=user, ai_level=ai, display_name=f"player{n}")


async def new_game(db: Database, channel: int = 10, *, seats: list[SeatRecord] | None = None,
                   **kw: Any) -> GameRecord:
    """A tally lobby in ``channel`` hosted by user 100 (seated alone unless ``seats`` says)."""
    return await db.games.create(kind="tally", guild_id=1, channel_id=channel, host_user_id=100, options={},
                                seed=42, seats=seats or [seat(1, 100)], **kw)
