"""SQLite and PostgreSQL side by side: actions per second at many open games (one process;
PostgreSQL also with two processes on one database), latency, memory per open game.

    python -m bench.backends [--quick] [--postgres URL]

Without ``--postgres`` a throw-away PostgreSQL server is started the way the tests start one
(tests/storage/postgres_server.py: initdb in a temporary folder, as the ``postgres`` user when
run as root). Each action is what a click costs the bot in the sessions layer: load, play, save
(with its outbox row and timers), render the text board. "Two processes" are two OS processes,
each with its own games and its own connection pool, started together on one database; their
actions per second add up. On this 2-core machine the PostgreSQL server shares the cores with
the bot processes, which caps what a second process can add.

The SQLite rows run on one core (the issue's target: "on one core"), pinned the way
``taskset -c 0`` or systemd's ``CPUAffinity=0`` pins the bot; one more row lets the process
use every core, for comparison: on a virtual machine a trip to aiosqlite's thread costs
~0.03 ms when both threads share a core and ~0.17 ms when the thread wakes on another one.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import merge_results, on_one_core, print_rows, rss_kib  # noqa: E402
from bench.platform import _open_games, _throughput  # noqa: E402
from cogs.plugins import load_plugins  # noqa: E402
from sessions import GameService  # noqa: E402
from storage import Database  # noqa: E402


async def one_process(target: str | Path, games: int, actions: int, first_channel: int = 10_000,
                      in_flight: int = 1, ready: Any = None) -> dict[str, Any]:
    load_plugins(ui=False)
    async with await Database.open(target) as db:
        return await _throughput(db, random.Random(first_channel), games, actions, in_flight,
                                 first_channel=first_channel, ready=ready)


def _worker(url: str, games: int, actions: int, first_channel: int, barrier: Any, out: Any) -> None:
    def ready() -> None:
        barrier.wait()  # both processes have their games open: start the clocks together

    out.put(asyncio.run(one_process(url, games, actions, first_channel, ready=ready)))


def two_processes(url: str, games: int, actions: int) -> dict[str, Any]:
    """Two processes, ``games`` open games each, ``actions`` each, on one PostgreSQL database."""
    context = multiprocessing.get_context("spawn")
    barrier, out = context.Barrier(2), context.Queue()
    workers = [context.Process(target=_worker, args=(url, games, actions, 1_000_000 * (i + 1), barrier, out))
               for i in range(2)]
    for worker in workers:
        worker.start()
    results = [out.get(timeout=1800) for _ in workers]
    for worker in workers:
        worker.join()
    return {
        "actions_per_s": sum(r["actions_per_s"] for r in results),
        "latency_ms_median": max(r["latency_ms_median"] for r in results),
        "latency_ms_p99": max(r["latency_ms_p99"] for r in results),
    }


async def memory_per_game(target: str | Path, n: int) -> float:
    """RSS growth of this process per open game touched once (KiB)."""
    async with await Database.open(target) as db:
        service = GameService(db)
        await _open_games(service, 10, 500_000)
        before = rss_kib()
        ids = await _open_games(service, n, 600_000)
        for game_id in ids:
            await service.load(game_id)
        return (rss_kib() - before) / n


async def fresh_postgres(given: str | None) -> str:
    if given:
        return given
    from tests.storage.postgres_server import fresh_database_url

    return await fresh_database_url()


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer games and actions")
    ap.add_argument("--postgres", help="a PostgreSQL URL to use (its tables are written to)")
    args = ap.parse_args(argv)
    games, actions = (200, 1_000) if args.quick else (1_000, 3_000)
    load_plugins(ui=False)
    rows: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        with on_one_core() as core:
            rows[f"sqlite, 1 process on one core ({core})"] = asyncio.run(
                one_process(Path(tmp) / "bench.sqlite3", games, actions))
            rows["sqlite, 8 in flight on one game, one core"] = asyncio.run(
                one_process(Path(tmp) / "burst.sqlite3", 1, actions // 2, in_flight=8))
        rows["sqlite, 1 process, every core"] = asyncio.run(one_process(Path(tmp) / "free.sqlite3", games, actions))
        memory_sqlite = asyncio.run(memory_per_game(Path(tmp) / "mem.sqlite3", games))
    url = asyncio.run(fresh_postgres(args.postgres))
    rows["postgres, 1 process"] = asyncio.run(one_process(url, games, actions))
    rows["postgres, 8 in flight on one game"] = asyncio.run(one_process(url, 1, actions // 2, 5_000_000, in_flight=8))
    rows["postgres, 2 processes"] = two_processes(asyncio.run(fresh_postgres(args.postgres)), games, actions)
    memory_pg = asyncio.run(memory_per_game(url, games))
    scaling = rows["postgres, 2 processes"]["actions_per_s"] / rows["postgres, 1 process"]["actions_per_s"]
    table = [(f"{name}: actions/s · median · p99",
              f"{r['actions_per_s']:.0f} · {r['latency_ms_median']:.1f} ms · {r['latency_ms_p99']:.1f} ms")
             for name, r in rows.items()]
    table += [("postgres 2 processes / 1 process", f"{scaling:.2f}×"),
              ("memory per open game, sqlite / postgres", f"{memory_sqlite:.1f} / {memory_pg:.1f} KiB")]
    print_rows(f"backends: {games} open games, {actions} actions per run", table)
    figures = {"games": games, "actions": actions, "runs": rows, "postgres_scaling": scaling,
               "memory_kib_per_game": {"sqlite": memory_sqlite, "postgres": memory_pg}}
    merge_results("backends_quick" if args.quick else "backends", figures)
    return figures


if __name__ == "__main__":
    main()
