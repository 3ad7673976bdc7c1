"""``kill -9`` the real bot in the middle of a game, for every game, and start it again.

Each test runs the real bot (``python -m tests.wire.launch_bot``) as its own process against the in-test loopback fake
(tests/wire/botproc.py), plays into the middle of a game through the wire (slash commands,
board buttons, DM selects), SIGKILLs the process right after a change was announced, starts
a fresh process on the same SQLite file and checks what a player would notice:

* the game continues from the last announced state (the board before the kill shows exactly
  the state in the database; the first board after the restart is that state plus the one
  move made after it, recomputed here by the engine);
* the board message posted by the dead process (its buttons) and the DMs it sent (their
  selects) still work, and the board is edited in place, never posted again;
* nothing announced is lost or repeated: the action log keeps every row, in order, and
  replays from the seed to the stored state; no message is re-sent by the new process;
* turn timers are re-armed (the bot logs how many) and a stored deadline still fires.

The test reads the bot's database (read-only while the bot runs) to decide which legal
action to send and to check the log; every action itself goes through Discord.
"""

from __future__ import annotations

import fnmatch
import json
import time
from typing import Any

from cogs.plugins import load_plugins
from cogs.presenter import RECENT_EVENTS
from engine import registry
from engine.base import Game
from engine.flagon.cards import load_cards
from engine.flagon.game import FlagonGame
from render import render_text
from tests.wire.botproc import BotProcess, components, custom_ids, message_text
from tests.wire.fake_discord import (
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_UPDATE_MESSAGE,
    CALLBACK_UPDATE_MESSAGE,
    FLAG_EPHEMERAL,
    FakeChannel,
    FakeDiscord,
    FakeUser,
)

SELECT = 3
FOLLOWUP = "/webhooks/*/*"  # an interaction's followup: POST /webhooks/{app}/{token}


