"""A saved change is announced even when Discord refuses the announcement for a while, or the
bot dies before sending it (the outbox, cogs/outbox.py): the mover is told the move was made,
the board catches up from the saved state, and nothing is lost or sent twice."""

from __future__ import annotations

import sqlite3

import pytest

from bot import create_bot
from tests.bot.helpers import button_labels, last_board, private_replies, refuse_token_edits, texts_of


@pytest.fixture
def world(simcord_env, simcord_bot):
    simcord_bot.service._seed_source = lambda: 20261129
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob")}
    return simcord_env, channel, members


async def start_ninesons(channel, alice, bob):
    await alice.slash(channel, "game new", game="ninesons", options="first_player=first")
    await bob.click(last_board(channel), label="Join")
    await alice.click(last_board(channel), label="Start")
    return last_board(channel)


def refuse_board_edits(env, channel, times: int | None = 1) -> None:
    # 403 Missing Permissions: discord.py does not retry it (a 5xx would be retried).
    env.inject_error("PATCH", "/channels/*/messages/*", status=403, code=50013, message="Missing Permissions",
                     times=times)
    refuse_token_edits(env, channel)


def stored(db_path, sql: str):
    with sqlite3.connect(db_path) as conn:
        return conn.execute(sql).fetchall()


async def test_a_saved_move_whose_board_edit_fails_is_reported_as_made_and_the_board_catches_up(world, db_path):
    env, channel, m = world
    alice, bob = m["alice"], m["bob"]
    board = await start_ninesons(channel, alice, bob)
    [(v,)] = stored(db_path, "SELECT version FROM games")
    assert "move 1 ·" in texts_of(board)  # the footer counts moves played, not saves

    refuse_board_edits(env, channel)
    result = await alice.slash(channel, "play", action="3@b2")
    [reply] = private_replies(result)
    assert reply.startswith("✅ Done and saved.") and "could not be saved" not in reply, reply
    assert "/game status" in reply
    assert stored(db_path, "SELECT version FROM games") == [(v + 1,)]  # the move is in the database
    assert "move 1 ·" in texts_of(last_board(channel))  # Discord refused the edit: still the old board
    assert stored(db_path, "SELECT COUNT(*) FROM outbox") == [(1,)]  # and its announcement is queued

    # bob clicks the stale board: that click is out of date, and the board is redrawn at once.
    stale = await bob.click(last_board(channel), label=button_labels(last_board(channel))[0])
    assert any("out of date" in text or "not your turn" in text.lower() for text in private_replies(stale))
    board = last_board(channel)
    assert "move 2 ·" in texts_of(board) and "alice: Place 3 on b2" in texts_of(board)
    assert stored(db_path, "SELECT COUNT(*) FROM outbox") == [(0,)]
    # The game goes on from the fresh board: bob's move is not "out of date".
    result = await bob.slash(channel, "play", action="2@c3")
    assert private_replies(result) == ["✅ Played `2@c3`."]
    assert "move 3 ·" in texts_of(last_board(channel))
    assert texts_of(last_board(channel)).count("alice: Place 3 on b2") == 1  # Recent lines written once


async def a_move_whose_board_edit_is_refused(world, db_path):
    """alice's first move is saved, and Discord refuses the board edit once; returns the
    members, the channel and the game's version before the move."""
    env, channel, m = world
    alice, bob = m["alice"], m["bob"]
    await start_ninesons(channel, alice, bob)
    [(v,)] = stored(db_path, "SELECT version FROM games")
    refuse_board_edits(env, channel)
    await alice.slash(channel, "play", action="3@b2")
    return env, channel, alice, v


async def test_game_status_draws_the_board_a_failed_announcement_left_stale(world, db_path):
    env, channel, alice, v = await a_move_whose_board_edit_is_refused(world, db_path)
    result = await alice.slash(channel, "game status")
    assert private_replies(result) == ["The board is below."]
    assert "move 2 ·" in texts_of(last_board(channel))
    assert stored(db_path, "SELECT COUNT(*) FROM outbox") == [(0,)]


