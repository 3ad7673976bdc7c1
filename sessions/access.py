"""What the Discord layer may read and note in storage, as GameService methods: the cogs talk
to sessions only, never to ``storage.Database`` directly (the layers: cogs -> sessions -> storage).

Each method is a thin, named door onto one storage call; the service's game flow (create,
join, apply, ...) lives in :mod:`sessions.service`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from sessions.ratings import rate_game
from storage import (
    Announcement,
    Database,
    GameAccess,
    GameRecord,
    HandMessage,
    HistoryGame,
    LoggedAction,
    StoredRating,
)
from storage.games import ACTIVE_STATUSES

NOTIFY_CHOICES = ("channel", "dm", "off")


class StoreAccess:
    db: Database

    # -- games ------------------------------------------------------------------------------
    async def record(self, game_id: int) -> GameRecord:
        """The saved record of a game (raises storage.GameNotFound)."""
        return await self.db.games.load(game_id)

    async def access(self, game_id: int, user_id: int) -> GameAccess | None:
        """Whether a click on game ``game_id`` may go on: its server, the user's seat, damage."""
        return await self.db.games.access(game_id, user_id)

    async def channel_game(self, channel_id: int, user_id: int | None = None) -> GameRecord | None:
        """The lobby or running game of a channel or game thread, if any. In a channel whose games
        go to threads, the open lobby ``user_id`` hosts (or else sits in; the newest)."""
        played_here = await self.db.games.active_in_channel(channel_id)
        if played_here is not None or user_id is None:
            return played_here
        lobbies = [g for g in await self.db.games.thread_lobbies_in_channel(channel_id) if g.seat_of_user(user_id)]
        hosted = [g for g in lobbies if g.host_user_id == user_id]
        found = hosted or lobbies
        return found[-1] if found else None

    async def open_rematch(self, game_id: int) -> GameRecord | None:
        """The lobby or running game a Rematch of ``game_id`` opened, if one is open."""
        return await self.db.games.open_rematch(game_id)

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        await self.db.games.set_thread(game_id, thread_id)

    async def last_ended_game(self, channel_id: int) -> GameRecord | None:
        """The channel's most recently ended game (finished, cancelled or abandoned after its
        start), for ``/game status`` once nothing runs there."""
        return await self.db.games.last_ended_in_channel(channel_id)

    async def games(self, *, guild_id: int | None = None, statuses: Iterable[str] = ACTIVE_STATUSES,
                    user_id: int | None = None) -> list[GameRecord]:
        return await self.db.games.find(guild_id=guild_id, statuses=statuses, user_id=user_id)

    async def action_log(self, game_id: int) -> list[LoggedAction]:
        return await self.db.log.of_game(game_id)

    async def user_stats(self, guild_id: int, user_id: int) -> dict[str, dict[str, int]]:
        return await self.db.ratings.member_stats(guild_id, user_id)

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        await self.db.games.set_board_message(game_id, message_id)

    # -- the outbox (what saved changes must announce) -----------------------------------------
    def delivery_lock(self, game_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold while delivering a game's announcements (one delivery per game at a time)."""
        return self.db.delivery_lock(game_id)

    async def queue_announcement(self, game_id: int, events: Sequence[dict[str, Any]]) -> None:
        await self.db.outbox.queue(game_id, events)

    async def pending_announcements(self, game_id: int) -> list[Announcement]:
        return await self.db.outbox.pending(game_id)

    async def games_with_announcements(self) -> list[int]:
        return await self.db.outbox.games_waiting()

    async def save_announcement_progress(
        self, announcements: Sequence[Announcement], *, recent: tuple[Sequence[str], int] | None = None
    ) -> list[str] | None:
        return await self.db.outbox.save_progress(announcements, recent=recent)

    async def finish_announcements(self, announcements: Sequence[Announcement]) -> None:
        await self.db.outbox.finish(announcements)

    # -- telling players: notify preference, turn pings, hand messages ----------------------
    async def notify_pref(self, user_id: int) -> str:
        """'channel' (default), 'dm' or 'off': how the member is told they must act."""
        return await self.db.prefs.notify(user_id)

    async def set_notify_pref(self, user_id: int, notify: str) -> None:
        if notify not in NOTIFY_CHOICES:
            raise ValueError(f"notify must be one of {', '.join(NOTIFY_CHOICES)}")
        await self.db.prefs.set_notify(user_id, notify)

    async def pings(self, game_id: int) -> list[tuple[int, int]]:
        return await self.db.pings.of_game(game_id)

    async def add_ping(self, game_id: int, channel_id: int, message_id: int) -> None:
        await self.db.pings.add(game_id, channel_id, message_id)

    async def drop_ping(self, game_id: int, message_id: int) -> None:
        await self.db.pings.drop(game_id, message_id)

    async def hand(self, game_id: int, seat: str) -> HandMessage | None:
        return await self.db.hands.get(game_id, seat)

    async def set_hand(self, game_id: int, seat: str, hand: HandMessage) -> None:
        await self.db.hands.set(game_id, seat, hand)

    async def turn_deadline(self, game_id: int) -> float | None:
        """When the running turn times out (epoch seconds), if a turn timer is armed."""
        return await self.db.timers.deadline(game_id, "turn")

    # -- ratings and history (issue 16; how a game is rated: sessions.ratings) ------------------
    async def leaderboard(self, guild_id: int, kind: str, offset: int, limit: int) -> list[StoredRating]:
        return await self.db.ratings.leaderboard(guild_id, kind, offset, limit)

    async def rated_players(self, guild_id: int, kind: str) -> int:
        return await self.db.ratings.rated_players(guild_id, kind)

    async def rating_and_rank(self, guild_id: int, kind: str, player: str) -> tuple[StoredRating, int] | None:
        return await self.db.ratings.rating_and_rank(guild_id, kind, player)

    async def player_kinds(self, guild_id: int, player: str) -> list[str]:
        return await self.db.ratings.player_kinds(guild_id, player)

    async def rating_series(
        self, guild_id: int, player: str, kind: str, limit: int
    ) -> list[tuple[float, float]]:
        return await self.db.ratings.series(guild_id, player, kind, limit)

    async def member_games(
        self, guild_id: int, user_id: int, kind: str | None, offset: int, limit: int
    ) -> list[HistoryGame]:
        return await self.db.ratings.member_games(guild_id, user_id, kind, offset, limit)

    async def member_games_count(self, guild_id: int, user_id: int, kind: str | None) -> int:
        return await self.db.ratings.member_games_count(guild_id, user_id, kind)

    async def rebuild_ratings(self) -> tuple[int, int]:
        """Every rating recomputed from the saved finished games: (games rated, rating rows)."""
        return await self.db.ratings.rebuild(rate_game)

    # -- damaged games ----------------------------------------------------------------------
    def watch_damage(self, callback: Callable[[int], None]) -> None:
        """Call ``callback(game_id)`` when storage sets a game aside as damaged."""
        self.db.damage.on_damaged = callback

    async def unannounced_damaged(self) -> list[tuple[int, int]]:
        """(game id, channel id) of damaged games whose channel was not told yet."""
        return await self.db.damage.unannounced()

    async def claim_damage_announcement(self, game_id: int) -> bool:
        """True once only per damaged game: the caller then announces it."""
        return await self.db.damage.claim_announcement(game_id)

    # -- bot-wide values (guild 0) ------------------------------------------------------------
    async def bot_value(self, key: str) -> Any:
        return (await self.db.settings.of_guild(0)).get(key)

    async def set_bot_value(self, key: str, value: Any) -> None:
        await self.db.settings.set(0, key, value)
