"""A fourth game on Discord through the public plug-in contract only: Tally (a test double)
with its own renderer, move menu, lobby field and control, registered by this test."""

from __future__ import annotations

import pytest

import cogs.ui
import render
from tests.bot.helpers import button_labels, last_board, private_replies, select_values, texts_of
from tests.doubles import tally_ui


@pytest.fixture
def tally_plugin(monkeypatch):
    # Registered through the public functions; the registries are restored afterwards, so the
    # other tests keep Tally's generic UI.
    monkeypatch.setattr(render, "_RENDERERS", dict(render._RENDERERS))
    monkeypatch.setattr(cogs.ui, "_PLUGINS", dict(cogs.ui._PLUGINS))
    tally_ui.install()


@pytest.fixture
def world(simcord_env, tally_plugin):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob")}
    return simcord_env, channel, members


async def test_tally_plays_on_discord_as_a_plugged_in_game(world):
    env, channel, m = world
    alice, bob = m["alice"], m["bob"]
    result = await alice.slash(channel, "game new", game="tally", options="target=5")
    assert result.ephemeral and "Lobby #1" in result.response.content
    lobby = last_board(channel)
    assert "First to 5 points wins." in texts_of(lobby)  # the plug-in's lobby field
    await bob.click(lobby, label="Join")
    await alice.select(last_board(channel), ["easy"], custom_id="dt:1:ai")  # an AI seat
    assert "AI" in texts_of(last_board(channel))
    await alice.click(last_board(channel), label="Start")

    board = last_board(channel)
    assert "🧮 Tally — alice 0 · bob 0" in texts_of(board)  # the plug-in's renderer
    labels = button_labels(board)
    assert tally_ui.ADD in labels and "📊 My score" in labels  # the menu's first level, the control
    assert "Add 1" not in labels  # the actions are in the menu, not one button each

    # The menu: one board button opens a private select of the actions.
    result = await alice.click(board, label=tally_ui.ADD)
    assert select_values(result.response) == ["0", "1"]
    await alice.select(result.response, ["1"])  # Add 2
    board = last_board(channel)
    assert "alice added 2." in texts_of(board) and "alice 2 · bob 0" in texts_of(board)

    # /play in text notation, then the AI seat moves by itself.
    result = await bob.slash(channel, "play", action="+1")
    assert private_replies(result) == ["✅ Played `+1`."]
    board = last_board(channel)
    assert "bob added 1." in texts_of(board)
    assert "🤖" in texts_of(board) and "AI" in texts_of(board).split("bob added 1.", 1)[1]

    # The game's own control, routed by its custom_id through the plug-in's handler table.
    result = await alice.click(board, label="📊 My score")
    assert private_replies(result) == ["📊 Your score: 2."]

    # Play it out: alice and bob add 2 / 1 until someone wins; the final board offers only a rematch.
    for _ in range(10):
        board = last_board(channel)
        if "Result" in texts_of(board):
            break
        if tally_ui.ADD in button_labels(board) and "▶ <@" in texts_of(board):
            mover = alice if f"▶ <@{alice.id}>" in texts_of(board) else bob
            result = await mover.click(board, label=tally_ui.ADD)
            await mover.select(result.response, ["1"])
    assert "Result" in texts_of(last_board(channel))
    assert button_labels(last_board(channel)) == ["🔁 Rematch", "🎞 Replay"]


async def test_a_game_without_a_ui_plugin_is_refused_at_start_up(db_path, monkeypatch):
    from bot import create_bot
    from engine import registry
    from tests.doubles.tally import INFO

    monkeypatch.setattr(cogs.ui, "_PLUGINS", {k: v for k, v in cogs.ui._PLUGINS.items() if k != "tally"})
    registry.register(INFO)
    bot = create_bot(database_path=db_path)
    with pytest.raises(RuntimeError, match="No Discord UI registered for tally"):
        await bot.setup_hook()
    bot.stop_background_work()
