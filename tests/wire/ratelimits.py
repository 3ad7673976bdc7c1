"""Discord's documented REST rate limits, for the loopback fake (tests/wire/fake_discord.py).

What Discord documents (https://discord.com/developers/docs/topics/rate-limits and the
developer support article "My Bot is Being Rate Limited"):

* a **global** limit of 50 requests per second per bot, for every route except the
  interaction endpoints: ``POST /interactions/{id}/{token}/callback`` and the interaction's
  webhook (``/webhooks/{application_id}/{token}...``: followups, ``@original`` edits and
  deletes) are not bound to it;
* **per-route** buckets, keyed by the route and its top-level resource (channel, guild, or
  webhook id + token), announced on every response by ``X-RateLimit-Limit``, ``-Remaining``,
  ``-Reset`` (epoch seconds), ``-Reset-After`` (seconds) and ``-Bucket`` (an opaque id shared
  by the routes of one limit). Discord says never to hard-code the numbers; the ones used here
  are the long-standing observed values (message sends 5 / 5 s per channel, deletes 5 / 1 s
  per channel, the rest below);
* a **429** carries JSON ``{"message", "retry_after", "global", "code"}`` and the headers
  ``Retry-After``, ``X-RateLimit-Global`` (global only) and ``X-RateLimit-Scope``
  (``global`` / ``user`` / ``shared``);
* **invalid requests** (401, 403, 429 except scope ``shared``): 10,000 in 10 minutes gets the
  bot's IP banned by Cloudflare for a while.

``RateLimits`` counts every request (by kind: interaction endpoint or bot-token endpoint, and by
route) whether or not it enforces; with ``enforce=True`` it also refuses requests over a limit
with a 429 and puts the ``X-RateLimit-*`` headers on every answer. The clock is injectable so
the unit tests (tests/wire/test_ratelimits.py) are deterministic.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

GLOBAL_LIMIT = 50  # requests per GLOBAL_WINDOW outside the interaction endpoints
GLOBAL_WINDOW = 1.0
INVALID_STATUSES = frozenset({401, 403, 429})
INVALID_BAN_LIMIT = 10_000  # invalid requests per INVALID_WINDOW before a Cloudflare ban
INVALID_WINDOW = 600.0

INTERACTION = "interaction"  # the kinds a request is counted as
BOT = "bot"

_ID = r"(\d+)"
_TOKEN = r"([^/]+)"


@dataclass(frozen=True)
class RouteLimit:
    """One documented/observed per-route limit: ``limit`` requests per ``window`` seconds for
    each value of the route's top-level resource (the ``major`` group of its pattern)."""

    method: str
    pattern: str  # full-match regex over the path below /api/v10
    template: str  # how the route is named in counts, e.g. "POST /channels/{channel_id}/messages"
    limit: int
    window: float
    major: int | None = 1  # the regex group holding the top-level resource (None: one per bot)
    interaction: bool = False  # an interaction endpoint: outside the global limit
    bucket: str = ""  # routes sharing a limit share this name (default: the template)


# Unknown routes get DEFAULT_LIMIT per second per route (Discord has limits on every route).
DEFAULT_LIMIT = RouteLimit("*", r".*", "{other}", 50, 1.0, major=None)

