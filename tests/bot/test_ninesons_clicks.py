"""How many clicks a Nine Sons move costs on the board (issue 14, "Fewer clicks").

Two members play a whole game through the board's components only. Each turn the player
wants one legal move (drawn at random from the engine's list, so every kind of move counts,
not only the easy ones) and finds it by reading the labels like a newcomer would: the button
that names the whole move, or the die / stack it picks up and then the destination in the
private select. The test counts the interactions per decision and prints them with every
label seen (``pytest -s tests/bot/test_ninesons_clicks.py``).
"""

from __future__ import annotations

import random
import statistics
from collections import Counter

import discord
import pytest

from cogs.ui.ninesons import NineSonsUI
from render.text import fill_names, seat_names
from tests.bot.helpers import (
    button_labels,
    last_board,
    private_replies,
    refuse_token_edits,
    select_values,
    texts_of,
)

SEED = 20261129
# The players' random wishes: with this seed the game has two taming-order choices and ends on points.
CHOICE_SEED = 14
MAX_DECISIONS = 300  # random play ends long before (points, 4 cards left or a third repetition)


@pytest.fixture
def world(simcord_env, simcord_bot):
    simcord_bot.service._seed_source = lambda: SEED  # the same game every run
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    admin_role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob")}
    members["admin"] = guild.add_member(simcord_env.create_user("admin"), roles=[admin_role])
    return simcord_env, simcord_bot, channel, members


async def start_game(channel, members) -> None:
    # No board picture: it is not what this test measures, and drawing it is the slow part.
    await members["admin"].slash(channel, "config set", setting="images", value="off")
    await members["alice"].slash(channel, "game new", game="ninesons", options="first_player=first")
    await members["bob"].click(last_board(channel), label="Join")
    await members["alice"].click(last_board(channel), label="Start")


def options_of(message) -> dict[str, str]:
    """label -> value of the select options of a (private) message."""
    out = {}
    for row in message.components:
        row = row.to_dict() if hasattr(row, "to_dict") else row
        for component in row.get("components", []):
            for option in component.get("options", []):
                out[option["label"]] = str(option["value"])
    return out


def button_for(labels: list[str], action: str, label: str) -> str:
    """The board button a player reads as leading to ``action`` (whose label is ``label``):
    the one naming the whole move, else the die value or the stack it picks up."""
    if label in labels:
        return label
    if action.startswith("tame:"):  # "tame:S6:d3" -> "Tame <card> (S6) … stack on d3 …"
        _, slot, *cell = action.split(":")
        matches = [
            b
            for b in labels
            if b.startswith("Tame ") and f"({slot})" in b and (not cell or f"stack on {cell[0]} " in b)
        ]
    elif "@" in action:
        matches = [b for b in labels if b == f"Place a {action.partition('@')[0]}"]
    else:
        start = action.split("-")[0]
        matches = [
            b
            for b in labels
            if b in (f"Move die on {start}", f"Move stack on {start} ({action.count('-')} dice)")
        ]
    assert len(matches) == 1, f"no single button leads to {action} ({label}): {labels}"
    return matches[0]


def option_for(options: dict[str, str], action: str) -> str:
    """The private select's option a player reads as ``action``'s destination."""
    if "@" in action:
        cell = action.partition("@")[2]
        matches = [o for o in options if o == cell or o.startswith(f"{cell} · ")]
    else:
        matches = [o for o in options if o == "→".join(action.split("-"))]
    assert len(matches) == 1, f"no single option for {action}: {list(options)}"
    return matches[0]


def select_placeholder(message) -> str:
    for row in message.components:
        row = row.to_dict() if hasattr(row, "to_dict") else row
        for component in row.get("components", []):
            if component.get("type") == 3:
                return str(component.get("placeholder") or "")
    return ""


def check_label(label: str) -> None:
    """What a newcomer reads: no notation or placeholders, and within Discord's limits."""
    assert "{" not in label and "tame:" not in label and "@" not in label, label
    assert 0 < len(label) <= 80, label


