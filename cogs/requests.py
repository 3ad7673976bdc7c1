"""Counting the bot's failed requests to Discord, and not repeating those that cannot succeed.

discord.py's HTTPClient already reads Discord's rate-limit headers (``X-RateLimit-Remaining``,
``-Reset-After``, ``-Bucket``: a bucket is waited for before it is empty) and retries a 429
after the ``retry_after`` of its body (the whole client waits on a global one); see
``discord/http.py``, ``HTTPClient.request``. Nothing here re-implements that. What it adds
(besides the trace that spaces requests under the global limit, cogs.pacing):

* **Counting.** Discord blocks a bot for a while after 10,000 invalid requests (401, 403,
  429) in 10 minutes. Every such response is counted (:attr:`RequestLedger.invalid`, by
  status, and the figures of the current 10-minute window), with a WARNING log line when a
  window passes :data:`WARN_AT`. On the wire the 429s that discord.py retries on its own are
  seen through an aiohttp trace (:meth:`RequestLedger.trace_config`, wired in bot.py); the
  401/403s surface as exceptions from ``http.request``, which :meth:`RequestLedger.install`
  wraps (under simcord, whose client answers without aiohttp, that wrapper counts the 429s too).
* **Not repeating a request that cannot succeed.** A deleted message (10008) or channel (10003)
  is gone for good: the same request is refused locally from then on (the same exception, no
  request). A member's closed DMs (50007) are remembered for :data:`FORGET_AFTER` seconds (they
  may open them again). Missing access or permissions (50001, 50013) are counted but not
  remembered: an admin may fix them any moment and the board must then catch up at once
  (cogs.outbox retries a failed delivery a bounded number of times, 15 s to 15 min apart, so
  these do not repeat without end).
"""

from __future__ import annotations

import logging
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
from discord.http import HTTPClient, Route

from cogs.pacing import GlobalPacer, is_global_request

log = logging.getLogger("dragon_tavern.cogs.requests")

INVALID = frozenset({401, 403, 429})
WINDOW = 600.0  # Discord's window for invalid requests: 10 minutes
WARN_AT = 1000  # a tenth of Discord's 10,000: far from the ban, loud enough to look at
FORGET_AFTER = 600.0  # closed DMs may be opened again
UNKNOWN_MESSAGE, UNKNOWN_CHANNEL = 10008, 10003
DM_CLOSED = 50007
MAX_REMEMBERED = 10_000  # targets known to refuse; the oldest is forgotten first
# discord.py forgets a route's rate-limit bucket 300 s after its last request, by a sweep of
# every bucket each time it makes a new one once it holds 256: with a board per channel that
# is a walk over thousands of buckets several times a second (~3 % of the bot's CPU at 800
# games). Sweeping once per this many seconds forgets them as surely, at most this much later.
SWEEP_EVERY = 30.0
_CHANNEL = re.compile(r"^/channels/(\d+)")


