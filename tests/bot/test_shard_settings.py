"""SHARD_COUNT / SHARD_IDS / TIMER_POLL_SECONDS: parsed with clear errors, wired to the bot."""

from __future__ import annotations

import pytest
from discord.ext import commands

from bot import create_bot
from sessions.environment import ConfigError, ShardPlan, load_settings


def settings(**env: str):
    return load_settings({"DISCORD_TOKEN": "t", **env})


def test_no_shard_settings_means_one_plain_connection(tmp_path):
    assert settings().shards is None
    bot = create_bot(database_path=tmp_path / "b.sqlite3")
    assert not isinstance(bot, commands.AutoShardedBot) and bot.timer_poll_seconds == 0


def test_shard_count_alone_runs_every_shard_in_this_process(tmp_path):
    plan = settings(SHARD_COUNT="4").shards
    assert plan == ShardPlan(count=4) and plan.holds_shard_zero
    bot = create_bot(database_path=tmp_path / "b.sqlite3", shards=plan)
    assert isinstance(bot, commands.AutoShardedBot)
    assert bot.shard_count == 4 and bot.shard_ids is None


def test_shard_ids_pick_this_process_s_shards(tmp_path):
    plan = settings(SHARD_COUNT="4", SHARD_IDS=" 3, 2", DATABASE_URL="postgresql://tavern@db/tavern").shards
    assert plan == ShardPlan(count=4, ids=(2, 3)) and not plan.holds_shard_zero
    bot = create_bot(database_path=tmp_path / "b.sqlite3", shards=plan)
    assert isinstance(bot, commands.AutoShardedBot) and bot.shard_ids == [2, 3]


@pytest.mark.parametrize("database", [{}, {"DATABASE_PATH": "games.sqlite3"}, {"DATABASE_URL": "sqlite:///g.sqlite3"}])
def test_shards_split_over_processes_need_postgresql(database):
    # Two processes on one SQLite file would each lock games in their own memory.
    with pytest.raises(ConfigError, match=r"must share one PostgreSQL database.*DATABASE_URL=postgresql://"):
        settings(SHARD_COUNT="2", SHARD_IDS="1", **database)
    # Every shard named: one process after all, SQLite is fine.
    assert settings(SHARD_COUNT="2", SHARD_IDS="1,0", **database).shards == ShardPlan(count=2, ids=(0, 1))


def test_auto_lets_discord_choose_the_count():
    assert settings(SHARD_COUNT="auto").shards == ShardPlan(count=None)


@pytest.mark.parametrize(("env", "message"), [
    ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"SHARD_COUNT": "zero"}, "SHARD_COUNT must be a number from 1"),
    ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a number from 1"),
    ({"SHARD_COUNT": "auto", "SHARD_IDS": "0"}, "needs a fixed SHARD_COUNT"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "0;1"}, "separated by commas"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "from 0 to 1"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "different shards"),
    ({"TIMER_POLL_SECONDS": "often"}, "TIMER_POLL_SECONDS must be"),
    ({"TIMER_POLL_SECONDS": "-1"}, "TIMER_POLL_SECONDS must be"),
])
def test_bad_shard_settings_are_explained(env, message):
    with pytest.raises(ConfigError, match=message):
        settings(**env)


def test_timer_polling_follows_the_database_unless_set(tmp_path):
    assert settings(TIMER_POLL_SECONDS="0.5").timer_poll_seconds == 0.5
    shared = create_bot(database_path="postgresql://tavern@127.0.0.1/tavern")
    assert shared.timer_poll_seconds == 5.0 and shared.database_path == "postgresql://tavern@127.0.0.1/tavern"
    assert create_bot(database_path=tmp_path / "b.sqlite3", timer_poll_seconds=1.0).timer_poll_seconds == 1.0


def test_each_process_paces_at_its_share_of_the_one_global_limit(tmp_path):
    # Discord's 50 requests/s are the bot's (its token's), whatever the number of processes.
    assert settings().global_requests_per_second == 50
    assert settings(SHARD_COUNT="4").global_requests_per_second == 50  # every shard here
    shared = {"DATABASE_URL": "postgresql://tavern@db/tavern"}
    assert settings(SHARD_COUNT="4", SHARD_IDS="3", **shared).global_requests_per_second == 12.5
    assert settings(SHARD_COUNT="4", SHARD_IDS="0,1", **shared).global_requests_per_second == 25
    # An operator's own split (Discord granted more, or the shards are uneven) wins.
    assert settings(SHARD_COUNT="2", SHARD_IDS="0", GLOBAL_REQUESTS_PER_SECOND="30",
                    **shared).global_requests_per_second == 30
    bot = create_bot(database_path=tmp_path / "b.sqlite3", global_requests_per_second=12.5)
    assert bot.requests.pacer.per_second == 10  # the share, less the pacer's headroom (0.8)
    assert create_bot(database_path=tmp_path / "c.sqlite3").requests.pacer.per_second == 40


@pytest.mark.parametrize("value", ["fast", "0", "-5", "1e9"])
def test_a_wrong_global_share_is_refused_clearly(value):
    with pytest.raises(ConfigError, match="GLOBAL_REQUESTS_PER_SECOND must be a number of requests per second"):
        settings(GLOBAL_REQUESTS_PER_SECOND=value)
