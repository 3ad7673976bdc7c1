"""Fewer trips to the database per move (issue 25, the bot's CPU at 2,000 games): a delivery's
progress and Recent lines in one trip, and the seat messages and members' notify choices kept
by the process that alone writes the database (storage.kept)."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from storage import Database
from storage.kept import KeptRows
from storage.seat_messages import SeatMessage
from tests.storage.records import new_game, seat


def count_trips(db: Database) -> Counter[str]:
    """Every statement (or one-trip transaction) the storage modules send from now on."""
    backend = db._backend
    trips: Counter[str] = Counter()
    for name in ("fetch", "run", "run_many", "run_steps"):
        original = getattr(backend, name)

        def counted(*args, _original=original, _name=name, **kwargs):
            trips[_name] += 1
            return _original(*args, **kwargs)

        setattr(backend, name, counted)
    return trips


async def test_a_delivery_notes_its_progress_and_recent_lines_in_one_trip(database_target):
    path = database_target
    async with await Database.open(path) as db:
        rec = await new_game(db, seats=[seat(1, 100), seat(2, 200)])
        await db.games.save(rec.id, rec.version, state={"n": 1}, announce=[{"kind": "x"}])
        await db.games.load(rec.id)  # as a delivery does first
        rows = await db.outbox.pending(rec.id)
        rows[0].progress["recent"] = True
        trips = count_trips(db)
        recent = await db.outbox.save_progress(rows, recent=(["alice rolled", "✍️ 1 of 2 planned"], 5))
        recent = await db.outbox.save_progress(rows, recent=(["✍️ 2 of 2 planned"], 5))
        assert recent == ["alice rolled", "✍️ 2 of 2 planned"]  # a progress line is replaced
        # PostgreSQL: other processes write games too, so the Recent lines are read first.
        assert trips == ({"run_steps": 2} if db.exclusive else {"fetch": 2, "run_steps": 2})
    async with await Database.open(path) as db:  # it was written, not only kept
        assert (await db.games.load(rec.id)).recent == ["alice rolled", "✍️ 2 of 2 planned"]
        assert (await db.outbox.pending(rec.id))[0].progress == {"recent": True}


async def test_recent_lines_are_read_first_when_the_game_is_not_kept(tmp_path):
    async with await Database.open(tmp_path / "db.sqlite3") as db:
        rec = await new_game(db)
        await db.games.save(rec.id, rec.version, state={"n": 1}, announce=[{"kind": "x"}])
        db._rows.clear()
        rows = await db.outbox.pending(rec.id)
        lines = [f"line {n}" for n in range(8)]
        assert await db.outbox.save_progress(rows, recent=(lines, 5)) == lines[-5:]
        assert await db.outbox.save_progress(rows, recent=(["last"], 5)) == [*lines[-4:], "last"]


async def test_seat_messages_and_notify_choices_are_read_once_and_follow_writes(database_target):
    path = database_target
    async with await Database.open(path) as db:
        rec = await new_game(db)
        trips = count_trips(db)
        assert await db.seat_messages.get(rec.id, "p1") is None
        assert await db.prefs.notify(100) == "channel"
        first = SeatMessage(channel_id=5, message_id=6, prompt_key="k1", asked=True)
        await db.seat_messages.set(rec.id, "p1", first)
        await db.prefs.set_notify(100, "dm")
        for _ in range(3):
            assert await db.seat_messages.get(rec.id, "p1") == first
            assert await db.prefs.notify(100) == "dm"
        # Two reads and two writes, nothing more; PostgreSQL reads each time (nothing is kept).
        assert trips == ({"fetch": 2, "run": 2} if db.exclusive else {"fetch": 8, "run": 2})
    async with await Database.open(path) as db:
        assert await db.seat_messages.get(rec.id, "p1") == first
        assert await db.prefs.notify(100) == "dm"


async def test_a_read_overtaken_by_a_write_is_not_kept():
    kept: KeptRows[str, str] = KeptRows(8)
    stored = {"k": "old"}
    reading = asyncio.Event()
    release = asyncio.Event()

    async def slow_read() -> str:
        value = stored["k"]  # read before the write below
        reading.set()
        await release.wait()
        return value

    async def write() -> None:
        stored["k"] = "new"

    read = asyncio.create_task(kept.get("k", slow_read))
    await reading.wait()
    await kept.put("k", "new", write)
    release.set()
    assert await read == "old"  # what the read saw, but not kept over the write
    assert await kept.get("k", slow_read) == "new"


async def test_a_failed_write_keeps_nothing_and_nothing_is_kept_without_capacity():
    kept: KeptRows[str, str] = KeptRows(8)

    async def read() -> str:
        return "stored"

    async def failing_write() -> None:
        raise RuntimeError("disk full")

    assert await kept.get("k", read) == "stored"
    with pytest.raises(RuntimeError):
        await kept.put("k", "lost", failing_write)
    assert len(kept) == 0
    unkept: KeptRows[str, str] = KeptRows(0)  # PostgreSQL: other processes write the same rows
    assert await unkept.get("k", read) == "stored" and len(unkept) == 0


async def test_access_from_a_kept_game_says_what_the_database_says(tmp_path):
    async with await Database.open(tmp_path / "db.sqlite3") as db:
        rec = await new_game(db, seats=[seat(1, 100), seat(2, 200)])
        await db.games.save(rec.id, rec.version, status="active", state={"n": 1})
        await db.games.load(rec.id)
        trips = count_trips(db)
        kept = [await db.games.access(rec.id, user) for user in (100, 200, 300)]
        assert trips == {}
        db._rows.clear()
        assert kept == [await db.games.access(rec.id, user) for user in (100, 200, 300)]
        assert all(a is not None for a in kept)
        assert [a.seated for a in kept if a is not None] == [True, True, False]
        assert kept[0] is not None and kept[0].status == "active"
        await db.damage.mark(rec.id, "test")
        damaged = await db.games.access(rec.id, 100)
        assert damaged is not None and damaged.damaged
