"""Events in the outbox (storage) are announced later, maybe by a newer bot: an event queued
before it carried structured ``data`` still loads and shows on the board (issue 24)."""

from __future__ import annotations

import pytest

from tests.bot.helpers import last_board, texts_of


@pytest.fixture
def world(simcord_env, simcord_bot):
    simcord_bot.service._seed_source = lambda: 20261202
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob")}
    return simcord_env, channel, members


async def test_flagon_events_queued_without_data_by_an_older_bot_are_shown_on_the_board(world):
    env, channel, m = world
    await m["alice"].slash(channel, "game new", game="flagon")
    await m["bob"].click(last_board(channel), label="Join")
    await m["alice"].click(last_board(channel), label="Start")
    rec, _ = await env.bot.service.load(1)
    # As an older bot wrote them: a card reveal and its token move, with no "data" key at all.
    old_rows = [
        {"kind": "reveal", "text": "{p1}'s Nari reveals Backstab.", "to": None},
        {"kind": "token", "text": "Nari faces E; time token moves 2 to space 5.", "to": None},
    ]
    await env.bot.service.queue_announcement(rec.id, old_rows)
    await env.bot.outbox.deliver(rec.id)
    board = texts_of(last_board(channel))
    alice = "alice" if rec.seat("p1").user_id == m["alice"].user.id else "bob"
    assert f"{alice}'s Nari reveals Backstab." in board
    assert "Nari faces E; time token moves 2 to space 5." in board


async def test_flagon_events_with_data_fold_into_one_recent_line(world):
    env, channel, m = world
    await m["alice"].slash(channel, "game new", game="flagon")
    await m["bob"].click(last_board(channel), label="Join")
    await m["alice"].click(last_board(channel), label="Start")
    rec, _ = await env.bot.service.load(1)
    rows = [
        {
            "kind": "reveal",
            "text": "reworded",
            "to": None,
            "data": {"owner": "p1", "char": "nari", "card": "backstab"},
        },
        {
            "kind": "token",
            "text": "reworded too",
            "to": None,
            "data": {"char": "nari", "facing": "E", "cost": 2, "space": 5},
        },
    ]
    await env.bot.service.queue_announcement(rec.id, rows)
    await env.bot.outbox.deliver(rec.id)
    alice = "alice" if rec.seat("p1").user_id == m["alice"].user.id else "bob"
    board = texts_of(last_board(channel))
    assert f"{alice}'s Nari — Backstab · faces E, +2 time → 5" in board
    assert "reworded" not in board
