"""The board moves to a live ``/play`` (cogs.board_hop, issue 25): members who play by
``/play`` only, at human pace, keep one board in the channel, at its bottom, showing every
move, and the bot edits it through an interaction's webhook rather than the channel; a restart
between the move and the old board's delete finishes the delete."""

from __future__ import annotations

import random
import sqlite3

import discord
import pytest

from bot import create_bot
from render.text import fill_names, seat_names
from tests.bot.helpers import button_labels, last_ping, private_replies, table_world, texts_of
from tests.bot.test_ninesons_clicks import play_one_decision

# Past the 14 minutes an interaction's token is used for (cogs.carrier.TOKEN_LIFETIME).
TOKEN_DEAD = 15 * 60


@pytest.fixture
def world(simcord_env, simcord_bot):
    guild, channel, m = table_world(simcord_env, simcord_bot, admin=True, seed=20261129)
    return simcord_env, channel, m


def stored(db_path, sql: str) -> list[tuple]:
    with sqlite3.connect(db_path) as conn:
        return conn.execute(sql).fetchall()


def boards(channel) -> list[discord.Message]:
    """The boards standing in the channel: the public messages with an embed (pings have none)."""
    return [m for m in channel.history() if m.embeds and not m.flags.ephemeral]


def channel_requests(env, channel, method: str, since: int = 0) -> list[str]:
    """The paths of ``method`` requests on the channel's messages (not interaction endpoints)."""
    prefix = f"/channels/{channel.id}/messages/"
    return [r.path for r in env.http_requests[since:] if r.method == method and r.path.startswith(prefix)]


async def settle(channel, m) -> None:
    """No pictures, and an hour per turn: the tests wait 15 minutes without a timer acting."""
    await m["admin"].slash(channel, "config set", setting="images", value="off")
    await m["admin"].slash(channel, "config set", setting="turn_timeout.ninesons", value="1h")


async def start_ninesons(env, channel, m) -> None:
    await settle(channel, m)
    await m["alice"].slash(channel, "game new", game="ninesons", options="first_player=first")
    [lobby] = boards(channel)
    await m["bob"].click(lobby, label="Join")
    await m["alice"].click(lobby, label="Start")


async def play_by_slash(env, bot, channel, m, rng: random.Random) -> tuple[str, str]:
    """The member to act plays a random legal move by /play; returns (their name, the move's words)."""
    rec, game = await bot.service.load(1)
    [seat] = game.to_act()
    member = next(x for x in m.values() if x.id == rec.seat(seat).user_id)
    action = rng.choice(game.legal_actions(seat))
    said = fill_names(game.describe_action(seat, action), seat_names(rec.seats, "plain"))
    result = await member.slash(channel, "play", action=action)
    assert private_replies(result) == [f"✅ Played `{action}`."]
    return seat_names(rec.seats, "plain")[seat], said


async def test_a_game_played_by_play_at_human_pace_keeps_one_board_that_shows_every_move(world, db_path):
    env, channel, m = world
    bot = env.bot
    await start_ninesons(env, channel, m)
    since = len(env.http_requests)
    rng = random.Random(5)
    shown_on: list[int] = []  # the board messages, in order
    for played in range(1, 200):
        await env.advance_time(rng.uniform(30, 60))  # a slow game: the board moves more than once
        who, said = await play_by_slash(env, bot, channel, m, rng)
        rec, game = await bot.service.load(1)
        [board] = boards(channel)  # never two boards, never none
        assert board.id == rec.board_message_id
        shown = texts_of(board)
        assert f"{who}: {said}" in shown, (said, shown)  # the move just made, in Recent
        if not game.is_over:
            assert f"move {played + 1} ·" in shown  # the footer counts the moves played
            # The board is the channel's last message but the ping that links to it.
            assert channel.history()[-1].id in (board.id, getattr(last_ping(channel), "id", None))
            ping = last_ping(channel)
            if ping is not None and "Go to the board" in ping.content:
                assert f"/{board.id})" in ping.content
        if not shown_on or shown_on[-1] != board.id:
            shown_on.append(board.id)
        if game.is_over:
            break
    assert game.is_over and "Result" in texts_of(board)
    # The board moved as tokens died (about once per 14 minutes); each old board was deleted,
    # once, through the channel, and none is left to delete.
    assert len(shown_on) >= 3, shown_on
    deleted = channel_requests(env, channel, "DELETE", since)
    for old in shown_on[:-1]:
        assert deleted.count(f"/channels/{channel.id}/messages/{old}") == 1
    assert stored(db_path, "SELECT COUNT(*) FROM old_boards") == [(0,)]
    # Every edit of a running board went through an interaction's webhook: at most the last
    # one (the game's end, after its token died) through the channel.
    assert len(channel_requests(env, channel, "PATCH", since)) <= 1


