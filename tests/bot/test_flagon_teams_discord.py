"""Issue 15, broken rule 3, through the real client: in a team-game lobby the players pick their
teams with "Join team A / B" buttons (the rest alternate), Start gives each side the same number of
characters as the rulebook's five-player example does, and an impossible split is refused."""

from __future__ import annotations

import pytest

from tests.bot.helpers import button_labels, last_board, private_replies, texts_of

NAMES = ("alice", "bob", "cara", "dan", "eve")


@pytest.fixture
def table(simcord_env):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("tavern")
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in (*NAMES, "frank")}
    return simcord_env, channel, members


async def open_team_lobby(channel, m) -> None:
    await m["alice"].slash(channel, "game new", game="flagon", options="team=on")
    for name in NAMES[1:]:
        await m[name].click(last_board(channel), label="Join")


async def test_players_pick_teams_and_five_players_get_four_characters_a_side(table):
    env, channel, m = table
    await open_team_lobby(channel, m)
    assert {"Join team A", "Join team B"} <= set(button_labels(last_board(channel)))
    await m["alice"].click(last_board(channel), label="Join team A")
    await m["bob"].click(last_board(channel), label="Join team A")
    lobby = texts_of(last_board(channel))
    # cara and dan fill team B, eve evens the players up: A alice, bob, eve; B cara, dan.
    # Rulebook: "On the two player team each will have two characters ... On the three player team, one
    # player will control two characters, and each of the other two will control one"
    assert "Team A alice (2), bob (1), eve (1)" in lobby
    assert "Team B cara (2), dan (2)" in lobby
    assert "teams=" not in lobby  # the picks are not shown as an option
    await m["alice"].click(last_board(channel), label="Start")
    rec, game = await env.bot.service.load(1)
    assert rec.status == "active"
    by_name = {s.display_name: s.seat for s in rec.seats}
    teams, quota = game.s["teams"], game.character_quota()
    assert {n: teams[by_name[n]] for n in NAMES} == {
        "alice": "A",
        "bob": "A",
        "cara": "B",
        "dan": "B",
        "eve": "A",
    }
    assert {n: quota[by_name[n]] for n in NAMES} == {"alice": 2, "bob": 1, "cara": 2, "dan": 2, "eve": 1}


async def test_an_impossible_split_is_refused_and_nothing_starts(table):
    env, channel, m = table
    await open_team_lobby(channel, m)
    for name in NAMES:
        await m[name].click(last_board(channel), label="Join team A")
    assert "Team B has no players" in texts_of(last_board(channel))  # the lobby warns before Start
    result = await m["alice"].click(last_board(channel), label="Start")
    assert private_replies(result) == [
        "⚠️ The Dragon & Flagon can't start like this: Team B has no players; both teams need at least one."
    ]
    rec = await env.bot.service.db.games.load(1)
    assert rec.status == "lobby" and rec.state is None
    # moving one player over is still 4 against 1: refused too
    await m["eve"].click(last_board(channel), label="Join team B")
    result = await m["alice"].click(last_board(channel), label="Start")
    assert "Teams of 4 and 1 players cannot field the same number of characters" in private_replies(result)[0]
    assert (await env.bot.service.db.games.load(1)).status == "lobby"


async def test_a_member_without_a_seat_cannot_pick_a_team(table):
    env, channel, m = table
    await open_team_lobby(channel, m)
    before = await env.bot.service.db.games.load(1)
    result = await m["frank"].click(last_board(channel), label="Join team B")
    assert private_replies(result) == ["⚠️ Only seated players pick a team: press Join first."]
    after = await env.bot.service.db.games.load(1)
    assert after.version == before.version and "teams" not in after.options


async def test_no_team_buttons_without_the_team_option(table):
    env, channel, m = table
    await m["alice"].slash(channel, "game new", game="flagon")
    assert "Join team A" not in button_labels(last_board(channel))


async def test_a_pick_leaves_with_its_player(table):
    env, channel, m = table
    await open_team_lobby(channel, m)
    await m["eve"].click(last_board(channel), label="Join team B")
    eve_seat = (await env.bot.service.db.games.load(1)).seat_of_user(m["eve"].user.id).seat
    await m["eve"].click(last_board(channel), label="Leave")
    # frank takes the freed seat id and has picked nothing
    await m["frank"].click(last_board(channel), label="Join")
    rec = await env.bot.service.db.games.load(1)
    assert rec.seat_of_user(m["frank"].user.id).seat == eve_seat
    assert eve_seat not in rec.options["teams"]