ROUTE_LIMITS: tuple[RouteLimit, ...] = (
    RouteLimit(
        "POST",
        rf"/interactions/{_ID}/{_TOKEN}/callback",
        "POST /interactions/{id}/{token}/callback",
        5,
        1.0,
        interaction=True,
    ),
    RouteLimit(
        "POST",
        rf"/webhooks/{_ID}/{_TOKEN}",
        "POST /webhooks/{app}/{token} (followup)",
        5,
        2.0,
        major=2,
        interaction=True,
    ),
    RouteLimit(
        "GET",
        rf"/webhooks/{_ID}/{_TOKEN}/messages/[^/]+",
        "GET /webhooks/{app}/{token}/messages/{id}",
        5,
        2.0,
        major=2,
        interaction=True,
    ),
    RouteLimit(
        "PATCH",
        rf"/webhooks/{_ID}/{_TOKEN}/messages/[^/]+",
        "PATCH /webhooks/{app}/{token}/messages/{id}",
        5,
        2.0,
        major=2,
        interaction=True,
    ),
    RouteLimit(
        "DELETE",
        rf"/webhooks/{_ID}/{_TOKEN}/messages/[^/]+",
        "DELETE /webhooks/{app}/{token}/messages/{id}",
        5,
        2.0,
        major=2,
        interaction=True,
    ),
    RouteLimit("POST", rf"/channels/{_ID}/messages", "POST /channels/{channel_id}/messages", 5, 5.0),
    RouteLimit(
        "PATCH", rf"/channels/{_ID}/messages/\d+", "PATCH /channels/{channel_id}/messages/{id}", 5, 5.0
    ),
    RouteLimit(
        "DELETE", rf"/channels/{_ID}/messages/\d+", "DELETE /channels/{channel_id}/messages/{id}", 5, 1.0
    ),
    RouteLimit("GET", rf"/channels/{_ID}/messages/\d+", "GET /channels/{channel_id}/messages/{id}", 5, 1.0),
    RouteLimit("GET", rf"/channels/{_ID}", "GET /channels/{channel_id}", 5, 1.0),
    RouteLimit("POST", rf"/channels/{_ID}/typing", "POST /channels/{channel_id}/typing", 5, 5.0),
    # Not documented: no tighter than the global limit, so the fake never invents a failure.
    RouteLimit("POST", r"/users/@me/channels", "POST /users/@me/channels (open DM)", 50, 1.0, major=None),
    RouteLimit("GET", rf"/users/{_ID}", "GET /users/{user_id}", 5, 1.0),
    RouteLimit("GET", rf"/guilds/{_ID}/members/\d+", "GET /guilds/{guild_id}/members/{user_id}", 5, 1.0),
)
_COMPILED = [(r, re.compile(r.pattern)) for r in ROUTE_LIMITS]


def classify(method: str, path: str) -> tuple[RouteLimit, str]:
    """The route limit a request falls under and its bucket key (route + top-level resource)."""
    for route, pattern in _COMPILED:
        if route.method != method:
            continue
        match = pattern.fullmatch(path)
        if match:
            major = match.group(route.major) if route.major is not None else ""
            return route, f"{route.bucket or route.template}:{major}"
    return DEFAULT_LIMIT, f"{method} {path}"


def classify_template(template: str) -> RouteLimit:
    """The route limit a counted route name (``RateLimits.by_route``'s keys) stands for."""
    return next((r for r in ROUTE_LIMITS if r.template == template), DEFAULT_LIMIT)


@dataclass
class _Window:
    """A fixed window: ``limit`` requests, then refused until ``reset_at``."""

    limit: int
    window: float
    used: int = 0
    reset_at: float = 0.0

    def roll(self, now: float) -> None:
        if now >= self.reset_at:
            self.used = 0
            self.reset_at = now + self.window

    def remaining(self) -> int:
        return max(0, self.limit - self.used)


@dataclass
class Admission:
    """The limiter's answer for one request: allowed or a 429, and the headers to send."""

    allowed: bool
    headers: dict[str, str]
    retry_after: float = 0.0
    is_global: bool = False
    scope: str = ""

    def body(self) -> dict[str, Any]:
        """The JSON of the 429 (Discord's rate limit response structure)."""
        return {
            "message": "You are being rate limited.",
            "retry_after": round(self.retry_after, 3),
            "global": self.is_global,
            "code": 0,
        }


