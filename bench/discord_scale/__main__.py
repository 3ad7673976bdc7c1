"""CLI of the Discord-scale bench (see bench/discord_scale/__init__.py)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from bench.discord_scale.harness import KINDS, per_move, per_move_table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.discord_scale", description=__doc__)
    parser.add_argument("--per-move", action="store_true", help="requests per move / turn change, whole games")
    parser.add_argument("--games", type=int, default=2, help="--per-move: whole games per kind")
    parser.add_argument("--via", choices=["buttons", "play"], default="buttons", help="--per-move: how members play")
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated, of {', '.join(KINDS)}")
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    if args.per_move:
        costs = asyncio.run(per_move(args.games, args.seed, kinds, args.via))
        print("\n".join(per_move_table(costs, args.via)))
        return 0
    parser.error("ramp mode not written yet")
    return 2


if __name__ == "__main__":
    sys.exit(main())
