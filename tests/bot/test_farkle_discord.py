"""Dragon Farkle through the real discord.py client against simcord's in-memory Discord.

Two humans (alice by DM, bob with closed DMs) and an easy AI play a whole game through the
board: "Pick dice…", the dice toggles and the Keep button, a Brawl button per target, the
defender's ping and buttons, Roll / Stop / Rally buttons, the Final Battle, and the private prompts (DM select or
the ephemeral "Show my hand" button) for item discards and claims.

To keep the game to a few seconds the Final Battle threshold is lowered (monkeypatched: the
engine has no option for it) and the humans follow a simple plan: alice brawls bob at once,
everyone banks early, and whoever may attack the dragon does.
"""

from __future__ import annotations

import os
import secrets
from typing import Any

import discord
import pytest

import engine.farkle.ai as farkle_ai
import engine.farkle.flow as farkle_flow
import engine.farkle.game as farkle_game
from bot import create_bot
from engine.farkle.cards import default_cards
from engine.farkle.scoring import score
from tests.bot.helpers import (
    button_labels,
    last_board,
    last_ping,
    private_replies,
    public_channel_text,
    refusals,
    texts_of,
)

BATTLE_AT = 1000  # instead of 5,000 soldiers
SEED = int(os.environ.get("FARKLE_TEST_SEED", "23"))
HAND = "🔒 Show my hand / plan"
ITEM_NAMES = {card.id: card.name for card in default_cards().items}


@pytest.fixture
def world(simcord_env, simcord_bot, monkeypatch):
    monkeypatch.setattr(farkle_game, "KEEP_MIN_ARMY", BATTLE_AT)  # shown in the view
    monkeypatch.setattr(farkle_flow, "KEEP_MIN_ARMY", BATTLE_AT)  # checked at the start of a turn
    monkeypatch.setattr(farkle_ai, "KEEP_MIN_ARMY", BATTLE_AT)
    # A fixed game seed: the same dice every run (the plan below copes with any dice, but the
    # checks of the first Brawl want a first roll with a triple, and this one makes both humans
    # discard an item privately).
    monkeypatch.setattr(secrets, "randbits", lambda bits: SEED)
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "dave")}
    return simcord_env, simcord_bot, channel, members


def buttons(message) -> list[dict[str, Any]]:
    out = []
    for row in message.components:
        row = row.to_dict() if hasattr(row, "to_dict") else row
        out += [c for c in row.get("components", []) if c.get("type") == 2]
    return out


def options(message) -> list[dict[str, Any]]:
    out = []
    for row in message.components:
        row = row.to_dict() if hasattr(row, "to_dict") else row
        out += [o for c in row.get("components", []) if c.get("type") == 3 for o in c.get("options", [])]
    return out


def button(message, starts: str) -> dict[str, Any]:
    found = [b for b in buttons(message) if b.get("label", "").startswith(starts)]
    assert found, f"no button {starts!r} among {button_labels(message)}"
    return found[0]