@dataclass
class RateLimitCounts:
    """A snapshot of the counters (subtract two snapshots for a measuring window)."""

    at: float
    by_kind: Counter[str] = field(default_factory=Counter)  # INTERACTION / BOT -> requests
    by_route: Counter[str] = field(default_factory=Counter)  # route template -> requests
    rate_limited: int = 0  # 429s sent
    rate_limited_global: int = 0  # of which on the global bucket
    invalid: int = 0  # 401/403/429 (not shared-scope 429) in all
    rate_limited_by: Counter[str] = field(default_factory=Counter)  # route template or "global" -> 429s

    def __sub__(self, earlier: RateLimitCounts) -> RateLimitCounts:
        return RateLimitCounts(
            at=self.at,
            by_kind=self.by_kind - earlier.by_kind,
            by_route=self.by_route - earlier.by_route,
            rate_limited=self.rate_limited - earlier.rate_limited,
            rate_limited_global=self.rate_limited_global - earlier.rate_limited_global,
            invalid=self.invalid - earlier.invalid,
            rate_limited_by=self.rate_limited_by - earlier.rate_limited_by,
        )

    @property
    def outside_interactions(self) -> int:
        return self.by_kind[BOT]

    @property
    def total(self) -> int:
        return sum(self.by_kind.values())


