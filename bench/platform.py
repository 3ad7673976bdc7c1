"""Platform benchmark: sessions + SQLite throughput and latency, memory per game, the bot's
round trip through simcord, and startup with many active games.

    python -m bench.platform [--quick]

Every figure uses the real storage code on a temporary SQLite file (WAL) and one event loop,
so "per second" means one core. Results are merged into bench/results.json under "platform".
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import render  # noqa: E402
from bench.common import latency_ms, median, merge_results, pct, print_rows, rss_kib  # noqa: E402
from cogs.plugins import load_plugins  # noqa: E402
from sessions import Actor, GameService, SessionError  # noqa: E402
from storage import Database  # noqa: E402

KIND = "ninesons"  # the cheapest real game: the figures are about the platform, not the rules


async def _open_games(
    service: GameService, n: int, first_channel: int, users: dict[int, dict[str, Actor]] | None = None
) -> list[int]:
    """Start ``n`` two-human games; record who sits where in ``users`` (game -> seat -> actor)."""
    ids = []
    for i in range(n):
        channel = first_channel + i
        a, b = Actor(2 * channel + 1, f"a{channel}"), Actor(2 * channel + 2, f"b{channel}")
        rec = await service.create(KIND, guild_id=1, channel_id=channel, host=a)
        await service.join(rec.id, b)
        await service.start(rec.id, a)
        ids.append(rec.id)
        if users is not None:
            users[rec.id] = {"p1": a, "p2": b}
    return ids


async def throughput(concurrent_games: int, actions: int, seed: int = 1, in_flight: int = 1) -> dict[str, Any]:
    """Apply ``actions`` random legal moves spread over ``concurrent_games`` active games, each
    action loaded, played, saved and rendered as text, like a click; ``in_flight`` clicks are
    handled at once (they share one SQLite connection, so a burst queues)."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        async with await Database.open(Path(tmp) / "bench.sqlite3") as db:
            return await _throughput(db, rng, concurrent_games, actions, in_flight)


async def _throughput(db: Database, rng: random.Random, concurrent_games: int, actions: int, in_flight: int,
                      first_channel: int = 10_000, ready: Any = None) -> dict[str, Any]:
    """``first_channel``: where this run's games start (two processes on one database use
    different ranges); ``ready()``: called once the games are open, before the clock starts."""
    service = GameService(db)
    users: dict[int, dict[str, Actor]] = {}
    ids = await _open_games(service, concurrent_games, first_channel, users)
    load_plugins(ui=False)  # as the bot does at start: not on the first click's clock
    if ready is not None:
        ready()
    next_channel = first_channel + concurrent_games
    latencies: list[float] = []
    refused = 0
    in_flight = min(in_flight, concurrent_games)

    games: dict[int, Any] = {}  # the bench's own copy of each game, to pick legal moves

    async def one_click() -> None:
        nonlocal next_channel, refused
        gid = rng.choice(ids)
        game = games.get(gid)
        if game is None:
            _, game = await service.load(gid)
            assert game is not None, "the bench's games are all started"
            games[gid] = game
        if game.is_over:
            # Finished: replace it by a new game so the number of active games stays put.
            ids.remove(gid)
            ids.extend(await _open_games(service, 1, next_channel, users))
            next_channel += 1
            return
        seat = game.to_act()[0]
        action = rng.choice(game.legal_actions(seat))
        start = time.perf_counter()  # from here on: what a click costs the bot
        try:
            outcome = await service.apply(gid, users[gid][seat], action)
        except Exception:
            refused += 1  # another click on the same game got there first
            games.pop(gid, None)
            return
        assert outcome.game is not None, "a played game has a state"
        render.render_text(KIND, outcome.game.view(None), outcome.names)
        latencies.append(time.perf_counter() - start)
        games[gid] = outcome.game

    started = time.perf_counter()
    while len(latencies) < actions:
        await asyncio.gather(*(one_click() for _ in range(in_flight)))
    elapsed = time.perf_counter() - started
    return {
        "games": concurrent_games,
        "in_flight": in_flight,
        "actions": len(latencies),
        "refused_races": refused,
        "actions_per_s": len(latencies) / elapsed,
        **latency_ms(latencies),
    }


