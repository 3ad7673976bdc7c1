"""A fourth game gets every feature the built-in games have by adding files only: the complete
Tally plug-in (tests/doubles/tally_complete*.py, tally_rules.md) is loaded by the one loader,
like a built-in game, and played through simcord by members: its own server setting, its result
wording, ratings, replay, its card reference and its rules. No shared module names Tally."""

from __future__ import annotations

import sys

import pytest

import cogs.ui
import render
from cogs.plugins import load_plugins
from engine import registry
from tests.bot.helpers import button_labels, last_board, private_replies, table_world, texts_of

PACKAGE = "tests.doubles.tally_complete"
MODULES = (PACKAGE, "tests.doubles.tally_complete_discord")


@pytest.fixture
def complete_tally(simcord_bot, monkeypatch):
    # The registries are restored afterwards (the other tests keep the plain Tally double), and
    # the modules are imported afresh, so each test's loader registers them again.
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    monkeypatch.setattr(render, "_RENDERERS", dict(render._RENDERERS))
    monkeypatch.setattr(cogs.ui, "_PLUGINS", dict(cogs.ui._PLUGINS))
    for module in MODULES:
        monkeypatch.delitem(sys.modules, module, raising=False)
    load_plugins([PACKAGE])
    return simcord_bot


@pytest.fixture
def world(complete_tally, simcord_env):
    guild, channel, members = table_world(simcord_env, complete_tally, admin=True)
    return simcord_env, channel, members


def field(message, name: str) -> str:
    data = message.embeds[0].to_dict()
    return next((f["value"] for f in data.get("fields", []) if f["name"] == name), "")


async def start_tally(channel, host, guest, options: str = "target=5"):
    await host.slash(channel, "game new", game="tally", options=options)
    await guest.click(last_board(channel), label="Join")
    await host.click(last_board(channel), label="Start")
    return last_board(channel)


async def test_its_own_server_setting_reaches_the_games_started_afterwards(world):
    env, channel, m = world
    admin = m["admin"]
    refused = await admin.slash(channel, "config set", setting="tally_head_start", value="9")
    assert "tally_head_start" in private_replies(refused)[0] and "3" in private_replies(refused)[0]
    result = await admin.slash(channel, "config set", setting="tally_head_start", value="2")
    assert private_replies(result) == ["✅ `tally_head_start` is now **2**."]
    shown = await admin.slash(channel, "config show")
    assert "Points each Tally player starts with" in texts_of(shown.response)
    board = await start_tally(channel, m["alice"], m["bob"])
    assert "🧮 Tally — alice 2 · bob 2" in texts_of(board)  # the head start, handed to new_game


async def test_result_wording_ratings_and_replay(world):
    env, channel, m = world
    alice, bob, admin = m["alice"], m["bob"], m["admin"]

    # A game stopped early: the record's wording says the scores so far and draws the board over.
    await start_tally(channel, alice, bob)
    await alice.slash(channel, "play", action="+2")
    result = await admin.slash(channel, "game cancel")
    assert private_replies(result) == ["Game #1 was cancelled."]
    final = last_board(channel)
    outcome = field(final, "Result").splitlines()
    assert outcome[0] == "🚫 Cancelled by admin."
    assert outcome[1] == "Scores so far: alice 2 · bob 0"  # its standing
    assert "Game over: cancelled." in texts_of(final)  # its final view, drawn by its renderer

    # A game played to the end is rated, and replayed ply by ply.
    await start_tally(channel, alice, bob)
    for mover, action in ((alice, "+2"), (bob, "+1"), (alice, "+2"), (bob, "+1"), (alice, "+2")):
        await mover.slash(channel, "play", action=action)
    final = last_board(channel)
    assert field(final, "Result").splitlines()[:2] == ["🥇 alice (6)", "🥈 bob (2)"]
    board = await bob.slash(channel, "game leaderboard", game="tally")
    lines = private_replies(board)[0].splitlines()
    assert lines[0] == "🏆 Tally — leaderboard"
    assert lines[1].startswith("`# 1` **alice** — ") and lines[2].startswith("`# 2` **bob** — ")

    assert button_labels(final)[-2:] == ["🔁 Rematch", "🎞 Replay"]
    opened = await bob.click(final, label="🎞 Replay")
    replay = opened.followups[-1] if opened.followups else opened.response
    shown = texts_of(replay)
    assert "Ply 0 / 5" in shown and "🧮 Tally — alice 0 · bob 0" in shown


async def test_its_cards_and_its_rules_file(world):
    env, channel, m = world
    alice = m["alice"]
    choices = await alice.autocomplete(channel, "game card", "name", "tally")
    assert {c["value"] for c in choices} >= {"tally:one", "tally:two"}
    result = await alice.slash(channel, "game card", name="Tally Two")
    assert result.ephemeral and "Add 2 to your score." in texts_of(result.response)
    assert [a.filename for a in result.response.attachments] == ["card.png"]  # its card renderer

    result = await alice.slash(channel, "game rules", game="tally")
    assert "How to play" in texts_of(result.response) and "add 1 or 2" in texts_of(result.response)
