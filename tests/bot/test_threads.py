"""Many games in one channel, each in its own thread (server setting ``game_threads``, on by
default where the bot may make threads), played as members through simcord: the lobby stays
in the channel and becomes the game's sign with its thread under it; the board, the pings and
the moves live in the thread; at the end the result goes to the channel and the thread is
archived. A restart keeps the routing; without the permissions, or with the setting off, the
game is played in the channel as before."""

from __future__ import annotations

import discord
import pytest

from bot import create_bot
from tests.bot.helpers import button_labels, last_board, last_ping, private_replies, table_world, texts_of

pytestmark = pytest.mark.threads


@pytest.fixture
def world(simcord_env, simcord_bot):
    guild, channel, members = table_world(simcord_env, simcord_bot, ("alice", "bob", "carol", "dave"), admin=True)
    return simcord_env, guild, channel, members


def bot_messages(env, channel) -> list[discord.Message]:
    """What the bot left standing in a channel (not simcord's 'started a thread' system lines)."""
    return [m for m in channel.history() if m.author.id == env.bot.user.id and m.type is discord.MessageType.default]


def thread_of(channel, game_id: int):
    return next(t for t in channel.threads if t.name.endswith(f"#{game_id}"))


async def open_and_start(channel, host, guest, game: str, options: str = ""):
    await host.slash(channel, "game new", game=game, options=options)
    lobby = last_board(channel)
    await guest.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    return lobby


async def test_two_games_share_a_channel_each_in_its_thread(world, db_path):
    env, guild, channel, m = world
    alice, bob, carol, dave = m["alice"], m["bob"], m["carol"], m["dave"]
    result = await alice.slash(channel, "game new", game="ninesons", options="first_player=first")
    assert private_replies(result)[0].endswith("The game will be played in a thread of its own.")
    await carol.slash(channel, "game new", game="flagon")  # a second lobby in the same channel
    refused = await alice.slash(channel, "game new", game="farkle")
    assert private_replies(refused) == [
        "⚠️ You already have an open lobby in this channel (#1, The Nine Sons of the Dragon): press **Start** "
        "or **Cancel** on it first."
    ]
    ninesons_lobby = next(msg for msg in channel.history() if "lobby #1" in texts_of(msg))
    await bob.click(ninesons_lobby, label="Join")
    await alice.click(ninesons_lobby, label="Start")

    thread = thread_of(channel, 1)
    assert thread.is_thread and thread.name == "The Nine Sons of the Dragon #1"
    sign = next(msg for msg in channel.history() if msg.id == ninesons_lobby.id)
    assert f"▶ Played in its thread <#{thread.id}>" in texts_of(sign) and button_labels(sign) == []
    board = last_board(thread)
    assert "game #1" in texts_of(board) and "A (alice) to play" in texts_of(board)
    ping = last_ping(thread)
    assert ping.content.startswith(f"🔔 <@{alice.id}>, it's your turn") and f"/{thread.id}/{board.id}" in ping.content

    # Commands typed in the thread reach its game; carol's lobby in the channel is another table.
    played = await alice.slash(thread, "play", action="3@b2")
    assert private_replies(played) == ["✅ Played `3@b2`."]
    assert "B (bob) to play" in texts_of(last_board(thread))
    lobby2 = next(msg for msg in channel.history() if "lobby #2" in texts_of(msg))
    await dave.click(lobby2, label="Join")
    await carol.click(lobby2, label="Start")
    second = thread_of(channel, 2)
    assert "game #2" in texts_of(last_board(second)) and "game #1" not in texts_of(last_board(second))
    status = await carol.slash(second, "game status")
    assert private_replies(status) == ["The board is below."]
    assert "game #2" in texts_of(last_board(second))

    # A new bot on the same database routes the thread's commands to its game still.
    await env.restart_bot(create_bot(database_path=db_path))
    assert private_replies(await bob.slash(thread, "play", action="2@c3")) == ["✅ Played `2@c3`."]
    resign = await bob.slash(thread, "game resign")
    assert private_replies(resign) == ["You resigned."]

    final = last_board(thread)
    assert button_labels(final) == ["🔁 Rematch", "🎞 Replay"]
    notice = bot_messages(env, channel)[-1]
    assert notice.content.startswith("🏁 **The Nine Sons of the Dragon** #1 is over: alice won.")
    sign = next(msg for msg in channel.history() if msg.id == ninesons_lobby.id)
    assert "This game has ended" in texts_of(sign) and f"<#{thread.id}>" in texts_of(sign)
    assert env.backend.get_channel(thread.id).thread_metadata.archived
    assert not env.backend.get_channel(second.id).thread_metadata.archived
    # The channel holds each game's sign and the finished one's result: no board, no ping.
    assert [msg.id for msg in bot_messages(env, channel)] == [ninesons_lobby.id, lobby2.id, notice.id]