class RateLimits:
    """Counts every request; with ``enforce`` also applies the limits (see the module doc).

    The API a wire test asserts on::

        fake.ratelimits.requests_outside_interactions()   # bot-token requests (global bucket)
        fake.ratelimits.requests_to_interactions()        # callbacks + interaction webhooks
        fake.ratelimits.by_route()                         # Counter: route template -> requests
        fake.ratelimits.rate_limited                       # 429s sent (all), .rate_limited_global
        fake.ratelimits.rate_limited_routes                # Counter: route template or "global" -> 429s
        fake.ratelimits.invalid_requests()                 # 401/403/429 in the last 10 minutes
        fake.ratelimits.invalid_peak                       # most ever in one 10-minute window
        fake.ratelimits.ban_threshold_reached()            # invalid_peak >= 10,000
        fake.ratelimits.peak_outside_per_second()          # most bot-token requests in a 1-s slot
        fake.ratelimits.peak_second_routes()               # Counter: that second's requests by route
        fake.ratelimits.snapshot()                         # RateLimitCounts; subtract two
    """

    def __init__(
        self,
        *,
        enforce: bool = False,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        global_limit: int = GLOBAL_LIMIT,
    ) -> None:
        self.enforce = enforce
        self.clock = clock
        self.wall = wall
        self.global_window = _Window(global_limit, GLOBAL_WINDOW)
        self.buckets: dict[str, _Window] = {}
        self.kinds: Counter[str] = Counter()
        self.routes: Counter[str] = Counter()
        self.rate_limited = 0
        self.rate_limited_global = 0
        self.rate_limited_routes: Counter[str] = Counter()  # route template (or "global") -> 429s
        self.invalid_total = 0
        self.invalid_peak = 0
        self._invalid_times: deque[float] = deque()
        self._outside_per_second: dict[int, Counter[str]] = {}  # clock second -> route -> requests

    # -- the hook the fake calls -----------------------------------------------------------------
    def admit(self, method: str, path: str) -> Admission:
        """Count one request and decide it (always allowed when not enforcing)."""
        now = self.clock()
        route, key = classify(method, path)
        self.kinds[INTERACTION if route.interaction else BOT] += 1
        self.routes[route.template if route is not DEFAULT_LIMIT else f"{method} {path}"] += 1
        if not route.interaction:
            template = route.template if route is not DEFAULT_LIMIT else f"{method} {path}"
            self._outside_per_second.setdefault(math.floor(now), Counter())[template] += 1
        if not self.enforce:
            return Admission(True, {})
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = _Window(route.limit, route.window)
        bucket.roll(now)
        if not route.interaction:
            self.global_window.roll(now)
            if self.global_window.remaining() == 0:
                self.rate_limited_routes["global"] += 1
                return self._refuse(
                    self.global_window.reset_at - now, is_global=True, scope="global", headers={}
                )
        headers = self._headers(route, bucket, now)
        if bucket.remaining() == 0:
            self.rate_limited_routes[route.template] += 1
            return self._refuse(bucket.reset_at - now, is_global=False, scope="user", headers=headers)
        bucket.used += 1
        if not route.interaction:
            self.global_window.used += 1
        headers = self._headers(route, bucket, now)
        return Admission(True, headers)

    def observe(self, status: int, scope: str = "") -> None:
        """The status the fake answered with (invalid requests are counted from it)."""
        if status not in INVALID_STATUSES or (status == 429 and scope == "shared"):
            return
        now = self.clock()
        self.invalid_total += 1
        self._invalid_times.append(now)
        self._expire_invalid(now)
        self.invalid_peak = max(self.invalid_peak, len(self._invalid_times))

    # -- what tests and the bench read -------------------------------------------------------------
    def requests_outside_interactions(self) -> int:
        return self.kinds[BOT]

    def requests_to_interactions(self) -> int:
        return self.kinds[INTERACTION]

    def by_route(self) -> Counter[str]:
        return Counter(self.routes)

    def invalid_requests(self) -> int:
        """Invalid requests in the last 10 minutes (what Discord's ban counts)."""
        self._expire_invalid(self.clock())
        return len(self._invalid_times)

    def ban_threshold_reached(self) -> bool:
        return self.invalid_peak >= INVALID_BAN_LIMIT

    def peak_outside_per_second(self, since: float | None = None) -> int:
        """The most bot-token requests seen in one whole clock second (from ``since`` on)."""
        return sum(self.peak_second_routes(since).values())

    def peak_second_routes(self, since: float | None = None) -> Counter[str]:
        """The bot-token requests of that busiest second, by route (what a burst is made of)."""
        seconds = [c for second, c in self._outside_per_second.items() if since is None or second >= since]
        return max(seconds, key=lambda c: sum(c.values()), default=Counter())

    def snapshot(self) -> RateLimitCounts:
        return RateLimitCounts(
            at=self.clock(),
            by_kind=Counter(self.kinds),
            by_route=Counter(self.routes),
            rate_limited=self.rate_limited,
            rate_limited_global=self.rate_limited_global,
            invalid=self.invalid_total,
            rate_limited_by=Counter(self.rate_limited_routes),
        )

    def summary(self) -> dict[str, Any]:
        """JSON for the fake's control API (``GET /_fake/ratelimits``)."""
        return {
            "enforce": self.enforce,
            "by_kind": dict(self.kinds),
            "by_route": dict(self.routes),
            "rate_limited": self.rate_limited,
            "rate_limited_global": self.rate_limited_global,
            "invalid_requests": self.invalid_requests(),
            "invalid_peak": self.invalid_peak,
            "invalid_ban_limit": INVALID_BAN_LIMIT,
            "ban_threshold_reached": self.ban_threshold_reached(),
            "peak_outside_per_second": self.peak_outside_per_second(),
        }

    # -- internals ---------------------------------------------------------------------------------
    def _expire_invalid(self, now: float) -> None:
        while self._invalid_times and self._invalid_times[0] <= now - INVALID_WINDOW:
            self._invalid_times.popleft()

    def _headers(self, route: RouteLimit, bucket: _Window, now: float) -> dict[str, str]:
        reset_after = max(0.0, bucket.reset_at - now)
        bucket_id = hashlib.sha1((route.bucket or route.template).encode()).hexdigest()[:16]
        return {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(bucket.remaining()),
            "X-RateLimit-Reset": f"{self.wall() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket_id,
        }

    def _refuse(
        self, retry_after: float, *, is_global: bool, scope: str, headers: dict[str, str]
    ) -> Admission:
        retry_after = max(retry_after, 0.001)
        self.rate_limited += 1
        if is_global:
            self.rate_limited_global += 1
        # "Via": discord.py takes a 429 without it for a Cloudflare ban and does not retry.
        headers = {
            **headers,
            "Retry-After": str(math.ceil(retry_after)),
            "X-RateLimit-Scope": scope,
            "Via": "1.1 google",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        return Admission(False, headers, retry_after=retry_after, is_global=is_global, scope=scope)