class Table:
    """One guild channel with alice and bob, the bot process and its database."""

    def __init__(self, fake: FakeDiscord, tmp_path: Any) -> None:
        load_plugins(ui=False)  # the test restores games from the bot's database too
        self.fake = fake
        guild = fake.create_guild("Tavern")
        self.channel: FakeChannel = guild.create_text_channel("games")
        self.alice: FakeUser = guild.add_member(fake.create_user("alice"))
        self.bob: FakeUser = guild.add_member(fake.create_user("bob"))
        self.bot = BotProcess(fake, guild.id, tmp_path)
        self.gid = 0

    # -- the database ---------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        [(kind, state, version, seed, options, board, status)] = self.bot.query(
            "SELECT kind, state, version, seed, options, board_message_id, status FROM games WHERE id = ?",
            self.gid)
        seats = self.bot.query("SELECT seat, user_id, display_name FROM seats WHERE game_id = ? ORDER BY position",
                               self.gid)
        return {"kind": kind, "state": json.loads(state) if state else None, "version": version, "seed": seed,
                "options": json.loads(options), "board": board, "status": status,
                "names": {seat: name for seat, _, name in seats},
                "users": {seat: user for seat, user, _ in seats}}

    def game(self) -> tuple[dict[str, Any], Game]:
        rec = self.record()
        return rec, registry.restore(rec["kind"], rec["state"])

    def actions(self) -> list[tuple[Any, ...]]:
        return self.bot.query("SELECT seq, version, seat, source, action FROM actions WHERE game_id = ? ORDER BY seq",
                              self.gid)

    def footer_move(self, version: int) -> str:
        """The board footer's "move N ·" once version ``version`` is saved: N counts the public
        moves played up to it (not saves), plus one for the move to make now."""
        _, game = self.game()
        played = sum(1 for _, saved, seat, source, action in self.actions()
                     if saved <= version and source != "system" and not game.is_private_action(seat, action))
        return f"move {played + 1} ·"

    def member(self, seat: str) -> FakeUser:
        user_id = self.record()["users"][seat]
        return self.alice if user_id == self.alice.id else self.bob

    def board(self) -> dict[str, Any]:
        return self.fake.messages[int(self.record()["board"])]

    def expected_board_text(self, rec: dict[str, Any], game: Game) -> str:
        return render_text(rec["kind"], game.view(None), rec["names"])

    def replays_to_stored_state(self) -> bool:
        """The action log is complete and has no duplicate: replaying it from the seed gives the
        stored state, byte for byte (the engine is deterministic)."""
        rec = self.record()
        # Players in seat position order, as the bot starts (and replays) a game: seat ids may
        # be out of order after lobby churn. record() reads the seats ordered by position.
        game = registry.get(rec["kind"]).new_game(list(rec["names"]), rec["seed"], **rec["options"])
        for _, _, seat, source, action in self.actions():
            if source != "system":
                game.play(seat, action)
        return game.to_dict() == rec["state"]

    def public_posts(self) -> list[dict[str, Any]]:
        """Messages the bot posted in the channel that everyone sees (not ephemeral replies)."""
        return [m for m in self.fake.channel_messages(self.channel) if not m["flags"] & FLAG_EPHEMERAL]

    def board_posts(self) -> list[dict[str, Any]]:
        """The channel's game messages (lobby / board: with an embed), not the turn pings."""
        return [m for m in self.public_posts() if m.get("embeds")]

    def pings_sent(self) -> list[str]:
        """The content of every plain message the bot ever posted in the channel, deleted ones
        included (a superseded turn ping is deleted): channel messages, and public followups of
        the interactions that caused them (cogs.carrier; the table's interactions are all in
        its channel, or in DMs where no ping is a followup)."""
        path = f"/channels/{self.channel.id}/messages"
        return [str(r.json.get("content") or "") for r in self.fake.requests
                if r.method == "POST" and (r.path == path or fnmatch.fnmatchcase(r.path, FOLLOWUP))
                and isinstance(r.json, dict) and r.status < 300 and not r.json.get("embeds")
                and not int(r.json.get("flags") or 0) & FLAG_EPHEMERAL]

    # -- driving through the wire ----------------------------------------------------------------
    async def open_game(self, kind: str, options: str = "") -> None:
        new = await self.fake.slash(self.alice, self.channel, "game new", {"game": kind, "options": options})
        await new.wait_followup(timeout=10)
        lobby = await self.fake.wait_message(self.channel, lambda m: any(c.endswith(":join") for c in custom_ids(m)))
        join_id = next(c for c in custom_ids(lobby) if c.endswith(":join"))
        self.gid = int(join_id.split(":")[1])
        since = len(self.fake.requests)
        await (await self.fake.click(self.bob, lobby, join_id)).wait_callback()
        await self.wait_board_edit(int(lobby["id"]), lambda r: "bob" in json.dumps(r.json), since=since)
        since = len(self.fake.requests)
        await (await self.fake.click(self.alice, lobby, f"dt:{self.gid}:start")).wait_callback()
        # The lobby message becomes the board ("game #" title): wait for that edit.
        await self.wait_board_edit(int(lobby["id"]), lambda r: f"game #{self.gid}" in json.dumps(r.json),
                                   since=since, timeout=10)

    async def wait_board_edit(self, board_id: int, predicate: Any, *, since: int, timeout: float = 5.0) -> Any:
        """The board's edit: in the channel, or through the response of a click on the board
        (``PATCH /webhooks/{app}/{token}/messages/@original``: cogs.carrier)."""
        channel_edit = f"/channels/{self.channel.id}/messages/{board_id}"

        def board_edit(r: Any) -> bool:
            on_board = r.path == channel_edit or (
                r.path.endswith("/messages/@original") and bool((r.json or {}).get("embeds")))
            return on_board and predicate(r)

        return await self.fake.wait_request("PATCH", "*", board_edit, since=since, timeout=timeout)

    async def to_planning(self) -> None:
        """Open a Flagon game and make the public setup choices (characters and start squares,
        by /play in the channel) until the secret planning starts."""
        await self.open_game("flagon")
        for _ in range(20):
            _, game = self.game()
            if state_of(game)["phase"] == "plan":
                return
            seat = game.to_act()[0]
            action = next(a for a in game.legal_actions(seat) if not game.is_private_action(seat, a))
            await self.play(self.member(seat), action)
        raise AssertionError("setup never reached the planning phase")

    async def play(self, member: FakeUser, action: str) -> None:
        """``/play action`` in the channel; returns once its answer says "✅ Played" (sent as
        soon as the move is saved, so that the ping can be its followup) and the change was
        delivered (the board edit, the pings and the DMs: the outbox is empty)."""
        command = await self.fake.slash(member, self.channel, "play", {"action": action})
        answer = await command.wait_original_edit(timeout=10)
        assert answer.json["content"] == f"✅ Played `{action}`.", answer.json
        await self.fake.wait_until(lambda: self.bot.query("SELECT COUNT(*) FROM outbox")[0][0] == 0, timeout=10,
                                   what=f"the delivery of {action}")

    async def wait_board_version(self, version: int, since: int, timeout: float = 10.0) -> dict[str, Any]:
        """Until the bot edited the board to show saved version ``version``, after request
        ``since``: the database holds that version and the edit draws it (the board text and the
        footer's move number; a private move, a planned card, changes no move number). When no
        live interaction could edit the board (after a restart) and a /play or a pick in a
        private prompt made the move, the board moved to that interaction's followup instead
        (cogs.board_hop): then that post draws it, the game names it, and the old one is gone."""
        board_id = int(self.record()["board"])

        def shows_version(request: Any) -> bool:
            rec, game = self.game()
            embeds = (request.json or {}).get("embeds") or []
            return (rec["version"] == version and bool(embeds)
                    and embeds[0].get("description") == self.expected_board_text(rec, game)
                    and self.footer_move(version) in embeds[0].get("footer", {}).get("text", ""))

        def edited_or_moved(request: Any) -> bool:
            moved = request.method == "POST" and fnmatch.fnmatchcase(request.path, FOLLOWUP)
            edited = request.method == "PATCH" and (
                request.path == f"/channels/{self.channel.id}/messages/{board_id}"
                or request.path.endswith("/messages/@original"))
            return (moved or edited) and shows_version(request)

        def found() -> Any:
            return next((r for r in self.fake.requests[since:] if r.status and edited_or_moved(r)), None)

        await self.fake.wait_until(lambda: found() is not None, timeout, f"the board showing version {version}")
        if found().method == "POST":  # the board moved: the game names the new message, the old one goes
            board_id = int(found().response["id"])
            await self.fake.wait_until(lambda: int(self.record()["board"]) == board_id
                                       and len(self.board_posts()) == 1, timeout, "the old board's delete")
        return self.fake.messages[board_id]

    async def menu_play(self, member: FakeUser, message: dict[str, Any], custom_id: str) -> None:
        """A move-menu button on ``message``, then the first option of each select (private, or
        below the board's buttons: Nine Sons) until the leaf is played (callback: deferred
        update, then "✅" in a private picker)."""
        click = await self.fake.click(member, message, custom_id)
        callback = await click.wait_callback(timeout=10)
        if callback.json["type"] == CALLBACK_DEFERRED_UPDATE_MESSAGE:
            return  # a button with one action below it plays at once
        picker = click.original_message
        on_board = callback.json["type"] == CALLBACK_UPDATE_MESSAGE  # the select opened below the board's buttons
        if not on_board:
            assert callback.json["type"] == CALLBACK_CHANNEL_MESSAGE, callback.json
            assert picker is not None and picker["flags"] & FLAG_EPHEMERAL
        assert picker is not None
        for _depth in range(4):
            select = next((c for c in components(picker) if c["type"] == SELECT), None)
            assert select is not None, f"no select (a board redraw closed it?): {components(picker)}"
            pick = await self.fake.select(member, picker, select["custom_id"], [select["options"][0]["value"]])
            answer = await pick.wait_callback(timeout=10)
            if answer.json["type"] == CALLBACK_UPDATE_MESSAGE:
                continue  # one level down: the same ephemeral message now holds the next select
            assert answer.json["type"] == CALLBACK_DEFERRED_UPDATE_MESSAGE, answer.json
            if on_board:
                # The choice's own response carries the new board (or the channel does, when a
                # delivery without an interaction, e.g. the one at start-up, took the change
                # first): the caller waits for the board (wait_board_version).
                return
            edit = await pick.wait_original_edit(timeout=10)
            assert edit.json["content"].startswith("✅"), edit.json
            return
        raise AssertionError("the move menu is deeper than expected")


