"""Hostile or unlucky inputs at the router and in storage (issue 12, items 8–10): forged
custom_ids, a corrupt game row, the database file deleted under the running bot."""

from __future__ import annotations

import sqlite3
from typing import Any

import discord
import pytest
from simcord.actors import _component_interaction  # send a payload the message does not show

from cogs.errors import READ_ONLY
from storage.damage import DAMAGED_MESSAGE
from tests.bot.helpers import last_board, private_replies, public_channel_text, texts_of

GONE = "⚠️ This game no longer exists."
DAMAGED = f"⚠️ {DAMAGED_MESSAGE}"
BROKEN = "⚠️ That control is broken or from an old version."


@pytest.fixture
def two_servers(simcord_env):
    env = simcord_env
    home, other = env.create_guild(), env.create_guild()
    channel, foreign_channel = home.create_text_channel("games"), other.create_text_channel("games")
    users = {name: env.create_user(name) for name in ("alice", "bob", "carol", "mallory")}
    m = {name: home.add_member(user) for name, user in users.items() if name != "mallory"}
    m["mallory"] = other.add_member(users["mallory"])
    return env, channel, foreign_channel, m


async def _forge(actor, message, custom_id: str, values: list[str] | None = None):
    """Click ``custom_id`` on ``message`` (a payload a modified client can send)."""
    stored = actor._env.backend.get_message(int(message.channel.id), message.id)
    data: dict = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
    if values is not None:
        data["values"] = values
    return await _component_interaction(actor, stored, data)


async def _running_game(channel, host, guest, options: str = "target=40"):
    await host.slash(channel, "game new", game="tally", options=options)
    await guest.click(last_board(channel), label="Join")
    await host.click(last_board(channel), label="Start")
    return last_board(channel)


async def _snapshot(bot) -> list:
    games = await bot.service.db.games.find(statuses=("lobby", "active", "finished", "cancelled"))
    return [(g.id, g.status, g.version, [s.user_id for s in g.seats]) for g in games]


async def test_forged_custom_ids_from_another_server_or_out_of_range_change_nothing(two_servers):
    env, channel, foreign_channel, m = two_servers
    bot = env.bot
    board = await _running_game(channel, m["alice"], m["bob"])
    await m["carol"].slash(channel, "game new", game="tally")  # only one game per channel:
    other_channel = channel.guild.create_text_channel("lobby")
    await m["carol"].slash(other_channel, "game new", game="tally")
    lobby_id = (await bot.service.db.games.active_in_channel(other_channel.id)).id
    # mallory, in her own server, has a lobby message there to "click" on.
    await m["mallory"].slash(foreign_channel, "game new", game="tally")
    foreign_message = last_board(foreign_channel)
    before = await _snapshot(bot)
    board_text = texts_of(board)
    rec = await bot.service.db.games.active_in_channel(channel.id)
    forged = [
        f"dt:{lobby_id}:join", f"dt:{lobby_id}:start", f"dt:{lobby_id}:cancel",
        f"dt:{rec.id}:a:{rec.version}:+2", f"dt:{rec.id}:hand", f"dt:{rec.id}:x:tog:0:1",
        f"dt:{rec.id}:pick:{rec.version}:0", "dt:" + "9" * 18 + ":join", "dt:4242:join", "dt:0:join",
    ]
    for custom_id in forged:
        result = await _forge(m["mallory"], foreign_message, custom_id)
        assert private_replies(result) == [GONE], custom_id
    # Ids the bot cannot have written (past SQLite's range) are broken controls, whoever sends them.
    for custom_id in ("dt:" + "9" * 200 + ":join", "dt:" + "9" * 19 + ":join", "dt:9223372036854775808:join"):
        result = await _forge(m["mallory"], foreign_message, custom_id)
        assert private_replies(result) == [BROKEN], custom_id
    result = await _forge(m["mallory"], foreign_message, f"dt:{lobby_id}:ai", ["easy"])
    assert private_replies(result) == [GONE]
    # In the home server, unknown and out-of-range ids get the same clear answers.
    for custom_id, answer in (("dt:" + "1" * 200 + ":a:0:+1", BROKEN), ("dt:4242:join", GONE)):
        result = await _forge(m["alice"], board, custom_id)
        assert private_replies(result) == [answer], custom_id
    assert await _snapshot(bot) == before
    assert texts_of(last_board(channel)) == board_text
    assert "mallory" not in public_channel_text(channel) + public_channel_text(other_channel)


