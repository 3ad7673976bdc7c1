"""The fake's rate limiter (tests/wire/ratelimits.py) on a hand-driven clock, and once over the
wire: discord.py's own client retries a 429 after ``retry_after``."""

from __future__ import annotations

import asyncio

import aiohttp

from tests.wire.fake_discord import FakeDiscord
from tests.wire.ratelimits import BOT, INTERACTION, INVALID_BAN_LIMIT, RateLimits, classify


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def limiter(enforce: bool = True) -> tuple[RateLimits, Clock]:
    clock = Clock()
    return RateLimits(enforce=enforce, clock=clock, wall=lambda: 1_700_000_000.0 + clock.now), clock


def test_interaction_endpoints_are_outside_the_global_limit():
    assert classify("POST", "/interactions/1/tok/callback")[0].interaction
    assert classify("POST", "/webhooks/9/tok")[0].interaction
    assert classify("PATCH", "/webhooks/9/tok/messages/@original")[0].interaction
    assert not classify("POST", "/channels/5/messages")[0].interaction
    assert not classify("POST", "/users/@me/channels")[0].interaction


def test_global_bucket_refuses_the_51st_request_in_a_second_and_says_so():
    limits, clock = limiter()
    channels = [f"/channels/{c}/messages/{c}" for c in range(100)]  # 100 different per-route buckets
    answers = [limits.admit("PATCH", path) for path in channels[:50]]
    assert all(a.allowed for a in answers)
    refused = limits.admit("PATCH", channels[50])
    assert not refused.allowed and refused.is_global and refused.scope == "global"
    assert (
        refused.headers["X-RateLimit-Global"] == "true" and refused.headers["X-RateLimit-Scope"] == "global"
    )
    assert refused.body()["global"] is True and 0 < refused.body()["retry_after"] <= 1.0
    limits.observe(429, refused.scope)
    # Interactions still go through while the global bucket is empty.
    assert limits.admit("POST", "/interactions/7/tok/callback").allowed
    assert limits.admit("POST", "/webhooks/9/tok").allowed
    clock.now += 1.0
    assert limits.admit("PATCH", channels[51]).allowed
    assert limits.rate_limited == limits.rate_limited_global == 1
    assert limits.snapshot().rate_limited_by == {"global": 1}
    assert limits.requests_outside_interactions() == 52 and limits.requests_to_interactions() == 2
    assert limits.invalid_requests() == 1


def test_five_messages_per_five_seconds_per_channel_with_headers():
    limits, clock = limiter()
    first = limits.admit("POST", "/channels/5/messages")
    assert first.headers["X-RateLimit-Limit"] == "5" and first.headers["X-RateLimit-Remaining"] == "4"
    assert first.headers["X-RateLimit-Reset-After"] == "5.000"
    assert float(first.headers["X-RateLimit-Reset"]) == 1_700_000_000.0 + clock.now + 5
    assert first.headers["X-RateLimit-Bucket"]
    for _ in range(4):
        clock.now += 0.5
        assert limits.admit("POST", "/channels/5/messages").allowed
    assert limits.admit("POST", "/channels/6/messages").allowed  # another channel: its own bucket
    refused = limits.admit("POST", "/channels/5/messages")
    assert not refused.allowed and not refused.is_global and refused.scope == "user"
    assert "X-RateLimit-Global" not in refused.headers and refused.headers["X-RateLimit-Remaining"] == "0"
    assert refused.retry_after == 3.0  # the window opened 2 s ago
    clock.now += 3.0
    assert limits.admit("POST", "/channels/5/messages").headers["X-RateLimit-Remaining"] == "4"
    assert limits.by_route()["POST /channels/{channel_id}/messages"] == 8  # refused ones count too


def test_edits_and_deletes_share_no_bucket_with_sends():
    limits, _ = limiter()
    for _ in range(5):
        assert limits.admit("POST", "/channels/5/messages").allowed
    assert limits.admit("PATCH", "/channels/5/messages/9").allowed
    assert limits.admit("DELETE", "/channels/5/messages/9").allowed


