"""A small loopback fake of Discord's REST API and gateway, for wire smoke tests.

The unmodified discord.py client talks to it over real HTTP and a real WebSocket on
127.0.0.1 (see ``tests/wire/patch_client.py`` for the two class attributes to point at it).
It is deliberately small: it knows the routes a slash-command game bot uses (login, command
sync, interaction callbacks and followups, channel and DM messages with files, message
edits) and records every REST request so a test can assert on what went over the wire.

Typical use inside a test (the bot runs in the same event loop)::

    async with FakeDiscord() as fake:
        guild = fake.create_guild("Tavern")
        channel = guild.create_text_channel("games")
        alice = guild.add_member(fake.create_user("alice"))
        point_discord_at(fake.base_url)
        ...start the bot, await fake.wait_until_identified()...
        ix = await fake.slash(alice, channel, "game new", {"game": "farkle"})
        callback = await ix.wait_callback()

It can also run standalone (``python -m tests.wire.fake_discord --port N``) so that a bot in
another process connects to it; a small JSON control API under ``/_fake/`` lets a test in yet
another process create guilds, inject interactions and read the request log.

Only loopback addresses are ever bound; anything else is refused.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import fnmatch
import hashlib
import json
import logging
import re
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.wire.ratelimits import RateLimits

log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1420070400000
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})

# Interaction and component type numbers from the Discord API documentation.
INTERACTION_APPLICATION_COMMAND = 2
INTERACTION_MESSAGE_COMPONENT = 3
INTERACTION_AUTOCOMPLETE = 4
COMPONENT_BUTTON = 2
COMPONENT_STRING_SELECT = 3
CALLBACK_CHANNEL_MESSAGE = 4
CALLBACK_DEFERRED_CHANNEL_MESSAGE = 5
CALLBACK_DEFERRED_UPDATE_MESSAGE = 6
CALLBACK_UPDATE_MESSAGE = 7
CALLBACK_AUTOCOMPLETE_RESULT = 8
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
CHANNEL_GUILD_TEXT = 0
CHANNEL_DM = 1

# Slash option types, used to type option values when the command was never synced.
_OPTION_SUB_COMMAND = 1
_OPTION_SUB_COMMAND_GROUP = 2
_OPTION_STRING = 3
_OPTION_INTEGER = 4
_OPTION_BOOLEAN = 5
_OPTION_USER = 6
_OPTION_NUMBER = 10

# All permissions a bot needs in tests; the fake does no permission checks itself.
_ALL_PERMISSIONS = str((1 << 51) - 1)
# The fake models no threads: its servers grant the bot everything but Administrator (bit 3,
# which implies every other), Create Public Threads (bit 35) and Send Messages in Threads (bit
# 38), so the bot plays every game in its channel, as on a server that did not grant those
# (games in threads are played through simcord: tests/bot/test_threads.py).
_SERVER_PERMISSIONS = str(((1 << 51) - 1) & ~(1 << 3) & ~(1 << 35) & ~(1 << 38))


def _iso_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


def _json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py parses a body as JSON only when Content-Type is *exactly* application/json;
    # web.json_response would append "; charset=utf-8", so the header is set by hand.
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def _error(status: int, code: int, message: str) -> web.Response:
    return _json_response({"message": message, "code": code}, status=status)


class _Snowflakes:
    """Time-based, strictly increasing snowflakes, so ``created_at`` is sane in the client."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        value = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return value

    def next_in_shard(self, shard_id: int, shard_count: int) -> int:
        """The next snowflake whose guild events Discord sends to shard ``shard_id``."""
        value = self.next()
        while shard_of(value, shard_count) != shard_id:
            value = ((value >> 22) + 1) << 22
        self._last = value
        return value


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives a guild's events (Discord's formula)."""
    return (guild_id >> 22) % shard_count


# --------------------------------------------------------------------------- model


@dataclass
class FakeUser:
    id: int
    name: str
    bot: bool = False
    dm_channel_id: int | None = None

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class FakeChannel:
    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    recipient: FakeUser | None = None  # the other user of a DM channel
    position: int = 0

    @property
    def is_dm(self) -> bool:
        return self.type == CHANNEL_DM

    def payload(self) -> dict[str, Any]:
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": CHANNEL_DM,
                "last_message_id": None,
                "recipients": [self.recipient.payload()],
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }


@dataclass
class FakeGuild:
    id: int
    name: str
    owner: FakeUser
    fake: FakeDiscord = field(repr=False)
    channels: list[FakeChannel] = field(default_factory=list)
    members: dict[int, FakeUser] = field(default_factory=dict)
    joined_at: str = field(default_factory=_iso_now)

    def create_text_channel(self, name: str) -> FakeChannel:
        channel = FakeChannel(
            id=self.fake.snowflakes.next(),
            type=CHANNEL_GUILD_TEXT,
            name=name,
            guild_id=self.id,
            position=len(self.channels),
        )
        self.channels.append(channel)
        self.fake.channels[channel.id] = channel
        return channel

    def add_member(self, user: FakeUser) -> FakeUser:
        self.members[user.id] = user
        return user

    def member_payload(self, user: FakeUser, *, with_user: bool = True) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "roles": [],
            "nick": None,
            "avatar": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,  # discord.py's Member requires it
            "communication_disabled_until": None,
        }
        if with_user:
            payload["user"] = user.payload()
        return payload

    def payload(self) -> dict[str, Any]:
        """A GUILD_CREATE payload."""
        everyone = {
            "id": str(self.id),  # the @everyone role shares the guild id
            "name": "@everyone",
            "permissions": _SERVER_PERMISSIONS,
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
            "icon": None,
            "unicode_emoji": None,
        }
        return {
            "id": str(self.id),
            "name": self.name,
            "owner_id": str(self.owner.id),
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "max_members": 500000,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [everyone],
            "member_count": len(self.members),
            "large": False,
            "unavailable": False,
            "joined_at": self.joined_at,
            "members": [self.member_payload(m) for m in self.members.values()],
            "channels": [c.payload() for c in self.channels],
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "premium_progress_bar_enabled": False,
            "nsfw_level": 0,
        }


@dataclass
class UploadedFile:
    """One file part of a multipart request (``files[n]``)."""

    field_name: str
    filename: str
    content_type: str
    data: bytes

    def summary(self) -> dict[str, Any]:
        return {
            "field_name": self.field_name,
            "filename": self.filename,
            "content_type": self.content_type,
            "size": len(self.data),
            "sha256": hashlib.sha256(self.data).hexdigest(),
        }


@dataclass
class RecordedRequest:
    """One REST request as the fake received it (path is relative to ``/api/v10``)."""

    index: int
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    json: Any
    files: list[UploadedFile]
    status: int = 0
    response: Any = None

    def summary(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "method": self.method,
            "path": self.path,
            "query": self.query,
            "content_type": self.headers.get("content-type"),
            "json": self.json,
            "files": [f.summary() for f in self.files],
            "status": self.status,
            "response": self.response,
        }


@dataclass
class FakeInteraction:
    """An injected interaction and everything the bot sent back for it."""

    id: int
    token: str
    payload: dict[str, Any]
    fake: FakeDiscord = field(repr=False)
    channel_id: int = 0
    created: float = field(default_factory=time.monotonic)
    callbacks: list[RecordedRequest] = field(default_factory=list)
    followups: list[dict[str, Any]] = field(default_factory=list)  # message payloads
    original_message_id: int | None = None
    original_edits: list[RecordedRequest] = field(default_factory=list)
    shards: list[tuple[int, int]] = field(default_factory=list)  # the gateway shards it was sent to

    @property
    def callback(self) -> RecordedRequest | None:
        return self.callbacks[0] if self.callbacks else None

    @property
    def original_message(self) -> dict[str, Any] | None:
        if self.original_message_id is None:
            return None
        return self.fake.messages.get(self.original_message_id)

    async def wait_callback(self, timeout: float = 5.0) -> RecordedRequest:
        """The bot's ``POST /interactions/{id}/{token}/callback`` (its JSON has ``type`` and ``data``)."""
        await self.fake.wait_until(
            lambda: bool(self.callbacks), timeout, f"callback for interaction {self.id}"
        )
        return self.callbacks[0]

    async def wait_followup(self, count: int = 1, timeout: float = 5.0) -> dict[str, Any]:
        """The ``count``-th followup message (``POST /webhooks/{app}/{token}``)."""
        await self.fake.wait_until(
            lambda: len(self.followups) >= count, timeout, f"{count} followup(s) for interaction {self.id}"
        )
        return self.followups[count - 1]

    async def wait_original_edit(self, count: int = 1, timeout: float = 5.0) -> RecordedRequest:
        """The ``count``-th ``PATCH .../messages/@original``."""
        await self.fake.wait_until(
            lambda: len(self.original_edits) >= count, timeout, f"edit of @original for {self.id}"
        )
        return self.original_edits[count - 1]


