"""Fixtures for loopback wire tests: a running FakeDiscord and a helper to run a bot against it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import discord
import pytest

from tests.wire.fake_discord import FakeDiscord
from tests.wire.patch_client import point_discord_at, restore_real_discord

# Short heartbeats so the heartbeat test does not wait 41 s; harmless for the others.
HEARTBEAT_MS = 250


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(heartbeat_interval_ms=HEARTBEAT_MS) as server:
        point_discord_at(server.base_url)
        try:
            yield server
        finally:
            restore_real_discord()


@contextlib.asynccontextmanager
async def running(bot: discord.Client, fake: FakeDiscord, token: str = "fake-token") -> AsyncIterator[None]:
    """Run ``bot`` against ``fake`` until the block ends, then close it cleanly.

    ``bot.start`` runs as a task in the test's own loop; on exit the bot is closed (which
    closes its aiohttp session and gateway socket) before the fake stops.
    """
    task = asyncio.create_task(bot.start(token), name="bot.start")
    try:
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({ready, task}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            ready.cancel()
            task.result()  # re-raise whatever made the bot stop
            raise AssertionError("bot stopped before READY")
        if ready not in done:
            ready.cancel()
            raise AssertionError("bot did not become ready within 10 s")
        yield
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout=5)
