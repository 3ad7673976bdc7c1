"""Every Database opened is closed (issue 12 item 13): an aiosqlite connection left open keeps
its worker thread, and with it the process, alive after everything else has finished."""

from __future__ import annotations

import pytest
import simcord

from bench import platform
from bot import create_bot
from cogs.plugins import load_plugins
from storage import Database
from tests.storage.test_guard import aiosqlite_threads


async def test_no_database_thread_is_left_after_the_bot_closes(tmp_path):
    before = aiosqlite_threads()
    bot = create_bot(database_path=tmp_path / "bot.sqlite3")
    async with simcord.run(bot) as env:
        guild = env.create_guild()
        alice = guild.add_member(env.create_user("alice"))
        await alice.slash(guild.create_text_channel("games"), "game new", game="tally")
        assert len(aiosqlite_threads(grace=0)) == len(before) + 1
    await bot.close()
    assert aiosqlite_threads() == before
    await bot.close()  # twice is harmless


async def test_a_failing_setup_hook_still_lets_close_stop_the_database(tmp_path, monkeypatch):
    before = aiosqlite_threads()
    bot = create_bot(database_path=tmp_path / "bot.sqlite3")

    async def sync_fails() -> None:
        raise OSError("network down while syncing commands")

    monkeypatch.setattr(bot, "_sync_commands", sync_fails)
    with pytest.raises(OSError):
        await bot.setup_hook()  # what bot.run does; its `async with bot` then calls close()
    await bot.close()
    assert aiosqlite_threads() == before


async def test_check_database_closes_what_it_opens(tmp_path):
    from bot import _check_database

    before = aiosqlite_threads()
    await _check_database(tmp_path / "bot.sqlite3")
    assert aiosqlite_threads() == before


@pytest.mark.parametrize("bench", [
    lambda: platform.throughput(2, 5),
    lambda: platform.throughput(3, 6, in_flight=2),
    lambda: platform.memory_per_game(3),
    lambda: platform.startup(2),
    lambda: platform.bot_round_trip(2),
], ids=["throughput", "throughput-in-flight", "memory", "startup", "round-trip"])
async def test_each_platform_bench_closes_its_databases(bench):

    load_plugins(ui=False)
    before = aiosqlite_threads()
    await bench()
    assert aiosqlite_threads() == before


async def test_a_failure_inside_async_with_closes_the_database(tmp_path):
    before = aiosqlite_threads()
    with pytest.raises(ZeroDivisionError):
        async with await Database.open(tmp_path / "x.sqlite3"):
            raise ZeroDivisionError
    assert aiosqlite_threads() == before
