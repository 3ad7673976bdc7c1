"""Issue 23, "also check": a member who blocks the bot's DMs, leaves the server or is banned in
the middle of a game. The game goes on (their seat times out as usual), the moves of the
others are announced without delay notices, nothing is retried for ever, no error is logged."""

from __future__ import annotations

import pytest

from tests.bot.helpers import last_board, private_replies, texts_of

BLOCKED = {"status": 403, "code": 50007, "message": "Cannot send messages to this user", "times": None}


@pytest.fixture
def world(simcord_env, simcord_bot):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob")}
    return simcord_env, guild, channel, members


async def _secret_game(channel, m):
    await m["alice"].slash(channel, "game new", game="tally", options="secret=on target=40")
    await m["bob"].click(last_board(channel), label="Join")
    await m["alice"].click(last_board(channel), label="Start")
    await m["alice"].click(last_board(channel), label="Add 1")
    await m["bob"].click(last_board(channel), label="Add 1")  # the secret pick opens: bob gets a DM


async def _play_on(env, channel, m, moves: int) -> None:
    """Whoever must act plays (Add 1, or pick 1 through the board's button)."""
    by_seat = {"p1": m["alice"], "p2": m["bob"]}
    for _ in range(moves):
        rec, game = await env.bot.service.load(1)
        if game is None or game.is_over:
            return
        member = by_seat[game.to_act()[0]]
        if game.phase == "pick":
            shown = await member.click(last_board(channel), label="🔒 Show my hand / plan")
            result = await member.select(shown.response, ["pick:1"])
        else:
            result = await member.click(last_board(channel), label="Add 1")
        assert not [r for r in private_replies(result) if "could not be updated" in r]


def _requests_to(env, channel_id: int) -> int:
    return sum(1 for r in env.http_requests if r.path.startswith(f"/channels/{channel_id}/"))


def _errors(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


async def test_blocking_the_bots_dms_mid_game_changes_nothing_for_the_table(world, caplog):
    env, guild, channel, m = world
    await _secret_game(channel, m)
    bob_dm = m["bob"].user.dm_channel
    assert bob_dm.last_message is not None  # bob's prompt went out by DM
    for method in ("POST", "PATCH", "DELETE"):
        env.inject_error(method, f"/channels/{bob_dm.id}/messages*", **BLOCKED)
    caplog.set_level("WARNING")
    result = await m["alice"].user.select(last_board(m["alice"].user.dm_channel), ["pick:3"])
    assert not [r for r in private_replies(result) if "could not be updated" in r]
    shown = await m["bob"].click(last_board(channel), label="🔒 Show my hand / plan")  # his fallback
    assert "only you see this" in texts_of(shown.response)
    await m["bob"].select(shown.response, ["pick:1"])
    await _play_on(env, channel, m, moves=8)  # bob's seat message can neither be edited nor sent
    assert not _errors(caplog)
    # Nothing keeps knocking at bob's closed DMs while the game waits.
    before = _requests_to(env, bob_dm.id)
    await env.advance_time(3 * 3600)
    assert _requests_to(env, bob_dm.id) - before <= 1
    assert not _errors(caplog)


@pytest.mark.parametrize("gone", ["leaves", "is banned"])
async def test_a_member_who_leaves_or_is_banned_times_out_and_the_game_goes_on(world, caplog, gone):
    env, guild, channel, m = world
    await _secret_game(channel, m)
    bob, bob_dm = m["bob"], m["bob"].user.dm_channel
    await m["alice"].user.select(last_board(m["alice"].user.dm_channel), ["pick:3"])
    if gone == "leaves":
        guild.remove_member(bob)
    else:
        env.backend.apply_ban(guild.id, bob.id, "spam")
    for method in ("POST", "PATCH", "DELETE"):  # no server shared with the bot: no DMs either
        env.inject_error(method, f"/channels/{bob_dm.id}/messages*", **BLOCKED)
    caplog.set_level("WARNING")
    timeout = (await env.bot.service.settings(guild.id)).turn_timeout("tally")
    timeouts, said = 0, []
    for _ in range(12):  # bob's seat times out as any absent player's would; alice plays on
        rec, game = await env.bot.service.load(1)
        if game.is_over or rec.status != "active":
            break
        if "p1" in game.to_act():
            await _play_on(env, channel, m, moves=1)
        else:
            await env.advance_time(timeout + 1)
            timeouts += 1
            said.append(texts_of(last_board(channel)))
    rec, game = await env.bot.service.load(1)
    bob_seat = rec.seats[1]
    assert rec.seats[0].user_id == m["alice"].id  # alice still plays her own seat
    assert (
        bob_seat.user_id is None or bob_seat.timeouts_in_a_row >= 1
    )  # the AI took bob's seat, or it times out
    assert timeouts >= 3 and rec.version > 8
    assert "bob ran out of time" in said[0] and any("an AI plays their seat from here" in t for t in said)
    assert not _errors(caplog)
    before = _requests_to(env, bob_dm.id)
    await env.advance_time(3 * 3600)
    assert _requests_to(env, bob_dm.id) - before <= 3
    assert not _errors(caplog)