class Table:
    """The test's hands on the game: the board message, the members by seat, the database."""

    def __init__(self, env, bot, channel, members, gid: int) -> None:
        self.env, self.bot, self.channel, self.m, self.gid = env, bot, channel, members, gid
        self.by_seat = {"p1": members["alice"], "p2": members["bob"]}
        self.brawled = False
        self.private_choices: set[str] = set()  # seats that made a private choice
        self.seen: list[str] = []  # every public board state, as text and button labels

    async def record(self) -> None:
        board = await self.board()
        self.seen += [texts_of(board), *button_labels(board)]

    async def load(self):
        return await self.bot.service.load(self.gid)

    async def board(self) -> discord.Message:
        rec, _ = await self.load()
        return next(msg for msg in self.channel.history() if msg.id == rec.board_message_id)

    async def click(self, member, starts: str, *, opens_menu: bool = False):
        board = await self.board()
        result = await member.click(board, custom_id=button(board, starts)["custom_id"])
        if not opens_menu:
            assert refusals(result) == [], refusals(result)
        return result

    async def private_choice(self, seat: str, game) -> None:
        """Claims and discards are private: alice answers her DM, bob uses the board button."""
        rec, _ = await self.load()
        legal = game.legal_actions(seat)
        use = f"dt:{self.gid}:x:use:{rec.version}:{legal[0]}"
        if seat == "p1":
            prompt = self.m["alice"].user.dm_channel.last_message
            assert use in [b["custom_id"] for b in buttons(prompt)]
            await self.m["alice"].user.click(prompt, custom_id=use)
        else:
            result = await self.m["bob"].click(await self.board(), label=HAND)
            assert result.ephemeral and use in [b["custom_id"] for b in buttons(result.response)]
            await self.m["bob"].click(result.response, custom_id=use)
        self.private_choices.add(seat)

    async def keep_with_toggles(self, member, game, seat: str) -> None:
        """Open the dice toggles ("Pick dice…"), toggle the dice of the best scoring selection,
        check the Keep label, confirm."""
        await self.click(member, "Pick dice…")
        view = game.view(None)
        roll = view["roll"]
        keeps = [a for a in game.legal_actions(seat) if a.startswith("keep:")]
        best = max(keeps, key=lambda a: (score(tuple(map(int, a[5:].split(","))), game.table), len(a)))
        wanted = [int(x) for x in best[5:].split(",")]
        mask, used = 0, set()
        rec, _ = await self.load()
        for value in wanted:
            i = next(j for j, v in enumerate(roll) if v == value and j not in used)
            used.add(i)
            mask ^= 1 << i
            board = await self.board()
            result = await member.click(board, custom_id=f"dt:{self.gid}:x:tog:{rec.version}:{mask}")
            assert refusals(result) == []
        board = await self.board()
        keep = button(board, "Keep ")
        assert keep["label"] == game.describe_action(seat, best) and not keep.get("disabled")
        await member.click(board, custom_id=keep["custom_id"])

    async def step(self) -> None:
        """One human action chosen by a simple plan, through the board where it can be."""
        await self._step()
        await self.record()

    async def _step(self) -> None:
        rec, game = await self.load()
        to_act = game.to_act()
        view = game.view(None)
        phase = view["phase"]
        if phase in ("claim", "discard"):
            for seat in to_act:
                await self.private_choice(seat, game)
            return
        (seat,) = to_act
        member = self.by_seat[seat]
        legal = game.legal_actions(seat)
        if phase == "choose":
            if "battle" in legal:
                await self.click(member, "Final Battle")
            elif seat == "p1" and not self.brawled:
                self.brawled = True
                await self.click(member, "Brawl bob")
            elif view["armies"]["p3"] >= BATTLE_AT - 300:  # keep the AI from the dragon
                await self.click(member, "Brawl Easy AI")
            else:
                await self.click(member, "Recruit")
        elif phase == "react":
            await self.click(member, "Let the Brawl begin")
        elif phase == "roll":
            if any(a.startswith("keep:") for a in legal):
                await self.keep_with_toggles(member, game, seat)
            else:
                await self.click(member, game.describe_action(seat, "accept"))
        elif phase == "rally":
            # Drawing items makes players go over the item limit: private discards follow.
            choice = "rally:item" if "rally:item" in legal else "rally:double"
            await self.click(member, game.describe_action(seat, choice))
        elif phase == "decide":
            enough = view["turn_total"] >= (250 if view["action"] == "brawl" else 400)
            if view["action"] == "recruit" and view["armies"][seat] + view["turn_total"] >= BATTLE_AT:
                enough = True
            if 0 < view["pool"] < 3 or enough:
                await self.click(member, "Stop")
            else:
                await self.click(member, "Roll")
        elif phase == "battle":
            await self.click(member, "Roll")
        else:  # pragma: no cover - a phase the plan does not know
            raise AssertionError(phase)