def state_of(game: Game) -> dict[str, Any]:
    """A Flagon game's engine state (the test reads phases, owners and filled slots from it)."""
    assert isinstance(game, FlagonGame)
    return game.s


def recent_lines(board: dict[str, Any]) -> list[str]:
    """The board's "Recent" field, one public line per entry."""
    fields = [f for f in board["embeds"][0].get("fields") or [] if f["name"] == "Recent"]
    return fields[0]["value"].splitlines() if fields else []


def new_recent_lines(before: list[str], after: list[str]) -> list[str]:
    """The lines the board's "Recent" gained: ``after`` must be ``before`` (what the killed
    process announced last, trimmed to the field's length) followed by new lines only, so
    nothing announced was dropped, reordered or shown twice before the new lines."""
    for count in range(1, len(after) + 1):
        if (before + after[-count:])[-RECENT_EVENTS:] == after:
            return after[-count:]
    raise AssertionError(f"Recent lost or reordered lines across the restart:\n{before}\n->\n{after}")


async def _restart(table: Table) -> None:
    await table.bot.start()
    assert table.bot.timers_rearmed()[-1] >= 1, table.bot.log_tail()


# --------------------------------------------------------------------------- The Nine Sons


async def test_ninesons_killed_after_a_move_continues_on_the_old_board_and_its_timer_fires(
    fake: FakeDiscord, tmp_path: Any
) -> None:
    table = Table(fake, tmp_path)
    await table.bot.start()
    try:
        await table.open_game("ninesons", "first_player=first")
        # Three moves: two by /play, the third through the board's move menu.
        for _ in range(2):
            rec, game = table.game()
            [seat] = game.to_act()
            await table.play(table.member(seat), game.legal_actions(seat)[0])
        rec, game = table.game()
        [seat] = game.to_act()
        board = table.board()
        since = len(fake.requests)
        await table.menu_play(table.member(seat), board, next(c for c in custom_ids(board) if ":t:" in c))
        board = await table.wait_board_version(rec["version"] + 1, since)
        await table.bot.kill()  # right after the board edit reached Discord

        # What was announced last is what the database holds.
        rec, game = table.game()
        announced = board["embeds"][0]["description"]
        assert announced == table.expected_board_text(rec, game)
        assert table.footer_move(rec["version"]) in board["embeds"][0]["footer"]["text"]
        log_before = table.actions()
        assert [row[0] for row in log_before] == [1, 2, 3] and table.replays_to_stored_state()
        posts_before = len(table.board_posts())
        recent_before = recent_lines(board)
        assert len(recent_before) == 5 and recent_before[-1].startswith(f"{rec['names'][seat]}: ")

        await _restart(table)
        # The start-up delivery (the ping the dead process owed) redraws the board; a select
        # opened below its buttons meanwhile would close, as on Discord: wait for it first.
        await fake.wait_until(lambda: table.bot.query("SELECT COUNT(*) FROM outbox")[0][0] == 0, timeout=10,
                              what="the start-up delivery")
        # The next player moves through the dead process's board message (its menu buttons).
        [seat] = game.to_act()
        since = len(fake.requests)
        old_board_button = next(c for c in custom_ids(board) if f":t:{rec['version']}:" in c)
        await table.menu_play(table.member(seat), board, old_board_button)
        after = await table.wait_board_version(rec["version"] + 1, since)
        log_after = table.actions()
        assert log_after[:3] == log_before and len(log_after) == 4, "no move lost, none repeated"
        new_seq, _, new_seat, source, action = log_after[3]
        assert (new_seq, new_seat, source) == (4, seat, "player")
        label = game.describe_action(seat, action)
        game.play(seat, action)
        assert after["embeds"][0]["description"] == table.expected_board_text(table.record(), game)
        assert new_recent_lines(recent_before, recent_lines(after)) == [f"{rec['names'][seat]}: {label}"]
        assert table.replays_to_stored_state()
        assert len(table.board_posts()) == posts_before, "the board was edited in place, not posted again"

        # A second kill, then the stored turn deadline (moved close) fires in the new process.
        await table.bot.kill()
        deadline = time.time() + 2.0
        table.bot.execute("UPDATE timers SET deadline = ? WHERE game_id = ? AND purpose = 'turn'", deadline,
                          table.gid)
        [waiting] = game.to_act()
        version = table.record()["version"]  # read while the bot is down: the timer may fire at once
        since = len(fake.requests)
        await _restart(table)
        timed_out = await table.wait_board_version(version + 1, since, timeout=15)
        assert "ran out of time; the AI acted for them" in message_text(timed_out)
        rows = table.bot.query("SELECT seat, source, created_at FROM actions WHERE game_id = ? AND seq = 5", table.gid)
        assert rows and rows[0][:2] == (waiting, "timeout") and rows[0][2] >= deadline - 0.01
        assert table.replays_to_stored_state() and len(table.board_posts()) == posts_before
        assert table.bot.kills == 2 and table.bot.timers_rearmed() == [0, 2, 2]  # the turn and its reminder
    finally:
        await table.bot.stop()
    assert fake.unhandled == [] and table.bot.error_lines() == []