class _GatewaySession:
    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.seq = 0
        self.session_id = secrets.token_hex(16)
        self.identified = False
        self.shard: tuple[int, int] = (0, 1)  # [shard_id, shard_count] from IDENTIFY
        self.heartbeats = 0
        self.send_lock = asyncio.Lock()

    async def send(self, op: int, data: Any, event: str | None = None) -> None:
        async with self.send_lock:
            message: dict[str, Any] = {"op": op, "d": data, "s": None, "t": event}
            if op == 0:
                self.seq += 1
                message["s"] = self.seq
            # Plain text frames: discord.py only inflates binary frames, so no compression.
            await self.ws.send_str(json.dumps(message))

    def receives(self, guild_id: int | None) -> bool:
        """Whether this session's shard gets a guild's events (``None``: a DM, shard 0's)."""
        shard_id, shard_count = self.shard
        return shard_id == (0 if guild_id is None else shard_of(guild_id, shard_count))


@dataclass
class _InjectedError:
    method: str
    path_glob: str
    status: int
    code: int
    message: str
    remaining: int | None


@dataclass
class _Stall:
    """Requests that get no answer until released (see FakeDiscord.stall)."""

    method: str
    path_glob: str
    containing: str = ""  # only requests whose JSON body contains this text
    received: list[RecordedRequest] = field(default_factory=list)
    released: asyncio.Event = field(default_factory=asyncio.Event)