async def test_three_seat_game_with_a_brawl_and_the_final_battle(world, db_path):
    env, bot, channel, m = world
    alice, bob, dave = m["alice"], m["bob"], m["dave"]
    await alice.slash(channel, "game new", game="farkle", options="first_player=lobby max_rounds=60")
    lobby = last_board(channel)
    gid = int(button(lobby, "Join")["custom_id"].split(":")[1])
    await bob.click(lobby, label="Join")
    await alice.select(last_board(channel), ["easy"], custom_id=f"dt:{gid}:ai")
    env.inject_error("POST", f"/channels/{bob.user.dm_channel.id}/messages", status=403, code=50007,
                     message="Cannot send messages to this user", times=None)
    await alice.click(last_board(channel), label="Start")
    table = Table(env, bot, channel, m, gid)
    board = await table.board()
    text = texts_of(board)
    assert "Private prompts by DM: alice" in text and "DMs closed for bob" in text
    # alice (first in lobby order) chooses: a Brawl button per target, Recruit; Final Battle not yet.
    assert button_labels(board) == ["Brawl bob (army 0)", "Brawl Easy AI 1 (army 0)", "Recruit soldiers", HAND]

    # bob's hand is private: only the ephemeral "Show my hand" shows it, by name.
    rec, game = await table.load()
    bob_item = ITEM_NAMES[game.s["hands"]["p2"][0]]
    result = await bob.click(board, label=HAND)
    assert result.ephemeral and f"Your Magic Items: {bob_item}" in texts_of(result.response)
    assert "only you see this" in texts_of(result.response)

    # alice brawls bob (one click). bob holds his starting item,
    # so he may answer first: he is pinged, and the board's button is his.
    await table.step()
    rec, game = await table.load()
    assert game.view(None)["defender"] == "p2" and game.to_act() == ["p2"]
    ping = last_ping(channel)
    assert ping.id != rec.board_message_id
    assert ping.content.startswith(f"🛡️ <@{bob.id}>, alice brawls with you!")
    assert button_labels(await table.board()) == ["Let the Brawl begin", HAND]
    await table.step()

    # alice's attack roll: one-click choices ("Keep … & roll …", "Keep … & stop: attack score …")
    # and "Pick dice…"; nobody else may touch them.
    rec, game = await table.load()
    assert game.to_act() == ["p1"] and game.view(None)["phase"] == "roll"
    quick = await table.board()
    labels = button_labels(quick)
    if game.view(None)["event"] == "rally":  # the Rally asks its own question after the keep
        assert labels[0].startswith("Keep ") and labels[0].endswith(", Rally)")
    else:
        assert labels[0].startswith("Keep ") and " & roll " in labels[0] and " & stop: attack score " in labels[1]
    assert labels[-2:] == ["Pick dice…", HAND]
    pick = button(quick, "Pick dice…")
    for member, refusal in ((dave, "You are not playing in this game."), (bob, "It is not your turn.")):
        for control in (pick, button(quick, labels[0])):
            result = await member.click(quick, custom_id=control["custom_id"])
            assert private_replies(result) == [f"⚠️ {refusal}"]
    assert buttons(await table.board()) == buttons(quick)  # nothing changed
    # "Pick dice…" turns the choices into one toggle per die. Nothing toggled yet: Keep is
    # disabled. A die that scores only with others (one die of a triple) cannot be kept alone either.
    await alice.click(quick, custom_id=pick["custom_id"])
    board = await table.board()
    assert button(board, "Keep").get("disabled") and texts_of(board) == texts_of(quick)
    roll = game.view(None)["roll"]
    assert button_labels(board)[: len(roll)] == [f"{'⚀⚁⚂⚃⚄⚅'[v - 1]} {v}" for v in roll]
    keeps = {a for a in game.legal_actions("p1") if a.startswith("keep:")}
    useful = {int(x) for a in keeps for x in a[5:].split(",")}
    partial = [i for i, v in enumerate(roll) if v in useful and f"keep:{v}" not in keeps]
    assert partial, f"pick a seed whose first roll has a triple: {roll}"
    await alice.click(board, custom_id=f"dt:{gid}:x:tog:{rec.version}:{1 << partial[0]}")
    toggled = await table.board()
    assert button(toggled, "Keep ").get("disabled")
    # A toggle changes only the dice buttons: the text and the other buttons stay.
    assert texts_of(toggled) == texts_of(board) and button_labels(toggled)[-1] == HAND
    assert [b for b in buttons(toggled) if ":tog:" not in b["custom_id"] and "Keep" not in b["label"]] == [
        b for b in buttons(board) if ":tog:" not in b["custom_id"] and "Keep" not in b["label"]]
    # The toggle state lives in the custom_ids: it survives a restart of the bot.
    await env.restart_bot(create_bot(database_path=db_path))
    table.bot = env.bot
    await alice.click(await table.board(), custom_id=f"dt:{gid}:x:tog:{rec.version}:0")
    assert button(await table.board(), "Keep").get("disabled") and ":tog:" in buttons(await table.board())[0]["custom_id"]
    # "◀ Back" shows the one-click choices again, as they were.
    await alice.click(await table.board(), label="◀ Back")
    assert buttons(await table.board()) == buttons(quick)
    while game.view(None)["actor"] == "p1" and not game.is_over:
        await table.step()
        rec, game = await table.load()

    # The attack is over: bob defends (he holds an item, so even a Farkle waits for him). He is
    # pinged, and the board's roll and its buttons are his.
    assert game.to_act() == ["p2"] and game.view(None)["action"] == "brawl"
    ping = last_ping(channel)
    assert ping.id != rec.board_message_id
    assert ping.content.startswith(f"🛡️ <@{bob.id}>, you defend against alice's Brawl attack score of")
    board = await table.board()
    assert "▶ <@" + str(bob.id) + ">" in texts_of(board)
    first = next(b for b in buttons(board) if b["custom_id"] != f"dt:{gid}:hand" and not b.get("disabled"))
    result = await alice.click(board, custom_id=first["custom_id"])
    assert private_replies(result) == ["⚠️ It is not your turn."]

    # Play on to the end of the game.
    for _ in range(2000):
        rec, game = await table.load()
        if game.is_over:
            break
        await table.step()
    rec, game = await table.load()
    assert game.is_over and rec.status == "finished"
    log = [(a.seat, a.action) for a in await bot.service.db.log.of_game(gid)]
    assert ("p1", "brawl:p2") in log
    # Both private paths were used for item discards: alice's DM, bob's "Show my hand".
    assert table.private_choices == {"p1", "p2"}
    assert ("p1", "battle") in log or ("p2", "battle") in log  # a human fought the Final Battle
    public = "\n".join([public_channel_text(channel), *table.seen])
    assert "marches on the Dragon's Keep!" in public
    board = await table.board()
    assert "Result" in texts_of(board) and "{p" not in public
    if game.result.winners and game.view(None)["winner"]:
        winner = {"p1": "alice", "p2": "bob"}.get(game.result.winners[0], "Easy AI 1")
        assert f"{winner} slew the dragon" in texts_of(board)
    # No Magic Item name ever reached the channel, except items played face up (rule: public)
    # and, once the game is over, the items still held, which the final board reveals.
    final = texts_of(board)
    assert "🔓 Revealed at the end:" in final
    revealed = final[final.index("🔓 Revealed at the end:"):]
    held = {p: game.view(p)["my_items"] + game.view(p)["my_pending"] for p in game.players}
    for seat, items in held.items():
        assert all(item["name"] in revealed for item in items), (seat, items, revealed)
    used = {a.action.split(":")[1] for a in await bot.service.db.log.of_game(gid) if a.action.startswith("use:")}
    public = public.replace(revealed, "")
    leaked = [name for item, name in ITEM_NAMES.items() if item not in used and name in public]
    assert leaked == []
    assert "You drew" not in public and "You discard" not in public
    # alice's private messages: her hand, edited in place, and a new DM only when she had to act.
    assert any("only you see this" in texts_of(msg) for msg in alice.user.dm_channel.history())


