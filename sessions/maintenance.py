"""Operator commands, run beside (or instead of) the bot on its database:

    python -m sessions.maintenance rebuild-ratings [--database PATH]

``rebuild-ratings`` forgets every rating and recomputes them from the saved finished games in
the order they finished (one transaction: a game finishing meanwhile waits, then is rated on
top). Same database, same ratings: it prints a fingerprint of the result to compare runs.
The database defaults to DATABASE_PATH (as the bot reads it), else dragon_tavern.sqlite3.
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

DEFAULT_DATABASE = "dragon_tavern.sqlite3"


async def rebuild_ratings(path: Path) -> str:
    """Rebuild and describe the result in one line."""
    started = time.perf_counter()
    async with await Database.open(path) as db:
        games, ratings = await db.rebuild_ratings(rate_game)
        fingerprint = await ratings_fingerprint(db)
    seconds = time.perf_counter() - started
    return (f"Rebuilt ratings from {games:,} rated game{'s' if games != 1 else ''}: {ratings:,} rating"
            f"{'s' if ratings != 1 else ''} in {seconds:.2f} s (fingerprint {fingerprint}).")


async def ratings_fingerprint(db: Database) -> str:
    """A short digest of every rating and history row: equal databases print equal digests."""
    digest = hashlib.sha256()
    for row in await db.rating_snapshot():
        digest.update(repr(row).encode())
    return digest.hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sessions.maintenance", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    rebuild = commands.add_parser("rebuild-ratings", help="recompute every rating from the saved games")
    rebuild.add_argument("--database", type=Path,
                         default=Path(os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE))
    args = parser.parse_args(argv)
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
