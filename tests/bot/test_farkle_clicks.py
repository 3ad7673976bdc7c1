"""Dragon Farkle in few clicks (issue 14): the one-click choices of a roll, and a count of the
interactions whole games take through the board as members (``pytest -s`` prints the numbers).

A typical player: Recruit (or Brawl a clear leader, or fight the Final Battle when allowed),
then after each roll take the biggest keep and roll on while the turn total would stay under
300, else bank; Rally doubles the same way unless the player holds no Magic Item (then draws
one); claims and discards are answered in the private prompt. A *decision* is one such choice,
made by one or two engine actions; its *interactions* are the clicks it took.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from typing import Any

import discord
import pytest

import engine.farkle.ai as farkle_ai
import engine.farkle.flow as farkle_flow
import engine.farkle.game as farkle_game
from cogs import components, routing
from cogs.board_controls import build_menu
from cogs.ui.farkle import board_rows, menu_path
from cogs.ui.farkle_quick import rally_choices, roll_choices
from engine.farkle.cards import default_cards
from engine.farkle.scoring import score
from render import text
from render.text import fill_names
from tests.bot.helpers import button_labels, last_board, private_replies, texts_of
from tests.engine.farkle_support import setup

BATTLE_AT = 1500  # instead of 5,000 soldiers: whole games stay short
SEED = 20261130
BANK_AT = 300
HAND = "🔒 Show my hand / plan"


# -- the choices, without Discord ------------------------------------------------------------
def _choices(game: Any, seat: str = "p1") -> list[tuple[tuple[str, ...], str]]:
    return [(c.actions, c.label) for c in roll_choices(game, seat) + rally_choices(game, seat)]


def test_a_roll_offers_the_biggest_keep_with_roll_or_bank_and_the_best_single_die():
    game = setup([([1, 2, 2, 2, 3, 5], "blank")])
    game.play("p1", "recruit")
    assert _choices(game) == [
        (("keep:1,2,2,2,5", "roll"), "Keep 1 2 2 2 5 (+350) & roll 1 die"),
        (("keep:1,2,2,2,5", "stop"), "Keep 1 2 2 2 5 (+350) & bank 350"),
        (("keep:1", "roll"), "Keep 1 (+100) & roll 5 dice"),
    ]
    assert _choices(game, "p2") == []  # not p2's roll


def test_hot_dice_the_dragon_and_a_lone_scoring_die():
    hot = setup([([1, 1, 1, 5, 5, 5], "blank")])
    hot.play("p1", "recruit")
    assert _choices(hot)[0] == (
        ("keep:1,1,1,5,5,5", "roll"),
        "Keep 1 1 1 5 5 5 (+1500) & roll 6 dice (hot dice)",
    )
    # The Dragon eats any keep: the labels say so, and the pick sets aside one die to roll five.
    dragon = setup([([1, 3, 4, 5, 6, 6], "dragon")])
    dragon.play("p1", "recruit")
    assert [label for _, label in _choices(dragon)] == [
        "Keep 1 (+100, eaten) & roll 5 dice",
        "Keep 1 (+100, eaten) & bank 0",
    ]
    single = setup([([1, 2, 3, 4, 6, 6], "blank")])
    single.play("p1", "recruit")
    assert [label for _, label in _choices(single)] == [
        "Keep 1 (+100) & roll 5 dice",
        "Keep 1 (+100) & bank 100",
    ]


def test_rally_keeps_first_then_doubles_with_roll_or_bank():
    game = setup([([1, 3, 4, 5, 6, 6], "rally")])
    game.play("p1", "recruit")
    # The Rally asks its own question after the keep: the keep comes alone.
    assert _choices(game) == [
        (("keep:1,5",), "Keep 1 5 (+150, Rally)"),
        (("keep:1",), "Keep 1 (+100, Rally)"),
    ]
    game.play("p1", "keep:1,5")
    assert _choices(game) == [
        (("rally:double", "roll"), "Rally: double (+150) & roll 4 dice"),
        (("rally:double", "stop"), "Rally: double (+150) & bank 300"),
    ]


def test_brawl_and_final_battle_labels_say_what_stopping_means():
    brawl = setup([([1, 3, 4, 5, 6, 6], "blank"), ([5, 2, 3, 4, 6], "blank")], players=("p1", "p2", "p3"))
    brawl.play("p1", "brawl:p2")
    assert _choices(brawl)[1] == (("keep:1,5", "stop"), "Keep 1 5 (+150) & stop: attack score 150")
    brawl.play("p1", "keep:1,5")
    brawl.play("p1", "stop")
    assert _choices(brawl, "p2")[1][1] == "Keep 5 (+50) & stop: defence score 50"
    # Final Battle (choosing the dice to lose): the cheapest loss, then roll on.
    battle = setup([([1, 3, 4, 5, 6, 6], "blank")], armies={"p1": 6000}, battle_score_all=False)
    battle.play("p1", "battle")
    assert _choices(battle) == [(("keep:5", "roll"), "Lose 5 (-50) & roll 5 dice")]
    # A Final Battle roll paused for a held Magic Item: resolving it leaves only "roll on".
    paused = setup([([1, 3, 4, 5, 6, 6], "blank")], armies={"p1": 6000}, hands={"p1": ["lucky_charm"]})
    paused.play("p1", "battle")
    assert _choices(paused) == [(("accept", "roll"), "Resolve the roll & roll 4 dice")]
    assert menu_path(paused, "p1", "accept") == []  # not twice on the board
    paused.play("p1", "accept")
    assert paused.legal_actions("p1") == ["roll"]


class _Rec:
    id = 7


def test_board_row_holds_the_choices_then_pick_dice():
    game = setup([([1, 2, 2, 2, 3, 5], "blank")])
    game.play("p1", "recruit")
    rec: Any = _Rec()
    rows: list[Any] = board_rows(rec, game, "p1", 4)
    assert [(b.label, b.custom_id, b.row) for b in rows] == [
        ("Keep 1 2 2 2 5 (+350) & roll 1 die", "dt:7:x:then:4:keep:1,2,2,2,5|roll", 0),
        ("Keep 1 2 2 2 5 (+350) & bank 350", "dt:7:x:then:4:keep:1,2,2,2,5|stop", 0),
        ("Keep 1 (+100) & roll 5 dice", "dt:7:x:then:4:keep:1|roll", 0),
        ("Pick dice…", "dt:7:x:tog:4:0", 0),  # the toggles, for any other keep
    ]
    assert rows[1].style is discord.ButtonStyle.success  # banking: the safe, green one


# -- whole games through the board -----------------------------------------------------------
@pytest.fixture
def world(simcord_env, simcord_bot, monkeypatch):
    monkeypatch.setattr(farkle_game, "KEEP_MIN_ARMY", BATTLE_AT)  # shown in the view
    monkeypatch.setattr(farkle_flow, "KEEP_MIN_ARMY", BATTLE_AT)  # checked at the start of a turn
    monkeypatch.setattr(farkle_ai, "KEEP_MIN_ARMY", BATTLE_AT)
    simcord_bot.service._seed_source = lambda: SEED
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol")}
    return simcord_env, simcord_bot, channel, members


def _buttons(message) -> list[dict[str, Any]]:
    out = []
    for row in message.components:
        row = row.to_dict() if hasattr(row, "to_dict") else row
        out += [c for c in row.get("components", []) if c.get("type") == 2]
    return out


class Player:
    """Plays the members' seats: the plan picks what a player wants (an intent: one or two
    engine actions), then the fewest clicks the board offers for it are made and counted: one
    two-step button, an action button, a menu button and its private select, or "Pick dice…",
    the dice toggles, Keep and then Roll / Stop."""

    def __init__(self, bot, channel, members: dict[str, Any], gid: int) -> None:
        self.bot, self.channel, self.gid = bot, channel, gid
        self.by_seat = {f"p{i + 1}": m for i, m in enumerate(members.values())}
        self.names = {seat: m.user.name for seat, m in self.by_seat.items()}
        self.clicks_per_decision: list[int] = []
        self.clicks_per_turn: Counter[int] = Counter()  # turn number -> clicks of its current player
        self.old_clicks_per_turn: Counter[int] = Counter()  # the same on the old toggle board
        self.recruit_turns: set[int] = set()
        self.labels: set[str] = set()  # every board button label seen
        self.texts: list[str] = []  # every board text seen
        self.keeps = 0  # keep decisions so far (every UNUSUAL_EVERY-th wants an unusual keep)
        self.actions_wanted = 0  # engine actions the decisions asked for

    async def state(self) -> tuple[Any, Any, discord.Message]:
        rec, game = await self.bot.service.load(self.gid)
        board = next(msg for msg in self.channel.history() if msg.id == rec.board_message_id)
        return rec, game, board

    async def decide(self) -> None:
        """One decision of a human seat, through the board (or the private prompt)."""
        rec, game, board = await self.state()
        self.labels |= set(button_labels(board))
        self.texts.append(texts_of(board))
        seat = next(s for s in game.to_act() if not rec.seat(s).is_ai)
        member = self.by_seat[seat]
        turn, current = game.s["turn_number"], game.current
        intent = self.intent(game, seat)
        self.actions_wanted += len(intent)
        clicks = await self.carry_out(member, seat, intent)
        self.clicks_per_decision.append(clicks)
        if seat == current:
            self.clicks_per_turn[turn] += clicks
            self.old_clicks_per_turn[turn] += sum(_old_clicks(a, len(game.players) - 1) for a in intent)
        if intent == ("recruit",):
            self.recruit_turns.add(turn)

    # -- what the player wants ---------------------------------------------------------------
    def intent(self, game, seat: str) -> tuple[str, ...]:
        view = game.view(None)
        legal = game.legal_actions(seat)
        phase = view["phase"]
        if phase in ("claim", "discard"):
            return (legal[0],)
        if phase == "choose":
            if "battle" in legal:
                return ("battle",)
            mine = view["armies"][seat]
            leader = max((p for p in view["players"] if p != seat), key=lambda p: view["armies"][p])
            if view["armies"][leader] >= mine + 500:  # a clear leader: Brawl them
                return (f"brawl:{leader}",)
            return ("recruit",)
        if phase == "roll":
            keeps = [a for a in legal if a.startswith("keep:")]
            if not keeps:  # a Farkle (or a Final Battle roll) paused for the roller's Magic Items
                then = copy_after(game, seat, "accept")
                return (
                    ("accept", "roll")
                    if seat in then.to_act() and "roll" in then.legal_actions(seat)
                    else ("accept",)
                )
            if view["action"] == "battle":  # lose as few soldiers as possible
                return (min(keeps, key=lambda k: (score(_dice(k)), -len(k))), "roll")
            self.keeps += 1
            offered = {c.actions[0] for c in roll_choices(game, seat)}
            unusual = [k for k in keeps if k not in offered]
            if self.keeps % UNUSUAL_EVERY == 0 and unusual:  # now and then a keep of one's own
                keep = min(unusual, key=lambda k: len(k))
            else:  # the most soldiers (on a tie, as the Dragon eats any keep: the fewest dice)
                keep = max(keeps, key=lambda k: (_total_after(game, seat, k), -len(k)))
            if view["event"] == "rally":
                return (keep,)  # the Rally's question comes next
            return (keep, "roll" if _total_after(game, seat, keep) < self.enough(view, seat) else "stop")
        if phase == "rally":
            if view["item_counts"][seat] + view["pending_counts"][seat] == 0:
                return ("rally:item",)  # no Magic Item yet: draw one (then Roll / Stop)
            doubled = view["turn_total"] + (game.s["last_value"] if "rally:double" in legal else 0)
            return ("rally:double", "roll" if doubled < self.enough(view, seat) else "stop")
        if phase == "decide":
            return ("roll" if view["turn_total"] < self.enough(view, seat) else "stop",)
        if phase in ("react", "battle"):
            return (legal[0],)  # "pass" / "roll": the one public choice
        raise AssertionError(f"a phase the plan does not know: {phase}")

    @staticmethod
    def enough(view: dict[str, Any], seat: str) -> int:
        if view["action"] == "brawl" and seat == view["defender"]:
            return (view["attack_score"] or 0) + 50
        return BANK_AT

    # -- the clicks --------------------------------------------------------------------------
    async def carry_out(self, member, seat: str, intent: tuple[str, ...]) -> int:
        rec, game, board = await self.state()
        ids = {b["custom_id"]: b for b in _buttons(board)}
        if game.is_private_action(seat, intent[0]):  # the DM prompt's Use button
            prompt = member.user.dm_channel.last_message
            await member.user.click(prompt, custom_id=f"dt:{self.gid}:x:use:{rec.version}:{intent[0]}")
            return 1
        both = f"dt:{self.gid}:x:then:{rec.version}:{'|'.join(intent)}"
        if len(intent) == 2 and both in ids:
            await self.click(member, board, both)
            return 1
        clicks = await self.one_action(member, seat, intent[0])
        if len(intent) == 2:
            clicks += await self.one_action(member, seat, intent[1])
        return clicks

    async def one_action(self, member, seat: str, action: str) -> int:
        rec, game, board = await self.state()
        ids = {b["custom_id"]: b for b in _buttons(board)}
        direct = f"dt:{self.gid}:a:{rec.version}:{action}"
        if direct in ids:
            await self.click(member, board, direct)
            return 1
        if action.startswith("keep:"):  # "Pick dice…", a toggle per die, then Keep
            await self.click(member, board, f"dt:{self.gid}:x:tog:{rec.version}:0")
            roll, mask, used = game.view(None)["roll"], 0, set()
            for value in _dice(action):
                i = next(j for j, v in enumerate(roll) if v == value and j not in used)
                used.add(i)
                mask ^= 1 << i
                await self.click(member, (await self.state())[2], f"dt:{self.gid}:x:tog:{rec.version}:{mask}")
            await self.click(member, (await self.state())[2], direct)
            return len(used) + 2
        # The move menu: a board button, then a private select per level below it.
        names = text.seat_names(rec.seats, "plain")
        node, path = build_menu(rec.kind, game, seat, names), list[int]()
        while node.action != action:
            index = next(i for i, child in enumerate(node.children) if _holds(child, action))
            node, path = node.children[index], [*path, index]
        result = await member.click(board, custom_id=f"dt:{self.gid}:t:{rec.version}:{path[0]}")
        for index in path[1:]:
            assert result.response is not None and result.response.flags.ephemeral
            result = await member.select(result.response, [str(index)])
        return len(path)

    async def click(self, member, message, custom_id: str) -> None:
        result = await member.click(message, custom_id=custom_id)
        assert private_replies(result) == [], (custom_id, private_replies(result))


UNUSUAL_EVERY = 7


def _old_clicks(action: str, targets: int) -> int:
    """Clicks an action took on the old board: a keep = a toggle per die + Keep, a Brawl among
    several targets = "Brawl…" + its select, anything else one click."""
    if action.startswith("keep:"):
        return len(_dice(action)) + 1
    return 2 if action.startswith("brawl:") and targets > 1 else 1


def _dice(keep: str) -> tuple[int, ...]:
    return tuple(int(x) for x in keep[5:].split(","))


def copy_after(game, seat: str, action: str) -> Any:
    copy = type(game).from_dict(game.to_dict())
    copy.play(seat, action)
    return copy


def _total_after(game, seat: str, keep: str) -> int:
    return int(copy_after(game, seat, keep).view(None)["turn_total"])


def _holds(node, action: str) -> bool:
    return node.action == action or any(_holds(child, action) for child in node.children)


async def _play_whole_game(world, seats: list[str], ai: bool) -> tuple[Player, Any]:
    env, bot, channel, m = world
    host = m[seats[0]]
    await host.slash(channel, "game new", game="farkle", options="first_player=lobby max_rounds=15")
    lobby = last_board(channel)
    gid = int(_buttons(lobby)[0]["custom_id"].split(":")[1])
    for name in seats[1:]:
        await m[name].click(lobby, label="Join")
    if ai:
        await host.select(last_board(channel), ["easy"], custom_id=f"dt:{gid}:ai")
    await host.click(last_board(channel), label="Start")
    player = Player(bot, channel, {name: m[name] for name in seats}, gid)
    for _ in range(3000):
        rec, game = await bot.service.load(gid)
        if game.is_over:
            break
        await player.decide()
    rec, game = await bot.service.load(gid)
    assert game.is_over and rec.status == "finished"
    return player, game


def _report(name: str, player: Player, actions: list[Any], game: Any) -> float:
    human = [a for a in actions if a.source == "player"]
    clicks = player.clicks_per_decision
    median = statistics.median(clicks)
    turns = list(player.clicks_per_turn.values())
    recruit = [player.clicks_per_turn[t] for t in player.recruit_turns]
    old_recruit = [player.old_clicks_per_turn[t] for t in player.recruit_turns]
    old = sum(_old_clicks(a.action, len(game.players) - 1) for a in human)
    print(
        f"\n[{name}] {len(clicks)} decisions, {sum(clicks)} clicks: per decision median {median}, "
        f"mean {statistics.mean(clicks):.2f}, max {max(clicks)} ({Counter(clicks)}); {len(human)} engine "
        f"actions by members, {len(human) / sum(clicks):.2f} per click; clicks per turn of the player "
        f"to move: mean {statistics.mean(turns):.1f}, max {max(turns)} over {len(turns)} turns; Recruit "
        f"turns: mean {statistics.mean(recruit):.1f}, max {max(recruit)} clicks (old board: mean "
        f"{statistics.mean(old_recruit):.1f}, max {max(old_recruit)}); all of it on the old toggle board: {old} "
        f"clicks; {fill_names(game.result.reason, player.names)}"
    )
    return median


@pytest.mark.parametrize(
    "seats",
    [["alice", "bob"], ["alice", "bob", "carol"], ["alice", "bob", "AI"]],
    ids=["2 members", "3 members", "2 members + AI"],
)
async def test_whole_games_take_about_one_click_per_decision(world, seats):
    env, bot, channel, m = world
    player, game = await _play_whole_game(world, [s for s in seats if s != "AI"], ai="AI" in seats)
    actions = await bot.service.db.log.of_game(player.gid)
    human = [a for a in actions if a.source == "player"]
    assert len(human) == player.actions_wanted  # each decision played just what it wanted
    assert _report(" + ".join(seats), player, actions, game) <= 1.5
    assert Counter(player.clicks_per_decision)[1] > 0.8 * len(player.clicks_per_decision)
    # Every label a newcomer met: points shown, no placeholders, "1 die", nothing secret.
    print("board buttons seen:\n  " + "\n  ".join(sorted(player.labels)))
    for label in player.labels:
        assert "{" not in label and "1 dice" not in label and len(label) <= 80, label
        if label.startswith("Keep ") and label != "Keep: pick scoring dice":
            assert re.search(r"\(\+\d+", label), label
    public = "\n".join([*player.texts, *player.labels])
    used = {a.action.split(":")[1] for a in actions if a.action.startswith("use:")}
    assert not [c.name for c in default_cards().items if c.id not in used and c.name in public]


async def test_combined_button_stops_after_the_first_step_when_the_second_is_not_legal(world):
    """A forged or old two-step button whose second step no longer fits: the first is played,
    the board shows what it led to, and a second click is answered "Already done."."""
    env, bot, channel, m = world
    alice = m["alice"]
    await alice.slash(channel, "game new", game="farkle", options="first_player=lobby")
    await alice.select(last_board(channel), ["easy"], custom_id="dt:1:ai")
    await alice.click(last_board(channel), label="Start")
    rec, game = await bot.service.load(1)
    # Find a roll of alice's on a Rally face (her keep then asks "double or an item?").
    for _ in range(200):
        rec, game = await bot.service.load(1)
        view = game.view(None)
        if view["phase"] == "roll" and view["event"] == "rally" and game.to_act() == ["p1"]:
            break
        board = next(msg for msg in channel.history() if msg.id == rec.board_message_id)
        labels = button_labels(board)
        wanted = next(
            label
            for label in labels
            if label.startswith(("Recruit", "Keep", "Accept", "Stop", "Rally: double (+", "Let the"))
            and " & roll" not in label
        )
        await alice.click(board, label=wanted)
    else:
        raise AssertionError("no Rally roll for alice")
    keep = max((a for a in game.legal_actions("p1") if a.startswith("keep:")), key=len)
    forged = components.Layout()
    forged.add_item(
        discord.ui.Button(label="old", custom_id=routing.make(1, "x", "then", f"{rec.version}:{keep}|roll"))
    )
    message = await bot.get_channel(channel.id).send("an old button", view=forged)
    result = await alice.click(message, label="old")
    assert private_replies(result) == []
    after, game = await bot.service.load(1)
    assert after.version == rec.version + 1 and game.view(None)["phase"] == "rally"  # the keep only
    board = next(msg for msg in channel.history() if msg.id == after.board_message_id)
    assert any(label.startswith("Rally: double (+") and " & roll " in label for label in button_labels(board))
    again = await alice.click(message, label="old")
    assert private_replies(again) == ["Already done."]
    assert (await bot.service.load(1))[0].version == after.version
    # A two-step button of an older board that did not happen: refused, nothing changes.
    other = next(a for a in game.legal_actions("p1") if a.startswith("rally:"))
    stale = components.Layout()
    stale.add_item(
        discord.ui.Button(
            label="stale", custom_id=routing.make(1, "x", "then", f"{rec.version}:{other}|roll")
        )
    )
    message = await bot.get_channel(channel.id).send("an older button", view=stale)
    refused = await alice.click(message, label="stale")
    assert private_replies(refused) == [
        "⚠️ That board is out of date: the game has moved on. Use the latest board."
    ]
    assert (await bot.service.load(1))[0].version == after.version
