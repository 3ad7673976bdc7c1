"""Operator commands, run beside (or instead of) the bot on its database:

    python -m sessions.maintenance rebuild-ratings [--database PATH]
    python -m sessions.maintenance copy-to-postgres --from PATH --to postgresql://...

``rebuild-ratings`` forgets every rating and recomputes them from the saved finished games in
the order they finished (one transaction: a game finishing meanwhile waits, then is rated on
top). Same database, same ratings: it prints a fingerprint of the result to compare runs.
The database defaults to DATABASE_PATH (as the bot reads it), else dragon_tavern.sqlite3.

``copy-to-postgres`` copies every table of a SQLite file (games, seats, actions, timers,
results, settings, ratings, ...) into PostgreSQL in one transaction, keeping ids, and prints
the rows per table. Rows already there are skipped, so a second run copies nothing and says so.
Stop the bot first: rows it writes to the file during the copy are not copied.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import sys
import time
from pathlib import Path

from sessions.ratings import rate_game
from storage import Database, StorageError
from storage.copy import TableCopy, copy_sqlite_to_postgres

DEFAULT_DATABASE = "dragon_tavern.sqlite3"


async def rebuild_ratings(path: Path) -> str:
    """Rebuild and describe the result in one line."""
    started = time.perf_counter()
    async with await Database.open(path) as db:
        games, ratings = await db.ratings.rebuild(rate_game)
        fingerprint = await ratings_fingerprint(db)
    seconds = time.perf_counter() - started
    return (f"Rebuilt ratings from {games:,} rated game{'s' if games != 1 else ''}: {ratings:,} rating"
            f"{'s' if ratings != 1 else ''} in {seconds:.2f} s (fingerprint {fingerprint}).")


async def ratings_fingerprint(db: Database) -> str:
    """A short digest of every rating and history row: equal databases print equal digests."""
    digest = hashlib.sha256()
    for row in await db.ratings.snapshot():
        digest.update(repr(row).encode())
    return digest.hexdigest()[:16]


async def copy_to_postgres(source: Path, url: str) -> str:
    """Copy and describe the result: a line per table and a last line."""
    started = time.perf_counter()
    tables = await copy_sqlite_to_postgres(source, url)
    return describe_copy(tables, time.perf_counter() - started)


def describe_copy(tables: list[TableCopy], seconds: float) -> str:
    width = max(len(t.table) for t in tables)
    lines = [f"{'table':<{width}}  {'in SQLite':>10}  {'copied':>10}  {'already there':>13}  {'in PostgreSQL':>13}"]
    lines += [f"{t.table:<{width}}  {t.source_rows:>10,}  {t.copied:>10,}  {t.already_there:>13,}  {t.target_rows:>13,}"
              for t in tables]
    copied = sum(t.copied for t in tables)
    if copied == 0:
        lines.append(f"Nothing to copy: every row was already in PostgreSQL ({seconds:.2f} s).")
    else:
        lines.append(f"Copied {copied:,} rows in {seconds:.2f} s; every table's rows are in PostgreSQL.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sessions.maintenance", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    rebuild = commands.add_parser("rebuild-ratings", help="recompute every rating from the saved games")
    rebuild.add_argument("--database", type=Path,
                         default=Path(os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE))
    copy = commands.add_parser("copy-to-postgres", help="copy a SQLite database into PostgreSQL")
    copy.add_argument("--from", dest="source", type=Path, required=True, help="the SQLite file")
    copy.add_argument("--to", dest="url", required=True, help="postgresql://user:password@host:port/database")
    args = parser.parse_args(argv)
    if args.command == "copy-to-postgres":
        if not args.url.startswith(("postgresql://", "postgres://")):
            print("dragon-tavern: --to must be a postgresql:// URL.", file=sys.stderr)
            return 2
        try:
            print(asyncio.run(copy_to_postgres(args.source, args.url)))
        except StorageError as exc:
            print(f"dragon-tavern: {exc}", file=sys.stderr)
            return 2
        return 0
    if not args.database.is_file():
        print(f"dragon-tavern: no database at {args.database} (give --database or set DATABASE_PATH).",
              file=sys.stderr)
        return 2
    try:
        print(asyncio.run(rebuild_ratings(args.database)))
    except StorageError as exc:
        print(f"dragon-tavern: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