# --------------------------------------------------------------------------- Dragon Farkle


def _farkle_public_step(game: Game, seat: str) -> str:
    """A simple attacker/defender plan: pass, keep the first scoring set, stop, accept."""
    # Only a claim / discard is private here; /play takes it too (its answer is ephemeral).
    legal = [a for a in game.legal_actions(seat) if not game.is_private_action(seat, a)]
    legal = legal or game.legal_actions(seat)
    for wanted in ("pass", "keep:", "rally:double", "stop", "accept"):
        found = next((a for a in legal if a.startswith(wanted)), None)
        if found is not None:
            return found
    return legal[0]


async def test_farkle_killed_mid_brawl_defence_the_defender_plays_on_with_the_old_board(
    fake: FakeDiscord, tmp_path: Any
) -> None:
    table = Table(fake, tmp_path)
    await table.bot.start()
    try:
        await table.open_game("farkle", "first_player=lobby")
        await table.play(table.alice, "brawl:p2")
        # Play the Brawl (bob reacts, alice rolls and stops) until the defender must roll.
        for _ in range(20):
            rec, game = table.game()
            view = game.view(None)
            if game.to_act() == ["p2"] and view["phase"] in ("roll", "decide") and view["action"] == "brawl":
                break
            [seat] = game.to_act()
            await table.play(table.member(seat), _farkle_public_step(game, seat))
        else:
            raise AssertionError("the Brawl never reached the defender's roll")
        # The /play followup came after the board edit and the defender's ping: kill now.
        await table.bot.kill()

        rec, game = table.game()
        board = table.board()
        assert board["embeds"][0]["description"] == table.expected_board_text(rec, game)
        pings = [m for m in table.pings_sent() if m.startswith(f"🛡️ <@{table.bob.id}>, you defend")]
        assert len(pings) == 1, table.pings_sent()
        log_before = table.actions()
        posts_before = len(table.board_posts())
        recent_before = recent_lines(board)
        assert table.replays_to_stored_state()

        await _restart(table)
        # bob's hand, from the dead process's board, privately.
        hand = await fake.click(table.bob, board, f"dt:{table.gid}:hand")
        answer = await hand.wait_callback(timeout=10)
        assert answer.json["type"] == CALLBACK_CHANNEL_MESSAGE and answer.json["data"]["flags"] & FLAG_EPHEMERAL
        assert "only you see this" in message_text(answer.json["data"])
        # bob defends through the old board: dice toggles (edit the board in place), then Keep.
        since = len(fake.requests)
        keeps = [a for a in game.legal_actions("p2") if a.startswith("keep:")]
        if keeps:
            roll, mask, used = list(game.view(None)["roll"]), 0, set()
            for value in map(int, keeps[0][5:].split(",")):
                i = next(j for j, v in enumerate(roll) if v == value and j not in used)
                used.add(i)
                mask ^= 1 << i
                toggle = await fake.click(table.bob, board, f"dt:{table.gid}:x:tog:{rec['version']}:{mask}")
                assert (await toggle.wait_callback(timeout=10)).json["type"] == CALLBACK_UPDATE_MESSAGE
            keep_id = f"dt:{table.gid}:a:{rec['version']}:{keeps[0]}"
            assert keep_id in custom_ids(board), custom_ids(board)
            click = await fake.click(table.bob, board, keep_id)
            assert (await click.wait_callback(timeout=10)).json["type"] == CALLBACK_DEFERRED_UPDATE_MESSAGE
        else:  # a Farkle he might rescue: the board's menu offers "accept"
            await table.menu_play(table.bob, board, next(c for c in custom_ids(board) if ":t:" in c))
        after = await table.wait_board_version(rec["version"] + 1, since)
        log_after = table.actions()
        assert log_after[: len(log_before)] == log_before and len(log_after) == len(log_before) + 1
        _, _, seat, source, action = log_after[-1]
        assert (seat, source) == ("p2", "player") and (not keeps or action == keeps[0])
        game.play("p2", action)
        assert after["embeds"][0]["description"] == table.expected_board_text(table.record(), game)
        gained = new_recent_lines(recent_before, recent_lines(after))
        assert gained[0].startswith("bob"), gained  # bob's move first, then what it caused
        assert table.replays_to_stored_state()
        assert len(table.board_posts()) == posts_before, "no board repost"
        assert len([m for m in table.pings_sent() if m.startswith(f"🛡️ <@{table.bob.id}>, you defend")]) == 1

        # A second kill right after that announcement; the next move goes by /play this time.
        await table.bot.kill()
        log_before = table.actions()
        await _restart(table)
        rec, game = table.game()
        seat = game.to_act()[0]
        since = len(fake.requests)
        await table.play(table.member(seat), _farkle_public_step(game, seat))
        await table.wait_board_version(rec["version"] + 1, since)
        assert table.actions()[: len(log_before)] == log_before and table.replays_to_stored_state()
        assert table.bot.kills == 2
    finally:
        await table.bot.stop()
    assert fake.unhandled == [] and table.bot.error_lines() == []