async def test_a_rematch_from_a_thread_opens_its_lobby_in_the_channel(world):
    env, guild, channel, m = world
    alice, bob = m["alice"], m["bob"]
    await open_and_start(channel, alice, bob, "ninesons", "first_player=first")
    thread = thread_of(channel, 1)
    await bob.slash(thread, "game resign")
    await bob.click(last_board(thread), label="🔁 Rematch")
    lobby = last_board(channel)
    assert "lobby #2" in texts_of(lobby)
    joined = await alice.click(last_board(thread), label="🔁 Rematch")
    assert private_replies(joined) == [
        "You joined lobby #2, the rematch: everyone is in, so its host can press **Start**."
    ]
    await bob.click(lobby, label="Start")
    rematch = thread_of(channel, 2)
    assert "game #2" in texts_of(last_board(rematch))
    assert not any("rematch" in msg.content for msg in channel.history())  # the invitations went


async def test_without_thread_permissions_or_with_the_setting_off_the_channel_holds_one_game(world):
    env, guild, channel, m = world
    alice, bob, carol, admin = m["alice"], m["bob"], m["carol"], m["admin"]
    closed = guild.create_text_channel(
        "no-threads", overwrites={guild.me: discord.PermissionOverwrite(create_public_threads=False)}
    )
    lobby = await open_and_start(closed, alice, bob, "ninesons")
    assert closed.threads == [] and last_board(closed).id == lobby.id  # the lobby became the board
    told = await admin.slash(closed, "config set", setting="game_threads", value="on")
    assert private_replies(told) == [
        "✅ `game_threads` is now **on**.\n⚠️ Here I can't make threads (I need Create Public Threads and Send "
        "Messages in Threads), so games in this channel are still played in it, one at a time."
    ]
    refused = await carol.slash(closed, "game new", game="farkle")
    assert private_replies(refused)[0].startswith("⚠️ This channel already has a game.")

    shown = await admin.slash(channel, "config show")
    assert "game_threads on" in private_replies(shown)[0].replace("**", "").replace("\n", " ")
    await admin.slash(channel, "config set", setting="game_threads", value="off")
    lobby = await open_and_start(channel, alice, bob, "ninesons")
    assert channel.threads == [] and last_board(channel).id == lobby.id


async def test_a_secret_game_in_a_thread_names_the_thread_in_its_dms_and_plays_there(world):
    """Dragon Farkle (Magic Items are secret): the start DM points to the thread, the turn ping
    and the board are there, and /play typed in the thread plays."""
    env, guild, channel, m = world
    alice, bob = m["alice"], m["bob"]
    await open_and_start(channel, alice, bob, "farkle")
    thread = thread_of(channel, 1)
    hand = alice.user.dm_channel.history()[0]
    assert hand.content.startswith(f"🎲 You are playing **Dragon Farkle** (game #1) in <#{thread.id}>.")
    rec, game = await env.bot.service.load(1)
    seat = game.to_act()[0]
    mover = alice if rec.seat(seat).user_id == alice.id else bob
    assert f"<@{mover.id}>" in last_ping(thread).content
    action = game.legal_actions(seat)[0]
    assert private_replies(await mover.slash(thread, "play", action=action)) == [f"✅ Played `{action}`."]
    assert [msg.id for msg in bot_messages(env, channel)] == [next(iter(channel.history())).id]  # the sign only



async def test_a_click_on_the_board_in_its_thread_answers_and_pings_through_the_interaction(world):
    """The click's interaction is in the thread: its response carries the new board and its
    followup is the next player's ping, in the thread, mentioning exactly them (cogs.carrier)."""
    env, guild, channel, m = world
    alice, bob = m["alice"], m["bob"]
    await open_and_start(channel, alice, bob, "ninesons", "first_player=first")
    thread = thread_of(channel, 1)
    board = last_board(thread)
    first_ping = last_ping(thread)  # the Start click was in the channel: this one is a thread message
    since = len(env.http_requests)
    opened = await alice.click(board, label="Place a 1")  # its cells open below the board's buttons
    chosen = await alice.select(last_board(thread), [options_first(last_board(thread))])
    assert private_replies(opened) == private_replies(chosen) == []
    assert "B (bob) to play" in texts_of(last_board(thread)) and last_board(thread).id == board.id
    requests = env.http_requests[since:]
    app = env.backend.application_id
    outside = [(r.method, r.path) for r in requests if not r.path.startswith(("/interactions/", f"/webhooks/{app}/"))]
    assert outside == [("DELETE", f"/channels/{thread.id}/messages/{first_ping.id}")]  # superseded, by its channel
    ping = last_ping(thread)
    assert ping.content.startswith(f"🔔 <@{bob.id}>, it's your turn") and ping.channel.id == thread.id
    [followup] = [r for r in requests if r.method == "POST" and r.path.startswith(f"/webhooks/{app}/")]
    assert [int(u) for u in followup.json["allowed_mentions"]["users"]] == [bob.id]  # exactly who must act
    assert [msg for msg in thread.history() if not msg.embeds and not msg.components] == [ping]  # one ping stands


def options_first(message) -> str:
    for row in message.components:
        row = row.to_dict() if hasattr(row, "to_dict") else row
        for component in row.get("components", []):
            if component.get("type") == 3:
                return str(component["options"][0]["value"])
    raise AssertionError("no select")
