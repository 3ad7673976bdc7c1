"""Regenerate Dragon Farkle's shipped game-state table (the ``expert`` level's data).

``python -m bench.farkle_table`` solves the expected turns to slay the dragon by value iteration
(:func:`engine.farkle.turn_solver.solve`, a few minutes on one core) and writes
``engine/farkle/data/expert_turns.bin``; ``--check`` compares a fresh solution with the shipped
file instead of writing it.
"""

from __future__ import annotations

import argparse
import time

from engine.farkle import turn_solver


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the shipped table, write nothing")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    T = turn_solver.solve(
        log=lambda line: print(f"{line} ({time.perf_counter() - started:.0f} s)", flush=True)
    )
    blob = turn_solver.encode(T)
    if args.check:
        shipped = turn_solver.shipped()
        worst = max(abs(a - b) for a, b in zip(shipped.T, T, strict=True))
        print(f"largest difference in expected turns: {worst:.2e}")
        return
    turn_solver.TABLE_PATH.write_bytes(blob)
    keep = turn_solver.KEEP_MIN_ARMY // turn_solver.STEP
    print(
        f"wrote {turn_solver.TABLE_PATH} ({len(blob):,} bytes): expected turns to win from an army of "
        f"0: {T[0]:.3f}, 2,500: {T[keep // 2]:.3f}, 5,000: {T[keep]:.3f}"
    )


if __name__ == "__main__":
    main()