# --------------------------------------------------------------------------- The Dragon & Flagon


def _plan_prompt(table: Table, member: FakeUser) -> dict[str, Any]:
    """The member's planning DM (the one message with planning selects)."""
    prompts = [m for m in table.fake.dm_messages(member) if any(":x:plan:" in c for c in custom_ids(m))]
    assert len(prompts) == 1, [message_text(m)[:80] for m in table.fake.dm_messages(member)]
    return prompts[0]


async def _plan_by_dm(table: Table, member: FakeUser) -> None:
    """Choose the first card of the first select in the member's planning DM; the bot edits
    that DM into the next prompt (@original) and the board; returns after the board edit."""
    prompt = _plan_prompt(table, member)
    select = next(c for c in components(prompt) if c["type"] == SELECT)
    version = table.record()["version"]
    since = len(table.fake.requests)
    pick = await table.fake.select(member, prompt, select["custom_id"], [select["options"][0]["value"]])
    assert (await pick.wait_callback(timeout=10)).json["type"] == CALLBACK_DEFERRED_UPDATE_MESSAGE
    edit = await pick.wait_original_edit(timeout=10)
    assert (edit.json.get("content") or "").startswith("✅"), edit.json
    await table.wait_board_version(version + 1, since)


async def test_flagon_killed_mid_planning_keeps_the_submitted_plan_and_the_dm_selects_work(
    fake: FakeDiscord, tmp_path: Any
) -> None:
    table = Table(fake, tmp_path)
    await table.bot.start()
    try:
        await table.to_planning()
        _, game = table.game()
        owners = {cid: c["owner"] for cid, c in state_of(game)["chars"].items()}
        alices = [cid for cid, seat in owners.items() if table.member(seat) is table.alice]
        bobs = [cid for cid in owners if cid not in alices]
        # alice plans her whole program (two cards for each of her two characters) by DM.
        for _ in range(4):
            await _plan_by_dm(table, table.alice)
        await table.bot.kill()  # right after the board said alice planned her last card

        rec, game = table.game()
        planned = {cid: list(state_of(game)["chars"][cid]["slots"]) for cid in owners}
        assert all(len(planned[cid]) == 2 for cid in alices) and not any(planned[cid] for cid in bobs)
        board = table.board()
        assert board["embeds"][0]["description"] == table.expected_board_text(rec, game)
        assert "Planning in secret: bob" in message_text(board) and "alice" not in board["embeds"][0][
            "description"].split("Planning in secret:")[1].splitlines()[0]
        [deadline] = table.bot.query("SELECT deadline FROM timers WHERE game_id = ? AND purpose = 'turn'", table.gid)
        log_before = table.actions()
        posts_before, dms_before = len(table.board_posts()), len(fake.dm_messages(table.bob))
        pings_before = len(table.pings_sent())

        await _restart(table)
        rec, game = table.game()
        assert {cid: list(state_of(game)["chars"][cid]["slots"]) for cid in owners} == planned, "alice's plan was kept"
        # The planning deadline survived the kill unchanged (and was re-armed: see _restart).
        assert table.bot.query("SELECT deadline FROM timers WHERE game_id = ? AND purpose = 'turn'", table.gid) == [deadline]
        # bob's planning DM was sent by the dead process: its selects plan his four cards.
        await _plan_by_dm(table, table.bob)
        # One progress line, updated as plans arrive (not a line per card).
        assert recent_lines(table.board())[-1].startswith("✍️ Still planning: bob")
        await _plan_by_dm(table, table.bob)
        # A second kill between two of bob's cards: the DM edited by the second process works too.
        await table.bot.kill()
        _, game = table.game()
        slots = {cid: list(state_of(game)["chars"][cid]["slots"]) for cid in owners}
        await _restart(table)
        await _plan_by_dm(table, table.bob)
        rec, game = table.game()
        assert all(state_of(game)["chars"][cid]["slots"][: len(kept)] == kept for cid, kept in slots.items())
        assert sum(len(state_of(game)["chars"][cid]["slots"]) for cid in bobs) == 3
        assert len(fake.dm_messages(table.bob)) == dms_before, "no DM re-sent: the old prompt is edited"
        await _plan_by_dm(table, table.bob)  # the last card ends the planning phase
        rec, game = table.game()
        assert state_of(game)["phase"] != "plan" or state_of(game)["marker"] > 1, "the time step resolved"
        log_after = table.actions()
        assert log_after[: len(log_before)] == log_before and len(log_after) >= len(log_before) + 4
        assert [row[2:4] for row in log_after[len(log_before):len(log_before) + 4]] == [("p2", "player")] * 4
        assert table.replays_to_stored_state()
        board = table.board()
        assert board["embeds"][0]["description"] == table.expected_board_text(rec, game)
        assert "✍️ All plans are in." in message_text(board) and table.bot.kills == 2
        # Hidden information never reached a log line (INFO and above are logged here).
        cards = load_cards()
        secret = {cards[action.split(":")[3]].name for *_, action in log_after if action.startswith("plan:")}
        log_text = table.bot.log_text()
        assert secret and not [name for name in secret if name in log_text]
        # After the restart the board was edited, never posted again; new posts are only pings
        # (turns, reminders, questions of revealed cards).
        assert len(table.board_posts()) == posts_before
        new_pings = table.pings_sent()[pings_before:]
        assert all(p.startswith(("<@", "🔔", "⏰", "🏁")) for p in new_pings), new_pings
    finally:
        await table.bot.stop()
    assert fake.unhandled == [] and table.bot.error_lines() == []


