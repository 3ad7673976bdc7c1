"""Games nobody plays and games played slowly (issue 27, findings 4 and 8), through simcord with
virtual time: a game whose last human seat times out for good is abandoned, not won by the AIs;
turn timeouts reach a week with reminders that fit them; /game mine lists, privately, every
game in which a member must act, in every server, with a link to each board."""

from __future__ import annotations

import discord
import pytest

from tests.bot.helpers import last_board, last_ping, posted_contents, texts_of

DAY = 86400


@pytest.fixture
def world(simcord_env, simcord_bot):
    simcord_bot.service._seed_source = lambda: 22
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    admin_role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob")}
    members["admin"] = guild.add_member(simcord_env.create_user("admin"), roles=[admin_role])
    return simcord_env, simcord_bot, guild, channel, members


def field(message, name: str) -> str:
    data = message.embeds[0].to_dict()
    return next((f["value"] for f in data.get("fields", []) if f["name"] == name), "")


async def start(channel, host, guest, kind: str = "ninesons", options: str = "first_player=first rated=off"):
    await host.slash(channel, "game new", game=kind, options=options)
    await guest.click(last_board(channel), label="Join")
    await host.click(last_board(channel), label="Start")
    return last_board(channel)


# -- finding 4: nobody left at the table ---------------------------------------------------------


async def test_a_game_nobody_plays_is_abandoned_when_the_last_player_times_out_for_good(world):
    env, bot, _guild, channel, m = world
    await m["admin"].slash(channel, "config set", setting="turn_timeout.ninesons", value="60")
    board = await start(channel, m["alice"], m["bob"])
    # alice and bob time out in turn; the third time each, an AI takes the seat.
    for _ in range(5):  # alice 1, bob 1, alice 2, bob 2, alice 3 (an AI takes her seat)
        await env.advance_time(61)
    rec, game = await bot.service.load(1)
    assert rec.status == "active" and [s.is_ai for s in rec.seats] == [True, False]
    # bob's third timeout would leave nobody: his ping and the board say so beforehand.
    assert "then the game is abandoned (no player would be left)" in last_ping(channel).content
    assert "no player would be left" in texts_of(last_board(channel))
    await env.advance_time(61)
    rec, game = await bot.service.load(1)
    assert rec.status == "abandoned" and not game.is_over
    final = last_board(channel)
    assert final.id == board.id
    result = field(final, "Result").splitlines()
    assert result[0] == "⌛ Abandoned: bob timed out 3 times in a row and no player was left."
    assert "won" not in texts_of(final) and "🥇" not in texts_of(final)
    notice = posted_contents(env, channel)[-1]
    assert notice.startswith("🏁 **The Nine Sons of the Dragon** #1 is over: it was abandoned."), notice
    assert "won" not in notice
    assert await bot.service.leaderboard(_guild.id, "ninesons", 0, 10) == []
    assert await bot.service.db.timers(game_id=1) == []  # nothing left to fire
    await env.advance_time(600)
    assert (await bot.service.record(1)).version == rec.version  # and nothing moved afterwards


async def test_a_rated_game_left_alone_is_never_rated(world):
    env, bot, guild, channel, m = world
    await m["admin"].slash(channel, "config set", setting="turn_timeout.ninesons", value="60")
    await m["admin"].slash(channel, "config set", setting="afk_strikes", value="1")
    await start(channel, m["alice"], m["bob"], options="first_player=first")
    await env.advance_time(61)  # alice: an AI plays on for her
    assert (await bot.service.record(1)).status == "active"
    await env.advance_time(61)  # bob: nobody left
    assert (await bot.service.record(1)).status == "abandoned"
    assert await bot.service.leaderboard(guild.id, "ninesons", 0, 10) == []


async def test_one_member_against_an_ai_who_walks_away_abandons_the_game(world):
    env, bot, _guild, channel, m = world
    alice = m["alice"]
    await m["admin"].slash(channel, "config set", setting="turn_timeout.ninesons", value="60")
    await m["admin"].slash(channel, "config set", setting="afk_strikes", value="2")
    await alice.slash(channel, "game new", game="ninesons", options="first_player=first")
    await alice.select(last_board(channel), ["easy"], custom_id="dt:1:ai")
    await alice.click(last_board(channel), label="Start")
    await env.advance_time(61)
    assert (await bot.service.record(1)).status == "active"
    await env.advance_time(61)
    rec = await bot.service.record(1)
    assert rec.status == "abandoned" and rec.result["ranking"] == []