async def burst_on_one_game(bursts: int, in_flight: int = 8) -> dict[str, Any]:
    """``in_flight`` clicks at once on one game, ``bursts`` times: each burst is the player to
    act pressing the same move ``in_flight`` times from one board (a double click, a laggy
    client), so one is played and the rest answer "Already done." after waiting for the
    game's lock. Every click's time counts, played or not."""
    with tempfile.TemporaryDirectory() as tmp:
        async with await Database.open(Path(tmp) / "burst.sqlite3") as db:
            service = GameService(db)
            rng = random.Random(5)
            users: dict[int, dict[str, Actor]] = {}
            channel = 50_000
            (gid,) = await _open_games(service, 1, channel, users)
            latencies: list[float] = []
            played = 0

            async def click(seat: str, action: str, version: int) -> None:
                nonlocal played
                start = time.perf_counter()
                try:
                    outcome = await service.apply(gid, users[gid][seat], action, expected_version=version)
                except SessionError:  # the move that was played ended the game: a refusal is a reply too
                    latencies.append(time.perf_counter() - start)
                    return
                if outcome.changed:
                    assert outcome.game is not None, "a played game has a state"
                    render.render_text(KIND, outcome.game.view(None), outcome.names)
                    played += 1
                latencies.append(time.perf_counter() - start)

            started = time.perf_counter()
            for _ in range(bursts):
                rec, game = await service.load(gid)
                assert game is not None, "the bench's game is started"
                if game.is_over:
                    channel += 1
                    (gid,) = await _open_games(service, 1, channel, users)
                    continue
                seat = game.to_act()[0]
                action = rng.choice(game.legal_actions(seat))
                await asyncio.gather(*(click(seat, action, rec.version) for _ in range(in_flight)))
            elapsed = time.perf_counter() - started
    return {
        "in_flight": in_flight,
        "clicks": len(latencies),
        "played": played,
        "clicks_per_s": len(latencies) / elapsed,
        **latency_ms(latencies),
    }


async def memory_per_game(n: int) -> dict[str, Any]:
    """RSS growth per active game held by a running service (locks, SQLite page cache)."""
    with tempfile.TemporaryDirectory() as tmp:
        async with await Database.open(Path(tmp) / "mem.sqlite3") as db:
            service = GameService(db)
            await _open_games(service, 10, 0)
            gc.collect()
            before = rss_kib()
            ids = await _open_games(service, n, 100)
            for gid in ids:  # touch every game once, as clicks would
                await service.load(gid)
            gc.collect()
            after = rss_kib()
    return {"games": n, "rss_kib_per_game": (after - before) / n}


async def startup(n_games: int) -> dict[str, Any]:
    """Time from create_bot to ready (setup_hook: migrations, cogs, sync check, timers
    re-armed) against simcord, with ``n_games`` active games and their timers in the file."""
    import simcord

    from bot import create_bot

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "start.sqlite3"
        async with await Database.open(path) as db:
            await _open_games(GameService(db), n_games, 0)
            # A bot that ran these games announced them: nothing is left in the outbox.
            for game_id in await db.outbox.games_waiting():
                await db.outbox.finish(await db.outbox.pending(game_id))
            timers = len(await db.timers.pending())
        bot = create_bot(database_path=path)
        started = time.perf_counter()
        try:
            async with simcord.run(bot):
                ready = time.perf_counter() - started
                armed = bot.timers.pending
        finally:
            await bot.close()  # simcord detaches the bot without closing it (its database thread)
    return {"games": n_games, "timers_in_db": timers, "timers_armed": armed, "startup_s": ready}