async def test_a_click_on_the_board_itself_edits_it_in_place_however_old_the_last_click(world):
    env, channel, m = world
    await start_ninesons(env, channel, m)
    [board] = boards(channel)
    await env.advance_time(TOKEN_DEAD)
    since = len(env.http_requests)
    rec, game = await env.bot.service.load(1)
    label = fill_names(game.describe_action("p1", "3@b2"), seat_names(rec.seats, "plain"))
    await play_one_decision(m["alice"], channel, "3@b2", label, "alice", [])  # a button, a destination
    [after] = boards(channel)
    assert after.id == board.id and "move 2 ·" in texts_of(after)  # its own response carried the board
    assert channel_requests(env, channel, "PATCH", since) == []  # (the old ping's delete is the one request)


async def test_a_moved_board_takes_clicks_and_the_play_that_moved_it_edits_it_for_the_others(world):
    env, channel, m = world
    await start_ninesons(env, channel, m)
    [old] = boards(channel)
    await env.advance_time(TOKEN_DEAD)
    await m["alice"].slash(channel, "play", action="3@b2")  # no live click on the board: it moves
    [board] = boards(channel)
    assert board.id != old.id
    # bob's next move by /play is drawn through alice's /play, which posted the board: no channel edit.
    await env.advance_time(30)
    since = len(env.http_requests)
    await m["bob"].slash(channel, "play", action="2@c3")
    assert [b.id for b in boards(channel)] == [board.id] and "move 3 ·" in texts_of(boards(channel)[0])
    assert channel_requests(env, channel, "PATCH", since) == []
    # A click on the moved board plays and redraws it in place.
    rec, game = await env.bot.service.load(1)
    [seat] = game.to_act()
    action = next(a for a in game.legal_actions(seat) if a.startswith("1@"))
    label = fill_names(game.describe_action(seat, action), seat_names(rec.seats, "plain"))
    await play_one_decision(m["alice"], channel, action, label, "alice", [])
    assert [b.id for b in boards(channel)] == [board.id] and "move 4 ·" in texts_of(boards(channel)[0])


class Killed(Exception):
    """The process dies here (nothing after it runs)."""


async def test_a_restart_between_the_move_and_the_old_boards_delete_finishes_the_delete(
    world, db_path, monkeypatch
):
    env, channel, m = world
    bot = env.bot
    await start_ninesons(env, channel, m)
    [old] = boards(channel)
    await env.advance_time(TOKEN_DEAD)

    async def killed(game_id: int) -> None:
        raise Killed

    monkeypatch.setattr(bot.outbox.hops, "delete_old", killed)
    result = await m["alice"].slash(channel, "play", action="3@b2")
    assert "saved" in private_replies(result)[0]  # the move is made; its announcement was cut short
    [(board_id,)] = stored(db_path, "SELECT board_message_id FROM games")
    assert board_id != old.id and [b.id for b in boards(channel)] == [old.id, board_id]
    assert stored(db_path, "SELECT message_id FROM old_boards") == [(old.id,)]

    bot.outbox.stop()
    await env.restart_bot(create_bot(database_path=db_path))
    await env.advance_time(1)
    [board] = boards(channel)  # the old board is gone, the one the game names is edited
    assert (
        board.id == board_id and "move 2 ·" in texts_of(board) and "alice: Place 3 on b2" in texts_of(board)
    )
    assert stored(db_path, "SELECT COUNT(*) FROM old_boards") == stored(
        db_path, "SELECT COUNT(*) FROM outbox"
    )
    assert stored(db_path, "SELECT COUNT(*) FROM outbox") == [(0,)]
    assert f"/{board_id})" in last_ping(channel).content

    # The game goes on from that board: still one, showing the next move.
    await env.advance_time(30)
    assert private_replies(await m["bob"].slash(channel, "play", action="2@c3")) == ["✅ Played `2@c3`."]
    [board] = boards(channel)
    [(now,)] = stored(db_path, "SELECT board_message_id FROM games")
    assert board.id == now and "move 3 ·" in texts_of(board) and "bob: Place 2 on c3" in texts_of(board)


