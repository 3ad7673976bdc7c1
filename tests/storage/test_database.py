from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from storage import (
    ActionRow,
    ChannelBusy,
    ConstraintViolation,
    Database,
    SeatRecord,
    StorageError,
    VersionConflict,
)
from storage.schema import migrations
from tests.storage.records import new_game, seat

# Every migration file in storage/migrations (numbers may have gaps while branches merge).
ALL_MIGRATIONS = [version for version, _ in migrations()]




async def test_migrations_from_empty_are_applied_and_recorded(database_target):
    async with await Database.open(database_target) as db:
        assert await db.applied_migrations() == ALL_MIGRATIONS
    # Opening again applies nothing twice.
    async with await Database.open(database_target) as db:
        assert await db.applied_migrations() == ALL_MIGRATIONS
        if db.backend_name == "sqlite":
            mode = sqlite3.connect(database_target).execute("PRAGMA journal_mode").fetchone()[0]
            assert mode == "wal"


async def test_one_active_game_per_channel(database_target):
    async with await Database.open(database_target) as db:
        first = await new_game(db)
        with pytest.raises(ChannelBusy):
            await new_game(db)
        # Another channel is fine.
        await new_game(db, channel=11)
        # Once the first game ends, the channel is free again.
        await db.games.save(first.id, first.version, status="finished")
        again = await new_game(db)
        assert again.id != first.id


async def test_save_is_atomic_and_version_checked(database_target):
    async with await Database.open(database_target) as db:
        rec = await new_game(db)
        v1 = await db.games.save(rec.id, rec.version, state={"n": 1}, status="active",
                                actions=[ActionRow("p1", "+1", "player", 100)])
        # A save against an old version changes nothing.
        with pytest.raises(VersionConflict):
            await db.games.save(rec.id, rec.version, state={"n": 99}, actions=[ActionRow("p1", "+2")])
        loaded = await db.games.load(rec.id)
        assert loaded.state == {"n": 1} and loaded.version == v1
        assert [a.action for a in await db.log.of_game(rec.id)] == ["+1"]
        # A failure half-way (a bad seat row violates a constraint) rolls back the state and log too.
        bad_seat = SeatRecord(seat="p9", position=0, user_id=None, ai_level=None, display_name="nobody")
        with pytest.raises(ConstraintViolation):
            await db.games.save(rec.id, v1, state={"n": 2}, actions=[ActionRow("p1", "+1")], seats=[bad_seat])
        loaded = await db.games.load(rec.id)
        assert loaded.state == {"n": 1} and loaded.version == v1
        assert [s.seat for s in loaded.seats] == ["p1"]
        assert len(await db.log.of_game(rec.id)) == 1


async def test_everything_reloads_after_reopening_the_file(database_target):
    path = database_target
    async with await Database.open(path) as db:
        rec = await new_game(db)
        await db.games.save(rec.id, 0, state={"n": 3}, status="active", seats=[seat(1, 100), seat(2, None, "hard")],
                           actions=[ActionRow("p1", "+1"), ActionRow("p2", "+2", "ai")])
        await db.timers.set(rec.id, "turn", 1234.5)
        await db.settings.set(1, "afk_strikes", 2)

    async with await Database.open(path) as db:
        loaded = await db.games.load(rec.id)
        assert loaded.status == "active" and loaded.state == {"n": 3} and loaded.version == 1
        assert [(s.seat, s.user_id, s.ai_level) for s in loaded.seats] == [("p1", 100, None), ("p2", None, "hard")]
        assert [(a.seq, a.seat, a.source, a.action) for a in await db.log.of_game(rec.id)] == [
            (1, "p1", "player", "+1"), (2, "p2", "ai", "+2")]
        assert await db.timers.pending() == [(rec.id, "turn", 1234.5)]
        assert await db.settings.of_guild(1) == {"afk_strikes": 2}


async def test_a_database_from_a_newer_version_is_refused_on_both_backends(database_target):
    async with await Database.open(database_target) as db:
        await db._backend.run("INSERT INTO schema_migrations VALUES (999, 0)")
    with pytest.raises(StorageError, match="newer"):
        await Database.open(database_target)