class FakeDiscord:
    """Loopback fake Discord: aiohttp REST under ``/api/v10`` plus a WebSocket gateway."""

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        heartbeat_interval_ms: int = 41250,
        bot_name: str = "DragonTavern",
        ack_heartbeats: bool = True,
        callback_deadline: float | None = 3.0,
        recommended_shards: int = 1,
        enforce_rate_limits: bool = False,
    ) -> None:
        if host not in LOOPBACK_HOSTS:
            raise ValueError(f"FakeDiscord binds loopback only, not {host!r}")
        self.host = host
        self.port = port
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.ack_heartbeats = ack_heartbeats
        # Discord answers 10062 "Unknown interaction" to a callback later than 3 s.
        self.callback_deadline = callback_deadline
        self.recommended_shards = recommended_shards  # GET /gateway/bot's "shards"
        self.snowflakes = _Snowflakes()
        self.application_id = self.snowflakes.next()
        self.bot_user = FakeUser(id=self.application_id, name=bot_name, bot=True)
        self.owner = FakeUser(id=self.snowflakes.next(), name="tavern-owner")
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, dict[str, Any]] = {}  # message id -> message payload
        # channel id -> its message ids in creation order (a dict as an ordered set): a look at one
        # channel must not scan every message (the scale bench has thousands of channels)
        self._channel_message_ids: dict[int, dict[int, None]] = {}
        self.attachments: dict[int, bytes] = {}  # attachment id -> content (served to the client)
        self.message_edits: list[RecordedRequest] = []
        # Seconds every REST answer is held back: Discord's API answers in ~0.1-0.2 s, loopback in
        # microseconds, and what waits on answers (a delivery's requests in a row) waits that long.
        self.response_delay = 0.0
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.requests: list[RecordedRequest] = []
        self.unhandled: list[RecordedRequest] = []
        self.interactions: dict[int, FakeInteraction] = {}
        self._interactions_by_token: dict[str, FakeInteraction] = {}
        self.identify_payloads: list[dict[str, Any]] = []
        self.heartbeats_received = 0
        self.heartbeat_acks_sent = 0
        self.resumes = 0
        self.sessions: list[_GatewaySession] = []
        self._shards_by_session_id: dict[str, tuple[int, int]] = {}  # a RESUME names no shard
        # Every request is counted by kind and route; with enforcement, Discord's documented
        # limits answer 429 and every response carries X-RateLimit-* (tests/wire/ratelimits.py).
        self.ratelimits = RateLimits(enforce=enforce_rate_limits)
        self._errors: list[_InjectedError] = []
        self._stalls: list[_Stall] = []
        self._changed: asyncio.Condition | None = None
        self._runner: web.AppRunner | None = None

    # ------------------------------------------------------------------ lifecycle

    @property
    def base_url(self) -> str:
        """What ``patch_client.point_discord_at`` takes, e.g. ``http://127.0.0.1:4321``."""
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    async def start(self) -> FakeDiscord:
        self._changed = asyncio.Condition()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{attachment_id}/{filename}", self._serve_attachment)
        app.router.add_route("*", "/_fake/{tail:.*}", self._control)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        # A short shutdown timeout: open gateway sockets are closed explicitly in stop().
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:
            self.port = int(self._runner.addresses[0][1])  # the ephemeral port the OS picked
        log.info("fake Discord listening on %s", self.base_url)
        return self

    async def stop(self) -> None:
        self.release_stalls()
        for session in list(self.sessions):
            with contextlib.suppress(Exception):
                await session.ws.close(code=1001, message=b"fake Discord stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ setup helpers

    def create_user(self, name: str, *, bot: bool = False) -> FakeUser:
        user = FakeUser(id=self.snowflakes.next(), name=name, bot=bot)
        self.users[user.id] = user
        return user

    def create_guild(self, name: str = "Dragon Tavern Test", *, shard: tuple[int, int] | None = None) -> FakeGuild:
        """A guild the bot is in (announced in READY / GUILD_CREATE when the bot connects);
        ``shard=(shard_id, shard_count)`` picks an id whose events go to that shard."""
        guild_id = self.snowflakes.next() if shard is None else self.snowflakes.next_in_shard(*shard)
        guild = FakeGuild(id=guild_id, name=name, owner=self.owner, fake=self)
        guild.add_member(self.owner)
        guild.add_member(self.bot_user)
        self.guilds[guild.id] = guild
        return guild

    async def announce_guild(self, guild: FakeGuild) -> None:
        """Send GUILD_CREATE for a guild created (or changed) after the bot connected."""
        await self.dispatch("GUILD_CREATE", guild.payload())

    def inject_error(
        self, method: str, path_glob: str, *, status: int, code: int, message: str, times: int | None = 1
    ) -> None:
        """Answer matching requests (path relative to /api/v10, fnmatch glob) with an error."""
        self._errors.append(_InjectedError(method.upper(), path_glob, status, code, message, times))

    def stall(self, method: str, path_glob: str, containing: str = "") -> None:
        """Leave matching requests (path relative to /api/v10, fnmatch glob) unanswered, so the
        client stays blocked on them, e.g. to kill a bot in the middle of announcing a change.
        :meth:`release_stalls` answers them 503 *without effect*: like a request Discord never
        acted upon because the client died while it was in flight."""
        self._stalls.append(_Stall(method.upper(), path_glob, containing))

    def stalled(self) -> list[RecordedRequest]:
        """Requests held by :meth:`stall` so far (answered or not)."""
        return [r for stall in self._stalls for r in stall.received]

    def release_stalls(self) -> None:
        for stall in self._stalls:
            stall.released.set()
        self._stalls.clear()

    def dm_channel_for(self, user: FakeUser) -> FakeChannel:
        if user.dm_channel_id is None:
            channel = FakeChannel(id=self.snowflakes.next(), type=CHANNEL_DM, recipient=user)
            self.channels[channel.id] = channel
            user.dm_channel_id = channel.id
        return self.channels[user.dm_channel_id]

    # ------------------------------------------------------------------ queries and waiting

    async def _notify(self) -> None:
        if self._changed is not None:
            async with self._changed:
                self._changed.notify_all()

    async def wait_until(self, predicate: Callable[[], bool], timeout: float = 5.0, what: str = "") -> None:
        """Wait until ``predicate()`` holds: re-checked on every request or gateway message, and
        every 50 ms too, since a predicate may look at the bot's own state."""
        condition = self._changed
        assert condition is not None, "FakeDiscord.start() first"
        try:
            async with asyncio.timeout(timeout):
                while not predicate():
                    async with condition:
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(condition.wait(), 0.05)
        except TimeoutError:
            recent = "\n".join(
                f"  {r.method} {r.path} -> {r.status} {json.dumps(r.response)[:200] if r.status >= 400 else ''}"
                for r in self.requests[-8:]
            )
            raise AssertionError(
                f"fake Discord: timed out after {timeout}s waiting for {what}; last requests:\n{recent}"
            ) from None

    def identified_shards(self) -> set[tuple[int, int]]:
        """(shard_id, shard_count) of every identified, open gateway session."""
        return {s.shard for s in self.sessions if s.identified and not s.ws.closed}

    async def wait_until_identified(self, timeout: float = 10.0) -> None:
        """Until a client has IDENTIFIED and received READY and every GUILD_CREATE."""
        await self.wait_until(lambda: any(s.identified for s in self.sessions), timeout, "IDENTIFY")

    def find_requests(self, method: str | None = None, path_glob: str = "*") -> list[RecordedRequest]:
        return [
            r
            for r in self.requests
            if (method is None or r.method == method.upper()) and fnmatch.fnmatchcase(r.path, path_glob)
        ]

    async def wait_request(
        self,
        method: str,
        path_glob: str,
        predicate: Callable[[RecordedRequest], bool] | None = None,
        *,
        since: int = 0,
        timeout: float = 5.0,
    ) -> RecordedRequest:
        """First recorded request (index >= since) matching method, glob and predicate."""

        def found() -> RecordedRequest | None:
            for r in self.find_requests(method, path_glob):
                if r.index >= since and r.status and (predicate is None or predicate(r)):
                    return r
            return None

        await self.wait_until(lambda: found() is not None, timeout, f"{method} {path_glob}")
        result = found()
        assert result is not None
        return result

    def channel_messages(self, channel: FakeChannel | int) -> list[dict[str, Any]]:
        channel_id = channel if isinstance(channel, int) else channel.id
        ids = self._channel_message_ids.get(channel_id, {})
        return [self.messages[i] for i in ids if i in self.messages]

    def dm_messages(self, user: FakeUser) -> list[dict[str, Any]]:
        if user.dm_channel_id is None:
            return []
        return self.channel_messages(user.dm_channel_id)

    async def wait_message(
        self,
        channel: FakeChannel | int,
        predicate: Callable[[dict[str, Any]], bool] | None = None,
        *,
        timeout: float = 5.0,
    ) -> dict[str, Any]:
        def found() -> dict[str, Any] | None:
            for m in self.channel_messages(channel):
                if predicate is None or predicate(m):
                    return m
            return None

        await self.wait_until(lambda: found() is not None, timeout, f"a message in channel {channel}")
        result = found()
        assert result is not None
        return result

    async def wait_dm(
        self,
        user: FakeUser,
        predicate: Callable[[dict[str, Any]], bool] | None = None,
        *,
        timeout: float = 5.0,
    ) -> dict[str, Any]:
        await self.wait_until(
            lambda: user.dm_channel_id is not None, timeout, f"a DM channel with {user.name}"
        )
        assert user.dm_channel_id is not None
        return await self.wait_message(user.dm_channel_id, predicate, timeout=timeout)

    # ------------------------------------------------------------------ gateway

    async def dispatch(self, event: str, data: Mapping[str, Any]) -> list[tuple[int, int]]:
        """Send a DISPATCH (op 0) event to the identified gateway sessions of the shard that
        gets it, as Discord does: a guild's events to shard ``(guild_id >> 22) % shard_count``,
        DMs (no guild) to shard 0. Without sharding (one session, [0, 1]) that is everything."""
        guild = data.get("id") if event.startswith("GUILD_") and "guild_id" not in data else data.get("guild_id")
        guild_id = int(guild) if guild is not None else None
        sessions = [s for s in self.sessions if s.identified and not s.ws.closed and s.receives(guild_id)]
        if not sessions:
            where = f"guild {guild_id}" if guild_id is not None else "DMs"
            raise RuntimeError(f"no bot is connected to the fake gateway to receive {event} ({where})")
        sent: list[tuple[int, int]] = []
        for session in sessions:
            try:
                await session.send(0, dict(data), event)
                sent.append(session.shard)
            except (ConnectionError, RuntimeError) as exc:
                # A bot killed with SIGKILL leaves a socket that fails on write; skip it.
                log.info("dropping dead gateway session %s: %r", session.session_id, exc)
        return sent

    async def drop_connections(self, code: int = 4000) -> None:
        """Close every gateway socket (4000 = unknown error: discord.py reconnects and RESUMEs)."""
        for session in list(self.sessions):
            await session.ws.close(code=code, message=b"dropped by test")

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = _GatewaySession(ws)
        self.sessions.append(session)
        try:
            await session.send(10, {"heartbeat_interval": self.heartbeat_interval_ms})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._gateway_message(session, json.loads(msg.data))
                elif msg.type == WSMsgType.BINARY:
                    await self._gateway_message(session, json.loads(msg.data.decode()))
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            self.sessions.remove(session)
            await self._notify()
        return ws

    async def _gateway_message(self, session: _GatewaySession, message: dict[str, Any]) -> None:
        op = message.get("op")
        data: Any = message.get("d")
        if op == 1:  # HEARTBEAT
            session.heartbeats += 1
            self.heartbeats_received += 1
            if self.ack_heartbeats:
                await session.send(11, None)
                self.heartbeat_acks_sent += 1
        elif op == 2:  # IDENTIFY
            self.identify_payloads.append(data)
            shard = data.get("shard") or [0, 1]
            session.shard = (int(shard[0]), int(shard[1]))
            self._shards_by_session_id[session.session_id] = session.shard
            await self._send_ready(session)
        elif op == 6:  # RESUME: always accepted (missed events are not replayed)
            self.resumes += 1
            session.session_id = data.get("session_id", session.session_id)
            session.shard = self._shards_by_session_id.get(session.session_id, session.shard)
            session.seq = int(data.get("seq") or 0)
            session.identified = True
            await session.send(0, {}, "RESUMED")
        elif op == 8:  # REQUEST_GUILD_MEMBERS (only with the members intent)
            guild = self.guilds.get(int(data["guild_id"]))
            if guild is not None:
                chunk = {
                    "guild_id": str(guild.id),
                    "members": [guild.member_payload(m) for m in guild.members.values()],
                    "chunk_index": 0,
                    "chunk_count": 1,
                }
                if data.get("nonce"):
                    chunk["nonce"] = data["nonce"]
                await session.send(0, chunk, "GUILD_MEMBERS_CHUNK")
        # op 3 (presence) and 4 (voice) need no answer.
        await self._notify()

    async def _send_ready(self, session: _GatewaySession) -> None:
        ready = {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
            # Real Discord lists guilds as unavailable in READY and streams GUILD_CREATE after;
            # discord.py holds on_ready until they have all arrived.
            "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds if session.receives(g)],
            "session_id": session.session_id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "shard": list(session.shard),
        }
        await session.send(0, ready, "READY")
        for guild in self.guilds.values():
            if session.receives(guild.id):
                await session.send(0, guild.payload(), "GUILD_CREATE")
        session.identified = True

    # ------------------------------------------------------------------ interactions

    def _interaction_base(
        self, type_: int, user: FakeUser, channel: FakeChannel, data: dict[str, Any]
    ) -> FakeInteraction:
        interaction_id = self.snowflakes.next()
        token = "fake-" + secrets.token_urlsafe(24)
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": type_,
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {},
            "attachment_size_limit": 10 * 1024 * 1024,  # discord.py 2.7 requires this field
        }
        if channel.guild_id is not None:
            guild = self.guilds[channel.guild_id]
            if user.id not in guild.members:
                raise ValueError(f"{user.name} is not a member of {guild.name}")
            member = guild.member_payload(user)
            member["permissions"] = _ALL_PERMISSIONS
            payload.update(
                guild_id=str(guild.id),
                member=member,
                guild_locale="en-US",
                app_permissions=_SERVER_PERMISSIONS,
                context=0,
            )
        else:
            payload.update(user=user.payload(), app_permissions="0", context=1)
        interaction = FakeInteraction(
            id=interaction_id, token=token, payload=payload, fake=self, channel_id=channel.id
        )
        self.interactions[interaction_id] = interaction
        self._interactions_by_token[token] = interaction
        return interaction

    def _find_command(self, name: str, guild_id: int | None) -> tuple[dict[str, Any] | None, int | None]:
        if guild_id is not None:
            for command in self.guild_commands.get(guild_id, []):
                if command["name"] == name and command.get("type", 1) == 1:
                    return command, guild_id
        for command in self.global_commands:
            if command["name"] == name and command.get("type", 1) == 1:
                return command, None
        return None, None

    def _build_options(
        self,
        spec: dict[str, Any] | None,
        options: Mapping[str, Any],
        resolved: dict[str, Any],
        guild: FakeGuild | None,
    ) -> list[dict[str, Any]]:
        declared = {o["name"]: o for o in (spec or {}).get("options", [])}
        built = []
        for name, value in options.items():
            option_type = declared.get(name, {}).get("type")
            if isinstance(value, FakeUser):
                option_type = _OPTION_USER
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                if guild is not None and value.id in guild.members:
                    resolved.setdefault("members", {})[str(value.id)] = guild.member_payload(
                        value, with_user=False
                    )
                value = str(value.id)
            elif option_type is None:
                if isinstance(value, bool):
                    option_type = _OPTION_BOOLEAN
                elif isinstance(value, int):
                    option_type = _OPTION_INTEGER
                elif isinstance(value, float):
                    option_type = _OPTION_NUMBER
                else:
                    option_type = _OPTION_STRING
            built.append({"name": name, "type": option_type, "value": value})
        return built

    def _command_data(
        self, channel: FakeChannel, command: str, options: Mapping[str, Any], focused: str | None = None
    ) -> dict[str, Any]:
        """The ``data`` of an APPLICATION_COMMAND(_AUTOCOMPLETE) interaction."""
        path = command.split()
        guild = self.guilds.get(channel.guild_id) if channel.guild_id is not None else None
        spec, command_guild_id = self._find_command(path[0], guild.id if guild else None)
        resolved: dict[str, Any] = {}
        node = spec
        for sub in path[1:]:
            node = next((o for o in (node or {}).get("options", []) if o.get("name") == sub), None)
        leaf_options = self._build_options(node, options, resolved, guild)
        for option in leaf_options:
            if option["name"] == focused:
                option["focused"] = True
        # Nest subcommand groups / subcommands from the inside out.
        for depth in range(len(path) - 1, 0, -1):
            kind = _OPTION_SUB_COMMAND if depth == len(path) - 1 else _OPTION_SUB_COMMAND_GROUP
            leaf_options = [{"name": path[depth], "type": kind, "options": leaf_options}]
        data: dict[str, Any] = {
            "id": str(spec["id"]) if spec else str(self.snowflakes.next()),
            "name": path[0],
            "type": 1,
            "options": leaf_options,
        }
        if resolved:
            data["resolved"] = resolved
        if command_guild_id is not None:
            data["guild_id"] = str(command_guild_id)
        return data

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: Mapping[str, Any] | None = None,
    ) -> FakeInteraction:
        """Inject INTERACTION_CREATE for ``/command`` ("game new" = subcommand ``new`` of ``game``).

        Option types come from the synced command when there is one, else from the Python
        type of each value; a FakeUser value becomes a USER option with ``resolved`` data.
        """
        data = self._command_data(channel, command, options or {})
        interaction = self._interaction_base(INTERACTION_APPLICATION_COMMAND, user, channel, data)
        interaction.shards = await self.dispatch("INTERACTION_CREATE", interaction.payload)
        return interaction

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: Mapping[str, Any],
        focused: str,
    ) -> FakeInteraction:
        """Inject an autocomplete request while ``focused`` is being typed (its partial value in
        ``options``). The bot answers with callback type 8: ``callback.json["data"]["choices"]``."""
        data = self._command_data(channel, command, options, focused=focused)
        interaction = self._interaction_base(INTERACTION_AUTOCOMPLETE, user, channel, data)
        interaction.shards = await self.dispatch("INTERACTION_CREATE", interaction.payload)
        return interaction

    def _message_for(self, message: dict[str, Any] | int) -> dict[str, Any]:
        message_id = message if isinstance(message, int) else int(message["id"])
        return self.messages[message_id]

    async def click(self, user: FakeUser, message: dict[str, Any] | int, custom_id: str) -> FakeInteraction:
        """Inject a button click on a message the bot sent (by the button's custom_id)."""
        stored = self._message_for(message)
        channel = self.channels[int(stored["channel_id"])]
        data = {"custom_id": custom_id, "component_type": COMPONENT_BUTTON}
        interaction = self._interaction_base(INTERACTION_MESSAGE_COMPONENT, user, channel, data)
        interaction.payload["message"] = stored
        interaction.shards = await self.dispatch("INTERACTION_CREATE", interaction.payload)
        return interaction

    async def select(
        self, user: FakeUser, message: dict[str, Any] | int, custom_id: str, values: Iterable[str]
    ) -> FakeInteraction:
        """Inject a string-select choice (works the same in a guild channel or a DM)."""
        stored = self._message_for(message)
        channel = self.channels[int(stored["channel_id"])]
        data = {"custom_id": custom_id, "component_type": COMPONENT_STRING_SELECT, "values": list(values)}
        interaction = self._interaction_base(INTERACTION_MESSAGE_COMPONENT, user, channel, data)
        interaction.payload["message"] = stored
        interaction.shards = await self.dispatch("INTERACTION_CREATE", interaction.payload)
        return interaction

    # ------------------------------------------------------------------ messages

    def _attachment_payloads(
        self, body: Mapping[str, Any], files: list[UploadedFile], keep: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        by_index = {f"files[{i}]": i for i in range(len(files))}
        described = {str(a.get("id")): a for a in body.get("attachments", []) or []}
        result = list(keep)
        for upload in files:
            index = by_index.get(upload.field_name, 0)
            meta = described.get(str(index), {})
            attachment_id = self.snowflakes.next()
            self.attachments[attachment_id] = upload.data
            url = f"{self.base_url}/attachments/{attachment_id}/{upload.filename}"
            entry = {
                "id": str(attachment_id),
                "filename": upload.filename,
                "size": len(upload.data),
                "url": url,
                "proxy_url": url,
                "content_type": upload.content_type,
            }
            if meta.get("description"):
                entry["description"] = meta["description"]
            result.append(entry)
        return result

    def _create_message(
        self,
        channel_id: int,
        body: Mapping[str, Any],
        files: list[UploadedFile],
        *,
        flags: int | None = None,
        webhook: bool = False,
        interaction: FakeInteraction | None = None,
    ) -> dict[str, Any]:
        channel = self.channels.get(channel_id)
        message_id = self.snowflakes.next()
        message: dict[str, Any] = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": self.bot_user.payload(),
            "content": body.get("content") or "",
            "timestamp": _iso_now(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self._attachment_payloads(body, files, []),
            "embeds": list(body.get("embeds") or []),
            "components": list(body.get("components") or []),
            "pinned": False,
            "type": 0,
            "flags": int(body.get("flags") or 0) if flags is None else flags,
            "nonce": body.get("nonce"),
        }
        if channel is not None and channel.guild_id is not None:
            message["guild_id"] = str(channel.guild_id)
        if webhook:
            message["webhook_id"] = str(self.application_id)
        if interaction is not None:
            actor = interaction.payload.get("member", {}).get("user") or interaction.payload.get("user")
            message["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.payload["type"],
                "user": actor,
                "authorizing_integration_owners": {},
            }
            if message["type"] == 0 and interaction.payload["type"] == INTERACTION_APPLICATION_COMMAND:
                message["type"] = 20  # CHAT_INPUT_COMMAND
        self.messages[message_id] = message
        self._channel_message_ids.setdefault(int(message["channel_id"]), {})[message_id] = None
        return message

    def _edit_message(
        self, message: dict[str, Any], body: Mapping[str, Any], files: list[UploadedFile]
    ) -> dict[str, Any]:
        for key in ("content", "embeds", "components"):
            if key in body:
                message[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if "flags" in body and body["flags"] is not None:
            # Only SUPPRESS_EMBEDS may change on edit; LOADING clears when content arrives.
            message["flags"] = (message["flags"] & ~FLAG_LOADING) | (int(body["flags"]) & 4)
        if "attachments" in body or files:
            keep_ids = {str(a.get("id")) for a in body.get("attachments", []) or []}
            keep = [a for a in message["attachments"] if a["id"] in keep_ids]
            message["attachments"] = self._attachment_payloads(body, files, keep)
        message["flags"] &= ~FLAG_LOADING
        message["edited_timestamp"] = _iso_now()
        return message

    # ------------------------------------------------------------------ REST

    async def _read_body(self, request: web.Request) -> tuple[Any, list[UploadedFile]]:
        content_type = request.headers.get("Content-Type", "")
        if content_type.startswith("multipart/"):
            body: Any = None
            files: list[UploadedFile] = []
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                data = await part.read()  # type: ignore[union-attr]
                name = part.name or ""  # type: ignore[union-attr]
                if name == "payload_json":
                    body = json.loads(data)
                elif part.filename:  # type: ignore[union-attr]
                    files.append(
                        UploadedFile(
                            field_name=name,
                            filename=part.filename,  # type: ignore[union-attr]
                            content_type=part.headers.get("Content-Type", "application/octet-stream"),
                            data=bytes(data),
                        )
                    )
            return body, files
        raw = await request.read()
        if not raw:
            return None, []
        try:
            return json.loads(raw), []
        except ValueError:
            return raw.decode(errors="replace"), []

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body, files = await self._read_body(request)
        record = RecordedRequest(
            index=len(self.requests),
            method=request.method,
            path=path,
            query=dict(request.query),
            headers={k.lower(): v for k, v in request.headers.items()},
            json=body,
            files=files,
        )
        self.requests.append(record)
        stall = next((st for st in self._stalls if st.method == record.method
                      and fnmatch.fnmatchcase(record.path, st.path_glob)
                      and st.containing in json.dumps(body, ensure_ascii=False)), None)
        if stall is not None:
            stall.received.append(record)
            await self._notify()
            await stall.released.wait()
            record.status = 503
            await self._notify()
            return _error(503, 0, "stalled by the test and dropped")
        admission = self.ratelimits.admit(record.method, record.path)
        if admission.allowed:
            response = self._injected_error(record) or self._route(record)
            response.headers.update(admission.headers)
        else:
            response = _json_response(admission.body(), status=429)
            response.headers.update(admission.headers)
        self.ratelimits.observe(response.status, admission.scope)
        record.status = response.status
        if isinstance(response, web.Response) and response.body is not None and response.status != 204:
            with contextlib.suppress(ValueError, TypeError):
                record.response = json.loads(response.body)  # type: ignore[arg-type]
        if response.status == 404 and record.response == _NOT_FOUND:
            self.unhandled.append(record)
            log.warning("fake Discord has no route for %s %s", record.method, record.path)
        await self._notify()
        if self.response_delay:
            await asyncio.sleep(self.response_delay)
        return response

    def _injected_error(self, record: RecordedRequest) -> web.Response | None:
        for error in self._errors:
            if error.method == record.method and fnmatch.fnmatchcase(record.path, error.path_glob):
                if error.remaining is not None:
                    error.remaining -= 1
                    if error.remaining <= 0:
                        self._errors.remove(error)
                return _error(error.status, error.code, error.message)
        return None

    def _route(self, r: RecordedRequest) -> web.Response:
        for method, pattern, handler in self._routes():
            if method != r.method:
                continue
            match = re.fullmatch(pattern, r.path)
            if match:
                return handler(r, *match.groups())
        return _json_response(_NOT_FOUND, status=404)

    def _routes(self) -> list[tuple[str, str, Callable[..., web.Response]]]:
        snowflake = r"(\d+)"
        token = r"([^/]+)"
        return [
            ("GET", r"/gateway", lambda r: _json_response({"url": self.gateway_url})),
            ("GET", r"/gateway/bot", self._get_gateway_bot),
            ("GET", r"/users/@me", lambda r: _json_response(self.bot_user.payload())),
            ("GET", r"/oauth2/applications/@me", self._get_application),
            ("GET", r"/applications/@me", self._get_application),
            ("GET", rf"/users/{snowflake}", self._get_user),
            ("POST", r"/users/@me/channels", self._create_dm),
            ("GET", rf"/applications/{snowflake}/commands", lambda r, a: self._get_commands(None)),
            ("PUT", rf"/applications/{snowflake}/commands", lambda r, a: self._put_commands(r, None)),
            ("POST", rf"/applications/{snowflake}/commands", lambda r, a: self._upsert_command(r, None)),
            (
                "GET",
                rf"/applications/{snowflake}/guilds/{snowflake}/commands",
                lambda r, a, g: self._get_commands(int(g)),
            ),
            (
                "PUT",
                rf"/applications/{snowflake}/guilds/{snowflake}/commands",
                lambda r, a, g: self._put_commands(r, int(g)),
            ),
            (
                "POST",
                rf"/applications/{snowflake}/guilds/{snowflake}/commands",
                lambda r, a, g: self._upsert_command(r, int(g)),
            ),
            ("POST", rf"/interactions/{snowflake}/{token}/callback", self._interaction_callback),
            ("GET", rf"/channels/{snowflake}", self._get_channel),
            ("POST", rf"/channels/{snowflake}/messages", self._post_channel_message),
            ("GET", rf"/channels/{snowflake}/messages/{snowflake}", self._get_channel_message),
            ("PATCH", rf"/channels/{snowflake}/messages/{snowflake}", self._patch_channel_message),
            ("DELETE", rf"/channels/{snowflake}/messages/{snowflake}", self._delete_channel_message),
            ("POST", rf"/channels/{snowflake}/typing", lambda r, c: web.Response(status=204)),
            ("GET", rf"/guilds/{snowflake}/members/{snowflake}", self._get_member),
            ("POST", rf"/webhooks/{snowflake}/{token}", self._post_followup),
            ("GET", rf"/webhooks/{snowflake}/{token}/messages/([^/]+)", self._get_webhook_message),
            ("PATCH", rf"/webhooks/{snowflake}/{token}/messages/([^/]+)", self._patch_webhook_message),
            ("DELETE", rf"/webhooks/{snowflake}/{token}/messages/([^/]+)", self._delete_webhook_message),
        ]

    def _get_gateway_bot(self, r: RecordedRequest) -> web.Response:
        return _json_response(
            {
                "url": self.gateway_url,
                "shards": self.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    def _get_application(self, r: RecordedRequest) -> web.Response:
        return _json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "description": "Dragon Tavern (fake Discord)",
                "icon": None,
                "bot_public": False,
                "bot_require_code_grant": False,
                "owner": self.owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "summary": "",
                "bot": self.bot_user.payload(),
            }
        )

    def _get_user(self, r: RecordedRequest, user_id: str) -> web.Response:
        user = self.users.get(int(user_id))
        if user is None:
            return _error(404, 10013, "Unknown User")
        return _json_response(user.payload())

    def _get_member(self, r: RecordedRequest, guild_id: str, user_id: str) -> web.Response:
        guild = self.guilds.get(int(guild_id))
        if guild is None or int(user_id) not in guild.members:
            return _error(404, 10007, "Unknown Member")
        return _json_response(guild.member_payload(guild.members[int(user_id)]))

    def _create_dm(self, r: RecordedRequest) -> web.Response:
        recipient = self.users.get(int((r.json or {}).get("recipient_id", 0)))
        if recipient is None:
            return _error(400, 50033, "Invalid Recipient(s)")
        return _json_response(self.dm_channel_for(recipient).payload())

    def _command_payload(
        self, spec: Mapping[str, Any], guild_id: int | None, existing: list[dict[str, Any]]
    ) -> dict[str, Any]:
        previous = next(
            (c for c in existing if c["name"] == spec["name"] and c.get("type", 1) == spec.get("type", 1)),
            None,
        )
        command = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            **spec,
            "id": previous["id"] if previous else str(self.snowflakes.next()),
            "application_id": str(self.application_id),
            "version": str(self.snowflakes.next()),
        }
        if guild_id is not None:
            command["guild_id"] = str(guild_id)
        return command

    def _get_commands(self, guild_id: int | None) -> web.Response:
        commands = self.global_commands if guild_id is None else self.guild_commands.get(guild_id, [])
        return _json_response(commands)

    def _put_commands(self, r: RecordedRequest, guild_id: int | None) -> web.Response:
        if guild_id is not None and guild_id not in self.guilds:
            return _error(403, 50001, "Missing Access")
        existing = self.global_commands if guild_id is None else self.guild_commands.get(guild_id, [])
        commands = [self._command_payload(spec, guild_id, existing) for spec in r.json or []]
        if guild_id is None:
            self.global_commands = commands
        else:
            self.guild_commands[guild_id] = commands
        return _json_response(commands)

    def _upsert_command(self, r: RecordedRequest, guild_id: int | None) -> web.Response:
        existing = self.global_commands if guild_id is None else self.guild_commands.setdefault(guild_id, [])
        command = self._command_payload(r.json or {}, guild_id, existing)
        existing[:] = [c for c in existing if c["id"] != command["id"]] + [command]
        return _json_response(command, status=201)

    def _get_channel(self, r: RecordedRequest, channel_id: str) -> web.Response:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        return _json_response(channel.payload())

    def _post_channel_message(self, r: RecordedRequest, channel_id: str) -> web.Response:
        if int(channel_id) not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        body = r.json if isinstance(r.json, dict) else {}
        if not (
            body.get("content")
            or body.get("embeds")
            or body.get("components")
            or r.files
            or body.get("sticker_ids")
        ):
            return _error(400, 50006, "Cannot send an empty message")
        if body.get("enforce_nonce") and body.get("nonce"):  # Discord answers with the earlier message
            for earlier in self.channel_messages(int(channel_id)):
                if earlier.get("nonce") == body["nonce"]:
                    return _json_response(earlier)
        return _json_response(self._create_message(int(channel_id), body, r.files))

    def _get_channel_message(self, r: RecordedRequest, channel_id: str, message_id: str) -> web.Response:
        message = self.messages.get(int(message_id))
        if message is None or message["channel_id"] != channel_id:
            return _error(404, 10008, "Unknown Message")
        return _json_response(message)

    def _patch_channel_message(self, r: RecordedRequest, channel_id: str, message_id: str) -> web.Response:
        message = self.messages.get(int(message_id))
        if message is None or message["channel_id"] != channel_id:
            return _error(404, 10008, "Unknown Message")
        self.message_edits.append(r)
        return _json_response(self._edit_message(message, r.json or {}, r.files))

    def _delete_channel_message(self, r: RecordedRequest, channel_id: str, message_id: str) -> web.Response:
        message = self.messages.get(int(message_id))
        if message is None or message["channel_id"] != channel_id:
            return _error(404, 10008, "Unknown Message")
        self._forget_message(int(message_id))
        return web.Response(status=204)

    def _interaction_callback(self, r: RecordedRequest, interaction_id: str, token: str) -> web.Response:
        interaction = self.interactions.get(int(interaction_id))
        if interaction is None or interaction.token != token:
            return _error(404, 10062, "Unknown interaction")
        if interaction.callbacks:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        late = time.monotonic() - interaction.created
        if self.callback_deadline is not None and late > self.callback_deadline:
            log.warning("interaction %s answered after %.1f s: 10062", interaction.id, late)
            return _error(404, 10062, "Unknown interaction")
        interaction.callbacks.append(r)
        body = r.json if isinstance(r.json, dict) else {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        message: dict[str, Any] | None = None
        if kind in (CALLBACK_CHANNEL_MESSAGE, CALLBACK_DEFERRED_CHANNEL_MESSAGE):
            flags = int(data.get("flags") or 0)
            if kind == CALLBACK_DEFERRED_CHANNEL_MESSAGE:
                flags |= FLAG_LOADING
            message = self._create_message(
                interaction.channel_id, data, r.files, flags=flags, webhook=True, interaction=interaction
            )
            interaction.original_message_id = int(message["id"])
        elif kind == CALLBACK_UPDATE_MESSAGE and "message" in interaction.payload:
            message = self._edit_message(
                self.messages[int(interaction.payload["message"]["id"])], data, r.files
            )
            interaction.original_message_id = int(message["id"])
        elif kind == CALLBACK_DEFERRED_UPDATE_MESSAGE and "message" in interaction.payload:
            interaction.original_message_id = int(interaction.payload["message"]["id"])
        response: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.payload["type"],
                "response_message_id": message["id"] if message else None,
                "response_message_loading": kind == CALLBACK_DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(message and message["flags"] & FLAG_EPHEMERAL),
            },
            "resource": {"type": kind},
        }
        if message is not None:
            response["resource"]["message"] = message
        return _json_response(response)

    def _webhook_interaction(self, app_id: str, token: str) -> FakeInteraction | None:
        interaction = self._interactions_by_token.get(token)
        if interaction is None or app_id != str(self.application_id):
            return None
        return interaction

    def _post_followup(self, r: RecordedRequest, app_id: str, token: str) -> web.Response:
        interaction = self._webhook_interaction(app_id, token)
        if interaction is None:
            return _error(404, 10015, "Unknown Webhook")
        if not interaction.callbacks:
            return _error(404, 10015, "Unknown Webhook")  # Discord: no followups before a response
        body = r.json if isinstance(r.json, dict) else {}
        original = interaction.original_message
        if original is not None and original["flags"] & FLAG_LOADING:
            # As Discord documents: after a deferred "thinking" response the first followup
            # replaces the loading placeholder (same message id, placeholder's ephemerality).
            message = self._edit_message(original, body, r.files)
        else:
            message = self._create_message(
                interaction.channel_id, body, r.files, webhook=True, interaction=interaction
            )
        interaction.followups.append(message)
        return _json_response(message)

    def _resolve_webhook_message(
        self, interaction: FakeInteraction, message_ref: str
    ) -> dict[str, Any] | None:
        if message_ref == "@original":
            return interaction.original_message
        return self.messages.get(int(message_ref)) if message_ref.isdigit() else None

    def _get_webhook_message(self, r: RecordedRequest, app_id: str, token: str, ref: str) -> web.Response:
        interaction = self._webhook_interaction(app_id, token)
        message = self._resolve_webhook_message(interaction, ref) if interaction else None
        if message is None:
            return _error(404, 10008, "Unknown Message")
        return _json_response(message)

    def _patch_webhook_message(self, r: RecordedRequest, app_id: str, token: str, ref: str) -> web.Response:
        interaction = self._webhook_interaction(app_id, token)
        message = self._resolve_webhook_message(interaction, ref) if interaction else None
        if interaction is None or message is None:
            return _error(404, 10008, "Unknown Message")
        if ref == "@original":
            interaction.original_edits.append(r)
        self.message_edits.append(r)
        return _json_response(self._edit_message(message, r.json or {}, r.files))

    def _delete_webhook_message(self, r: RecordedRequest, app_id: str, token: str, ref: str) -> web.Response:
        interaction = self._webhook_interaction(app_id, token)
        message = self._resolve_webhook_message(interaction, ref) if interaction else None
        if message is None:
            return _error(404, 10008, "Unknown Message")
        self._forget_message(int(message["id"]))
        return web.Response(status=204)

    def _forget_message(self, message_id: int) -> None:
        message = self.messages.pop(message_id)
        self._channel_message_ids.get(int(message["channel_id"]), {}).pop(message_id, None)

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        data = self.attachments.get(int(request.match_info["attachment_id"]))
        if data is None:
            return web.Response(status=404)
        return web.Response(body=data, content_type="application/octet-stream")

    # ------------------------------------------------------------------ control API (standalone use)

    async def _control(self, request: web.Request) -> web.Response:
        """JSON control API for a test that drives a standalone fake from another process.

        GET  /_fake/state                  ids of the bot, guilds, channels, users; counters
        GET  /_fake/requests?since=N       the request log (files as name/size/sha256)
        GET  /_fake/ratelimits             requests by kind and route, 429s, invalid requests
        GET  /_fake/messages?channel_id=C  stored messages (all when channel_id is absent)
        POST /_fake/guilds                 {"name", "channels": [names], "members": [names]}
        POST /_fake/interactions           {"kind": "slash"|"autocomplete"|"button"|"select",
                                            "user_id", "channel_id" (slash, autocomplete),
                                            "command", "options", "focused" (autocomplete),
                                            "message_id", "custom_id", "values"}
        GET  /_fake/interactions/{id}      callbacks, followups and original edits so far
        """
        tail = request.match_info["tail"]
        try:
            if request.method == "GET" and tail == "state":
                return _json_response(self._state_summary())
            if request.method == "GET" and tail == "requests":
                since = int(request.query.get("since", 0))
                return _json_response([r.summary() for r in self.requests[since:]])
            if request.method == "GET" and tail == "ratelimits":
                return _json_response(self.ratelimits.summary())
            if request.method == "GET" and tail == "messages":
                channel_id = request.query.get("channel_id")
                messages = (
                    self.channel_messages(int(channel_id)) if channel_id else list(self.messages.values())
                )
                return _json_response(messages)
            if request.method == "POST" and tail == "guilds":
                spec = await request.json()
                guild = self.create_guild(spec.get("name", "Dragon Tavern Test"))
                for name in spec.get("channels", ["games"]):
                    guild.create_text_channel(name)
                for name in spec.get("members", []):
                    guild.add_member(self.create_user(name))
                if any(s.identified for s in self.sessions):
                    await self.announce_guild(guild)
                return _json_response(self._state_summary())
            if request.method == "POST" and tail == "interactions":
                return _json_response(await self._control_interaction(await request.json()))
            if request.method == "GET" and tail.startswith("interactions/"):
                interaction = self.interactions[int(tail.split("/", 1)[1])]
                return _json_response(
                    {
                        "id": str(interaction.id),
                        "callbacks": [c.summary() for c in interaction.callbacks],
                        "followups": interaction.followups,
                        "original_message": interaction.original_message,
                        "original_edits": [e.summary() for e in interaction.original_edits],
                    }
                )
        except (KeyError, ValueError, RuntimeError) as exc:
            return _json_response({"error": repr(exc)}, status=400)
        return _json_response({"error": f"unknown control route {request.method} {tail}"}, status=404)

    async def _control_interaction(self, spec: Mapping[str, Any]) -> dict[str, Any]:
        user = self.users[int(spec["user_id"])]
        kind = spec["kind"]
        if kind == "slash":
            interaction = await self.slash(
                user, self.channels[int(spec["channel_id"])], spec["command"], spec.get("options")
            )
        elif kind == "autocomplete":
            interaction = await self.autocomplete(
                user,
                self.channels[int(spec["channel_id"])],
                spec["command"],
                spec["options"],
                spec["focused"],
            )
        elif kind == "button":
            interaction = await self.click(user, int(spec["message_id"]), spec["custom_id"])
        elif kind == "select":
            interaction = await self.select(user, int(spec["message_id"]), spec["custom_id"], spec["values"])
        else:
            raise ValueError(f"unknown interaction kind {kind!r}")
        return {"id": str(interaction.id), "token": interaction.token}

    def _state_summary(self) -> dict[str, Any]:
        return {
            "base_url": self.base_url,
            "application_id": str(self.application_id),
            "bot_user_id": str(self.bot_user.id),
            "connected_sessions": sum(1 for s in self.sessions if s.identified),
            "identifies": len(self.identify_payloads),
            "heartbeats_received": self.heartbeats_received,
            "heartbeat_acks_sent": self.heartbeat_acks_sent,
            "requests": len(self.requests),
            "users": {str(u.id): u.name for u in self.users.values()},
            "guilds": {
                str(g.id): {
                    "name": g.name,
                    "channels": {str(c.id): c.name for c in g.channels},
                    "members": [str(m) for m in g.members],
                }
                for g in self.guilds.values()
            },
            "global_commands": [c["name"] for c in self.global_commands],
            "guild_commands": {str(g): [c["name"] for c in cs] for g, cs in self.guild_commands.items()},
        }