async def play_one_decision(member, channel, action: str, label: str, name: str, dump: list[str]) -> int:
    """Make ``action`` through the board as ``member``; returns the interactions it took."""
    board = last_board(channel)
    buttons = button_labels(board)
    for shown in buttons:
        check_label(shown)
    button = button_for(buttons, action, label)
    result = await member.click(board, label=button)
    clicks = 1
    step = f"[{' | '.join(buttons)}] → {button!r}"
    picker = last_board(channel)
    if select_values(picker):  # the button opened the destinations, below the board's buttons
        assert not result.ephemeral and private_replies(result) == []  # nothing private: no secrets here
        assert picker.id == board.id and button_labels(picker) == buttons  # the board still offers every origin
        title, options = select_placeholder(picker), options_of(picker)
        # Never a pointless choice: a single destination would have been played by the button.
        assert len(options) >= 2, (button, options)
        for shown in options:
            check_label(shown)
        option = option_for(options, action)
        chosen = await member.select(picker, [options[option]])
        clicks += 1
        # The choice's own response carried the new board: no select left, nothing private.
        assert private_replies(chosen) == [] and select_values(last_board(channel)) == []
        shown_options = ", ".join(list(options)[:4]) + (f", … ({len(options)})" if len(options) > 4 else "")
        step += f" → {title} [{shown_options}] → {option!r} → new board"
    else:  # one click played it: the button's label said exactly what it did
        assert private_replies(result) == []
        if not action.startswith("tame:"):
            assert button == label
    # The board shows what was done: the move, or the card just tamed ("… tames FuXi …").
    done_line = f"tames {label.split()[1]} " if action.startswith("tame:") else f"{name}: {label}"
    assert done_line in texts_of(last_board(channel)), (done_line, texts_of(last_board(channel)))
    dump.append(f"{clicks} · {name}: {step}")
    return clicks


async def test_a_whole_game_through_the_board_costs_at_most_two_clicks_per_move(world):
    env, bot, channel, m = world
    await start_game(channel, m)
    members = {m["alice"].id: m["alice"], m["bob"].id: m["bob"]}
    rng = random.Random(CHOICE_SEED)
    counts: list[int] = []
    kinds: Counter[str] = Counter()
    dump: list[str] = []
    for _decision in range(MAX_DECISIONS):
        rec, game = await bot.service.load(1)
        if game is None or game.is_over:
            break
        [seat] = game.to_act()
        member = members[next(s.user_id for s in rec.seats if s.seat == seat)]
        names = seat_names(rec.seats, "plain")
        action = rng.choice(game.legal_actions(seat))
        label = fill_names(game.describe_action(seat, action), names)
        counts.append(await play_one_decision(member, channel, action, label, names[seat], dump))
        kinds["tame" if action.startswith("tame:") else "place" if "@" in action else "move"] += 1
    rec, game = await bot.service.load(1)
    assert game is not None and game.is_over, "the game did not end in time"
    assert button_labels(last_board(channel)) == ["🔁 Rematch", "🎞 Replay"]  # the final board: no moves

    histogram = Counter(counts)
    median = statistics.median(counts)
    print(
        f"\nNine Sons, seed {SEED}, alice vs bob through the board: {len(counts)} decisions "
        f"({dict(kinds)}), game over: {game.end_reason}"
    )
    print(
        f"interactions per decision: {dict(sorted(histogram.items()))}; median {median}, "
        f"mean {statistics.mean(counts):.2f}, max {max(counts)}"
    )
    print("what each decision showed (clicks · player: buttons → clicked → private select → chosen):")
    print("\n".join(dump))
    assert median <= 2 and max(counts) <= 2
    assert kinds["place"] and kinds["move"] and kinds["tame"]  # every kind of decision was measured
    assert histogram[1] > 0  # single-move dice and stacks, or short move lists, are one click


async def test_a_stale_destination_select_is_refused_privately_and_changes_nothing(world):
    env, bot, channel, m = world
    alice, bob = m["alice"], m["bob"]
    await start_game(channel, m)
    await alice.click(last_board(channel), label="Place a 3")
    picker = last_board(channel)  # the destinations open below the board's buttons
    assert select_placeholder(picker) == "Place a 3…"
    # alice plays another way, bob answers: it is alice's turn again, on a newer version. Discord
    # refuses both board edits, so the board still shows the old select.
    env.inject_error("PATCH", "/channels/*/messages/*", status=403, code=50013, message="Missing Permissions",
                     times=2)
    refuse_token_edits(env, channel)  # the Start click's token would carry them: refused too
    # With that token refused, bob's /play would post the board as its followup (cogs.board_hop):
    # refused too, so the board stays where it is.
    env.inject_error("POST", "/webhooks/*/*", status=401, code=50027, message="Invalid Webhook Token", times=1)
    assert private_replies(await alice.slash(channel, "play", action="1@a1"))[0].startswith("✅")
    assert private_replies(await bob.slash(channel, "play", action="2@d3"))[0].startswith("✅")
    assert select_placeholder(last_board(channel)) == "Place a 3…"
    rec_before, _ = await bot.service.load(1)
    result = await alice.select(last_board(channel), [options_of(picker)["b2 · QiuNiu (S3)"]])
    [reply] = private_replies(result)
    assert "out of date" in reply
    rec_after, game = await bot.service.load(1)
    assert rec_after.version == rec_before.version
    assert select_values(last_board(channel)) == []  # and the board is drawn afresh from the saved state
    assert game is not None and all(c["stack"] == [] for c in game.view(None)["cells"] if c["cell"] == "b2")