async def test_a_board_left_by_a_kill_before_its_id_was_saved_only_refuses_its_stale_controls(
    world, db_path, monkeypatch
):
    """The one window the outbox cannot close (as for a ping): Discord posted the new board, and
    the process died before saving its id. That extra board's controls act on the right game:
    once the game moved on they are refused as out of date."""
    env, channel, m = world
    bot = env.bot
    await start_ninesons(env, channel, m)
    [old] = boards(channel)
    await env.advance_time(TOKEN_DEAD)

    async def killed(*args: object) -> None:
        raise Killed

    monkeypatch.setattr(bot.db.old_boards, "move", killed)
    # and nothing takes the new board back (the process is gone)
    env.inject_error("DELETE", "/webhooks/*/*/messages/*", status=500, code=0, message="gone", times=None)
    await m["alice"].slash(channel, "play", action="3@b2")
    [orphan] = [b for b in boards(channel) if b.id != old.id]

    bot.outbox.stop()
    env.backend.faults.clear()
    await env.restart_bot(create_bot(database_path=db_path))
    await env.advance_time(30)
    assert "move 2 ·" in texts_of(next(b for b in boards(channel) if b.id == old.id))  # caught up
    await m["bob"].slash(channel, "play", action="2@c3")
    [(version,)] = stored(db_path, "SELECT version FROM games")
    refused = await m["alice"].click(orphan, label=button_labels(orphan)[0])
    assert any("out of date" in text for text in private_replies(refused)), private_replies(refused)
    assert stored(db_path, "SELECT version FROM games") == [(version,)]
    [(board_id,)] = stored(db_path, "SELECT board_message_id FROM games")
    assert [b.id for b in boards(channel)] == [orphan.id, board_id]  # that one extra board, no other
    assert "move 3 ·" in texts_of(boards(channel)[-1])


@pytest.mark.threads
async def test_in_a_thread_the_board_moves_within_the_thread(world):
    env, channel, m = world
    alice, bob = m["alice"], m["bob"]
    await settle(channel, m)
    await alice.slash(channel, "game new", game="ninesons", options="first_player=first")
    [lobby] = boards(channel)
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    thread = next(t for t in channel.threads if t.name.endswith("#1"))
    [old] = boards(thread)
    await env.advance_time(TOKEN_DEAD)
    await alice.slash(thread, "play", action="3@b2")
    [board] = boards(thread)
    assert board.id != old.id and "alice: Place 3 on b2" in texts_of(board)
    assert f"/{thread.id}/{board.id})" in last_ping(thread).content
    [sign] = boards(channel)  # the lobby, the game's sign in the channel, stays
    assert sign.id == lobby.id and "Played in its thread" in texts_of(sign)


def links_to(message: discord.Message, board_id: int) -> bool:
    return f"/{board_id})" in (message.content or "")


async def test_a_flagon_game_by_play_keeps_one_board_and_every_standing_ping_links_it(
    simcord_env, simcord_bot
):
    """Flagon by /play at human pace: the board moves about every 14 minutes, sometimes with a
    change that pings nobody new (a plan, a step of the same member): the pings left standing,
    in the channel and in bob's DMs (he chose DM pings), then name the new board."""
    env, bot = simcord_env, simcord_bot
    guild, channel, m = table_world(env, bot, ("alice", "bob", "carol"), admin=True, seed=20261129)
    await m["admin"].slash(channel, "config set", setting="images", value="off")
    await m["bob"].slash(channel, "game notify", where="dm")
    await m["alice"].slash(channel, "game new", game="flagon")
    for name in ("bob", "carol"):
        await m[name].click(boards(channel)[-1], label="Join")
    await m["alice"].click(boards(channel)[-1], label="Start")
    by_user = {member.id: member for member in m.values()}
    rng = random.Random(11)
    moved = 0
    for _ in range(600):
        await env.advance_time(rng.uniform(15, 45))
        rec, game = await bot.service.load(1)
        if game.is_over or rec.status != "active":
            break
        seat = rng.choice([s for s in rec.seats if not s.is_ai and s.seat in game.to_act()])
        await by_user[seat.user_id].slash(channel, "play", action=rng.choice(game.legal_actions(seat.seat)))
        [board] = boards(channel)
        assert board.id == (await bot.service.db.games.load(1)).board_message_id
        moved += board.id != rec.board_message_id
        standing = [p for p in channel.history() if not p.embeds and "Go to the board" in (p.content or "")]
        standing += [p for p in m["bob"].user.dm_channel.history() if "Go to the board" in (p.content or "")]
        assert all(links_to(p, board.id) for p in standing), [p.content for p in standing]
    assert game.is_over and moved >= 5