async def test_flagon_killed_while_announcing_planning_bob_plans_through_the_board_button(
    fake: FakeDiscord, tmp_path: Any
) -> None:
    """The hardest moment: the change is saved and the board edited, alice's seat message was edited
    into her planning prompt, and the process dies while the edit of bob's hand is in flight
    (the fake holds it, then drops it).
    After the restart bob still reaches his secret prompt through the board's 🔒 button, and
    alice's DM from the dead process still plans."""
    table = Table(fake, tmp_path)
    await table.bot.start()
    try:
        await table.open_game("flagon")
        for _ in range(20):
            rec, game = table.game()
            seat = game.to_act()[0]
            action = next(a for a in game.legal_actions(seat) if not game.is_private_action(seat, a))
            probe = registry.restore(rec["kind"], rec["state"])
            probe.play(seat, action)
            if state_of(probe)["phase"] == "plan":
                break  # this action opens the planning phase: announce it with bob's DM stalled
            await table.play(table.member(seat), action)
        else:
            raise AssertionError("setup never reached the planning phase")
        assert table.bob.dm_channel_id is not None  # the start-of-game DM opened it
        fake.stall("PATCH", f"/channels/{table.bob.dm_channel_id}/messages/*")  # his hand, edited in place
        since = len(fake.requests)
        await fake.slash(table.member(seat), table.channel, "play", {"action": action})
        await fake.wait_until(lambda: bool(fake.stalled()), timeout=10, what="bob's planning DM")
        board = await table.wait_board_version(rec["version"] + 1, since)
        await table.bot.kill()
        fake.release_stalls()

        rec, game = table.game()
        assert state_of(game)["phase"] == "plan" and board["embeds"][0]["description"] == table.expected_board_text(rec, game)
        assert not any(":x:plan:" in c for m in fake.dm_messages(table.bob) for c in custom_ids(m))
        log_before = table.actions()

        await _restart(table)
        # bob: the dead process's board, 🔒 button -> an ephemeral planning prompt -> a card.
        hand = await fake.click(table.bob, board, f"dt:{table.gid}:hand")
        answer = await hand.wait_callback(timeout=10)
        assert answer.json["type"] == CALLBACK_CHANNEL_MESSAGE and answer.json["data"]["flags"] & FLAG_EPHEMERAL
        prompt = hand.original_message
        assert prompt is not None
        select = next(c for c in components(prompt) if c["type"] == SELECT and ":x:plan:" in c["custom_id"])
        version = table.record()["version"]
        since = len(fake.requests)
        pick = await fake.select(table.bob, prompt, select["custom_id"], [select["options"][0]["value"]])
        assert (await pick.wait_callback(timeout=10)).json["type"] == CALLBACK_DEFERRED_UPDATE_MESSAGE
        assert (await pick.wait_original_edit(timeout=10)).json["content"].startswith("✅")
        await table.wait_board_version(version + 1, since)
        # alice: her seat message, edited into the planning prompt by the dead process.
        await _plan_by_dm(table, table.alice)
        rec, game = table.game()
        filled = {state_of(game)["chars"][cid]["owner"]: 0 for cid in state_of(game)["chars"]}
        for char in state_of(game)["chars"].values():
            filled[char["owner"]] += len(char["slots"])
        assert filled == {"p1": 1, "p2": 1}
        assert table.actions()[: len(log_before)] == log_before and table.replays_to_stored_state()
        assert not any(r.status == 503 for r in fake.requests[since:]), "nothing stalled after the restart"
    finally:
        await table.bot.stop()
    assert fake.unhandled == [] and table.bot.error_lines() == []