async def test_a_die_or_stack_with_one_move_is_one_button_naming_the_move(world):
    env, bot, channel, m = world
    alice, bob = m["alice"], m["bob"]
    await start_game(channel, m)
    # alice's 2 on a1 can only step to a2: b1 holds bob's 6, which a 2 cannot beat.
    for member, action in ((alice, "2@a1"), (bob, "6@b1")):
        assert private_replies(await member.slash(channel, "play", action=action)) == [
            f"✅ Played `{action}`."
        ]
    _, game = await bot.service.load(1)
    assert game is not None and [a for a in game.legal_actions("p1") if a.startswith("a1-")] == ["a1-a2"]
    buttons = button_labels(last_board(channel))
    assert "Move a1→a2" in buttons and "Move die on a1" not in buttons
    result = await alice.click(last_board(channel), label="Move a1→a2")
    assert private_replies(result) == [] and "alice: Move a1→a2" in texts_of(last_board(channel))


async def test_a_board_or_picker_drawn_by_an_older_menu_layout_is_out_of_date(world, monkeypatch):
    """A message posted before an update keeps its old buttons at the same game version: the
    same menu address now finds another node, and playing it would be a move nobody chose."""
    env, bot, channel, m = world
    alice = m["alice"]
    await start_game(channel, m)
    # The previous layout (Place -> value -> cell), drawn at the current version.
    monkeypatch.setattr(
        NineSonsUI, "menu_path", lambda self, game, seat, action: ["Place", *action.split("@")]
    )
    snap = await bot.service.snapshot(1)
    rec = snap.record
    await bot.presenter.draw_board(snap)
    assert button_labels(last_board(channel)) == ["Place"]
    old_picker = (await alice.click(last_board(channel), label="Place")).response
    assert list(options_of(old_picker)) == ["1", "2", "3", "4", "5", "6"]
    monkeypatch.undo()  # the update: "Place a 1" … "Place a 6" now sit at those addresses
    before = texts_of(last_board(channel))
    result = await alice.click(last_board(channel), label="Place")
    assert [reply for reply in private_replies(result) if "out of date" in reply]
    # The old picker's "3" would now find a cell under "Place a 1" and play it: refused too.
    result = await alice.select(old_picker, [options_of(old_picker)["3"]])
    assert [reply for reply in private_replies(result) if "out of date" in reply]
    rec_after, game = await bot.service.load(1)
    assert rec_after.version == rec.version and game is not None and game.view(None)["ply"] == 0
    assert texts_of(last_board(channel)) == before


async def test_a_board_button_of_an_older_move_is_refused_privately_and_changes_nothing(world):
    env, bot, channel, m = world
    alice, bob = m["alice"], m["bob"]
    await start_game(channel, m)
    # Discord refuses the board edit after alice's move once: bob still sees the old board.
    env.inject_error(
        "PATCH", "/channels/*/messages/*", status=403, code=50013, message="Missing Permissions", times=1
    )
    refuse_token_edits(env, channel)  # the Start click's token would carry it: refused too
    await alice.slash(channel, "play", action="3@b2")
    assert "Place a 3" in button_labels(last_board(channel)) and "ply 0" in texts_of(last_board(channel))
    rec, _ = await bot.service.load(1)
    result = await bob.click(last_board(channel), label="Place a 1")  # a button of the old version
    assert private_replies(result) == [
        "⚠️ That board is out of date: the game has moved on. Use the latest board."
    ]
    rec_after, game = await bot.service.load(1)
    assert rec_after.version == rec.version and game is not None and game.view(None)["ply"] == 1
    assert "ply 1" in texts_of(last_board(channel))  # and the click brought the current board
