"""GIF flood benchmark: click latency while one member floods 🎞 GIF presses and profile charts.

    python -m bench.gif_flood [--quick]

Games against the AI are played click by click as the bot handles a click (load, play, save,
the AI's answer, the board's text and picture, each off the event loop where the bot does it),
first alone, then while a member presses 🎞 GIF on finished games' replays and asks for their
profile chart every ``PRESS_EVERY_S`` (issue 23: twelve presses used to fill the default
thread pool and stall every server), then while the GIF lane never rests (many members, no
GIF kept: the worst case). The click p99 of the three should be within noise of each other.
Results are merged into bench/results.json under "gif_flood".
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import render  # noqa: E402
from bench.common import latency_ms, merge_results, print_rows  # noqa: E402
from cogs.gifs import ReplayGifs  # noqa: E402
from cogs.plugins import load_plugins  # noqa: E402
from render.ratings import rating_chart  # noqa: E402
from sessions import Actor, GameService  # noqa: E402
from sessions.heavywork import HeavyWork, TooBusy  # noqa: E402
from sessions.replay import Replay, load_replay  # noqa: E402
from storage import Database  # noqa: E402

KIND = "ninesons"  # the games played click by click
REPLAYED = "flagon"  # the finished games whose GIFs are pressed: ~140 plies, big boards (seconds each)
GUILD = 1
PRESS_EVERY_S = 0.08  # a member pressing as fast as a hand can (twelve presses in a second)
FLOODER = 999


@dataclass
class Flood:
    """The optional work the bot does for the flooding members, as it would do it."""

    gifs: ReplayGifs
    charts: HeavyWork
    presses: int = 0
    answered_at_once: int = 0  # refusals (waiting, cooldown, busy): private answers, no work
    sent: int = 0
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)


async def press_gif(flood: Flood, member: int, replay: Replay) -> None:
    """What the 🎞 GIF button does (cogs.replay.on_send_gif), without Discord."""
    flood.presses += 1
    if flood.gifs.refusal(member) is not None:
        flood.answered_at_once += 1
        return
    try:
        await flood.gifs.draw_for(member, replay)
    except TooBusy:
        flood.answered_at_once += 1
        return
    flood.sent += 1


async def ask_chart(flood: Flood, member: int) -> None:
    """What /game profile draws (cogs.ratings: the member's chart, kept until it changes)."""
    rng = random.Random(member)
    series = {"Nine Sons": [(1.7e9 + i * 3600, 1000 + 40 * rng.random() * i) for i in range(300)]}
    title = f"member {member} — rating over time"
    try:
        await flood.charts.submit(("chart", title), rating_chart, title, series, keep=len)
    except TooBusy:
        flood.answered_at_once += 1


async def finished_games(service: GameService, n: int, seed: int) -> list[Replay]:
    rng = random.Random(seed)
    replays = []
    for i in range(n):
        a, b = Actor(10 + 2 * i, f"a{i}"), Actor(11 + 2 * i, f"b{i}")
        rec = await service.create(REPLAYED, guild_id=GUILD, channel_id=5000 + i, host=a)
        await service.join(rec.id, b)
        await service.start(rec.id, a)
        users = {"p1": a, "p2": b}
        while True:
            _, game = await service.load(rec.id)
            assert game is not None, "started"
            if game.is_over:
                break
            seat = game.to_act()[0]
            await service.apply(rec.id, users[seat], rng.choice(game.legal_actions(seat)))
        replays.append(await load_replay(service, rec.id, GUILD))
    return replays


async def play_clicks(service: GameService, clicks: int, in_flight: int, seed: int) -> list[float]:
    """``clicks`` moves in games of a member against the easy AI, ``in_flight`` games at once;
    each click's time: the move saved, the AI's answer, the board's text and picture drawn."""
    rng = random.Random(seed)
    latencies: list[float] = []
    channel = iter(range(10_000 + seed * 1000, 10**9))

    async def new_game() -> tuple[int, Actor]:
        host = Actor(100 + next(channel), "host")
        rec = await service.create(KIND, guild_id=GUILD + 1, channel_id=next(channel), host=host)
        await service.add_ai(rec.id, host, "easy")
        await service.start(rec.id, host)
        return rec.id, host

    async def player() -> None:
        gid, host = await new_game()
        while len(latencies) < clicks:
            _, game = await service.load(gid)
            assert game is not None, "started"
            if game.is_over:
                gid, host = await new_game()
                continue
            if "p1" not in game.to_act():  # the AI answers within the click: never here
                await asyncio.sleep(0)
                continue
            action = rng.choice(game.legal_actions("p1"))
            start = time.perf_counter()
            outcome = await service.apply(gid, host, action)
            assert outcome.game is not None, "a played game has a state"
            view = outcome.game.view(None)
            render.render_text(KIND, view, outcome.names)
            await asyncio.to_thread(render.render_png, KIND, view, outcome.names)  # cogs.presenter
            latencies.append(time.perf_counter() - start)

    await asyncio.gather(*(player() for _ in range(in_flight)))
    return latencies


async def scenario(name: str, clicks: int, flooders: int, keep_gifs: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        async with await Database.open(Path(tmp) / "flood.sqlite3") as db:
            service = GameService(db)
            replays = await finished_games(service, 6, seed=2)
            load_plugins(ui=False)
            # As bot.py builds them: the GIF lane's worker is a process, the side lane's a thread.
            flood = Flood(
                ReplayGifs(), HeavyWork("side", workers=1, max_jobs=8, keep_bytes=4 << 20, processes=False)
            )
            if not keep_gifs:
                flood.gifs.work.keep_bytes = 0
            stop = asyncio.Event()

            async def flooder(member: int) -> None:
                rng = random.Random(member)
                while not stop.is_set():
                    for job in (press_gif(flood, member, rng.choice(replays)), ask_chart(flood, member)):
                        task = asyncio.create_task(job)
                        flood.tasks.add(task)
                        task.add_done_callback(flood.tasks.discard)
                    await asyncio.sleep(PRESS_EVERY_S)

            flooding = [asyncio.create_task(flooder(FLOODER + i)) for i in range(flooders)]
            if flooders:
                await asyncio.sleep(1.0)  # the flood is under way before the clicks start
            started = time.perf_counter()
            latencies = await play_clicks(service, clicks, in_flight=2, seed=3)
            elapsed = time.perf_counter() - started
            stop.set()
            await asyncio.gather(*flooding)
            flood.gifs.close()
            flood.charts.close()
            for task in list(flood.tasks):
                task.cancel()
            await asyncio.gather(*flood.tasks, return_exceptions=True)
    return {
        "scenario": name,
        "clicks": len(latencies),
        "seconds": elapsed,
        "presses": flood.presses,
        "answered_at_once": flood.answered_at_once,
        "gifs_sent": flood.sent,
        "gifs_drawn": flood.gifs.work.jobs_started,
        "charts_drawn": flood.charts.jobs_started,
        **latency_ms(latencies),
        "latency_ms_max": max(latencies) * 1000,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer clicks (smoke run)")
    ap.add_argument("--no-json", action="store_true")
    args = ap.parse_args(argv)
    load_plugins(ui=False)
    clicks = 150 if args.quick else 600
    runs = [
        asyncio.run(scenario("no flood", clicks, flooders=0, keep_gifs=True)),
        asyncio.run(scenario("one member floods GIF + chart", clicks, flooders=1, keep_gifs=True)),
        asyncio.run(
            scenario("10 members, no GIF kept (lane never rests)", clicks, flooders=10, keep_gifs=False)
        ),
        asyncio.run(scenario("no flood (again)", clicks, flooders=0, keep_gifs=True)),
    ]
    rows = [
        (
            r["scenario"],
            f"click median {r['latency_ms_median']:.1f} ms, p99 {r['latency_ms_p99']:.1f} ms, "
            f"max {r['latency_ms_max']:.0f} ms "
            f"({r['clicks']} clicks; {r['presses']} presses: {r['gifs_drawn']} GIFs drawn, "
            f"{r['gifs_sent']} sent, {r['answered_at_once']} answered at once; {r['charts_drawn']} charts)",
        )
        for r in runs
    ]
    print_rows("GIF flood bench (sessions + SQLite + board pictures; GIF and chart lanes)", rows)
    if not args.no_json:
        merge_results("gif_flood", {"runs": runs, "quick": args.quick})
    return {"runs": runs}


if __name__ == "__main__":
    main()