async def test_a_failed_announcement_is_retried_by_itself(world, db_path):
    env, channel, alice, v = await a_move_whose_board_edit_is_refused(world, db_path)
    assert "move 1 ·" in texts_of(last_board(channel))
    await env.advance_time(16)  # the first retry comes after 15 s
    assert "move 2 ·" in texts_of(last_board(channel))
    assert stored(db_path, "SELECT COUNT(*) FROM outbox") == [(0,)]


async def test_announcements_queued_before_a_restart_go_out_after_it_once(world, db_path):
    """The bot "dies" after saving a move whose DM prompt and board edit never went out (here:
    Discord refuses them until the restart); the new process sends them, once."""
    env, channel, m = world
    alice, bob = m["alice"], m["bob"]
    await alice.slash(channel, "game new", game="flagon")
    await bob.click(last_board(channel), label="Join")
    await alice.click(last_board(channel), label="Start")
    bot = env.bot
    dms_before = {name: len(list(member.user.dm_channel.history())) if member.user.dm_channel else 0
                  for name, member in m.items()}

    refuse_board_edits(env, channel, times=None)
    env.inject_error("POST", "/channels/*/messages", status=403, code=50013, message="Missing Permissions",
                     times=None)
    rec, game = await bot.service.load(1)
    assert game is not None
    [seat] = game.to_act()
    member = alice if rec.seat(seat).user_id == alice.user.id else bob
    action = next(a for a in game.legal_actions(seat) if not game.is_private_action(seat, a))
    await member.slash(channel, "play", action=action)
    queued = stored(db_path, "SELECT COUNT(*) FROM outbox")[0][0]
    assert queued >= 1

    env.backend.faults.clear()  # Discord takes requests again; a new process starts
    bot.outbox.stop()
    await env.restart_bot(create_bot(database_path=db_path))
    await env.advance_time(1)
    assert stored(db_path, "SELECT COUNT(*) FROM outbox") == [(0,)]
    assert "move 2 ·" in texts_of(last_board(channel))  # the one move made before the restart
    for name, member in m.items():  # at most the one prompt this change called for
        count = len(list(member.user.dm_channel.history())) if member.user.dm_channel else 0
        assert count - dms_before[name] <= 1, name
    # Delivering again finds nothing to send: no message is repeated.
    posted = len(list(channel.history()))
    await env.bot.outbox.deliver(1)
    assert len(list(channel.history())) == posted


async def test_a_failed_save_still_says_nothing_changed(world, db_path, monkeypatch):
    env, channel, m = world
    alice, bob = m["alice"], m["bob"]
    await start_ninesons(channel, alice, bob)
    from storage import DatabaseUnavailable

    async def full_disk(*args, **kwargs):
        raise DatabaseUnavailable("The database could not be written: database or disk is full.")

    monkeypatch.setattr(env.bot.service.db.games, "save", full_disk)
    result = await alice.slash(channel, "play", action="3@b2")
    [reply] = private_replies(result)
    assert "could not be saved" in reply and "nothing changed" in reply


async def test_a_deleted_channel_drops_what_its_game_had_to_announce(world, db_path):
    """Nobody can read a deleted channel: its game's queue is dropped, not retried forever."""
    env, channel, m = world
    alice, bob = m["alice"], m["bob"]
    await start_ninesons(channel, alice, bob)
    env.inject_error("*", "/channels/*", status=404, code=10003, message="Unknown Channel", times=None)
    env.inject_error("*", "/channels/*/messages*", status=404, code=10003, message="Unknown Channel", times=None)
    result = await alice.slash(channel, "play", action="3@b2")
    assert private_replies(result) == ["✅ Played `3@b2`."]
    assert stored(db_path, "SELECT COUNT(*) FROM outbox") == [(0,)]
    assert env.bot.outbox.behind == set()
