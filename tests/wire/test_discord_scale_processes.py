"""bench.discord_scale --processes: the real bot as two shard processes on one PostgreSQL
database, as a bot of thousands of servers runs: each process holds its shard and paces at its
share of the one global bucket. Whole games over both shards take minutes, so they are a bench,
not a test: `python -m bench.discord_scale --per-move --processes 2` (every request charged to its
server, no 429); games across two processes are tested in test_wire_two_processes.py.

Needs a throw-away PostgreSQL (tests/storage/postgres_server.py): skips locally without one,
fails in CI."""

from __future__ import annotations

import pytest

from bench.discord_scale.harness import running_bot
from tests.storage.postgres_server import server

pytestmark = pytest.mark.postgres


@pytest.fixture(autouse=True)
def postgres() -> None:
    server()  # skips (locally) or fails (CI) saying why when no PostgreSQL can be started


async def test_each_process_runs_its_shard_and_paces_at_half_the_global_limit():
    async with running_bot(enforce=True, processes=2) as (fake, fleet):
        assert len(fleet.pids()) == 2 and fleet.database_url is not None
        assert {shard for bot in fleet.bots for shard in bot.connected_shards()} == {(0, 2), (1, 2)}
        assert [fleet.shard_of(i) for i in range(3)] == [(0, 2), (1, 2), (0, 2)]
        for bot in fleet.bots:
            assert bot.env["SHARD_COUNT"] == "2" and "GLOBAL_REQUESTS_PER_SECOND" not in bot.env
        assert fleet.database_cpu_seconds() > 0  # the PostgreSQL server's CPU is found and counted