_NOT_FOUND = {"message": "404: Not Found", "code": 0}


# --------------------------------------------------------------------------- standalone


async def _serve(args: argparse.Namespace) -> None:
    fake = FakeDiscord(host=args.host, port=args.port, heartbeat_interval_ms=args.heartbeat_ms,
                       enforce_rate_limits=args.enforce_rate_limits)
    if args.guild:
        guild = fake.create_guild(args.guild)
        for name in args.channel or ["games"]:
            guild.create_text_channel(name)
        for name in args.member or []:
            guild.add_member(fake.create_user(name))
    async with fake:
        # One JSON line on stdout, so a parent process can read the port and the ids.
        print(json.dumps(fake._state_summary()), flush=True)
        await asyncio.Event().wait()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Loopback fake Discord for Dragon Tavern wire tests.")
    parser.add_argument("--host", default="127.0.0.1", choices=sorted(LOOPBACK_HOSTS))
    parser.add_argument("--port", type=int, default=0, help="0 = pick a free port (printed on stdout)")
    parser.add_argument("--heartbeat-ms", type=int, default=41250)
    parser.add_argument(
        "--guild", default="Dragon Tavern Test", help="create this guild at start ('' = none)"
    )
    parser.add_argument("--channel", action="append", help="text channel to create (repeatable)")
    parser.add_argument("--member", action="append", help="member to create (repeatable)")
    parser.add_argument("--enforce-rate-limits", action="store_true",
                        help="answer 429 over Discord's documented limits (tests/wire/ratelimits.py)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(args))


if __name__ == "__main__":
    main()
