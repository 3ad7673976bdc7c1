"""WAL checkpoints beside the writes (storage.checkpoints, issue 17): a second connection copies
the WAL into the database file every so many commits, so the connection every click waits for
does not stop for it; it never opens a file that is no longer the bot's."""

from __future__ import annotations

import logging
import sqlite3

from storage import ActionRow, Database
from storage.sqlite import SqliteBackend
from tests.storage.records import new_game


async def play(db: Database, game_id: int, version: int, moves: int) -> int:
    for n in range(moves):
        version = await db.games.save(game_id, version, state={"n": n}, actions=[ActionRow("p1", f"+{n}")])
    return version


def sqlite_backend(db: Database) -> SqliteBackend:
    assert isinstance(db._backend, SqliteBackend)
    return db._backend


def moves_in_the_file(path) -> int:
    """The moves the database file holds, not counting the WAL (immutable: the WAL is ignored)."""
    with sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True) as file_only:
        return file_only.execute("SELECT COUNT(*) FROM actions").fetchone()[0]


async def test_commits_are_checkpointed_by_the_second_connection(tmp_path):
    path = tmp_path / "db.sqlite3"
    async with await Database.open(path) as db:
        checkpointer = sqlite_backend(db).checkpointer
        checkpointer.every = 10
        rec = await new_game(db)
        version = rec.version
        for _ in range(3):  # each batch passes `every` writes once its checkpoint is done
            version = await play(db, rec.id, version, 15)
            # (on a loaded machine a checkpoint can outlast ten writes: then the next is skipped)
            await checkpointer.wait()
        await checkpointer.close()
        assert checkpointer.checkpoints >= 3
        # Far below the writer's own threshold (4,000 pages), yet the moves reached the file.
        assert moves_in_the_file(path) >= 30
    assert moves_in_the_file(path) == 45  # closing checkpoints the rest; nothing was lost


async def test_the_writer_keeps_a_larger_automatic_checkpoint_as_a_backstop(tmp_path):
    async with await Database.open(tmp_path / "db.sqlite3") as db:
        [(pages,)] = await db._backend.fetch("PRAGMA wal_autocheckpoint")
        [(cache,)] = await db._backend.fetch("PRAGMA cache_size")
        assert pages == 4000 and cache == -65536


class Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


async def test_a_deleted_file_is_not_recreated_by_the_checkpointer(tmp_path):
    path = tmp_path / "db.sqlite3"
    warnings = Warnings()
    logger = logging.getLogger("dragon_tavern.storage.checkpoints")
    logger.addHandler(warnings)
    try:
        async with await Database.open(path) as db:
            checkpointer = sqlite_backend(db).checkpointer
            rec = await new_game(db)  # (fewer writes than a checkpoint waits for)
            checkpointer.every = 1
            path.unlink()
            checkpointer.wrote()
            await checkpointer.close()
            assert not path.exists() and checkpointer.checkpoints == 0
            assert any("background WAL checkpoint failed" in line for line in warnings.lines)
            assert rec.id == (await db.games.load(rec.id)).id  # reading goes on
    finally:
        logger.removeHandler(warnings)