def _seed_with_item(item: str) -> int:
    """A game seed that deals ``item`` to the first seat (cards are dealt from the seed)."""
    return next(seed for seed in range(1, 10_000)
                if farkle_game.FarkleGame.new(["p1", "p2"], seed, first_player="lobby").s["hands"]["p1"] == [item])


async def test_magic_item_use_button_by_dm(world, monkeypatch):
    env, bot, channel, m = world
    alice = m["alice"]
    monkeypatch.setattr(secrets, "randbits", lambda bits: _seed_with_item("lucky_charm"))
    await alice.slash(channel, "game new", game="farkle", options="first_player=lobby")
    await alice.select(last_board(channel), ["easy"], custom_id="dt:1:ai")
    await alice.click(last_board(channel), label="Start")
    board = last_board(channel)
    await alice.click(board, label="Recruit soldiers")
    # Her roll is on the table: the Lucky Charm may be used now, so her DM offers a Use button.
    prompt = alice.user.dm_channel.last_message
    assert "Lucky Charm" in texts_of(prompt) and "only you see this" in texts_of(prompt)
    assert "Use Lucky Charm" in button_labels(prompt)
    assert "Lucky Charm" not in public_channel_text(channel)
    assert "Use Lucky Charm" not in button_labels(last_board(channel))
    await alice.user.click(prompt, label="Use Lucky Charm")
    answered = next(msg for msg in alice.user.dm_channel.history() if msg.id == prompt.id)
    # The prompt is her seat message, edited in place: the charm is spent, no Use button is left.
    assert "Use Lucky Charm" not in button_labels(answered) and "Lucky Charm" not in texts_of(answered).split(
        "Your Magic Items")[-1]
    # Using an item plays it face up: now the channel may name it.
    assert "alice uses Lucky Charm and rerolls" in texts_of(last_board(channel))
    rec, game = await bot.service.load(1)
    assert game.view("p1")["my_items"] == []


