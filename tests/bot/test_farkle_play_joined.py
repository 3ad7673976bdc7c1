"""`/play keep:1,5+roll` (issue 27, finding 6), as two members type it through simcord: the
autocomplete offers each keep joined to its follow-up, one command plays both, a refused one
changes nothing, and the action log replays the game exactly."""

from __future__ import annotations

import random

import pytest

from sessions.replay import load_replay
from tests.bot.helpers import last_board, private_replies, table_world, texts_of


@pytest.fixture
def world(simcord_env, simcord_bot):
    guild, channel, members = table_world(simcord_env, simcord_bot)
    return simcord_env, simcord_bot, guild, channel, members


async def start(channel, m):
    await m["alice"].slash(channel, "game new", game="farkle", options="first_player=lobby max_rounds=2")
    await m["bob"].click(last_board(channel), label="Join")
    await m["alice"].click(last_board(channel), label="Start")


async def test_one_command_keeps_and_rolls_and_autocomplete_offers_it(world):
    env, bot, _guild, channel, m = world
    alice = m["alice"]
    bot.service._seed_source = lambda: 1  # a first roll of 1 2 2 3 3 5 with a blank Event die
    await start(channel, m)
    await alice.slash(channel, "play", action="recruit")
    _, game = await bot.service.load(1)
    keeps = [a for a in game.legal_actions("p1") if a.startswith("keep:")]
    assert keeps, game.view(None)["roll"]
    choices = await alice.autocomplete(channel, "play", "action", "")
    values = [c["value"] for c in choices]
    keep = keeps[0]
    # Each keep is followed by its joined forms, labelled like the board's one-click buttons.
    at = values.index(keep)
    assert values[at + 1 : at + 3] == [f"{keep}+roll", f"{keep}+stop"]
    label = next(c["name"] for c in choices if c["value"] == f"{keep}+roll")
    assert label.startswith(f"{keep}+roll — Keep ") and " & roll " in label
    version = (await bot.db.games.load(1)).version
    result = await alice.slash(channel, "play", action=f"{keep}+roll")
    assert private_replies(result) == [f"✅ Played `{keep}+roll`."]
    rec, game = await bot.service.load(1)
    assert rec.version == version + 1  # one action, one save
    assert game.view(None)["phase"] in ("roll", "rally", "decide") or game.to_act() == ["p2"]
    assert (await bot.db.log.of_game(1))[-1].action == f"{keep}+roll"
    assert f"{keep}+roll" not in texts_of(last_board(channel))  # the board speaks in words


async def test_a_joined_move_that_cannot_be_played_is_refused_privately_and_changes_nothing(world):
    env, bot, _guild, channel, m = world
    alice, bob = m["alice"], m["bob"]
    await start(channel, m)
    await alice.slash(channel, "play", action="recruit")
    rec = await bot.db.games.load(1)
    for action in ("keep:1+bank", "roll+keep:1", "keep:9,9+roll"):
        result = await alice.slash(channel, "play", action=action)
        replies = private_replies(result)
        assert len(replies) == 1 and replies[0].startswith("⚠️"), (action, replies)
    result = await bob.slash(channel, "play", action="keep:1+roll")
    assert private_replies(result)[0].startswith("⚠️")
    assert (await bot.db.games.load(1)).version == rec.version


async def test_a_whole_game_by_joined_moves_replays_exactly(world):
    """Two members play a whole game by /play, always a joined move when one is offered: fewer
    commands than engine decisions, and the replay rebuilds the saved end."""
    env, bot, guild, channel, m = world
    await start(channel, m)
    member = {"p1": m["alice"], "p2": m["bob"]}
    rng = random.Random(3)
    commands = decisions = 0
    for _ in range(400):
        rec, game = await bot.service.load(1)
        if rec.status != "active":
            break
        seat = game.to_act()[0]
        joined = game.shortcuts(seat)
        action = rng.choice(joined) if joined else rng.choice(game.legal_actions(seat))
        result = await member[seat].slash(channel, "play", action=action)
        assert private_replies(result) == [f"✅ Played `{action}`."], action
        commands += 1
        decisions += 2 if "+" in action else 1
    assert rec.status == "finished"
    assert commands < decisions
    replay = await load_replay(bot.service, 1, guild.id)
    assert replay.matches_saved_state()
