"""``kill -9`` the real bot around the end of a rated game: the rating is written in the same
transaction as the result, so whatever the moment of the kill, the finished game counts exactly
once for each player (never lost, never twice), the end is announced once, and rebuilding the
ratings from the saved games gives the same numbers."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

import pytest

from tests.wire.botproc import ROOT
from tests.wire.fake_discord import FakeDiscord
from tests.wire.test_wire_kill_midgame import Table

END_NOTICE = "is over"


def rating_rows(table: Table) -> dict[str, Any]:
    return {
        "ratings": table.bot.query("SELECT player, games FROM ratings ORDER BY player"),
        "history": table.bot.query("SELECT game_id, player FROM rating_history ORDER BY player"),
        "resigns": table.bot.query("SELECT COUNT(*) FROM actions WHERE game_id = ? AND action = 'resign'",
                                   table.gid)[0][0],
        "status": table.record()["status"],
    }


def rebuild(table: Table) -> str:
    """The operator's rebuild, run on the stopped bot's database; returns its fingerprint line."""
    done = subprocess.run([sys.executable, "-m", "sessions.maintenance", "rebuild-ratings", "--database",
                           str(table.bot.database_path)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.split("fingerprint ")[1]


def expected(table: Table) -> dict[str, Any]:
    alice, bob = table.alice.id, table.bob.id
    return {
        "ratings": sorted([(f"u:{alice}", 1), (f"u:{bob}", 1)]),
        "history": sorted([(table.gid, f"u:{alice}"), (table.gid, f"u:{bob}")], key=lambda r: r[1]),
        "resigns": 1,
        "status": "finished",
    }


async def test_killed_while_the_end_is_announced(fake: FakeDiscord, tmp_path: Any) -> None:
    """The resignation is saved (result and ratings together); the process dies while the end
    notice is in flight. The restarted bot posts it once; the ratings count the game once."""
    table = Table(fake, tmp_path)
    await table.bot.start()
    try:
        await table.open_game("ninesons", "first_player=first")
        fake.stall("POST", f"/channels/{table.channel.id}/messages", containing=END_NOTICE)
        await fake.slash(table.bob, table.channel, "game resign")
        await fake.wait_until(lambda: bool(fake.stalled()), timeout=10, what="the end notice in flight")
        assert rating_rows(table) == expected(table)  # committed with the result, before any announcement
        await table.bot.kill()
        fake.release_stalls()
        await table.bot.start()
        await rated_and_announced_once(table)
    finally:
        await table.bot.stop()
    fingerprint = rebuild(table)
    assert rating_rows(table) == expected(table) and rebuild(table) == fingerprint
    assert fake.unhandled == [] and table.bot.error_lines() == []


async def rated_and_announced_once(table: Table) -> None:
    """After the restart: the outbox empties, the ratings are exactly the finished game's, and
    the end notice went out once."""
    await table.fake.wait_until(lambda: table.bot.query("SELECT COUNT(*) FROM outbox")[0][0] == 0, timeout=10,
                                what="the outbox to empty")
    assert rating_rows(table) == expected(table)
    # Counted as messages in the channel, not as requests: a kill between Discord's answer and the
    # noted id makes the restarted bot send it again, and the enforced nonce makes Discord answer
    # that second request with the first message (cogs.pings.game_over).
    notices = [m for m in table.fake.channel_messages(table.channel) if END_NOTICE in str(m.get("content") or "")]
    assert len(notices) == 1, "the end notice, once"


@pytest.mark.parametrize("delay", [0.0, 0.01, 0.05])
async def test_killed_at_any_moment_of_the_resignation(fake: FakeDiscord, tmp_path: Any, delay: float) -> None:
    """The kill lands somewhere between the command and its answer: before the save (the game
    runs on after the restart and bob resigns again) or after it (finished). Either way the
    game ends once and is rated once."""
    table = Table(fake, tmp_path)
    await table.bot.start()
    try:
        await table.open_game("ninesons", "first_player=first")
        await fake.slash(table.bob, table.channel, "game resign")
        await asyncio.sleep(delay)
        await table.bot.kill()
        await table.bot.start()
        if table.record()["status"] == "active":
            assert rating_rows(table)["ratings"] == []
            command = await fake.slash(table.bob, table.channel, "game resign")
            await command.wait_followup(timeout=10)
        await rated_and_announced_once(table)
    finally:
        await table.bot.stop()
    assert fake.unhandled == [] and table.bot.error_lines() == []