class RequestLedger:
    def __init__(self, clock: Callable[[], float] = time.monotonic, pacer: GlobalPacer | None = None) -> None:
        self.clock = clock
        self.pacer = pacer or GlobalPacer()
        self.invalid: Counter[int] = Counter()  # since start, by status
        self.avoided = 0  # requests not sent: their target was known to refuse them
        self._window_start = clock()
        self._window = 0
        self._warned = False
        self._dead: dict[tuple[str, str], tuple[float | None, discord.HTTPException]] = {}
        self._traced = False  # 429s are counted by the aiohttp trace (the real client)

    # -- counting ----------------------------------------------------------------------------
    def record(self, status: int) -> None:
        if status not in INVALID:
            return
        self.invalid[status] += 1
        now = self.clock()
        if now - self._window_start >= WINDOW:
            self._window_start, self._window, self._warned = now, 0, False
        self._window += 1
        if self._window >= WARN_AT and not self._warned:
            self._warned = True
            log.warning(
                "%d invalid requests to Discord (401/403/429) in the last %d minutes (Discord blocks the "
                "bot at 10,000): %s",
                self._window,
                int(WINDOW // 60),
                dict(self.invalid),
            )

    @property
    def in_window(self) -> int:
        """Invalid requests in the current 10-minute window (what Discord's ban counts)."""
        return 0 if self.clock() - self._window_start >= WINDOW else self._window

    def trace_config(self) -> aiohttp.TraceConfig:
        """For ``Client(http_trace=...)``: sees every response, the 429s discord.py retries too;
        and spaces the requests bound to the global limit (cogs.pacing) just before they leave."""
        trace = aiohttp.TraceConfig()

        async def on_request_start(session: Any, context: Any, params: Any) -> None:
            if is_global_request(params.url.path):
                await self.pacer.wait()
                context.pacer_turn = True

        async def on_connected(session: Any, context: Any, params: Any) -> None:
            if getattr(context, "pacer_turn", False):
                context.pacer_turn = False
                self.pacer.left()

        async def on_request_end(session: Any, context: Any, params: Any) -> None:
            await on_connected(session, context, params)
            if params.response.status == 429:
                self.record(429)
                self.pacer.global_limit_hit(params.response.headers)

        trace.on_request_start.append(on_request_start)
        trace.on_connection_create_end.append(on_connected)
        trace.on_connection_reuseconn.append(on_connected)
        trace.on_request_end.append(on_request_end)
        trace.on_request_exception.append(on_connected)  # a failed request gives its turn back
        return trace

    # -- the client's requests ---------------------------------------------------------------
    def install(self, http: HTTPClient) -> None:
        """Wrap ``http.request``: count what surfaces, refuse what is known to fail."""
        self._traced = type(http).request is HTTPClient.request and http.http_trace is not None
        send: Callable[..., Awaitable[Any]] = http.request

        async def request(route: Route, **kwargs: Any) -> Any:
            path = route.url.split("/api/v", 1)[-1].partition("/")[2]
            target = self._known_dead(route.method, "/" + path)
            if target is not None:
                self.avoided += 1
                raise target
            try:
                return await send(route, **kwargs)
            except discord.HTTPException as exc:
                if exc.status in (401, 403) or (exc.status == 429 and not self._traced):
                    self.record(exc.status)
                self._remember(route.method, "/" + path, exc)
                raise

        http.request = request  # type: ignore[method-assign]
        self._throttle_bucket_sweep(http)

    def _throttle_bucket_sweep(self, http: HTTPClient) -> None:
        sweep: Callable[[], None] = http._try_clear_expired_ratelimits
        last = [-SWEEP_EVERY]

        def sweep_now_and_then() -> None:
            now = self.clock()
            if now - last[0] >= SWEEP_EVERY:
                last[0] = now
                sweep()

        http._try_clear_expired_ratelimits = sweep_now_and_then  # type: ignore[method-assign]

    def _remember(self, method: str, path: str, exc: discord.HTTPException) -> None:
        channel = _CHANNEL.match(path)
        if len(self._dead) >= MAX_REMEMBERED:
            del self._dead[next(iter(self._dead))]  # the oldest: memory stays bounded
        if exc.code == UNKNOWN_MESSAGE and method in ("PATCH", "DELETE"):
            self._dead[("*", path)] = (None, exc)
        elif exc.code == UNKNOWN_CHANNEL and channel:
            self._dead[("*", channel.group(0))] = (None, exc)
        elif exc.code == DM_CLOSED and channel:
            self._dead[("POST", channel.group(0))] = (self.clock() + FORGET_AFTER, exc)

    def _known_dead(self, method: str, path: str) -> discord.HTTPException | None:
        channel = _CHANNEL.match(path)
        keys = [("*", path)]
        if channel:
            keys += [("*", channel.group(0)), (method, channel.group(0))]
        for key in keys:
            found = self._dead.get(key)
            if found is None:
                continue
            until, exc = found
            if until is not None and self.clock() >= until:
                del self._dead[key]
                continue
            if key[0] == "*" or path.endswith("/messages"):  # all of a gone target; a closed DM's sends
                return exc
        return None

    def figures(self) -> dict[str, Any]:
        """What a bench or test reads: invalid requests by status, in the window, avoided."""
        return {
            "invalid": dict(self.invalid),
            "in_window": self.in_window,
            "avoided": self.avoided,
            "paced": self.pacer.waited,
        }
