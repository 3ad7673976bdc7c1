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
it spaces them evenly (one per 1/budget s), since a whole second's budget let go at once arrives
as a clump that a small delay on Discord's side puts into the next second's count. It
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
        self.next_at = 0.0  # the earliest the next request may go
        self.waited = 0  # requests that had to wait (a burst was spread)
        self.lowered = 0  # global 429s that lowered the budget
        self._turn = asyncio.Lock()  # first come, first sent

    async def wait(self) -> None:
        """Until this request may go (call :meth:`left` when it does)."""
        async with self._turn:
            waited = False
            while True:
                now = self.clock()
                while self.sent and now - self.sent[0] >= WINDOW:
                    self.sent.popleft()
                if now < self.next_at:  # evenly spaced: a burst leaves as a steady stream
                    waited = True
                    await self.sleep(max(0.001, self.next_at - now))
                    continue
                if len(self.sent) + self.leaving < int(self.per_second):
                    self.leaving += 1
                    self.waited += waited
                    self.next_at = now + WINDOW / self.per_second
                    return
                waited = True
                # The oldest of the window ages out then; the ones still leaving, soon.
                await self.sleep(max(0.001, self.sent[0] + WINDOW - now) if self.sent else 0.01)

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