def test_not_enforcing_counts_but_never_refuses_and_sends_no_headers():
    limits, _ = limiter(enforce=False)
    answers = [limits.admit("POST", "/channels/5/messages") for _ in range(200)]
    assert all(a.allowed and not a.headers for a in answers)
    assert limits.rate_limited == 0 and limits.kinds == {BOT: 200}
    assert limits.peak_outside_per_second() == 200


def test_invalid_requests_are_counted_over_ten_minutes_against_the_ban_limit():
    limits, clock = limiter()
    for status in (401, 403, 429, 404, 400, 200):
        limits.observe(status)
    limits.observe(429, "shared")  # Discord does not count shared-scope 429s
    assert limits.invalid_requests() == 3
    clock.now += 601
    assert limits.invalid_requests() == 0 and limits.invalid_peak == 3
    for _ in range(INVALID_BAN_LIMIT):
        limits.observe(403)
    assert limits.ban_threshold_reached()


def test_snapshots_subtract_to_a_measuring_window():
    limits, _ = limiter()
    limits.admit("POST", "/channels/5/messages")
    before = limits.snapshot()
    limits.admit("POST", "/interactions/1/t/callback")
    limits.admit("PATCH", "/channels/5/messages/3")
    window = limits.snapshot() - before
    assert (
        window.by_kind == {INTERACTION: 1, BOT: 1} and window.outside_interactions == 1 and window.total == 2
    )


async def test_over_the_wire_a_429_has_discords_shape_and_headers():
    async with FakeDiscord(enforce_rate_limits=True) as fake:
        guild = fake.create_guild("Tavern")
        channel = guild.create_text_channel("games")
        url = f"{fake.api_base}/channels/{channel.id}/messages"
        async with aiohttp.ClientSession() as session:
            statuses = []
            for _ in range(6):
                async with session.post(url, json={"content": "hi"}) as response:
                    statuses.append(response.status)
                    last = response
                    body = await response.json()
        assert statuses == [200] * 5 + [429]
        assert last.headers["X-RateLimit-Scope"] == "user" and last.headers["X-RateLimit-Remaining"] == "0"
        assert body["global"] is False and body["retry_after"] > 0
        assert fake.ratelimits.rate_limited == 1 and fake.ratelimits.invalid_requests() == 1


async def test_discord_py_waits_out_the_per_channel_bucket_without_a_429():
    """The unmodified client reads X-RateLimit-Remaining: the 6th and 7th sends to one channel
    wait for the window to reset instead of being refused."""
    import discord

    from tests.wire.patch_client import point_discord_at, restore_real_discord

    async with FakeDiscord(enforce_rate_limits=True) as fake:
        guild = fake.create_guild("Tavern")
        channel = guild.create_text_channel("games")
        point_discord_at(fake.base_url)
        http = discord.http.HTTPClient(asyncio.get_running_loop())
        try:
            await http.static_login("fake-token")
            for n in range(7):
                await http.send_message(
                    channel.id, params=discord.http.handle_message_parameters(content=f"{n}")
                )
        finally:
            await http.close()
            restore_real_discord()
        assert len(fake.channel_messages(channel)) == 7
        assert fake.ratelimits.rate_limited == 0


def test_the_busiest_second_and_what_it_was_made_of():
    limits, clock = limiter(enforce=False)
    limits.admit("POST", "/channels/5/messages")
    clock.now += 1
    for _ in range(3):
        limits.admit("PATCH", "/channels/5/messages/1")
    limits.admit("POST", "/interactions/1/t/callback")  # not counted: outside the global bucket
    assert limits.peak_outside_per_second() == 3
    assert limits.peak_second_routes() == {"PATCH /channels/{channel_id}/messages/{id}": 3}
    assert limits.peak_outside_per_second(since=clock.now + 1) == 0
