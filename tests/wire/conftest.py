"""Fixtures for loopback wire tests: a running FakeDiscord and a helper to run a bot against it;
for the two-process tests, one fresh PostgreSQL database per test on the test run's throw-away
server (tests/storage/postgres_server.py: skips locally with the reason when no server can be
started, fails in CI)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest

from tests.storage.postgres_server import drop_database, fresh_database_url
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


@pytest.fixture
def database_url() -> Iterator[str]:
    """A fresh, migrated, empty PostgreSQL database for one test (dropped afterwards)."""
    url = asyncio.run(fresh_database_url())
    try:
        yield url
    finally:
        asyncio.run(drop_database(url))
