"""Storage under an unlucky operator (issue 12): one corrupt row, the file deleted or replaced
under the running bot, and connections that must always be closed."""

from __future__ import annotations

import logging
import os
import sqlite3
import threading

import aiosqlite.core
import pytest

from storage import ActionRow, Database, DatabaseGone, GameDamaged, GameNotFound, SeatRecord
from storage.games import MAX_ROW_ID


def aiosqlite_threads(grace: float = 1.0) -> list[threading.Thread]:
    """Live aiosqlite worker threads (each open connection has one, and it is not a daemon).
    A closed connection's thread ends a moment after close() returns: wait up to ``grace`` s."""
    worker = aiosqlite.core._connection_worker_thread
    found = [t for t in threading.enumerate() if getattr(t, "_target", None) is worker]
    for thread in found:
        thread.join(timeout=grace)
    return [t for t in found if t.is_alive()]


async def new_game(db: Database, channel: int, status: str = "active") -> int:
    rec = await db.games.create(kind="tally", guild_id=1, channel_id=channel, host_user_id=100, options={},
                               seed=1, seats=[SeatRecord("p1", 0, 100, None, "alice")])
    await db.games.save(rec.id, rec.version, state={"n": channel}, status=status)
    await db.timers.set(rec.id, "turn", 1000.0 + channel)
    return rec.id


async def test_database_is_an_async_context_manager_that_stops_its_thread(tmp_path):
    before = len(aiosqlite_threads())
    async with await Database.open(tmp_path / "db.sqlite3") as db:
        await new_game(db, 1)
        assert len(aiosqlite_threads(grace=0)) == before + 1
    assert len(aiosqlite_threads()) == before
    await db.close()  # closing twice is harmless
    with pytest.raises(RuntimeError):
        async with await Database.open(tmp_path / "db.sqlite3"):
            raise RuntimeError("a failure inside still closes the database")
    assert len(aiosqlite_threads()) == before


@pytest.mark.parametrize("how", ["delete", "rename", "replace"])
async def test_a_write_after_the_file_was_deleted_or_replaced_raises_and_writes_nothing(tmp_path, caplog, how):
    path = tmp_path / "db.sqlite3"
    async with await Database.open(path) as db:
        game = await new_game(db, 1)
        rec = await db.games.load(game)
        if how == "delete":
            path.unlink()
        elif how == "rename":
            path.rename(tmp_path / "moved.sqlite3")
        else:
            path.rename(tmp_path / "old.sqlite3")
            sqlite3.connect(path).close()  # a restored backup, say: same name, another file
        caplog.set_level(logging.CRITICAL, logger="dragon_tavern.storage.db")
        for _ in range(3):
            with pytest.raises(DatabaseGone, match="until the bot is restarted"):
                await db.games.save(game, rec.version, state={"n": 99}, actions=[ActionRow("p1", "+1")])
        with pytest.raises(DatabaseGone):
            await db.timers.set(game, "turn", 5.0)
        with pytest.raises(DatabaseGone):
            await db.settings.set(1, "afk_strikes", 2)
        assert db.read_only_reason is not None
        # Reading the old file still works; it was not changed.
        again = await db.games.load(game)
        assert again.version == rec.version and again.state == {"n": 1}
        assert await db.timers.deadline(game, "turn") == 1001.0
    assert len([r for r in caplog.records if r.levelname == "CRITICAL"]) == 1


async def test_the_same_file_keeps_working(tmp_path):
    path = tmp_path / "db.sqlite3"
    async with await Database.open(path) as db:
        game = await new_game(db, 1)
        os.utime(path)  # touched, but the same file
        await db.games.save(game, 1, state={"n": 2})
        assert (await db.games.load(game)).state == {"n": 2}


async def test_one_undecodable_row_is_set_aside_and_logged_once(tmp_path, caplog):
    path = tmp_path / "db.sqlite3"
    found: list[int] = []
    async with await Database.open(path) as db:
        db.damage.on_damaged = found.append
        good, bad, bad_recent = await new_game(db, 1), await new_game(db, 2), await new_game(db, 3)
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE games SET state = '{\"n\": ' WHERE id = ?", (bad,))
            conn.execute("UPDATE games SET recent = '5' WHERE id = ?", (bad_recent,))
        conn.close()
        caplog.set_level(logging.ERROR, logger="dragon_tavern.storage.db")
        for _ in range(3):
            assert [g.id for g in await db.games.find()] == [good]
        assert found == [bad, bad_recent]
        errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
        assert len(errors) == 2 and f"game {bad} is damaged" in errors[0]
        with pytest.raises(GameDamaged):
            await db.games.load(bad)
        assert (await db.games.load(good)).state == {"n": 1}
        assert [t[0] for t in await db.timers.pending()] == [good]
        assert await db.timers.deadline(bad, "turn") is None
        access = await db.games.access(bad, 100)
        assert access is not None and access.damaged and access.seated and access.guild_id == 1
        # The channel is told once: one caller claims the announcement.
        assert await db.damage.unannounced() == [(bad, 2), (bad_recent, 3)]
        assert await db.damage.claim_announcement(bad) is True
        assert await db.damage.claim_announcement(bad) is False
        assert await db.damage.unannounced() == [(bad_recent, 3)]
    # Remembered across a restart: not logged or reported again.
    caplog.clear()
    async with await Database.open(path) as db:
        db.damage.on_damaged = found.append
        assert [g.id for g in await db.games.find()] == [good]
        assert found == [bad, bad_recent] and not caplog.records


async def test_ids_out_of_sqlite_range_name_no_game(tmp_path):
    async with await Database.open(tmp_path / "db.sqlite3") as db:
        for game_id in (0, -1, MAX_ROW_ID + 1, 10**200):
            with pytest.raises(GameNotFound):
                await db.games.load(game_id)
            assert await db.games.access(game_id, 1) is None