async def test_farkle_ping_due_at_the_kill_arrives_after_the_restart(fake: FakeDiscord, tmp_path: Any) -> None:
    """The move that makes bob the Brawl defender is saved and the board edited, and the process
    dies while the ping that tells him is in flight (the fake holds it, then drops it). The
    outbox kept it: the restarted bot sends it, once, and repeats nothing else."""
    table = Table(fake, tmp_path)
    await table.bot.start()
    try:
        await table.open_game("farkle", "first_player=lobby")
        for step in range(25):
            rec, game = table.game()
            [seat] = game.to_act()
            action = "brawl:p2" if step == 0 else _farkle_public_step(game, seat)
            # bob's ping only: the followup of the /play that makes him act (cogs.carrier)
            fake.stall("POST", FOLLOWUP, containing=f"<@{table.bob.id}>")
            command = await fake.slash(table.member(seat), table.channel, "play", {"action": action})

            def answered_or_held(c: Any = command) -> bool:
                delivered = bool(c.original_edits) and table.bot.query("SELECT COUNT(*) FROM outbox")[0][0] == 0
                return bool(fake.stalled()) or delivered

            await fake.wait_until(answered_or_held, timeout=10,
                                  what="the /play answer or a held ping")
            if fake.stalled():
                break  # this move's announcement pings bob: the process dies with the ping in flight
            fake.release_stalls()
        else:
            raise AssertionError("no ping was ever due")
        held = fake.stalled()[0]
        assert f"<@{table.bob.id}>" in held.json["content"], held.json
        saved = table.record()
        assert saved["version"] == rec["version"] + 1 and table.footer_move(saved["version"]) in json.dumps(
            table.board(), ensure_ascii=False), "saved, and the board edited before the ping"
        await table.bot.kill()
        fake.release_stalls()
        assert not any(f"<@{table.bob.id}>" in m["content"] for m in table.public_posts()), "dropped, not delivered"
        log_before = table.actions()
        boards_before = len(table.board_posts())

        await _restart(table)
        ping = await fake.wait_message(table.channel, lambda m: f"<@{table.bob.id}>" in (m["content"] or ""),
                                       timeout=10)
        assert ping["content"] == held.json["content"]
        await fake.wait_until(lambda: table.bot.query("SELECT COUNT(*) FROM outbox")[0][0] == 0, timeout=10,
                              what="the outbox to empty")
        assert len(table.board_posts()) == boards_before, "no board repost"
        assert len([p for p in table.pings_sent() if f"<@{table.bob.id}>" in p]) == 1, "the ping, once"
        assert table.actions() == log_before and table.replays_to_stored_state()
    finally:
        await table.bot.stop()
    assert fake.unhandled == [] and table.bot.error_lines() == []
