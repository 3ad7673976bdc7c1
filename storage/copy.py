"""Copying a SQLite database into PostgreSQL (the move to several processes).

Every data table is copied in one PostgreSQL transaction, keeping ids; rows whose key is
already there are skipped (ON CONFLICT DO NOTHING), so running it again changes nothing. The
target is migrated first, like the bot would, and the copy is refused before committing if a
table in PostgreSQL ends up with fewer rows than in the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from storage.db import Database
from storage.errors import StorageError
from storage.postgres import PostgresBackend
from storage.sqlite import SqliteBackend


@dataclass(frozen=True)
class TableCopy:
    table: str
    source_rows: int  # in the SQLite file
    copied: int  # inserted by this run
    target_rows: int  # in PostgreSQL afterwards

    @property
    def already_there(self) -> int:
        return self.source_rows - self.copied


async def copy_sqlite_to_postgres(source: Path, url: str) -> list[TableCopy]:
    """Copy the SQLite file ``source`` into the PostgreSQL database ``url``; per table counts."""
    if not source.is_file():
        raise StorageError(f"There is no SQLite database at {source}.")
    async with await Database.open(source) as sqlite_db, await Database.open(url) as pg_db:
        sqlite, pg = sqlite_db._backend, pg_db._backend
        if not isinstance(sqlite, SqliteBackend) or not isinstance(pg, PostgresBackend):
            raise StorageError("Copy from a SQLite file (a path) to PostgreSQL (a postgresql:// URL).")
        report = []
        async with pg.transaction():
            for table in await sqlite.table_names():
                before = await _count(pg, table)
                source_rows = 0
                async for columns, rows in sqlite.table_chunks(table):
                    source_rows += len(rows)
                    marks = ", ".join("?" * len(columns))
                    await pg.run_many(
                        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks}) ON CONFLICT DO NOTHING",
                        rows,
                    )
                await pg.reset_identity(table)
                after = await _count(pg, table)
                if after < source_rows:  # a row conflicted with a different one already there
                    raise StorageError(
                        f"{table}: {source_rows:,} rows in {source} but {after:,} in PostgreSQL after the "
                        "copy (some rows clash with others already there); nothing was copied."
                    )
                report.append(TableCopy(table, source_rows, after - before, after))
        return report


async def _count(pg: PostgresBackend, table: str) -> int:
    return int((await pg.fetch(f"SELECT COUNT(*) FROM {table}"))[0][0])
