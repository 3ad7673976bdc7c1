"""Run every benchmark: ``python -m bench`` (quick game matches, a few minutes on 2 cores) or
``python -m bench --full`` (the full strength matches: 200–1,000 games each, much longer).

Each script prints its own table and merges its figures into bench/results.json.
"""

from __future__ import annotations

import argparse
import importlib
import time

SCRIPTS = (
    "bench.platform",
    "bench.gif_flood",
    "bench.ratings",
    "bench.ninesons",
    "bench.farkle",
    "bench.flagon",
    "bench.flagon_render",
    "bench.render_cpu",
    "bench.playthrough",
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="full strength matches (slow)")
    ap.add_argument("--only", nargs="*", help="run only these scripts, e.g. platform farkle")
    args = ap.parse_args()
    for name in SCRIPTS:
        if args.only and name.split(".")[1] not in args.only:
            continue
        module = importlib.import_module(name)
        started = time.perf_counter()
        print(f"\n=== {name} ===", flush=True)
        module.main([] if args.full else ["--quick"])
        print(f"({name} took {time.perf_counter() - started:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