# -- the board's pieces, without Discord ---------------------------------------------------------
class _Rec:
    """The little of a GameRecord that board_rows reads."""

    id = 7


def _board_rows(game: Any, seat: str, version: int, mask: int = 0) -> list[Any]:
    """cogs.ui.farkle.board_rows for _Rec; the items typed loosely to read their labels."""
    from cogs.ui.farkle import board_rows

    record: Any = _Rec()
    return board_rows(record, game, seat, version, mask=mask)


def _labels(items) -> list[str]:
    return [item.label for item in items]


def test_toggles_and_keep_button_follow_the_selection():
    from tests.engine.farkle_support import setup

    game = setup([([1, 2, 2, 2, 3, 5], "blank")])
    game.play("p1", "recruit")
    rows = _board_rows(game, "p1", 4)
    assert _labels(rows) == ["⚀ 1", "⚁ 2", "⚁ 2", "⚁ 2", "⚂ 3", "⚄ 5", "Keep: pick scoring dice", "◀ Back"]
    # A lone 3 never scores; Back (to the one-click choices) is always there.
    assert [b.disabled for b in rows] == [False, False, False, False, True, False, True, False]
    assert rows[0].custom_id == "dt:7:x:tog:4:1" and rows[5].row == 1 and rows[-1].custom_id == "dt:7:x:tog:4:-"
    # One 2 of the triple alone does not score: Keep stays disabled and says why.
    assert _board_rows(game, "p1", 4, mask=0b10)[-2].disabled
    # 1 + the triple of 2s: Keep shows the value and plays through the version-checked action button.
    keep = _board_rows(game, "p1", 4, mask=0b1111)[-2]
    assert keep.label == "Keep 1 2 2 2 (+300)" and not keep.disabled
    assert keep.custom_id == "dt:7:a:4:keep:1,2,2,2"
    assert _board_rows(game, "p2", 4) == []  # not p2's roll


def test_menu_has_a_button_per_brawl_target_no_keeps_and_no_items():
    from cogs.ui.farkle import menu_path
    from tests.engine.farkle_support import setup

    game = setup([([1, 5, 2, 3, 4, 6], "blank")], players=("p1", "p2", "p3"), hands={"p1": ["lucky_charm"]})
    assert menu_path(game, "p1", "brawl:p3") == ["Brawl {p3} (army 0)"]  # no select to open
    assert menu_path(game, "p1", "recruit") == ["Recruit soldiers"]
    game.play("p1", "recruit")
    assert menu_path(game, "p1", "keep:1,5") == []  # the board rows offer every keep
    assert game.is_private_action("p1", "use:lucky_charm")  # items never reach the board menu
