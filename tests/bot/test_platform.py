"""The platform through the real discord.py client against simcord's in-memory Discord."""

from __future__ import annotations

import discord
import pytest
from simcord.backend.errors import SetupError

from bot import create_bot
from tests.bot.helpers import (
    button_labels,
    last_board,
    private_replies,
    public_channel_text,
    select_values,
    texts_of,
)


@pytest.fixture
def world(simcord_env):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    admin_role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    members = {
        name: guild.add_member(simcord_env.create_user(name))
        for name in ("alice", "bob", "carol", "dave")
    }
    members["admin"] = guild.add_member(simcord_env.create_user("admin"), roles=[admin_role])
    return simcord_env, guild, channel, members


async def open_lobby(channel, host, options: str = "", game: str = "tally"):
    result = await host.slash(channel, "game new", game=game, options=options)
    assert result.ephemeral and "Lobby #" in result.response.content
    return last_board(channel)


async def test_lobby_flow_with_three_members(world):
    env, guild, channel, m = world
    lobby = await open_lobby(channel, m["alice"])
    assert button_labels(lobby)[:4] == ["Join", "Leave", "Start", "Cancel"]
    await m["bob"].click(lobby, label="Join")
    await m["carol"].click(lobby, label="Join")
    lobby = last_board(channel)
    assert "Seats (3/4)" in texts_of(lobby) and "carol" in texts_of(lobby)
    # carol changes her mind, then comes back.
    await m["carol"].click(lobby, label="Leave")
    assert "carol" not in texts_of(last_board(channel))
    await m["carol"].click(lobby, label="Join")
    await m["alice"].click(lobby, label="Start")
    board = last_board(channel)
    assert board.id == lobby.id  # the lobby message becomes the one board message
    assert "game #1" in texts_of(board) and "Tally begins!" in texts_of(board)
    assert button_labels(board)[:2] == ["Add 1", "Add 2"]
    # Out of turn: refused privately, nothing changes.
    result = await m["bob"].click(board, label="Add 2")
    assert private_replies(result) == ["⚠️ It is not your turn."]
    result = await m["alice"].click(board, label="Add 2")
    assert private_replies(result) == []
    board = last_board(channel)
    assert "alice added 2." in texts_of(board)
    # /game status moves the board to the bottom; the old message keeps no buttons.
    result = await m["carol"].slash(channel, "game status")
    assert private_replies(result) == ["The board is below."]
    old = next(msg for msg in channel.history() if msg.id == board.id)
    assert button_labels(old) == [] and "moved further down" in old.content
    assert button_labels(last_board(channel))[:2] == ["Add 1", "Add 2"]
    result = await m["bob"].click(last_board(channel), label="Add 1")
    assert private_replies(result) == []


async def test_non_member_clicking_start_is_refused_privately(world):
    env, guild, channel, m = world
    lobby = await open_lobby(channel, m["alice"])
    await m["bob"].click(lobby, label="Join")
    result = await m["dave"].click(lobby, label="Start")
    assert private_replies(result) == ["⚠️ Only the host (or someone with Manage Server) can start the game."]
    assert "lobby #1" in texts_of(last_board(channel))  # still a lobby
    result = await m["dave"].click(lobby, label="Cancel")
    assert "Only the host" in private_replies(result)[0]


async def test_config_set_needs_manage_guild(world):
    env, guild, channel, m = world
    # Discord hides /config from members without Manage Server (default_permissions).
    assert "config set" not in m["bob"].available_commands(channel)
    with pytest.raises(SetupError, match="not visible to this user"):
        await m["bob"].slash(channel, "config set", setting="afk_strikes", value="2")
    result = await m["admin"].slash(channel, "config set", setting="afk_strikes", value="99")
    assert private_replies(result) == ["⚠️ `afk_strikes` must be from 1 to 10 (got 99)."]
    result = await m["admin"].slash(channel, "config set", setting="afk_strikes", value="2")
    assert private_replies(result) == ["✅ `afk_strikes` is now **2**."]
    result = await m["admin"].slash(channel, "config show")
    assert "afk_strikes **2**" in private_replies(result)[0]


async def test_play_command_with_autocomplete_and_garbage(world):
    env, guild, channel, m = world
    lobby = await open_lobby(channel, m["alice"])
    await m["bob"].click(lobby, label="Join")
    await m["alice"].click(lobby, label="Start")
    choices = await m["alice"].autocomplete(channel, "play", "action", "")
    assert [c["value"] for c in choices] == ["+1", "+2"]
    assert await m["bob"].autocomplete(channel, "play", "action", "") == []  # not bob's turn
    result = await m["alice"].slash(channel, "play", action="banana")
    assert "`banana` is not a legal action" in private_replies(result)[0]
    result = await m["alice"].slash(channel, "play", action="   ")  # blank: say how, not "`` is not…"
    assert private_replies(result)[0].startswith("⚠️ Type your move after `/play`")
    result = await m["alice"].slash(channel, "play", action="+2")
    assert private_replies(result) == ["✅ Played `+2`."]
    assert "alice added 2." in texts_of(last_board(channel))
    result = await m["dave"].slash(channel, "play", action="+1")
    assert "not playing" in private_replies(result)[0]


