"""Fixtures for loopback wire tests: a running FakeDiscord and a helper to run a bot against it."""

from __future__ import annotations

from collections.abc import AsyncIterator

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
