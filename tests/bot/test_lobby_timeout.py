"""Lobbies nobody starts close by themselves (after a restart too), and one member may host
only so many open lobbies: through the real discord.py client against simcord."""

from __future__ import annotations

import re

import discord
import pytest

from bot import create_bot
from sessions.service import LOBBY_TIMER
from tests.bot.helpers import button_labels, last_board, private_replies, texts_of


@pytest.fixture
def world(simcord_env):
    guild = simcord_env.create_guild()
    channels = [guild.create_text_channel(f"games-{i}") for i in range(3)]
    admin_role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob")}
    members["admin"] = guild.add_member(simcord_env.create_user("admin"), roles=[admin_role])
    return simcord_env, guild, channels, members


async def test_an_unstarted_lobby_closes_after_the_timeout_even_across_a_restart(world, db_path):
    env, guild, channels, m = world
    channel = channels[0]
    await m["alice"].slash(channel, "game new", game="tally")
    await m["bob"].click(last_board(channel), label="Join")
    lobby = last_board(channel)
    closes = re.search(r"this lobby closes <t:(\d+):R>", texts_of(lobby))
    assert closes, texts_of(lobby)
    await env.advance_time(1800)
    await env.restart_bot(create_bot(database_path=db_path))  # the closing time is in the database
    await env.advance_time(1799)
    assert "Seats (2/4)" in texts_of(last_board(channel)) and button_labels(last_board(channel))
    await env.advance_time(2)
    closed = last_board(channel)
    assert closed.id == lobby.id  # the lobby message itself says so
    text = texts_of(closed)
    assert "This lobby was cancelled." in text
    assert "⌛ This lobby closed because nobody started it within 1 hour." in text
    assert button_labels(closed) == []
    # Its buttons are dead and the channel is free for a new lobby.
    result = await m["bob"].slash(channel, "game new", game="tally")
    assert result.ephemeral and "Lobby #2" in result.response.content


async def test_starting_in_time_keeps_the_game(world):
    env, guild, channels, m = world
    channel = channels[0]
    await m["alice"].slash(channel, "game new", game="tally", options="target=50")
    await m["bob"].click(last_board(channel), label="Join")
    await env.advance_time(3000)
    await m["alice"].click(last_board(channel), label="Start")
    bot = env.bot
    assert await bot.db.timers.deadline(1, "lobby") is None
    assert (1, LOBBY_TIMER) not in bot.timers._tasks
    await env.advance_time(700)  # past the old closing time (turn timers act meanwhile)
    assert "nobody started it" not in texts_of(last_board(channel))
    assert (await bot.service.db.games.load(1)).status == "active"


async def test_one_member_may_hold_only_so_many_lobbies(world):
    env, guild, channels, m = world
    for channel in channels[:2]:
        await m["alice"].slash(channel, "game new", game="tally")
    third = channels[2]
    before = len(list(third.history()))
    result = await m["alice"].slash(third, "game new", game="tally")
    assert private_replies(result) == [
        f"⚠️ You already host 2 open lobbies in this server, the most one member may hold: "
        f"#1 Tally in <#{channels[0].id}>, #2 Tally in <#{channels[1].id}>. Start one, or close it with its "
        "**Cancel** button (or `/game cancel` in its channel), before opening another."]
    assert len(list(third.history())) == before  # nothing posted, nothing created
    assert await env.bot.service.db.games.active_in_channel(third.id) is None
    # The admin raises the limit with /config; then it opens.
    result = await m["admin"].slash(third, "config set", setting="max_lobbies_per_member", value="3")
    assert private_replies(result) == ["✅ `max_lobbies_per_member` is now **3**."]
    result = await m["alice"].slash(third, "game new", game="tally")
    assert "Lobby #3" in result.response.content
