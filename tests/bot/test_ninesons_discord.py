"""The Nine Sons of the Dragon through the real discord.py client against simcord: a whole
game against the easy AI through the board's menus and /play, refusals, the end board, and
the board image setting."""

from __future__ import annotations

import random
import re

import discord
import pytest

from cogs.ui.ninesons import menu_path
from engine.ninesons import NineSonsGame, new_game
from tests.bot.helpers import button_labels, last_board, private_replies, select_values, texts_of
from tests.bot.test_ninesons_clicks import select_placeholder

REMATCH = "🔁 Rematch"
FINAL = ["🔁 Rematch", "🎞 Replay"]  # the final board's buttons
MAX_TURNS = 80  # alice's turns; easy-AI games end long before (points, 4 cards or repetition)


@pytest.fixture
def world(simcord_env, simcord_bot):
    # A fixed game seed (the service's seed source) keeps the game, and so this test, repeatable.
    simcord_bot.service._seed_source = lambda: 20261129
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    admin_role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol")}
    members["admin"] = guild.add_member(simcord_env.create_user("admin"), roles=[admin_role])
    return simcord_env, guild, channel, members


async def start_vs_ai(channel, host, game_id: int = 1, options: str = "first_player=first"):
    result = await host.slash(channel, "game new", game="ninesons", options=options)
    assert result.ephemeral and f"Lobby #{game_id}" in result.response.content
    await host.select(last_board(channel), ["easy"], custom_id=f"dt:{game_id}:ai")
    await host.click(last_board(channel), label="Start")
    return last_board(channel)


async def start_vs_human(channel, host, guest):
    await host.slash(channel, "game new", game="ninesons", options="first_player=first")
    await guest.click(last_board(channel), label="Join")
    await host.click(last_board(channel), label="Start")
    return last_board(channel)


async def play_by_menu(member, channel, rng: random.Random) -> str:
    """One turn through the board: a button (a die, a stack, or a whole move), then the select
    that opens below the board's buttons until a leaf is played. Returns "✅ <the move>" as the
    new board's Recent line says it (or "" if the button played)."""
    board = last_board(channel)
    labels = button_labels(board)
    assert labels, texts_of(board)
    result = await member.click(board, label=rng.choice(labels))
    assert private_replies(result) == []  # no secrets in this game: nothing private
    if not select_values(last_board(channel)):  # a button with a single action below it plays at once
        assert texts_of(last_board(channel)) != texts_of(board)
        return ""
    for _depth in range(3):
        picker = last_board(channel)
        values = select_values(picker)
        if not values:  # the choice's response carried the new board: no select left
            mine = [line for line in texts_of(picker).splitlines() if line.startswith(f"{member.user.name}: ")]
            return f"✅ {mine[-1].split(': ', 1)[1]}"
        assert picker.id == board.id and button_labels(picker) == labels  # below the same board's buttons
        result = await member.select(picker, [rng.choice(values)])
        assert private_replies(result) == []
    raise AssertionError("the menu is deeper than a die or stack -> its destination")


