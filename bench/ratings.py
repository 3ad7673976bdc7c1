"""Ratings at scale: one server with 100,000 finished games (``--quick``: 20,000), 400 members.

Measures what a member waits for: /game leaderboard (first page, a middle page, the asker's own
rank), /game profile (every game's rating and rank, the chart series) and /game history, each
as the storage reads the command makes, p50 / p99 over many runs with random members; plus
what rating costs: the rebuild of every rating (per game) and the extra time a finishing save
takes with its rating update.

Run: ``python -m bench.ratings [--quick]``. The indexes that make the reads fast are in
storage/migrations/006_ratings.sql: ratings_leaderboard (guild, kind, rating DESC, player) for
pages and ranks, rating_history_by_player for the chart, results_by_user_time for history.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench.common import merge_results, pct, print_rows
from render.ratings import rating_chart
from sessions.ratings import rate_game
from storage import ActionRow, Database, ResultRow, SeatRecord

GUILD = 1
KINDS = ("farkle", "ninesons", "flagon")
MEMBERS = 400


def fill(path: Path, games: int, rnd: random.Random) -> None:
    """Write ``games`` finished games straight into the tables (what the bot would have saved)."""
    connection = sqlite3.connect(path)
    now = 1_700_000_000.0
    game_rows, seat_rows, result_rows = [], [], []
    for game_id in range(1, games + 1):
        kind = rnd.choice(KINDS)
        count = 2 if kind == "ninesons" else rnd.randint(2, 4)
        users = rnd.sample(range(1, MEMBERS + 1), count)
        seats = [f"p{i + 1}" for i in range(count)]
        ai_seat = rnd.random() < 0.2  # some games against an AI level
        order = seats[:]
        rnd.shuffle(order)
        ranking = [[s] for s in order]
        finished = now + game_id * 60
        result = {"scores": {}, "ranking": ranking, "reason": "bench"}
        game_rows.append((game_id, kind, GUILD, game_id % 50, users[0], "finished", "{}", game_id, "{}", 1,
                          json.dumps(result), finished - 600, finished, finished))
        for position, (seat, user) in enumerate(zip(seats, users, strict=True)):
            ai = ai_seat and position == count - 1
            seat_rows.append((game_id, seat, position, None if ai else user, "hard" if ai else None,
                              "Hard AI 1" if ai else f"member {user}"))
            if not ai:
                place = order.index(seat) + 1
                result_rows.append((game_id, GUILD, kind, user, place, None, "win" if place == 1 else "loss",
                                    finished))
    connection.executemany(
        "INSERT INTO games (id, kind, guild_id, channel_id, host_user_id, status, options, seed, state, version, "
        "result, created_at, updated_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        game_rows)
    connection.executemany(
        "INSERT INTO seats (game_id, seat, position, user_id, ai_level, display_name) VALUES (?, ?, ?, ?, ?, ?)",
        seat_rows)
    connection.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)", result_rows)
    connection.commit()
    connection.close()


async def timed(runs: int, call: Callable[[], Awaitable[Any]]) -> list[float]:
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        await call()
        out.append((time.perf_counter() - started) * 1000)
    return out


async def measure(games: int, runs: int) -> dict[str, Any]:
    rnd = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        async with await Database.open(path):
            pass  # the schema
        started = time.perf_counter()
        fill(path, games, rnd)
        fill_s = time.perf_counter() - started
        async with await Database.open(path) as db:
            started = time.perf_counter()
            rated, ratings = await db.ratings.rebuild(rate_game)
            rebuild_s = time.perf_counter() - started

            def member() -> str:
                return f"u:{rnd.randint(1, MEMBERS)}"

            async def leaderboard_first() -> None:
                kind = rnd.choice(KINDS)
                await db.ratings.leaderboard(GUILD, kind, 0, 10)
                await db.ratings.rated_players(GUILD, kind)
                await db.ratings.rating_and_rank(GUILD, kind, member())

            async def leaderboard_middle() -> None:
                kind = rnd.choice(KINDS)
                await db.ratings.leaderboard(GUILD, kind, 200, 10)
                await db.ratings.rated_players(GUILD, kind)
                await db.ratings.rating_and_rank(GUILD, kind, member())

            async def profile() -> None:
                player = member()
                for kind in await db.ratings.player_kinds(GUILD, player):
                    await db.ratings.rating_and_rank(GUILD, kind, player)
                    await db.ratings.rated_players(GUILD, kind)
                    await db.ratings.series(GUILD, player, kind, 300)

            async def history() -> None:
                user = rnd.randint(1, MEMBERS)
                await db.ratings.member_games_count(GUILD, user, None)
                await db.ratings.member_games(GUILD, user, None, 0, 10)

            figures = {
                "leaderboard, first page": await timed(runs, leaderboard_first),
                "leaderboard, page 21": await timed(runs, leaderboard_middle),
                "profile (3 games, chart series)": await timed(runs, profile),
                "history, first page": await timed(runs, history),
            }
            finish = await finishing_cost(db, rnd, runs)
            series = {kind: await db.ratings.series(GUILD, "u:1", kind, 300) for kind in KINDS}
    charts = []
    for _ in range(30):
        started = time.perf_counter()
        rating_chart("member 1 — rating over time", series)
        charts.append((time.perf_counter() - started) * 1000)
    out: dict[str, Any] = {
        "games": games, "members": MEMBERS, "rated games": rated, "ratings": ratings,
        "fill_s": round(fill_s, 2), "rebuild_s": round(rebuild_s, 2),
        "rebuild_ms_per_game": round(rebuild_s * 1000 / max(1, rated), 3),
        **{f"{name} p50_ms": round(pct(v, 0.5), 2) for name, v in figures.items()},
        **{f"{name} p99_ms": round(pct(v, 0.99), 2) for name, v in figures.items()},
        **finish,
        "profile chart PNG p50_ms": round(pct(charts, 0.5), 1),
    }
    return out


async def finishing_cost(db: Database, rnd: random.Random, runs: int) -> dict[str, float]:
    """A game's finishing save with and without its rating update, alternating (same load)."""
    with_rating: list[float] = []
    without: list[float] = []
    for number in range(runs):
        first, second = rnd.sample(range(1, MEMBERS + 1), 2)
        rec = await db.games.create(kind="ninesons", guild_id=GUILD, channel_id=10_000 + number, host_user_id=1,
                                   options={}, seed=number,
                                   seats=[SeatRecord("p1", 0, first, None, "a"), SeatRecord("p2", 1, second, None, "b")])
        result = {"scores": {}, "ranking": [["p1"], ["p2"]], "reason": "bench"}
        rows = [ResultRow(s.user_id or 0, i + 1, None, "win" if i == 0 else "loss") for i, s in enumerate(rec.seats)]
        started = time.perf_counter()
        await db.games.save(rec.id, rec.version, state={}, status="finished", result=result, results=rows,
                           actions=[ActionRow("p2", "resign", "system")],
                           rate=rate_game if number % 2 == 0 else None)
        (with_rating if number % 2 == 0 else without).append((time.perf_counter() - started) * 1000)
    return {
        "finish save with rating p50_ms": round(pct(with_rating, 0.5), 2),
        "finish save without rating p50_ms": round(pct(without, 0.5), 2),
        "rating update cost p50_ms": round(pct(with_rating, 0.5) - pct(without, 0.5), 2),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="20,000 games instead of 100,000")
    ap.add_argument("--games", type=int)
    args = ap.parse_args(argv)
    games = args.games or (20_000 if args.quick else 100_000)
    figures = asyncio.run(measure(games, runs=300))
    print_rows(f"ratings: one server, {games:,} finished games, {MEMBERS} members",
               [(k, str(v)) for k, v in figures.items()])
    merge_results("ratings_quick" if args.quick else "ratings", figures)


if __name__ == "__main__":
    main()
