"""Two bot processes (shard 0 and shard 1 of 2) against one PostgreSQL database, over the wire.

The game's server is on shard 1, so its slash commands and board buttons reach the shard-1
process; Discord sends every DM to shard 0, so the planning DMs of a Flagon game reach the
other process, which must act on a game whose channel it does not even cache. Checked:

* a DM plan is handled by the shard-0 process: saved, and the board in shard 1's server edited;
* actions on one game from both processes at once serialise: every one is answered, none is
  lost or doubled, the action log replays to the stored state;
* ``kill -9`` of the shard-1 process mid-game: the shard-0 process carries on with the DM
  clicks and picks up the turn timer the dead process armed; nothing is lost.

The database fixture (tests/wire/conftest.py) starts a throw-away PostgreSQL; without one
(or without the PostgreSQL storage backend) these tests skip locally and fail in CI.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from cogs.plugins import load_plugins
from tests.wire.botproc import BotProcess, components, custom_ids
from tests.wire.fake_discord import (
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_UPDATE_MESSAGE,
    FLAG_EPHEMERAL,
    FakeDiscord,
    FakeInteraction,
    FakeUser,
)
from tests.wire.test_wire_kill_midgame import SELECT, Table, state_of

pytestmark = pytest.mark.postgres

SHARDS = 2
GUILD_SHARD = 1  # the game's server; DMs go to shard 0, i.e. the other process
TIMER_POLL = "0.5"  # seconds between looks for due timers armed elsewhere


class TwoProcessTable(Table):
    """One channel with alice and bob in a server on shard 1; process ``dms`` runs shard 0
    (every DM), process ``server`` runs shard 1 (the server). Both share one database, which
    the inherited helpers read through ``self.bot``."""

    def __init__(self, fake: FakeDiscord, tmp_path: Any, database_url: str) -> None:
        load_plugins(ui=False)
        self.fake = fake
        guild = fake.create_guild("Tavern", shard=(GUILD_SHARD, SHARDS))
        self.channel = guild.create_text_channel("games")
        self.alice = guild.add_member(fake.create_user("alice"))
        self.bob = guild.add_member(fake.create_user("bob"))
        common: dict[str, Any] = {"database_url": database_url, "env": {"TIMER_POLL_SECONDS": TIMER_POLL}}
        self.dms = BotProcess(fake, guild.id, tmp_path, name="shard0", shards=([0], SHARDS), **common)
        self.server = BotProcess(fake, guild.id, tmp_path, name="shard1", shards=([GUILD_SHARD], SHARDS), **common)
        self.bot = self.dms
        self.gid = 0

    async def start(self) -> None:
        await self.dms.start()  # first: shard 0's process syncs the commands
        await self.server.start()

    async def stop(self) -> None:
        await asyncio.gather(self.dms.stop(), self.server.stop())

    def errors(self) -> list[str]:
        return self.dms.error_lines() + self.server.error_lines()

    def board_shows_saved_state(self) -> bool:
        rec, game = self.game()
        return bool(self.board()["embeds"][0]["description"] == self.expected_board_text(rec, game))

    def seat_of(self, member: FakeUser) -> str:
        return next(seat for seat, user_id in self.record()["users"].items() if user_id == member.id)

    def planned(self) -> dict[str, int]:
        """Cards planned so far per seat."""
        _, game = self.game()
        counts: dict[str, int] = {}
        for char in state_of(game)["chars"].values():
            counts[char["owner"]] = counts.get(char["owner"], 0) + len(char["slots"])
        return counts

    def dm_prompt(self, member: FakeUser) -> dict[str, Any]:
        prompts = [m for m in self.fake.dm_messages(member) if any(":x:plan:" in c for c in custom_ids(m))]
        assert len(prompts) == 1, len(prompts)
        return prompts[0]

    async def pick_in_dm(self, member: FakeUser) -> FakeInteraction:
        """The first card of the member's planning DM (sent, not yet answered)."""
        prompt = self.dm_prompt(member)
        select = next(c for c in components(prompt) if c["type"] == SELECT)
        return await self.fake.select(member, prompt, select["custom_id"], [select["options"][0]["value"]])

    async def pick_on_board(self, member: FakeUser) -> FakeInteraction:
        """The board's 🔒 button (answered with an ephemeral planning prompt), then its first
        card (sent, not yet answered): both in the server, so on shard 1."""
        hand = await self.fake.click(member, self.board(), f"dt:{self.gid}:hand")
        answer = await hand.wait_callback(timeout=10)
        assert answer.json["type"] == CALLBACK_CHANNEL_MESSAGE and answer.json["data"]["flags"] & FLAG_EPHEMERAL
        prompt = hand.original_message
        assert prompt is not None
        select = next(c for c in components(prompt) if c["type"] == SELECT and ":x:plan:" in c["custom_id"])
        return await self.fake.select(member, prompt, select["custom_id"], [select["options"][0]["value"]])


@pytest.fixture
async def table(fake: FakeDiscord, tmp_path: Any, database_url: str) -> AsyncIterator[TwoProcessTable]:
    """Both processes started (Table.to_planning's setup choices go by slash command in the
    server: shard 1); stopped after the test, which must leave every interaction answered and
    no error line in either process's log."""
    table = TwoProcessTable(fake, tmp_path, database_url)
    await table.start()
    try:
        yield table
    finally:
        await table.stop()
    assert fake.unhandled == [] and table.errors() == []


