"""Issue 23, finding 4, as an admin and a member see it: a timeout with trailing junk is refused
and changes nothing; a 29-digit option is refused for its range, not as "too long"."""

from __future__ import annotations

import discord
import pytest

from tests.bot.helpers import private_replies, public_channel_text


@pytest.fixture
def world(simcord_env, simcord_bot):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(simcord_env.create_user("admin"), roles=[admins])
    return simcord_env, guild, channel, admin


@pytest.mark.parametrize("value", ["30ss", "30x", "1_000", "٣٠٠", "30 secondss"])
async def test_a_timeout_with_trailing_junk_is_refused_and_changes_nothing(world, value):
    env, guild, channel, admin = world
    result = await admin.slash(channel, "config set", setting="turn_timeout.farkle", value=value)
    [reply] = private_replies(result)
    assert reply.startswith("⚠️ `turn_timeout.farkle` takes seconds or a duration such as 90m, 12h or 2d"), reply
    assert (await env.bot.service.settings(guild.id)).turn_timeout("farkle") != 30
    result = await admin.slash(channel, "config set", setting="turn_timeout.farkle", value="45s")
    assert private_replies(result) == ["✅ `turn_timeout.farkle` is now **45 seconds**."]


async def test_a_huge_option_is_refused_for_its_range(world):
    env, guild, channel, admin = world
    result = await admin.slash(channel, "game new", game="farkle", options="max_rounds=" + "9" * 29)
    assert private_replies(result) == ["⚠️ `max_rounds` must be from 0 to 1000 (got a 29-digit number)."]
    result = await admin.slash(channel, "game new", game="farkle", options="max_rounds=20x")
    assert private_replies(result) == ["⚠️ `max_rounds` takes a whole number from 0 to 1000, not `20x`."]
    result = await admin.slash(channel, "game new", game="farkle", options="max_rounds= 20")
    assert private_replies(result) == [
        "⚠️ `max_rounds=` has no value: write it right after the `=`, as in `max_rounds=0`."
    ]
    assert "Lobby #" not in public_channel_text(channel)
    result = await admin.slash(channel, "game new", game="farkle", options="max_rounds=20")
    assert "Lobby #1 is open" in private_replies(result)[0]
