"""Spreading the bot's own requests so a burst never meets Discord's global limit.

Discord lets a bot make **50 requests per second** in all outside the interaction endpoints (the
callback and the interaction's webhook are not counted). Per-route limits are announced on every
response (``X-RateLimit-*``) and discord.py's HTTPClient already waits for a route's bucket
(cogs.requests says so); the global limit is announced by nothing but a 429 carrying
``X-RateLimit-Global``, and discord.py only waits *after* one. Several boards changing in the same
second (timers firing together, DM plans landing at once) then made a burst over 50 and a global
429 that stalled every request of the bot.

:class:`GlobalPacer` keeps a sliding one-second window of the requests that left and makes
the next one wait while the window (with the requests let through but not yet gone) is full; and
it spaces them evenly (one per 1/budget s, on a schedule a late wake-up of the event loop does
not push back), since a whole second's budget let go at once arrives as a clump that a small
delay on Discord's side puts into the next second's count. It
runs in the aiohttp trace (cogs.requests): a request takes its turn at ``on_request_start``, after
discord.py's own bucket waits, and counts as sent once it has its connection
(``on_connection_create_end`` / ``on_connection_reuseconn``), so a request that queued for a
connection does not bunch up with the next second's. What it spaces is what Discord receives. The budget starts at Discord's documented
number for a bot (:data:`DOCUMENTED_GLOBAL_LIMIT`, configurable for bots Discord granted more)
times :data:`HEADROOM`, since our clock and Discord's do not cut seconds at the same instants; a
global 429 (read from its headers) lowers it by a tenth, with a WARNING.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from sessions.environment import DISCORD_GLOBAL_LIMIT

log = logging.getLogger("dragon_tavern.cogs.pacing")

# Requests per second per bot (Discord's rate-limit docs); a process of several paces at its
# share (GLOBAL_REQUESTS_PER_SECOND, by default by the shards it holds: sessions.environment).
DOCUMENTED_GLOBAL_LIMIT = DISCORD_GLOBAL_LIMIT
HEADROOM = 0.8  # aim under the limit: a request's send and arrival seconds differ (a loaded receiver takes
# requests in clumps: at 0.9 the bench's fake still counted 51 in one of its seconds)
CATCH_UP = 0.25  # seconds a slot may lie in the past (10 requests at 40 a second): a loop busy
# for a while then sends what it owes at once, up to the window
LOWEST = 5.0  # a global 429 never lowers the budget below this many per second
WINDOW = 1.0
# Paths outside the global limit (and the gateway socket, which is not a REST request).
UNPACED = ("/interactions/", "/webhooks/")


def is_global_request(url_path: str) -> bool:
    """A REST request that counts towards the global limit."""
    return "/api/v" in url_path and not any(part in url_path for part in UNPACED)


class GlobalPacer:
    """At most ``per_second`` requests in any window of one second, the rest wait their turn."""

    def __init__(
        self,
        limit: float = DOCUMENTED_GLOBAL_LIMIT,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.per_second = max(LOWEST, limit * HEADROOM)
        self.clock = clock
        self.sleep = sleep
        self.sent: deque[float] = deque()  # when the requests of the last second left
        self.leaving = 0  # let through, not yet on a connection
        self.next_at = 0.0  # the next slot of the schedule: the earliest the next request may go
        self.queue: deque[asyncio.Future[None]] = deque()  # requests waiting for their turn, in order
        self._dispatcher: asyncio.Task[None] | None = None  # hands out the turns while any wait
        self.waited = 0  # requests that had to wait (a burst was spread)
        self.lowered = 0  # global 429s that lowered the budget

    async def wait(self) -> None:
        """Until this request may go (call :meth:`left` when it does)."""
        now = self.clock()
        self._forget_old(now)
        if not self.queue and self._may_go(now):
            self._let_through(now, waited=False)
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.queue.append(turn)
        if self._dispatcher is None or self._dispatcher.done():
            self._dispatcher = asyncio.create_task(self._dispatch())
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # let through, but it will not go
                self.leaving = max(0, self.leaving - 1)
            raise

    async def _dispatch(self) -> None:
        """Let the queued requests go in order, first come, first sent. One task hands out the
        turns, as many in one wake-up as the schedule owes: on a busy event loop every wake-up
        is late (a board drawn, a save), and handing out one turn per wake-up, spaced from the
        wake-up, let 17-25 a second of 40 through with the loop held 5-40 ms at a time."""
        while self.queue:
            now = self.clock()
            self._forget_old(now)
            while self.queue and self._may_go(now):
                turn = self.queue.popleft()
                if turn.done():  # its request was cancelled while it waited
                    continue
                turn.set_result(None)
                self._let_through(now, waited=True)
            if not self.queue:
                return
            if now < self.next_at:  # evenly spaced: a burst leaves as a steady stream
                await self.sleep(max(0.001, self.next_at - now))
            else:  # the window is full: its oldest ages out then; the ones still leaving, soon
                await self.sleep(max(0.001, self.sent[0] + WINDOW - now) if self.sent else 0.01)

    def _forget_old(self, now: float) -> None:
        while self.sent and now - self.sent[0] >= WINDOW:
            self.sent.popleft()

    def _may_go(self, now: float) -> bool:
        return now >= self.next_at and len(self.sent) + self.leaving < int(self.per_second)

    def _let_through(self, now: float, *, waited: bool) -> None:
        self.leaving += 1
        self.waited += waited
        # The next slot follows the schedule, not this moment: a slot may lie up to CATCH_UP in
        # the past, so requests a slow loop held up go as soon as it is free again (the window
        # still caps every second).
        self.next_at = max(self.next_at, now - CATCH_UP) + WINDOW / self.per_second

    def left(self) -> None:
        """A request let through by :meth:`wait` is on the wire (or failed before it)."""
        self.leaving = max(0, self.leaving - 1)
        self.sent.append(self.clock())

    def global_limit_hit(self, headers: Any) -> None:
        """A 429 arrived: if its headers say it is the global limit, aim lower from now on."""
        scope = str(headers.get("X-RateLimit-Scope", "")).lower()
        if str(headers.get("X-RateLimit-Global", "")).lower() != "true" and scope != "global":
            return
        self.per_second = max(LOWEST, self.per_second * 0.9)
        self.lowered += 1
        log.warning(
            "Discord's global rate limit was hit: the bot now sends at most %.0f requests per second "
            "outside interactions",
            self.per_second,
        )


__all__ = ["DOCUMENTED_GLOBAL_LIMIT", "GlobalPacer", "is_global_request"]
