"""Loads served from what this process read and wrote (storage.rowcache, issue 17): on SQLite a
load after a save reads nothing from the file, yet a load always equals what the file holds;
on PostgreSQL (other processes write too) every load reads the database."""

from __future__ import annotations

import asyncio
from dataclasses import asdict

import pytest

from storage import ActionRow, Database, GameDamaged, SeatRecord, VersionConflict
from storage.rowcache import GameRowCache, GameRows
from tests.storage.records import new_game, seat


class CountingFetch:
    """Counts the statements that read a game's row (the load query) through the backend."""

    def __init__(self, db: Database) -> None:
        self.loads = 0
        self._fetch = db._backend.fetch
        db._backend.fetch = self  # type: ignore[method-assign]

    async def __call__(self, sql, params=()):
        if "FROM games g LEFT JOIN damaged_games" in sql:
            self.loads += 1
        return await self._fetch(sql, params)


async def fresh(db: Database, game_id: int) -> dict:
    """The game as the database holds it, read past the cache."""
    rows = await db.games._read_rows(game_id)
    db._rows.forget(game_id)
    loaded = await db.games.load(game_id)
    assert [asdict(s) for s in loaded.seats] == sorted(rows.seats, key=lambda s: s["position"])
    return asdict(loaded)


async def test_a_load_after_a_save_reads_nothing_on_sqlite_and_everything_on_postgres(database_target):
    async with await Database.open(database_target) as db:
        rec = await new_game(db, seats=[seat(1, 100), seat(2, 200)])
        counter = CountingFetch(db)
        version = await db.games.save(
            rec.id, rec.version, state={"n": 1}, status="active", actions=[ActionRow("p1", "+1")]
        )
        for _ in range(3):
            loaded = await db.games.load(rec.id)
            assert loaded.version == version and loaded.state == {"n": 1} and loaded.status == "active"
        assert counter.loads == (0 if db.exclusive else 3)
        assert db.exclusive == (db.backend_name == "sqlite")


async def test_every_write_leaves_the_cached_game_equal_to_the_database(database_target):
    async with await Database.open(database_target) as db:
        rec = await new_game(db, seats=[seat(1, 100), seat(2, 200)])
        await db.games.load(rec.id)  # kept from here on (SQLite)

        async def same() -> None:
            assert asdict(await db.games.load(rec.id)) == await fresh(db, rec.id)

        v = await db.games.save(rec.id, rec.version, state={"n": 1}, status="active", options={"team": "a"})
        await same()
        moved = [
            SeatRecord("p2", 0, 200, None, "b"),
            SeatRecord("p1", 1, 100, "easy", "a", timeouts_in_a_row=2),
        ]
        v = await db.games.save(rec.id, v, seats=moved, result={"ranking": []})
        await same()
        await db.games.set_private_route(rec.id, "p2", "dm")
        await same()
        await db.games.set_board_message(rec.id, 555)
        await same()
        await db.games.set_thread(rec.id, 777)
        await same()
        await db.games.set_host(rec.id, 200)
        await same()
        await db.outbox.queue(rec.id, [{"kind": "x"}])
        pending = await db.outbox.pending(rec.id)
        await db.outbox.save_progress(pending, recent=(["a line"], 5))
        await same()
        v = await db.games.save(rec.id, v, state={"n": 2}, status="finished")
        await same()
        loaded = await db.games.load(rec.id)
        assert (loaded.version, loaded.status, loaded.board_message_id, loaded.host_user_id) == (
            v,
            "finished",
            555,
            200,
        )
        assert [(s.seat, s.private_route) for s in loaded.seats] == [("p2", "dm"), ("p1", "unknown")]
        assert loaded.recent == ["a line"]


async def test_what_a_caller_changes_in_a_loaded_game_is_not_kept(tmp_path):
    async with await Database.open(tmp_path / "db.sqlite3") as db:
        rec = await new_game(db)
        await db.games.save(rec.id, rec.version, state={"cells": [1, 2]})
        loaded = await db.games.load(rec.id)
        assert loaded.state is not None
        loaded.state["cells"].append(3)
        loaded.seats[0].display_name = "mallory"
        loaded.options["x"] = 1
        again = await db.games.load(rec.id)
        assert (
            again.state == {"cells": [1, 2]}
            and again.seats[0].display_name == "player1"
            and again.options == {}
        )


async def test_a_failed_save_changes_nothing_a_later_load_sees(tmp_path):
    async with await Database.open(tmp_path / "db.sqlite3") as db:
        rec = await new_game(db)
        v = await db.games.save(rec.id, rec.version, state={"n": 1})
        with pytest.raises(VersionConflict):
            await db.games.save(rec.id, rec.version, state={"n": 99})
        loaded = await db.games.load(rec.id)
        assert (loaded.version, loaded.state) == (v, {"n": 1})
        assert asdict(loaded) == await fresh(db, rec.id)


async def test_a_damaged_game_is_not_served_from_memory(tmp_path):
    async with await Database.open(tmp_path / "db.sqlite3") as db:
        rec = await new_game(db)
        await db.games.load(rec.id)
        await db.damage.mark(rec.id, "test")
        with pytest.raises(GameDamaged):
            await db.games.load(rec.id)


async def test_a_load_racing_a_save_never_keeps_the_older_rows(tmp_path):
    """Loads that miss read on aiosqlite's thread while saves commit: a later load never goes
    back behind a save that had completed before it began."""
    async with await Database.open(tmp_path / "db.sqlite3") as db:
        rec = await new_game(db)
        committed = rec.version
        done = False

        async def loads() -> None:
            while not done:
                db._rows.forget(rec.id)
                await db.games.load(rec.id)  # a miss, racing the saves
                floor = committed
                assert (await db.games.load(rec.id)).version >= floor

        async def saves() -> None:
            nonlocal committed, done
            for n in range(200):
                committed = await db.games.save(rec.id, committed, state={"n": n})
            done = True

        await asyncio.gather(loads(), saves())
        latest = await db.games.load(rec.id)
        assert latest.state == {"n": 199} and latest.version == rec.version + 200
        assert asdict(latest) == await fresh(db, rec.id)


def rows(version: int) -> GameRows:
    return GameRows({"id": 1, "version": version}, [])


def test_a_read_overlapping_a_write_is_not_kept():
    cache = GameRowCache(capacity=10)
    cache.start_read(1)
    cache.wrote(1, {"version": 6})  # committed while the read was on the thread
    cache.finish_read(1, rows(5))
    assert cache.get(1) is None
    cache.start_read(1)
    cache.finish_read(1, rows(6))
    kept = cache.get(1)
    assert kept is not None and kept.game["version"] == 6


def test_a_kept_row_of_another_version_is_dropped_not_patched():
    cache = GameRowCache(capacity=10)
    cache.start_read(1)
    cache.finish_read(1, rows(5))
    cache.wrote(1, {"version": 8}, expected_version=7)
    assert cache.get(1) is None


def test_the_least_recently_used_games_leave_first_and_zero_keeps_nothing():
    cache = GameRowCache(capacity=2)
    for game_id in (1, 2):
        cache.start_read(game_id)
        cache.finish_read(game_id, rows(1))
    cache.get(1)
    cache.start_read(3)
    cache.finish_read(3, rows(1))
    assert cache.get(2) is None and cache.get(1) is not None and cache.get(3) is not None and len(cache) == 2
    nothing = GameRowCache(capacity=0)
    nothing.start_read(1)
    nothing.finish_read(1, rows(1))
    assert nothing.get(1) is None and len(nothing) == 0