async def test_a_database_from_a_newer_version_is_refused_and_not_written(tmp_path):
    path = tmp_path / "db.sqlite3"
    async with await Database.open(path):
        pass
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (999, 0)")
    before = path.read_bytes()
    with pytest.raises(StorageError, match="newer"):
        await Database.open(path)
    assert path.read_bytes() == before


async def test_a_corrupt_file_is_refused_and_not_written(tmp_path):
    path = tmp_path / "db.sqlite3"
    path.write_bytes(b"this is not a database at all" * 100)
    before = path.read_bytes()
    with pytest.raises(StorageError, match="not a SQLite database"):
        await Database.open(path)
    assert path.read_bytes() == before


async def test_a_damaged_sqlite_file_is_refused(tmp_path):
    path = tmp_path / "db.sqlite3"
    async with await Database.open(path) as db:
        for channel in range(50):
            await new_game(db, channel=channel)
    data = bytearray(path.read_bytes())
    data[4096:8192] = b"\xff" * 4096  # wreck the second page, keep the header
    path.write_bytes(bytes(data))
    (tmp_path / "db.sqlite3-wal").unlink(missing_ok=True)
    with pytest.raises(StorageError):
        await Database.open(path)


async def test_missing_folder_is_explained(tmp_path):
    with pytest.raises(StorageError, match="does not exist"):
        await Database.open(tmp_path / "nope" / "db.sqlite3")


async def test_an_older_database_is_migrated_in_place_keeping_its_games(tmp_path):
    path = tmp_path / "old.sqlite3"
    # A database as version 1 of the schema left it.
    from importlib import resources

    first = (resources.files("storage") / "migrations" / "001_initial.sql").read_text()
    with sqlite3.connect(path) as conn:
        conn.executescript(first)
        conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)")
        conn.execute("INSERT INTO schema_migrations VALUES (1, 0)")
        conn.execute("INSERT INTO games (kind, guild_id, channel_id, host_user_id, status, seed, created_at, "
                     "updated_at) VALUES ('tally', 1, 5, 9, 'active', 3, 0, 0)")
    async with await Database.open(path) as db:
        assert await db.applied_migrations() == ALL_MIGRATIONS
        rec = await db.games.active_in_channel(5)
        assert rec is not None and rec.seed == 3 and rec.recent == []
        await db.outbox.queue(rec.id, [{"kind": "x", "text": "a", "to": None, "data": {}}])
        [queued] = await db.outbox.pending(rec.id)
        assert await db.outbox.save_progress([queued], recent=(["a", "b", "c"], 2)) == ["b", "c"]


async def test_what_a_save_must_announce_is_queued_in_the_same_transaction(database_target):
    db = await Database.open(database_target)  # closed at the end
    rec = await new_game(db)
    event: dict[str, Any] = {"kind": "move", "text": "{p1} moved.", "to": None, "data": {}}
    secret = {"kind": "item", "text": "You drew a Lucky Charm.", "to": "p1", "data": {}}
    version = await db.games.save(rec.id, rec.version, state={"n": 1}, actions=[ActionRow("p1", "go")],
                                 announce=[event, secret])
    [queued] = await db.outbox.pending(rec.id)
    assert (queued.version, queued.events, queued.progress) == (version, [event, secret], {})
    assert await db.outbox.games_waiting() == [rec.id]
    # A save that loses the version race writes neither the change nor its announcement.
    with pytest.raises(VersionConflict):
        await db.games.save(rec.id, rec.version, state={"n": 2}, announce=[event])
    assert len(await db.outbox.pending(rec.id)) == 1
    # Progress is kept per row; Recent lines are appended once, with the progress mark.
    queued.progress["recent"] = True
    assert await db.outbox.save_progress([queued], recent=(["moved"], 6)) == ["moved"]
    [again] = await db.outbox.pending(rec.id)
    assert again.progress == {"recent": True}
    await db.outbox.finish([again])
    assert await db.outbox.pending(rec.id) == [] and await db.outbox.games_waiting() == []
    assert (await db.games.load(rec.id)).recent == ["moved"]
    await db.close()