async def test_whole_game_against_easy_ai_through_menus_and_play(world):
    env, guild, channel, m = world
    alice, carol = m["alice"], m["carol"]
    board = await start_vs_ai(channel, alice)
    text = texts_of(board)
    assert "game #1" in text and "A (alice) to play" in text and "Easy AI 1" in text
    # An empty board: placing is the only move, one button per die value.
    assert button_labels(board) == [f"Place a {value}" for value in range(1, 7)]
    # A spectator's click and /play are refused privately; the board does not change.
    result = await carol.click(board, label="Place a 3")
    assert private_replies(result) == ["⚠️ You are not playing in this game."]
    result = await carol.slash(channel, "play", action="3@b2")
    assert "not playing" in private_replies(result)[0]
    assert texts_of(last_board(channel)) == text

    # The first move through /play with autocomplete: "3@" lists only places of a 3.
    choices = await alice.autocomplete(channel, "play", "action", "3@")
    assert choices and all(c["value"].startswith("3@") for c in choices)
    assert {"name": "3@b2 — Place 3 on b2", "value": "3@b2"} in choices
    result = await alice.slash(channel, "play", action="3@b2")
    assert private_replies(result) == ["✅ Played `3@b2`."]
    board = last_board(channel)
    assert "alice: Place 3 on b2" in texts_of(board)  # {p1} placeholders filled with names
    assert "Easy AI 1: " in texts_of(board)  # the AI answered at once

    rng = random.Random(5)
    confirmations, played_by_slash = [], 1
    for turn in range(MAX_TURNS):
        board = last_board(channel)
        if button_labels(board) == FINAL:  # the final board
            break
        if turn % 3 == 2 and not any(label.startswith("Tame") for label in button_labels(board)):
            choices = await alice.autocomplete(channel, "play", "action", "")
            assert choices and len(choices) <= 25
            pick = rng.choice(choices)["value"]
            result = await alice.slash(channel, "play", action=pick)
            assert private_replies(result) == [f"✅ Played `{pick}`."]
            played_by_slash += 1
        else:
            confirmations.append(await play_by_menu(alice, channel, rng))
        assert board.id == last_board(channel).id  # one board message, edited in place
    board = last_board(channel)
    text = texts_of(board)
    assert button_labels(board) == FINAL, "the game did not end in time"
    assert played_by_slash >= 3 and len([c for c in confirmations if c]) >= 5
    assert any(c.startswith("✅ Place") for c in confirmations) and any(c.startswith("✅ Move") for c in confirmations)
    # The end: final board, points per player, cards tamed and why it ended.
    result_field = text.split("Result ", 1)[1]
    assert "🥇" in result_field and "alice" in result_field and "Easy AI 1" in result_field
    assert len(re.findall(r"^(🥇|🥈) .+ \(-?\d+\)$", result_field, re.M)) == 2  # both players' points
    assert "tamed" in result_field  # "alice tamed QiuNiu, …; Easy AI 1 tamed no card."
    assert any(why in result_field.lower() for why in ("points", "only 4 cards are left", "third time", "could not act"))
    assert "Game over (" in text and " pts / " in text  # the final board text says it too
    assert "{p1}" not in text and "{p2}" not in text
    assert [a.filename for a in board.attachments] == ["board.png"]
    # After the end there is nothing to play: /play is refused privately.
    result = await alice.slash(channel, "play", action="1@a1")
    assert private_replies(result) and private_replies(result)[0].startswith("⚠️")


# From the fixed seed (first_player=first), these moves lead to alice's c1-c2-c3, which builds
# 3-stacks on two cards at once (FuXi on S4 and BiAn on S6): she must choose the order.
OPENING = ["1@d2", "3@b3", "4@c2", "4@a1", "5@d1", "5@c1", "2@c3", "c1-c2", "3@c1", "2@a2", "6@d3",
           "b3-c3", "d1-c1", "1@b3"]


def option_value(picker, label: str) -> str:
    """The value of the select option showing ``label`` in a private picker."""
    for row in picker.components:
        row = row.to_dict() if hasattr(row, "to_dict") else row
        for component in row.get("components", []):
            for option in component.get("options", []):
                if option["label"] == label:
                    return str(option["value"])
    raise AssertionError(f"no option {label!r} in {select_values(picker)}")


