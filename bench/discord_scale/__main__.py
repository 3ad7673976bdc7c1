"""Dragon Tavern at internet scale, by simulation: the real bot against a loopback fake Discord
that enforces Discord's rate limits; N servers with one game each, members at human pace."""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
from pathlib import Path

from bench.common import core_speed
from bench.discord_scale.harness import KINDS, per_move, per_move_table
from bench.discord_scale.ramp import holds, ramp

FULL_STEPS = [50, 100, 150, 200, 300, 400, 600, 800, 1000, 1500, 2000, 3000, 5000]
QUICK_STEPS = [10, 40, 100, 200]
PLOT = Path(__file__).resolve().parents[1] / "discord_scale.png"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.discord_scale", description=__doc__)
    parser.add_argument(
        "--per-move", action="store_true", help="requests per move / turn change, whole games"
    )
    parser.add_argument("--games", type=int, default=1, help="--per-move: whole games per kind")
    parser.add_argument(
        "--via", choices=["buttons", "play"], default="buttons", help="--per-move: how members play"
    )
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"--per-move: of {', '.join(KINDS)}")
    parser.add_argument("--quick", action="store_true", help=f"a short ramp ({QUICK_STEPS}, 30 s windows)")
    parser.add_argument("--steps", help="comma-separated game counts of the ramp")
    parser.add_argument("--window", type=float, help="seconds measured per step (default 45, quick 30)")
    parser.add_argument("--think", default="15,45", help="seconds a member thinks before a move: min,max")
    parser.add_argument("--plot", action="store_true", help=f"draw the ramp into {PLOT.name}")
    parser.add_argument("--redraw", action="store_true", help="draw the plot again from its saved figures")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument(
        "--latency", type=float, default=0.0, help="seconds the fake holds every REST answer (Discord's ~0.1-0.2)"
    )
    parser.add_argument(
        "--pin", action="store_true", help="the bot on one CPU, the bench on the others (sched_setaffinity)"
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="run the bot as this many processes (shard i of as many each) on a throw-away PostgreSQL",
    )
    parser.add_argument(
        "--profile", metavar="PREFIX", help="run the bot under cProfile: PREFIX.<n>.prof per warm-up/window"
    )
    args = parser.parse_args(argv)
    # The simulated members and the fake Discord collect garbage as the bot does (sessions.collector):
    # the default's full passes took ~10 % of this process's CPU at 800 games.
    gc.set_threshold(50_000, 20, 20)
    if args.per_move:
        kinds = [k for k in args.kinds.split(",") if k]
        costs, cpu = asyncio.run(
            per_move(args.games, args.seed, kinds, args.via, args.profile, processes=max(1, args.processes))
        )
        print("\n".join(per_move_table(costs, args.via, cpu)))
        print(f"this machine: 10 million additions in {core_speed():.2f} s of one core's time")
        return 0
    if args.redraw:
        from bench.discord_scale.plot import draw, load

        draw(load(PLOT.with_suffix(".json")), PLOT)
        return 0
    steps = (
        [int(n) for n in args.steps.split(",")] if args.steps else QUICK_STEPS if args.quick else FULL_STEPS
    )
    window = args.window or (30.0 if args.quick else 45.0)
    low, high = (float(x) for x in args.think.split(","))
    print(f"this machine: 10 million additions in {core_speed():.2f} s of one core's time", flush=True)
    print(
        f"ramp: steps {steps}, {window:.0f} s measured per step after the new games opened; a member thinks "
        f"{low:.0f}-{high:.0f} s before each move (real time, no compression); mix: Nine Sons (2 members), "
        "Farkle (2 members + AI), Flagon (3 members); fake Discord enforces the global 50/s and per-route limits",
        flush=True,
    )
    warmup = min(high, 15.0 if args.quick else 20.0)
    results = asyncio.run(
        ramp(
            steps,
            window,
            (low, high),
            args.seed,
            warmup=warmup,
            profile=args.profile,
            pin=args.pin,
            processes=max(1, args.processes),
            latency=args.latency,
        )
    )
    if args.plot:
        from bench.discord_scale.plot import draw, save

        save(results, PLOT.with_suffix(".json"))
        draw(results, PLOT)
        print(f"plot: {PLOT} (figures: {PLOT.with_suffix('.json').name})")
    print(f"holds: {holds(results)} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