async def test_dm_closed_falls_back_to_the_ephemeral_button(world):
    env, guild, channel, m = world
    lobby = await open_lobby(channel, m["alice"], "secret=on target=30")
    await m["bob"].click(lobby, label="Join")
    bob_dm = m["bob"].user.dm_channel if hasattr(m["bob"], "user") else None
    assert bob_dm is not None
    env.inject_error("POST", f"/channels/{bob_dm.id}/messages", status=403, code=50007,
                     message="Cannot send messages to this user", times=None)
    await m["alice"].click(lobby, label="Start")
    board = last_board(channel)
    text = texts_of(board)
    assert "Private prompts by DM: alice" in text and "DMs closed for bob" in text
    await m["alice"].click(board, label="Add 1")
    await m["bob"].click(last_board(channel), label="Add 1")
    # Secret phase: alice is prompted by DM, bob through the board's button.
    alice_dm = m["alice"].user.dm_channel
    prompt = last_board(alice_dm)
    assert select_values(prompt) == ["pick:1", "pick:2", "pick:3"]
    await m["alice"].user.select(prompt, ["pick:3"])
    answered = next(msg for msg in alice_dm.history() if msg.id == prompt.id)
    # The prompt is alice's seat message: edited in place, it has nothing left to choose.
    assert select_values(answered) == [] and "only you see this" in texts_of(answered)
    assert "alice has picked." in texts_of(last_board(channel))
    board = last_board(channel)
    result = await m["bob"].click(board, label="🔒 Show my hand / plan")
    assert result.ephemeral and select_values(result.response) == ["pick:1", "pick:2", "pick:3"]
    await m["bob"].select(result.response, ["pick:1"])
    board = last_board(channel)
    assert "Picks: alice 3, bob 1." in texts_of(board)
    # Before the reveal nothing public said what anyone picked.
    public = public_channel_text(channel)
    assert "You picked" not in public


async def test_lobby_buttons_work_after_a_restart(world, db_path):
    env, guild, channel, m = world
    lobby = await open_lobby(channel, m["alice"])
    await env.restart_bot(create_bot(database_path=db_path))
    await m["bob"].click(lobby, label="Join")
    assert "bob" in texts_of(last_board(channel))
    await m["alice"].click(lobby, label="Start")
    assert button_labels(last_board(channel))[:2] == ["Add 1", "Add 2"]
    await m["alice"].click(last_board(channel), label="Add 2")
    announced = texts_of(last_board(channel))
    # After another restart the board is drawn again exactly as last announced.
    await env.restart_bot(create_bot(database_path=db_path))
    await m["carol"].slash(channel, "game status")
    assert texts_of(last_board(channel)) == announced and "alice added 2." in announced
    await m["bob"].click(last_board(channel), label="Add 1")
    assert "bob added 1." in texts_of(last_board(channel))


async def test_turn_timer_fires_and_the_ai_moves(world):
    env, guild, channel, m = world
    lobby = await open_lobby(channel, m["alice"], "target=40")
    await m["bob"].click(lobby, label="Join")
    await m["alice"].click(lobby, label="Start")
    await env.advance_time(299)
    assert "ran out of time" not in texts_of(last_board(channel))
    await env.advance_time(2)
    board = last_board(channel)
    assert "alice ran out of time; the AI acted for them." in texts_of(board)
    assert "▶ <@" + str(m["bob"].id) + ">" in texts_of(board)


async def test_timer_survives_a_restart(world, db_path):
    env, guild, channel, m = world
    lobby = await open_lobby(channel, m["alice"], "target=40")
    await m["bob"].click(lobby, label="Join")
    await m["alice"].click(lobby, label="Start")
    await env.advance_time(200)
    await env.restart_bot(create_bot(database_path=db_path))
    await env.advance_time(101)
    assert "alice ran out of time" in texts_of(last_board(channel))


async def test_dm_mode_keeps_secrets_in_dms_and_the_button_only_as_a_fallback(world):
    env, guild, channel, m = world
    await m["admin"].slash(channel, "config set", setting="hidden_pick_mode", value="dm")
    lobby = await open_lobby(channel, m["alice"], "secret=on")
    await m["bob"].click(lobby, label="Join")
    env.inject_error("POST", f"/channels/{m['bob'].user.dm_channel.id}/messages", status=403, code=50007,
                     message="Cannot send messages to this user", times=None)
    await m["alice"].click(lobby, label="Start")
    board = last_board(channel)
    result = await m["alice"].click(board, label="🔒 Show my hand / plan")
    assert private_replies(result) == ["⚠️ Your hand and secret choices are in your DMs with the bot."]
    result = await m["bob"].click(board, label="🔒 Show my hand / plan")  # DMs closed: the fallback works
    assert result.ephemeral and "only you see this" in texts_of(result.response)


async def test_ephemeral_mode_says_where_private_prompts_are_without_calling_dms_closed(world):
    env, guild, channel, m = world
    await m["admin"].slash(channel, "config set", setting="hidden_pick_mode", value="ephemeral")
    lobby = await open_lobby(channel, m["alice"], "secret=on")
    await m["bob"].click(lobby, label="Join")
    await m["alice"].click(lobby, label="Start")
    text = texts_of(last_board(channel))
    assert "Private prompts for alice, bob: press the “Show my hand / plan” button" in text
    assert "DMs closed" not in text
    assert m["alice"].user.dm_channel.last_message is None  # and no DM was tried
