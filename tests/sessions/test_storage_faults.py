"""Storage faults: the action fails with a clear message, the game is unchanged, and the bot
keeps working (other games, and this one once the fault is gone)."""

from __future__ import annotations

import sqlite3
from typing import Any, cast

import pytest

import storage.sqlite
from cogs.errors import user_message
from engine import Game
from sessions import GameService
from storage import Database, DatabaseUnavailable
from tests.doubles.tally import Tally
from tests.sessions.conftest import ALICE, BOB, CAROL


def scores(game: Game | None) -> dict[str, int]:
    assert isinstance(game, Tally), "these games are tally games"
    return game.scores


async def two_games(service):
    first = await service.create("tally", 1, 10, ALICE, "target=40")
    await service.join(first.id, BOB)
    await service.start(first.id, ALICE)
    second = await service.create("tally", 1, 11, CAROL, "target=40")
    await service.join(second.id, BOB)
    await service.start(second.id, CAROL)
    return first.id, second.id


async def test_a_locked_database_fails_the_action_cleanly(tmp_path, clock):
    path = tmp_path / "locked.sqlite3"
    async with await Database.open(path, clock=clock, busy_timeout_ms=50) as db:
        service = GameService(db, clock=clock)
        first, second = await two_games(service)
        before, _ = await service.load(first)
        other = sqlite3.connect(path, timeout=0)
        other.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
        with pytest.raises(DatabaseUnavailable) as caught:
            await service.apply(first, ALICE, "+1")
        assert "could not be saved right now, so nothing changed" in user_message(caught.value)
        other.rollback()
        other.close()
        after, game = await service.load(first)
        assert after.version == before.version and scores(game) == {"p1": 0, "p2": 0}
        # The lock is gone: both games go on.
        await service.apply(first, ALICE, "+1")
        out = await service.apply(second, CAROL, "+2")
        assert scores(out.game)["p1"] == 2


async def test_a_full_disk_rolls_back_the_whole_save(tmp_path, clock, monkeypatch):
    async with await Database.open(tmp_path / "full.sqlite3", clock=clock) as db:
        service = GameService(db, clock=clock)
        first, second = await two_games(service)
        real_write = storage.sqlite._write_transaction

        class FullDisk:
            """The connection on the database thread: the state UPDATE succeeds, then the
            action-log INSERT hits a full disk."""

            def __init__(self, conn: sqlite3.Connection) -> None:
                self.conn = conn

            def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
                if sql.startswith("INSERT INTO actions"):
                    raise sqlite3.OperationalError("database or disk is full")
                return self.conn.execute(sql, params)

            def executemany(self, sql: str, rows: Any) -> sqlite3.Cursor:
                return self.conn.executemany(sql, rows)

        with monkeypatch.context() as patch:
            patch.setattr(storage.sqlite, "_write_transaction",
                          lambda conn, steps: real_write(cast(sqlite3.Connection, FullDisk(conn)), steps))
            with pytest.raises(DatabaseUnavailable, match="disk is full"):
                await service.apply(first, ALICE, "+2")
        rec, game = await service.load(first)
        assert scores(game) == {"p1": 0, "p2": 0} and await db.log.of_game(first) == []
        # Space is back: everything works, and the log has no gap.
        out = await service.apply(first, ALICE, "+2")
        assert scores(out.game)["p1"] == 2 and [a.seq for a in await db.log.of_game(first)] == [1]
        await service.apply(second, CAROL, "+1")