async def planned_ok(pick: FakeInteraction) -> None:
    """The pick was answered and saved (✅ in its prompt), not refused or lost."""
    assert (await pick.wait_callback(timeout=15)).json["type"] == CALLBACK_DEFERRED_UPDATE_MESSAGE
    await pick.fake.wait_until(lambda: bool(pick.original_edits or pick.followups), timeout=15,
                               what=f"an answer to pick {pick.id}")
    assert not pick.followups, [m.get("content") for m in pick.followups]  # a refusal comes as a followup
    edit = pick.original_edits[0]
    assert (edit.json.get("content") or "").startswith("✅"), edit.json


def versions_are_contiguous(table: Table) -> bool:
    versions = [version for _, version, *_ in table.actions()]
    return versions == sorted(set(versions))


async def test_a_dm_plan_is_handled_by_the_process_on_shard_zero(
    table: TwoProcessTable, fake: FakeDiscord
) -> None:
    await table.to_planning()
    assert [i.shards for i in fake.interactions.values() if i.payload.get("guild_id")][-1] == [(GUILD_SHARD, 2)]
    version = table.record()["version"]
    since = len(fake.requests)
    pick = await table.pick_in_dm(table.alice)
    assert pick.shards == [(0, SHARDS)], "a DM goes to shard 0: the process without the server"
    await planned_ok(pick)
    # Saved, and the board in the other shard's server edited by the shard-0 process.
    board = await table.wait_board_version(version + 1, since)
    assert table.planned() == {table.seat_of(table.alice): 1, table.seat_of(table.bob): 0}
    assert "Planning in secret" in str(board["embeds"][0])
    await planned_ok(await table.pick_in_dm(table.bob))
    assert sorted(table.planned().values()) == [1, 1]
    assert table.replays_to_stored_state() and versions_are_contiguous(table)


async def test_actions_from_both_processes_on_one_game_serialise(
    table: TwoProcessTable, fake: FakeDiscord
) -> None:
    await table.to_planning()
    log_before = table.actions()
    for _ in range(4):  # two cards for each of two characters, each
        # alice's DM pick reaches shard 0, bob's pick on the board shard 1: sent together,
        # both processes act on the same game at once.
        bobs = await table.pick_on_board(table.bob)
        alices = await table.pick_in_dm(table.alice)
        assert alices.shards == [(0, SHARDS)] and bobs.shards == [(GUILD_SHARD, SHARDS)]
        await asyncio.gather(planned_ok(alices), planned_ok(bobs))
    log_after = table.actions()
    new = log_after[len(log_before):]
    plans = [(seat, source) for _, _, seat, source, action in new if action.startswith("plan:")]
    assert sorted(plans) == sorted([(table.seat_of(table.alice), "player")] * 4
                                   + [(table.seat_of(table.bob), "player")] * 4), new
    assert log_after[: len(log_before)] == log_before
    assert versions_are_contiguous(table) and table.replays_to_stored_state()
    _, game = table.game()
    assert state_of(game)["phase"] != "plan" or state_of(game)["marker"] > 1, "the time step resolved"
    # Both processes announced; the board ends showing the saved state.
    await fake.wait_until(table.board_shows_saved_state, timeout=15, what="the board to show the saved state")


async def test_the_shard_zero_process_carries_on_after_the_other_is_killed(
    table: TwoProcessTable, fake: FakeDiscord
) -> None:
    await table.to_planning()  # the server's process saved it, and armed the planning timers
    [(deadline,)] = table.bot.query("SELECT deadline FROM timers WHERE game_id = ? AND purpose = 'turn'",
                                    table.gid)
    await table.server.kill()
    log_before = table.actions()

    # Timers: the half-time reminder, armed by the dead process only (brought forward here),
    # is found due by the survivor, which pings the players in the other shard's channel.
    since = len(fake.requests)
    table.bot.execute("UPDATE timers SET deadline = ? WHERE game_id = ? AND purpose = 'remind'",
                      time.time(), table.gid)
    reminder = await fake.wait_request(
        "POST", f"/channels/{table.channel.id}/messages",
        lambda r: str((r.json or {}).get("content") or "").startswith("⏰ Reminder"), since=since, timeout=15)
    assert reminder.status < 300
    assert f"game {table.gid}: picked up a due remind timer" in table.dms.log_text()

    # Clicks: alice plans her whole program by DM, on the surviving process.
    for _ in range(4):
        version = table.record()["version"]
        since = len(fake.requests)
        pick = await table.pick_in_dm(table.alice)
        await planned_ok(pick)
        await table.wait_board_version(version + 1, since)
    alice, bob = table.seat_of(table.alice), table.seat_of(table.bob)
    assert table.planned() == {alice: 4, bob: 0}

    # bob's time runs out (brought forward here): the survivor fires it, the AI plans for bob.
    assert deadline > time.time() + 30
    version = table.record()["version"]
    since = len(fake.requests)
    table.bot.execute("UPDATE timers SET deadline = ? WHERE game_id = ? AND purpose = 'turn'",
                      time.time(), table.gid)
    await fake.wait_until(lambda: table.record()["version"] > version, timeout=15,
                          what="the survivor to fire the turn timer")
    await fake.wait_request("PATCH", f"/channels/{table.channel.id}/messages/{table.record()['board']}",
                            since=since, timeout=15)
    log_after = table.actions()
    assert log_after[: len(log_before)] == log_before
    new = log_after[len(log_before):]
    assert [(seat, source) for _, _, seat, source, action in new if action.startswith("plan:")] == \
        [(alice, "player")] * 4 + [(bob, "timeout")] * 4
    await fake.wait_until(table.board_shows_saved_state, timeout=15, what="the board to show the saved state")
    assert "ran out of time" in str(table.board()["embeds"][0])
    assert versions_are_contiguous(table) and table.replays_to_stored_state()

    # The killed process comes back on its shard and serves its server again.
    await table.server.start()
    assert table.server.timers_rearmed()