async def test_in_a_dm_only_a_seated_player_reaches_the_game_and_never_its_lobby(two_servers):
    env, channel, foreign_channel, m = two_servers
    bot = env.bot
    await _running_game(channel, m["alice"], m["bob"], "secret=on target=40")
    rec = await bot.service.db.games.active_in_channel(channel.id)
    await m["carol"].slash(channel.guild.create_text_channel("lobby"), "game new", game="tally")
    lobby = (await bot.service.db.games.find(statuses=("lobby",)))[0]
    await m["alice"].click(last_board(channel), label="Add 1")
    await m["bob"].click(last_board(channel), label="Add 1")
    prompt = m["alice"].user.dm_channel.last_message  # alice's private pick prompt
    before = await _snapshot(bot)
    # carol (not seated) forges a click in her own DM with the bot on a message she has there.
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="ok", custom_id="unrelated"))
    await (await bot.fetch_user(m["carol"].id)).send("a DM from the bot", view=view)
    carol_dm = m["carol"].user.dm_channel
    stored = env.backend.get_message(carol_dm.id, last_board(carol_dm).id)
    for custom_id in (f"dt:{rec.id}:p", f"dt:{rec.id}:hand", f"dt:{rec.id}:x:tog:0:1"):
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 3 if custom_id.endswith(":p") else 2}
        if custom_id.endswith(":p"):
            data["values"] = ["pick:3"]
        result = await _component_interaction(m["carol"].user, stored, data)
        assert private_replies(result) == [GONE], custom_id
    # carol hosts the lobby, but its buttons make no sense in a DM.
    lobby_only = ["⚠️ Lobby buttons work only on the lobby message in the server channel."]
    for verb in ("join", "start", "cancel"):
        result = await _component_interaction(m["carol"].user, stored, {"custom_id": f"dt:{lobby.id}:{verb}",
                                                                        "component_type": 2})
        assert private_replies(result) == lobby_only
    # alice is seated, but lobby buttons make no sense in a DM.
    stored = env.backend.get_message(prompt.channel.id, prompt.id)
    result = await _component_interaction(m["alice"].user, stored, {"custom_id": f"dt:{rec.id}:cancel",
                                                                    "component_type": 2})
    assert private_replies(result) == lobby_only
    assert await _snapshot(bot) == before
    # Her real prompt still works.
    await m["alice"].user.select(prompt, ["pick:3"])
    assert "alice has picked." in texts_of(last_board(channel))


def _corrupt_state(bot, db_path, game_id: int, state: str = "{not json") -> None:
    """Damage a game's row from outside. The running bot owns its SQLite file and serves loads
    from what it wrote (storage.rowcache), so it is told to read this game again: the damage
    stands for a row found broken when the bot next reads it."""
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE games SET state = ? WHERE id = ?", (state, game_id))
    conn.close()
    bot.service.db._rows.forget(game_id)


@pytest.mark.parametrize("bad_state", ["{not json", '{"scores": "a string the engine cannot load"}'])
async def test_a_corrupt_game_row_is_set_aside_and_every_other_game_works(two_servers, db_path, caplog,
                                                                          bad_state):
    env, channel, _, m = two_servers
    bot = env.bot
    second = channel.guild.create_text_channel("second")
    await _running_game(channel, m["alice"], m["bob"])
    await _running_game(second, m["carol"], m["bob"])
    broken = (await bot.service.db.games.active_in_channel(channel.id)).id
    fine = (await bot.service.db.games.active_in_channel(second.id)).id
    board = last_board(channel)
    _corrupt_state(bot, db_path, broken, bad_state)
    caplog.set_level("ERROR")
    # /play in a DM lists every running game: the corrupt row must not break it for carol.
    result = await m["carol"].user.slash("play", action="+2")
    assert private_replies(result) == ["✅ Played `+2`."]
    assert "carol added 2." in texts_of(last_board(second))
    # A click on the damaged game's board says what is wrong.
    result = await m["alice"].click(board, label="Add 1")
    assert private_replies(result) == [DAMAGED]
    result = await m["alice"].click(board, label="Add 2")
    assert private_replies(result) == [DAMAGED]
    result = await m["alice"].slash(channel, "game list")
    listed = private_replies(result)[0]
    assert f"#{fine} " in listed and f"#{broken} " not in listed
    result = await m["bob"].user.slash("play", action="+1")  # bob sits in both: only one is playable
    assert private_replies(result) == ["✅ Played `+1`."]
    # Logged at ERROR once, with the game id; the channel was told once.
    errors = [r for r in caplog.records if r.levelname == "ERROR" and f"game {broken} is damaged" in r.getMessage()]
    assert len(errors) == 1
    notices = [msg for msg in channel.history() if "saved data is damaged" in (msg.content or "")]
    assert len(notices) == 1 and f"Game #{broken}" in notices[0].content
    assert await bot.service.db.damage.unannounced() == []
    # Its timer is not re-armed, and other games keep theirs.
    assert await bot.service.db.timers.deadline(broken, "turn") is None
    assert await bot.service.db.timers.deadline(fine, "turn") is not None
    # It no longer holds its channel: a new game opens there.
    result = await m["alice"].slash(channel, "game new", game="tally")
    assert "Lobby #" in private_replies(result)[0]