async def test_a_failed_save_queues_nothing(database_target):
    db = await Database.open(database_target)  # closed at the end
    rec = await new_game(db)
    with pytest.raises((StorageError, ConstraintViolation)):  # the seats' CHECK fails in the transaction
        await db.games.save(rec.id, rec.version, seats=[seat(1, None, None)],
                           announce=[{"kind": "x", "text": "y", "to": None, "data": {}}])
    assert await db.outbox.pending(rec.id) == []
    assert (await db.games.load(rec.id)).version == rec.version
    await db.close()


async def test_a_progress_line_is_updated_in_place_and_members_choose_how_they_are_pinged(database_target):
    async with await Database.open(database_target) as db:
        rec = await new_game(db)

        async def append(lines: list[str]) -> list[str] | None:
            await db.outbox.queue(rec.id, [{"kind": "x", "text": "", "to": None, "data": {}}])
            rows = await db.outbox.pending(rec.id)
            recent = await db.outbox.save_progress(rows, recent=(lines, 6))
            await db.outbox.finish(rows)
            return recent

        assert await append(["moved", "✍️ Still planning: a, b"]) == ["moved", "✍️ Still planning: a, b"]
        assert await append(["✍️ Still planning: b"]) == ["moved", "✍️ Still planning: b"]
        assert await append(["revealed"]) == ["moved", "✍️ Still planning: b", "revealed"]
        assert await append(["✍️ Still planning: a"]) == ["moved", "✍️ Still planning: b", "revealed",
                                                           "✍️ Still planning: a"]
        # /game notify: the default is the channel; a choice is kept per member.
        assert await db.prefs.notify(42) == "channel"
        await db.prefs.set_notify(42, "dm")
        assert (await db.prefs.notify(42), await db.prefs.notify(43)) == ("dm", "channel")
        with pytest.raises(ConstraintViolation):
            await db.prefs.set_notify(42, "loud")


async def test_timers_can_be_read_by_game_and_by_due_time(database_target):
    """What the scheduler reads: one game's timers in one query, and only the due ones when it
    polls for timers armed by another process."""
    async with await Database.open(database_target) as db:
        first, second = await new_game(db, channel=1), await new_game(db, channel=2)
        await db.timers.set_many(first.id, {"turn": 300.0, "remind": 150.0})
        await db.timers.set_many(second.id, {"turn": 100.0})
        assert await db.timers.pending(game_id=first.id) == [(first.id, "remind", 150.0), (first.id, "turn", 300.0)]
        assert await db.timers.pending(due_by=150.0) == [(second.id, "turn", 100.0), (first.id, "remind", 150.0)]
        assert await db.timers.pending(due_by=99.0) == []
        assert len(await db.timers.pending()) == 3


async def test_games_in_threads_share_a_channel_and_are_found_by_their_thread(database_target):
    """Migration 008: a channel holds one game played in it, but any number of lobbies whose
    games go to threads; a started one is found by its thread (commands typed there), and a
    rematch lobby by the game it repeats."""
    from storage import ChannelBusy

    async with await Database.open(database_target) as db:
        async def lobby(host: int, **kw):
            return await db.games.create(kind="tally", guild_id=1, channel_id=10, host_user_id=host, options={},
                                        seed=1, **kw)

        async def found(query) -> Any:
            record = await query
            assert record is not None
            return record

        played_here = await lobby(1)
        with pytest.raises(ChannelBusy):
            await lobby(2)
        first, second = await lobby(2, in_thread=True), await lobby(3, in_thread=True, rematch_of=played_here.id)
        assert [g.id for g in await db.games.thread_lobbies_in_channel(10)] == [first.id, second.id]
        assert (await found(db.games.active_in_channel(10))).id == played_here.id
        assert (await found(db.games.open_rematch(played_here.id))).id == second.id
        await db.games.save(first.id, first.version, status="active", state={})
        await db.games.set_thread(first.id, 99)
        started = await found(db.games.active_in_channel(99))
        assert started.id == first.id and started.in_thread and started.table_channel_id == 99
        assert [g.id for g in await db.games.thread_lobbies_in_channel(10)] == [second.id]
        await db.games.save(first.id, started.version, status="finished", state={})
        assert (await found(db.games.last_ended_in_channel(99))).id == first.id
        assert await db.games.last_ended_in_channel(10) is None  # the thread's game, not the channel's
