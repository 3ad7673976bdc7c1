"""`python -m sessions.maintenance copy-to-postgres`: a SQLite file into PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from sessions.maintenance import main
from storage import ActionRow, Database, ResultRow, SeatMessage, SeatRecord


def seat(n: int, user: int) -> SeatRecord:
    return SeatRecord(seat=f"p{n}", position=n - 1, user_id=user, ai_level=None, display_name=f"player{n}")


async def fill(path: Path) -> dict[str, int]:
    """A small database touching every table; returns the rows per table."""
    async with await Database.open(path) as db:
        for channel in range(3):
            rec = await db.games.create(
                kind="tally",
                guild_id=1,
                channel_id=channel,
                host_user_id=100,
                options={},
                seed=channel,
                seats=[seat(1, 100), seat(2, 200)],
                announce=[],
            )
            await db.games.save(
                rec.id,
                0,
                state={"n": channel},
                status="active",
                actions=[ActionRow("p1", "+1", "player", 100)],
            )
        await db.games.save(
            1,
            1,
            status="finished",
            result={"winners": ["p1"]},
            results=[ResultRow(100, 1, 3.0, "win"), ResultRow(200, 2, 1.0, "loss")],
        )
        await db.timers.set(2, "turn", 1234.5)
        await db.settings.set(1, "afk_strikes", 2)
        await db.prefs.set_notify(100, "dm")
        await db.pings.add(2, 7, 70)
        await db.old_boards.move(2, 90, (7, 71))
        await db.seat_messages.set(2, "p1", SeatMessage(8, 80, "key", True))
        await db.ratings.mark_unrated(1, "p2", "hint")
        await db.damage.mark(3, "test")
        await db._backend.run(
            "INSERT INTO ratings VALUES (1, 'tally', 'u:100', 100, 'player1', 25.0, 8.0, 1000.0, "
            "1, 1, 0, 1, 1, 1)"
        )
        await db._backend.run(
            "INSERT INTO rating_history VALUES (1, 1, 'tally', 'u:100', 'p1', 1, 'win', 25.0, 8.3, "
            "990.0, 25.0, 8.0, 1000.0, 5.0)"
        )
        tables = [
            r[0]
            for r in await db._backend.fetch(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
            )
        ]
        return {t: (await db._backend.fetch(f"SELECT COUNT(*) FROM {t}"))[0][0] for t in tables}


async def test_copy_keeps_every_row_and_id_and_a_second_run_changes_nothing(tmp_path, pg_url, capsys):
    path = tmp_path / "old.sqlite3"
    counts = await fill(path)
    assert all(counts[t] > 0 for t in counts if t != "outbox"), counts

    assert await _run_main(path, pg_url) == 0
    first = capsys.readouterr().out
    assert "Copied" in first and "games" in first

    async with await Database.open(pg_url) as pg, await Database.open(path) as sqlite:
        for table, count in counts.items():
            if table != "schema_migrations":
                assert (await pg._backend.fetch(f"SELECT COUNT(*) FROM {table}"))[0][0] == count, table
        for game_id in (1, 2):
            a, b = await sqlite.games.load(game_id), await pg.games.load(game_id)
            assert a == b
            assert await sqlite.log.of_game(game_id) == await pg.log.of_game(game_id)
        assert await pg.timers.pending() == await sqlite.timers.pending() == [(2, "turn", 1234.5)]
        assert await pg.settings.of_guild(1) == {"afk_strikes": 2}
        assert await pg.ratings.snapshot() == await sqlite.ratings.snapshot()
        assert await pg.damage.reasons() == {3: "test"}
        # The id sequence continues after the copied ids.
        new = await pg.games.create(
            kind="tally", guild_id=1, channel_id=99, host_user_id=1, options={}, seed=1
        )
        assert new.id == 4

    assert await _run_main(path, pg_url) == 0
    second = capsys.readouterr().out
    assert "Nothing to copy" in second


async def _run_main(path: Path, url: str) -> int:
    # main() runs its own event loop: run it in a thread, away from the test's loop.
    import asyncio

    return await asyncio.to_thread(main, ["copy-to-postgres", "--from", str(path), "--to", url])


def test_copy_needs_a_postgres_url(tmp_path, capsys):
    assert main(["copy-to-postgres", "--from", str(tmp_path / "x.sqlite3"), "--to", "sqlite:///x"]) == 2
    assert "postgresql://" in capsys.readouterr().err