async def bot_round_trip(samples: int) -> dict[str, Any]:
    """A game action (a board button click: load, play, save, render, edit the board) against a
    no-op slash command, both through simcord's in-memory Discord."""
    import discord
    import simcord

    from bot import create_bot

    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(database_path=Path(tmp) / "rt.sqlite3")

        @bot.tree.command(name="noop", description="bench: answers at once")
        async def noop(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("ok", ephemeral=True)

        try:
            async with simcord.run(bot) as env:
                guild = env.create_guild()
                alice = guild.add_member(env.create_user("alice"))
                bob = guild.add_member(env.create_user("bob"))
                noop_times: list[float] = []
                action_times: list[float] = []
                channel = guild.create_text_channel("games")
                for _ in range(samples):
                    t = time.perf_counter()
                    await alice.slash(channel, "noop")
                    noop_times.append(time.perf_counter() - t)
                games_channel = channel
                rng = random.Random(3)
                while len(action_times) < samples:
                    rec = await bot.service.db.games.active_in_channel(games_channel.id)
                    if rec is None:
                        await alice.slash(games_channel, "game new", game="ninesons")
                        lobby = games_channel.last_message
                        assert lobby is not None, "the lobby was just posted"
                        await bob.click(lobby, label="Join")
                        await alice.click(lobby, label="Start")
                        continue
                    _, game = await bot.service.load(rec.id)
                    assert game is not None, "an active game has a state"
                    seat = game.to_act()[0]
                    who = alice if seat == "p1" else bob  # alice hosts, so she sits in p1
                    action = rng.choice(game.legal_actions(seat))
                    t = time.perf_counter()
                    await who.slash(games_channel, "play", action=action)
                    action_times.append(time.perf_counter() - t)
        finally:
            await bot.close()  # simcord detaches the bot without closing it (its database thread)
    ratio = median(action_times) / median(noop_times)
    return {
        "noop_ms_median": median(noop_times) * 1000,
        "action_ms_median": median(action_times) * 1000,
        "action_ms_p99": pct(action_times, 0.99) * 1000,
        "ratio": ratio,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer actions and games (smoke run)")
    ap.add_argument("--no-json", action="store_true")
    args = ap.parse_args(argv)
    load_plugins(ui=False)
    quick = args.quick
    results: dict[str, Any] = {"throughput": []}
    actions = 300 if quick else 3000
    for games in (1, 100, 1000):
        results["throughput"].append(asyncio.run(throughput(games, actions)))
    results["throughput"].append(asyncio.run(throughput(1000, actions, in_flight=8)))
    results["burst_one_game"] = asyncio.run(burst_on_one_game(40 if quick else 400))
    results["memory"] = asyncio.run(memory_per_game(200 if quick else 1000))
    results["startup"] = asyncio.run(startup(100 if quick else 1000))
    results["round_trip"] = asyncio.run(bot_round_trip(20 if quick else 100))

    rows = []
    for t in results["throughput"]:
        rows.append((f"actions/s, {t['games']} games, {t['in_flight']} in flight",
                     f"{t['actions_per_s']:.0f}  (median {t['latency_ms_median']:.1f} ms, "
                     f"p99 {t['latency_ms_p99']:.1f} ms)"))
    b = results["burst_one_game"]
    rows.append((f"{b['in_flight']} clicks at once on one game", f"{b['clicks_per_s']:.0f} clicks/s  (median "
                 f"{b['latency_ms_median']:.1f} ms, p99 {b['latency_ms_p99']:.1f} ms; {b['played']} played)"))
    m = results["memory"]
    rows.append((f"RSS per active game ({m['games']} games)", f"{m['rss_kib_per_game']:.1f} KiB"))
    s = results["startup"]
    rows.append((f"startup with {s['games']} active games", f"{s['startup_s']:.2f} s "
                 f"({s['timers_armed']}/{s['timers_in_db']} timers re-armed)"))
    r = results["round_trip"]
    rows.append(("simcord round trip: /play vs no-op", f"{r['action_ms_median']:.1f} ms vs "
                 f"{r['noop_ms_median']:.1f} ms = {r['ratio']:.2f}x (p99 {r['action_ms_p99']:.1f} ms)"))
    print_rows("Platform bench (sessions + SQLite + text render, one core)" + (" [quick]" if quick else ""), rows)
    if not args.no_json:
        merge_results("platform", results)
    return results


if __name__ == "__main__":
    main()
