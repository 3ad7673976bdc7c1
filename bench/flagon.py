"""The Dragon & Flagon benchmark: playout speed, AI decision times, AI strength.

    python -m bench.flagon            # full run (200 AI-vs-random games per match)
    python -m bench.flagon --quick    # smoke run (20 games per match)
    python -m bench.flagon --json out.json

Strength match: seat p1 plays ``medium``; every other seat picks uniformly among its legal
actions. A game counts as a win when p1 ends with strictly more reputation than every other
seat. The issue asks for >= 80% over 200 games with one AI against three random players. The
rules give 2 characters to each of 2-4 players, so the four-seat match has 8 characters; the
two-seat match (4 characters, AI vs one random player) is reported too.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.flagon import new_game  # noqa: E402
from engine.flagon.ai import choose_action  # noqa: E402

MAX_ACTIONS = 20000


def random_game(seed: int) -> int:
    """One game of random players with 2-8 seats; returns the number of actions."""
    n = 2 + seed % 7
    g = new_game([f"p{i + 1}" for i in range(n)], seed)
    rnd = random.Random(seed)
    k = 0
    while not g.is_over and k < MAX_ACTIONS:
        p = rnd.choice(g.to_act())
        g.play(p, rnd.choice(g.legal_actions(p)))
        k += 1
    return k


def ai_match(args: tuple[int, int, str]) -> dict[str, Any]:
    """p1 plays the AI, the others play randomly."""
    seed, seats, level = args
    g = new_game([f"p{i + 1}" for i in range(seats)], seed)
    rnd = random.Random(seed)
    times: list[float] = []
    k = 0
    while not g.is_over and k < MAX_ACTIONS:
        p = g.to_act()[0]
        if p == "p1":
            t = time.perf_counter()
            a = choose_action(g, p, level, rnd.randrange(1 << 30))
            times.append(time.perf_counter() - t)
        else:
            a = rnd.choice(g.legal_actions(p))
        g.play(p, a)
        k += 1
    assert g.result is not None
    sc = g.result.scores
    win = sc["p1"] > max(v for q, v in sc.items() if q != "p1")
    return {"win": win, "times": times, "p1": sc["p1"], "others": [v for q, v in sc.items() if q != "p1"]}


def all_ai_game(seed: int) -> tuple[float, int]:
    g = new_game([f"p{i + 1}" for i in range(8)], seed)
    t = time.perf_counter()
    k = 0
    while not g.is_over and k < MAX_ACTIONS:
        p = g.to_act()[0]
        g.play(p, choose_action(g, p, "medium", k))
        k += 1
    assert g.is_over
    return time.perf_counter() - t, k


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--workers", type=int, default=2)
    opts = ap.parse_args(argv)
    games = 20 if opts.quick else 200
    figures: dict[str, Any] = {}

    n_random = 40 if opts.quick else 300
    t = time.perf_counter()
    actions = sum(random_game(s) for s in range(n_random))
    dt = time.perf_counter() - t
    figures["random_games_per_s"] = n_random / dt
    figures["random_actions_per_s"] = actions / dt

    for seats in (4, 2):
        with ProcessPoolExecutor(max_workers=opts.workers) as pool:
            res = list(pool.map(ai_match, [(10_000 + s, seats, "medium") for s in range(games)]))
        times = [x for r in res for x in r["times"]]
        figures[f"ai_vs_random_{seats}seats_win_rate"] = sum(r["win"] for r in res) / len(res)
        figures[f"ai_vs_random_{seats}seats_games"] = len(res)
        figures[f"ai_vs_random_{seats}seats_mean_rep"] = statistics.mean(r["p1"] for r in res)
        figures[f"random_{seats}seats_mean_rep"] = statistics.mean(x for r in res for x in r["others"])
        figures[f"medium_ms_per_decision_{seats}seats"] = 1000 * statistics.mean(times)
        figures[f"medium_ms_p95_{seats}seats"] = 1000 * sorted(times)[int(0.95 * (len(times) - 1))]

    sec, k = all_ai_game(7)
    figures["all_ai_8char_game_s"] = sec
    figures["all_ai_8char_game_actions"] = k

    rows = [
        ("random games / s (2-8 seats)", f"{figures['random_games_per_s']:.1f}"),
        ("random actions / s", f"{figures['random_actions_per_s']:.0f}"),
    ]
    for seats in (4, 2):
        rows += [
            (
                f"medium vs random, {seats} seats: win rate",
                f"{100 * figures[f'ai_vs_random_{seats}seats_win_rate']:.1f}% of {games}",
            ),
            (
                "  mean reputation AI / random seat",
                f"{figures[f'ai_vs_random_{seats}seats_mean_rep']:.1f} / {figures[f'random_{seats}seats_mean_rep']:.1f}",
            ),
            (
                "  medium ms per decision (mean / p95)",
                f"{figures[f'medium_ms_per_decision_{seats}seats']:.1f} / {figures[f'medium_ms_p95_{seats}seats']:.1f}",
            ),
        ]
    rows.append(("8-character all-medium game", f"{sec:.1f} s, {k} actions"))
    width = max(len(r[0]) for r in rows)
    print("The Dragon & Flagon benchmark" + (" (quick)" if opts.quick else ""))
    for name, val in rows:
        print(f"  {name.ljust(width)}  {val}")
    if opts.json:
        opts.json.write_text(json.dumps(figures, indent=2))
    return figures


if __name__ == "__main__":
    main()