async def test_refusals_move_menu_and_taming_choice_between_two_members(world):
    env, guild, channel, m = world
    alice, bob, carol = m["alice"], m["bob"], m["carol"]
    board = await start_vs_human(channel, alice, bob)
    before = texts_of(board)
    # Out of turn and not a player: refused privately, nothing changes.
    result = await bob.click(board, label="Place a 1")
    assert result.ephemeral and private_replies(result) == ["⚠️ It is not your turn."]
    result = await carol.click(board, label="Place a 1")
    assert private_replies(result) == ["⚠️ You are not playing in this game."]
    result = await bob.slash(channel, "play", action="3@b2")
    assert private_replies(result) == ["⚠️ It is not your turn."]
    assert await bob.autocomplete(channel, "play", "action", "") == []
    assert texts_of(last_board(channel)) == before
    # A Place in two clicks: the die's value (a board button), then the cell (a private select
    # naming each cell's card).
    # The select opens on the board, below its buttons (nothing here is secret).
    result = await alice.click(board, label="Place a 1")
    picker = last_board(channel)
    assert private_replies(result) == [] and select_placeholder(picker) == "Place a 1…"
    assert button_labels(picker) == button_labels(board) and texts_of(picker) == before
    assert len(select_values(picker)) == 12  # every cell is empty
    # Someone else's hands on it change nothing.
    result = await bob.select(picker, [option_value(picker, "d2 · FuXi (S4)")])
    assert private_replies(result) == ["⚠️ It is not your turn."]
    result = await alice.select(picker, [option_value(picker, "d2 · FuXi (S4)")])
    assert private_replies(result) == [] and select_values(last_board(channel)) == []
    board = last_board(channel)
    assert "alice: Place 1 on d2" in texts_of(board) and "B (bob) to play" in texts_of(board)
    # The same old board button is now out of turn for alice.
    result = await alice.click(board, label="Place a 1")
    assert private_replies(result) == ["⚠️ It is not your turn."]
    players = {0: bob, 1: alice}
    for ply, action in enumerate(OPENING[1:]):
        result = await players[ply % 2].slash(channel, "play", action=action)
        assert private_replies(result) == [f"✅ Played `{action}`."]
    # alice moves the 2-dice stack on c1 in two clicks: the stack, then its path. All six of
    # her dice are on the board, so moving is all she can do; a die with one move is one button.
    board = last_board(channel)
    assert button_labels(board) == ["Move stack on c1 (2 dice)", "Move die on d2", "Move d3→c3"]
    await alice.click(board, label="Move stack on c1 (2 dice)")
    picker = last_board(channel)
    assert select_placeholder(picker) == "Move stack on c1 (2 dice)…" and len(select_values(picker)) == 6
    await alice.select(picker, [option_value(picker, "c1→c2→c3")])
    assert "alice: Move c1→c2→c3" in texts_of(last_board(channel))
    # Two cards are tamed at once: only alice is offered the order, one button per card.
    board = last_board(channel)
    assert button_labels(board) == ["Tame FuXi (S4) first", "Tame BiAn (S6) first"]
    assert "alice must choose: Tame FuXi (S4) first, Tame BiAn (S6) first." in texts_of(board)
    result = await bob.click(board, label="Tame BiAn (S6) first")
    assert private_replies(result) == ["⚠️ It is not your turn."]
    result = await alice.click(board, label="Tame BiAn (S6) first")
    assert private_replies(result) == []  # one click: the board changes, nothing private to answer
    text = texts_of(last_board(channel))
    assert text.index("alice tames BiAn") < text.index("alice tames FuXi")  # in the chosen order
    assert "+2 pts 2 cards" in text and "B (bob) to play" in text


async def test_board_png_is_attached_unless_images_are_off(world):
    env, guild, channel, m = world
    board = await start_vs_ai(channel, m["alice"])
    assert [a.filename for a in board.attachments] == ["board.png"]
    result = await m["alice"].slash(channel, "game cancel")
    assert private_replies(result) == ["Game #1 was cancelled."]
    result = await m["admin"].slash(channel, "config set", setting="images", value="off")
    assert private_replies(result) == ["✅ `images` is now **off**."]
    board = await start_vs_ai(channel, m["alice"], game_id=2)
    assert "game #2" in texts_of(board) and "THE NINE SONS OF THE DRAGON" in texts_of(board)
    assert board.attachments == []
    await m["alice"].slash(channel, "play", action="2@c3")
    assert last_board(channel).attachments == []  # still none after an edit


def test_menu_paths_match_the_notation():
    g = new_game(["p1", "p2"], 1, first_player="first")
    assert menu_path(g, "p1", "3@b2") == ["Place a 3", "b2 · SuanNi (S3)"]
    # Two cards to resolve: the order is the choice.
    h = NineSonsGame.from_position(
        ["alice", "bob"], {"b2": "A3 A5", "b1": "B1 B2", "c1": "B3 B4"},
        slots=["QiuNiu", "ChiWen", "BiAn", "FuXi", "SuanNi", None],
    )
    h.play("alice", "b2-b1-c1")
    assert [menu_path(h, "alice", a) for a in h.legal_actions("alice")] == [
        ["Tame QiuNiu (S1) first"], ["Tame ChiWen (S2) first"]]
    # One card, two 3-stacks topped by different players: the choice is who tames it.
    k = NineSonsGame.from_position(["alice", "bob"], {"c2": "B4 A6", "c3": "B1 B2", "d3": "A3 B5"},
                                   deck=["BiAn"])
    k.play("alice", "c2-c3-d3")
    assert [menu_path(k, "alice", a) for a in k.legal_actions("alice")] == [
        ["Tame QiuNiu (S6) with the stack on c3 (top 4): opponent tames"],
        ["Tame QiuNiu (S6) with the stack on d3 (top 6): you tame"]]