async def test_damage_found_before_a_restart_is_announced_once_after_it(two_servers, db_path):
    env, channel, _, m = two_servers
    await _running_game(channel, m["alice"], m["bob"])
    broken = (await env.bot.service.db.games.active_in_channel(channel.id)).id
    _corrupt_state(env.bot, db_path, broken)
    from bot import create_bot

    await env.restart_bot(create_bot(database_path=db_path))
    # Nothing was found yet: the first listing finds it, and it is announced once.
    await m["bob"].user.slash("play", action="+1")
    await env.restart_bot(create_bot(database_path=db_path))
    await m["bob"].user.slash("play", action="+1")
    notices = [msg for msg in channel.history() if "saved data is damaged" in (msg.content or "")]
    assert len(notices) == 1


async def test_a_click_after_the_database_file_was_deleted_gets_the_read_only_message(two_servers, db_path,
                                                                                         caplog):
    env, channel, _, m = two_servers
    board = await _running_game(channel, m["alice"], m["bob"])
    text = texts_of(board)
    caplog.set_level("CRITICAL")
    db_path.unlink()
    for wal in db_path.parent.glob(db_path.name + "-*"):
        wal.unlink()
    result = await m["alice"].click(board, label="Add 2")
    assert private_replies(result) == [READ_ONLY]
    result = await m["alice"].click(board, label="Add 1")
    assert private_replies(result) == [READ_ONLY]
    assert texts_of(last_board(channel)) == text
    critical = [r for r in caplog.records if r.levelname == "CRITICAL"]
    assert len(critical) == 1 and "deleted" in critical[0].getMessage()


def _game_id(custom_id: str) -> int:
    from cogs import routing

    route = routing.parse(custom_id)
    assert route is not None, custom_id
    return route.game_id


def test_parse_refuses_ids_past_sqlite_range_and_non_ascii_digits():
    from cogs import routing

    assert routing.parse("dt:" + "9" * 200 + ":join") is None
    assert routing.parse("dt:9223372036854775808:join") is None
    assert _game_id("dt:9223372036854775807:join") == routing.MAX_NUMBER
    assert routing.parse("dt:²:join") is None and routing.parse("dt:١:join") is None
    assert routing.parse("dt:12:a:3:+1") == routing.Route(12, "a", ("3", "+1"))


async def test_a_timer_on_a_corrupt_game_sets_it_aside_quietly_and_other_timers_fire(two_servers, db_path,
                                                                                      caplog):
    env, channel, _, m = two_servers
    second = channel.guild.create_text_channel("second")
    await _running_game(channel, m["alice"], m["bob"])
    await _running_game(second, m["carol"], m["bob"])
    broken = (await env.bot.service.db.games.active_in_channel(channel.id)).id
    _corrupt_state(env.bot, db_path, broken)
    caplog.set_level("ERROR")
    await env.advance_time(301)
    assert "carol ran out of time" in texts_of(last_board(second))
    assert not [r for r in caplog.records if "timer for game" in r.getMessage()]
    notices = [msg for msg in channel.history() if "saved data is damaged" in (msg.content or "")]
    assert len(notices) == 1
    assert broken in await env.bot.service.db.damage.reasons()
