"""Invalid requests to Discord are counted, and a request that cannot succeed is not repeated
(issue 25, cogs.requests).

Through simcord (injected errors) for what surfaces from ``http.request``; over a loopback aiohttp
server for the 429 that discord.py's own client waits out (``retry_after``) and retries."""

from __future__ import annotations

import asyncio
import logging

import discord
import pytest
from aiohttp import web

from cogs import requests as ledger_module
from tests.bot.helpers import last_board
from tests.bot.loopback import as_json, loopback_client


@pytest.fixture
def world(simcord_env, simcord_bot):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    return simcord_env, simcord_bot, channel, alice


def sent(env, method: str, path: str) -> int:
    return sum(1 for r in env.http_requests if r.method == method and r.path == path)


async def test_a_deleted_message_is_not_edited_twice(world):
    env, bot, channel, alice = world
    await alice.slash(channel, "game new", game="ninesons")
    board = last_board(channel)
    path = f"/channels/{channel.id}/messages/{board.id}"
    env.inject_error("DELETE", path, status=404, code=10008, message="Unknown Message", times=None)
    message = bot.get_partial_messageable(channel.id).get_partial_message(board.id)
    for _ in range(3):
        with pytest.raises(discord.NotFound):
            await message.delete()
    assert sent(env, "DELETE", path) == 1  # tried once; the two others answered from memory
    with pytest.raises(discord.NotFound):
        await message.edit(content="x")  # an edit of the same gone message: not sent either
    assert sent(env, "PATCH", path) == 0
    assert bot.requests.figures()["avoided"] == 3


async def test_closed_dms_are_tried_once_and_403s_counted(world):
    env, bot, channel, alice = world
    dm = alice.user.dm_channel
    env.inject_error(
        "POST",
        f"/channels/{dm.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    for _ in range(3):
        with pytest.raises(discord.Forbidden):
            await bot.dms.send(alice.id, content="hello")
    assert sent(env, "POST", f"/channels/{dm.id}/messages") == 1
    assert bot.requests.figures()["invalid"] == {403: 1}
    assert not any(r.method == "GET" and r.path.startswith("/users/") for r in env.http_requests)


async def test_invalid_requests_past_the_threshold_log_one_warning(world, monkeypatch, caplog):
    env, bot, channel, alice = world
    monkeypatch.setattr(ledger_module, "WARN_AT", 3)
    env.inject_error(
        "GET", f"/channels/{channel.id}/messages/*", status=429, code=0, message="slow", times=None
    )
    env.inject_error("GET", f"/channels/{channel.id}", status=401, code=0, message="no", times=None)
    with caplog.at_level(logging.WARNING, logger="dragon_tavern.cogs.requests"):
        for i in range(4):
            with pytest.raises(discord.HTTPException):
                await bot.http.get_message(channel.id, 1000 + i)
        with pytest.raises(discord.HTTPException):
            await bot.http.get_channel(channel.id)
    assert bot.requests.figures()["invalid"] == {429: 4, 401: 1}
    assert bot.requests.figures()["in_window"] == 5
    warnings = [r for r in caplog.records if "invalid requests to Discord" in r.getMessage()]
    assert len(warnings) == 1, warnings  # once per 10-minute window, not per request


async def test_the_real_client_waits_out_a_429_and_it_is_counted(monkeypatch):
    """discord.py reads retry_after and retries; the aiohttp trace counts the 429 it hid."""
    calls: list[float] = []
    loop = asyncio.get_running_loop()

    async def channel(request: web.Request) -> web.Response:
        calls.append(loop.time())
        if len(calls) == 1:
            return as_json(
                {"message": "You are being rate limited.", "retry_after": 0.2, "global": False},
                status=429,
                headers={"Via": "1.1 google", "X-RateLimit-Scope": "user"},
            )
        return as_json(
            {"id": "5", "type": 0, "name": "games", "guild_id": "1", "position": 0},
            headers={
                "X-RateLimit-Remaining": "4",
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Reset-After": "1.0",
                "X-RateLimit-Bucket": "b1",
            },
        )

    async with loopback_client({"/channels/5": channel}, monkeypatch) as (http, ledger):
        data = await http.get_channel(5)
    assert data["id"] == "5"
    assert len(calls) == 2 and calls[1] - calls[0] >= 0.19  # retried after retry_after, not before
    assert ledger.figures()["invalid"] == {429: 1}


async def test_a_click_answered_after_discords_3_s_logs_one_line_and_sends_nothing_more(world, caplog):
    """Under overload a click may be answered after Discord's 3 s (10062, the token is gone): no
    reply can reach the member then, so none is tried, and it is one WARNING line, not an
    "unexpected error" traceback (both made an overloaded bot slower still)."""
    env, bot, channel, alice = world
    bob = channel.guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "game new", game="ninesons")
    callbacks = "/interactions/*/*/callback"
    env.inject_error("POST", callbacks, status=404, code=10062, message="Unknown interaction", times=None)
    before = len(env.http_requests)
    with caplog.at_level(logging.WARNING):
        await bob.click(last_board(channel), label="Join")
    tried = [r for r in env.http_requests[before:] if r.path.endswith("/callback")]
    assert len(tried) == 1  # the late answer itself; no second try to report the failure
    assert not [r for r in env.http_requests[before:] if r.path.startswith("/webhooks/")]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    late = [r for r in caplog.records if "after Discord's 3 s" in r.getMessage()]
    assert len(late) == 1 and late[0].exc_info is None


async def test_idle_rate_limit_buckets_are_swept_now_and_then_not_at_every_new_route():
    """discord.py walked all its buckets at each new route once it held 256 (thousands with a
    board per channel); the ledger lets that sweep run once per SWEEP_EVERY seconds, and it
    still forgets the buckets idle for 300 s."""
    now = [1000.0]
    ledger = ledger_module.RequestLedger(clock=lambda: now[0])
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    ledger.install(http)
    walked = []
    real_is_inactive = discord.http.Ratelimit.is_inactive

    def counted(bucket):
        walked.append(1)
        return real_is_inactive(bucket)

    setattr(discord.http.Ratelimit, "is_inactive", counted)  # noqa: B010 (mypy refuses assigning a method)
    try:
        for i in range(1000):
            http.get_ratelimit(f"route {i}")
        assert len(walked) < 2 * 1000  # one sweep of the buckets, not one per new route (~500,000)
        for bucket in list(http._buckets.values())[:900]:
            bucket._last_request -= 301  # idle for longer than discord.py keeps a bucket
        http.get_ratelimit("route a")
        assert len(http._buckets) == 1001  # no sweep before SWEEP_EVERY has passed...
        now[0] += ledger_module.SWEEP_EVERY
        http.get_ratelimit("route b")
        assert len(http._buckets) == 102  # ...then the idle ones are forgotten
    finally:
        setattr(discord.http.Ratelimit, "is_inactive", real_is_inactive)  # noqa: B010
