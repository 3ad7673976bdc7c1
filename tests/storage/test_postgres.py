"""PostgreSQL as the shared store: two Database objects (two pools, as two bot processes would
have) on one database, plus the SQL translation the backend relies on."""

from __future__ import annotations

import asyncio

import pytest

from storage import ChannelBusy, Database, StorageError, VersionConflict
from storage.postgres import numbered_placeholders
from storage.schema import postgres_ddl
from tests.storage.records import new_game, seat


@pytest.fixture
async def two_processes(pg_url):
    async with await Database.open(pg_url) as one, await Database.open(pg_url) as two:
        yield one, two


async def test_the_game_lock_serialises_actions_across_processes(two_processes):
    one, two = two_processes
    rec = await new_game(one)
    inside: list[str] = []
    overlap = False

    async def act(db: Database, name: str) -> None:
        nonlocal overlap
        for _ in range(5):
            async with db.game_lock(rec.id):
                overlap = overlap or bool(inside)
                inside.append(name)
                await asyncio.sleep(0.01)
                inside.remove(name)

    await asyncio.gather(act(one, "one"), act(two, "two"), act(one, "one-b"))
    assert not overlap


async def test_another_games_lock_does_not_wait(two_processes):
    one, two = two_processes
    first, second = await new_game(one, channel=1), await new_game(one, channel=2)
    async with one.game_lock(first.id):
        async with asyncio.timeout(5), two.game_lock(second.id):
            pass
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.3), two.game_lock(first.id):
                pass


async def advisory_locks(db: Database) -> int:
    return (await db._backend.fetch("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory'"))[0][0]


async def test_a_game_lock_ends_when_its_connection_goes_back_to_the_pool(two_processes):
    """The lock ends in the pool's reset (one round trip): nothing stays locked afterwards,
    after an error inside it, or when the holder is cancelled."""
    one, two = two_processes
    rec = await new_game(one)
    async with one.game_lock(rec.id):
        assert await advisory_locks(two) == 1
    assert await advisory_locks(two) == 0
    with pytest.raises(RuntimeError):
        async with one.game_lock(rec.id):
            raise RuntimeError("a failed action")
    holder = asyncio.create_task(hold(one, rec.id))
    await asyncio.sleep(0.2)
    holder.cancel()
    with pytest.raises(asyncio.CancelledError):
        await holder
    async with asyncio.timeout(5), two.game_lock(rec.id):  # the other process gets it at once
        assert await advisory_locks(one) == 1
    assert await advisory_locks(one) == 0


async def hold(db: Database, game_id: int) -> None:
    async with db.game_lock(game_id):
        await asyncio.sleep(60)


async def test_a_due_timer_is_claimed_once_across_processes(two_processes):
    one, two = two_processes
    rec = await new_game(one)
    await one.timers.set(rec.id, "turn", 100.0)
    assert not await two.timers.claim(rec.id, "turn", 99.0)  # not due yet
    claims = await asyncio.gather(*(db.timers.claim(rec.id, "turn", 100.5) for db in (one, two, one, two)))
    assert sorted(claims) == [False, False, False, True]
    assert await one.timers.pending() == []


async def test_concurrent_saves_of_one_version_let_exactly_one_win(two_processes):
    one, two = two_processes
    rec = await new_game(one)

    async def save(db: Database, n: int) -> int | str:
        try:
            return await db.games.save(rec.id, rec.version, state={"n": n}, status="active")
        except VersionConflict:
            return "conflict"

    outcomes = await asyncio.gather(*(save(db, n) for n, db in enumerate((one, two, one, two))))
    assert sorted(outcomes, key=str) == [1, "conflict", "conflict", "conflict"]
    assert (await two.games.load(rec.id)).version == 1


async def test_one_open_game_per_channel_holds_across_processes(two_processes):
    one, two = two_processes
    results = await asyncio.gather(new_game(one), new_game(two), return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["ChannelBusy", "GameRecord"]
    with pytest.raises(ChannelBusy):
        await new_game(two)
    assert len(await one.games.find()) == 1


async def test_ids_beyond_32_bits_are_stored(pg_url):
    snowflake = 1_234_567_890_123_456_789
    async with await Database.open(pg_url) as db:
        rec = await db.games.create(
            kind="tally",
            guild_id=snowflake,
            channel_id=snowflake + 1,
            host_user_id=snowflake + 2,
            options={},
            seed=2**40,
            seats=[seat(1, snowflake + 3)],
        )
        loaded = await db.games.load(rec.id)
        assert (loaded.guild_id, loaded.channel_id, loaded.seats[0].user_id) == (
            snowflake,
            snowflake + 1,
            snowflake + 3,
        )


async def test_an_unreachable_server_is_explained():
    with pytest.raises(StorageError, match="Cannot connect"):
        await Database.open("postgresql://nobody@127.0.0.1:1/none")


async def test_database_url_forms(tmp_path):
    async with await Database.open(f"sqlite://{tmp_path}/a.sqlite3") as db:  # sqlite:///tmp/...
        assert db.backend_name == "sqlite" and db.path == tmp_path / "a.sqlite3"
    with pytest.raises(StorageError, match="must start with"):
        await Database.open("mysql://x/y")


def test_placeholders_are_numbered_outside_quotes():
    assert numbered_placeholders("SELECT ? FROM t WHERE a = '?' AND b IN (?, ?)") == (
        "SELECT $1 FROM t WHERE a = '?' AND b IN ($2, $3)"
    )


def test_migrations_translate_to_postgres_types():
    sql = (
        "CREATE TABLE x (id INTEGER PRIMARY KEY AUTOINCREMENT, n INTEGER NOT NULL, f REAL, t TEXT);"
        " -- a real integer comment"
    )
    assert postgres_ddl(sql) == (
        "CREATE TABLE x (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, n BIGINT NOT NULL, "
        "f DOUBLE PRECISION, t TEXT); -- a real integer comment"
    )


async def test_rating_transactions_of_two_processes_take_turns(two_processes):
    """A rebuild in one process and a game finishing in another never interleave: the second
    waits for the first's commit before it reads any rating."""
    one, two = two_processes
    order: list[str] = []
    first_locked = asyncio.Event()

    async def rebuild_like(db: Database) -> None:
        async with db._backend.transaction():
            await db._backend.lock_ratings()
            first_locked.set()
            order.append("one in")
            await asyncio.sleep(0.2)
            order.append("one out")

    async def finish_like(db: Database) -> None:
        await first_locked.wait()
        async with db._backend.transaction():
            await db._backend.lock_ratings()
            order.append("two in")

    await asyncio.gather(rebuild_like(one), finish_like(two))
    assert order == ["one in", "one out", "two in"]


async def test_deliveries_of_one_game_take_turns_across_processes_but_not_with_its_game_lock(two_processes):
    one, two = two_processes
    rec = await new_game(one)
    order: list[str] = []
    first_in = asyncio.Event()

    async def deliver(db: Database, name: str) -> None:
        if name == "two":
            await first_in.wait()
        async with db.delivery_lock(rec.id):
            order.append(f"{name} in")
            first_in.set()
            await asyncio.sleep(0.1)
            order.append(f"{name} out")

    await asyncio.gather(deliver(one, "one"), deliver(two, "two"))
    assert order == ["one in", "one out", "two in", "two out"]
    # A delivery never waits for an action, nor the reverse.
    async with one.delivery_lock(rec.id), asyncio.timeout(5), two.game_lock(rec.id):
        pass
