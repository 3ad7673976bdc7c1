"""Delivers what saved changes must announce: the outbox (storage migration 003).

Every save that players should hear about queues its events in the same transaction as the
change itself (sessions -> storage). After the commit, :meth:`Outbox.deliver` works through a
game's pending rows in order:

0. a game that just started to be played in a thread gets its thread (cogs.threads);
1. the board's Recent lines, appended in the same transaction that marks them done (exactly once);
2. the board, drawn from the saved state (an edit, so repeating it is harmless; all the rows
   pending make one edit), or, when only the channel could edit it and the change came from a
   ``/play`` there, the board posted again as its followup and the old one deleted (cogs.board_hop);
3. the game's ping (cogs.pings: its message id is noted on the rows, so it is never sent twice),
   or, for the change that ended the game, one notice saying how it ended;
4. each human seat's seat message (cogs.seat_messages: the seat is noted on the rows once its DM went out);

and then drops the rows. A delivery caused by a click gets its interaction (cogs.carrier): the
board edit and the ping go through the interaction's endpoints when they can, else through the
channel; the order and the progress notes are the same either way, so a crash mid-delivery
still loses and doubles nothing. The lobby's own pings (a Rematch invitation) go when it starts or closes;
a game played in a thread has its thread archived at the end. A delivery cut short by a crash or a Discord error resumes where it
stopped: at the next click on that game, `/game status`, a retry a little later, or the next
start-up. A move that was saved is never reported as lost.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import TYPE_CHECKING

import discord

from cogs.board_hop import BoardHop, may_move
from cogs.carrier import Carrier, LiveInteractions
from cogs.errors import AnnouncementDelayed
from cogs.pings import Pings
from cogs.presenter import RECENT_EVENTS
from cogs.recent import RecentMap
from cogs.seat_messages import SeatMessages
from cogs.threads import Tables
from engine import Event
from sessions.snapshot import Snapshot
from storage import Announcement, GameNotFound

if TYPE_CHECKING:
    from bot import DragonTavern

log = logging.getLogger("dragon_tavern.cogs.outbox")

UNKNOWN_CHANNEL = 10003  # Discord's error code: the channel was deleted
# Seconds between retries of a failed delivery; after the last one the game waits for its next
# click, /game status or a restart.
RETRY_DELAYS = (15.0, 60.0, 300.0, 900.0)
ENDED = frozenset({"finished", "cancelled", "abandoned"})
# Events that end a lobby: it started, or it closed (cancelled, its host and players left, or
# nobody started it in time: sessions' lobby events).
LOBBY_ENDS = frozenset({"start", "cancel", "lobby", "lobby_timeout"})
CLICKS_KEPT = 256  # clicks in flight whose delivery's snapshot is kept for their next step
# Deliveries under way at once. The event loop runs its ready steps first come, first served, so
# with a backlog of N deliveries a click's acknowledgement waits behind a step of each of them:
# under a burst (hundreds of games' changes at once) that wait neared Discord's 3 s. The others
# queue here, costing no step, so a click is answered after at most this many deliveries' steps.
# Not fewer: a delivery keeps its place while it waits on Discord for 3-4 requests in a row
# (~0.6 s on the real API, longer on a loaded loop), so the places, not the CPU or the global
# bucket, can cap the deliveries: at 2,500 games on the loopback bench, with 64, the lobbies of
# new games queued past 20 s (17 and 32 tables in two runs) while the global bucket peaked at 28
# of 40 a second; with 128 none did in one run, acknowledgements' p99 0.11 s (docs/decisions,
# scale-processes-and-hot-path.md, round 12).
DELIVERIES_AT_ONCE = 128


def _events(rows: list[Announcement]) -> list[Event]:
    return [Event.from_dict(e) for a in rows for e in a.events]


class Outbox:
    def __init__(self, bot: DragonTavern) -> None:
        self.bot = bot
        self._retries: dict[int, asyncio.Task[None]] = {}
        # Games whose last delivery failed (or that had rows at start-up): the next click on
        # them catches up first. Memory only: at start-up the database says which they are.
        self.behind: set[int] = set()
        # The newest click on each board and seat message while its token lives (cogs.carrier).
        self.live = LiveInteractions()
        self.hops = BoardHop(bot, self.live)  # the board moving to a live /play's followup
        self.pings = Pings(bot)
        self.seat_messages = SeatMessages(bot, self.live)
        self.tables = Tables(bot)
        # interaction id -> the snapshot its click's delivery drew from, for the router's next
        # step on that click (the private prompt it may offer), so it loads nothing again
        self.delivered_for: RecentMap[int, Snapshot] = RecentMap(CLICKS_KEPT)
        self.delivery_slots = asyncio.Semaphore(DELIVERIES_AT_ONCE)

    async def deliver(self, game_id: int, carrier: Carrier | None = None) -> None:
        """Announce every pending change of the game, in order (one delivery per game at a
        time, across processes too: the lock is the database's). ``carrier``: the click that
        caused them, whose interaction carries the board edit and the ping when it can. At most
        :data:`DELIVERIES_AT_ONCE` run at a time (taken inside the game's lock: a delivery
        waiting for its game holds no place)."""
        async with self.bot.db.delivery_lock(game_id), self.delivery_slots:
            await self._deliver(game_id, carrier)

    async def deliver_now(self, game_id: int, carrier: Carrier | None = None) -> None:
        """Deliver right after a save. On failure the change stays queued, a retry is scheduled
        and :class:`AnnouncementDelayed` tells the caller the move was saved all the same."""
        if carrier is not None:
            self.live.note(carrier)
        failure = await self._attempt(game_id, carrier)
        if failure is not None:
            ref = secrets.token_hex(3).upper()
            log.warning("game %s: announcing a saved change failed (ref %s); it stays queued", game_id, ref,
                        exc_info=failure)
            self._fell_behind(game_id)
            raise AnnouncementDelayed(ref) from failure

    async def catch_up(self, game_id: int) -> None:
        """Deliver what an earlier attempt left, if anything (next click, /game status). Never raises."""
        if game_id not in self.behind:
            return
        failure = await self._attempt(game_id)
        if failure is not None:
            log.warning("game %s: catching up on announcements failed; will retry", game_id, exc_info=failure)
            self._fell_behind(game_id)

    async def deliver_all_pending(self) -> int:
        """At start-up: announce what a crash left queued, and delete the old boards a crash
        left (cogs.board_hop). Returns how many games had announcements queued."""
        await self.hops.delete_all_old()
        game_ids = await self.bot.db.outbox.games_waiting()
        for game_id in game_ids:
            self.behind.add(game_id)
            await self.catch_up(game_id)
        return len(game_ids)

    def stop(self) -> None:
        for task in self._retries.values():
            task.cancel()
        self._retries.clear()

    # -- internals ------------------------------------------------------------------------
    async def _attempt(self, game_id: int, carrier: Carrier | None = None) -> Exception | None:
        """Deliver; return what went wrong instead of raising. A game whose channel was deleted
        has nobody left to tell: its queue is dropped."""
        try:
            await self.deliver(game_id, carrier)
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_CHANNEL:
                return exc
            log.info("game %s: its channel no longer exists; its queued announcements are dropped", game_id)
            db = self.bot.service.db
            await db.outbox.finish(await db.outbox.pending(game_id))
            self.behind.discard(game_id)
        except Exception as exc:
            return exc
        return None

    async def _deliver(self, game_id: int, carrier: Carrier | None) -> None:
        service = self.bot.service
        pending = await service.db.outbox.pending(game_id)
        if not pending:
            self.behind.discard(game_id)
            return
        try:
            snap = await service.snapshot(game_id, pending)  # the one load of this delivery
        except GameNotFound:
            return
        # A game that has just started in a thread of its own gets it now.
        snap.record = await self.tables.open_thread(snap.record)
        if carrier is not None:
            self.delivered_for[carrier.interaction.id] = snap
        await self._recent_lines(snap)
        # Through the click when it can, else the newest live interaction that can edit that
        # message (a plan chosen in a DM changes the board: the last click on the board carries
        # it); with none, the board moves to the followup of a /play that caused the change.
        await self.hops.catch_up(game_id)
        board_carrier = self.live.on(moved_from := snap.record.board_message_id, carrier)
        hop = carrier if carrier is not None and may_move(snap, carrier, board_carrier) else None
        moved = hop is not None and await self.hops.move(snap, hop)
        if not moved:
            await self.bot.presenter.draw_board(snap, board_carrier)
        if snap.game is not None and snap.record.status == "active":
            await self._ping_and_seat_messages(snap, carrier, moved_from if moved else None)
        elif snap.game is not None and snap.record.status in ENDED:
            await self._game_over(snap)
        await service.db.outbox.finish(pending)
        self.behind.discard(game_id)

    async def _recent_lines(self, snap: Snapshot) -> None:
        """Step 1: the board's Recent lines, noted with the rows they come from (exactly once)."""
        rec, pending = snap.record, snap.pending
        if rec.status != "lobby" and any(e.kind in LOBBY_ENDS for e in _events(pending)):
            await self.pings.delete_earlier(rec, keep=set())  # the lobby's Rematch invitation
        fresh = [a for a in pending if not a.progress.get("recent")]
        if not fresh:
            return
        lines = self.bot.presenter.recent_lines(rec, _events(fresh), snap.game)
        for a in fresh:
            a.progress["recent"] = True
        recent = await self.bot.db.outbox.save_progress(
            fresh, recent=(lines, RECENT_EVENTS) if lines else None)
        if recent is not None:
            rec.recent = recent

    async def _ping_and_seat_messages(
        self, snap: Snapshot, carrier: Carrier | None, moved_from: int | None
    ) -> None:
        """Steps 3 and 4 of a running game: its ping, then each seat's private message.
        ``moved_from``: the board moved from that message in this delivery."""
        service, pending = self.bot.service, snap.pending
        unpinged = [a for a in pending if "ping" not in a.progress]
        if unpinged:
            rec = snap.record
            ping_carrier = self.live.ping(rec.table_channel_id, rec.board_message_id, carrier)
            sent = await self.pings.announce(snap, _events(unpinged), ping_carrier, moved_from)
            for a in unpinged:
                a.progress["ping"] = sent
            await service.db.outbox.save_progress(unpinged)
        for seat in snap.record.seats:
            due = [a for a in pending if seat.seat not in a.progress.get("dm", [])]
            if due and await self.seat_messages.deliver(snap, seat, _events(due)):
                for a in due:
                    a.progress.setdefault("dm", []).append(seat.seat)
                await service.db.outbox.save_progress(due)

    async def _game_over(self, snap: Snapshot) -> None:
        """The rows that ended a started game: one notice instead of the live pings."""
        rec, game = snap.record, snap.game
        unpinged = [a for a in snap.pending if "ping" not in a.progress]
        if not unpinged:
            return
        sent = await self.pings.game_over(rec, game)
        for a in unpinged:
            a.progress["ping"] = sent
        await self.bot.db.outbox.save_progress(unpinged)
        if game is not None:
            await self.seat_messages.close(rec, game)
        await self.tables.close_thread(rec)

    def _fell_behind(self, game_id: int) -> None:
        self.behind.add(game_id)
        task = self._retries.get(game_id)
        if task is None or task.done():
            self._retries[game_id] = asyncio.create_task(self._retry(game_id), name=f"outbox-retry-{game_id}")

    async def _retry(self, game_id: int) -> None:
        try:
            for delay in RETRY_DELAYS:
                await self.bot.sleep(delay)
                if game_id not in self.behind:
                    return
                failure = await self._attempt(game_id)
                if failure is None:
                    log.info("game %s: the delayed announcements went out", game_id)
                    return
                log.warning("game %s: announcing still fails; retrying later", game_id, exc_info=failure)
            log.warning("game %s: announcements still queued after %d tries; the next click, /game status or a "
                        "restart tries again", game_id, len(RETRY_DELAYS))
        finally:  # a finished retry is forgotten: the map holds only games being retried
            if self._retries.get(game_id) is asyncio.current_task():
                del self._retries[game_id]
