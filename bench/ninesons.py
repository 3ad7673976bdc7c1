"""Nine Sons of the Dragon benchmark: speed, AI move times, render times, AI strength.

    python -m bench.ninesons            # full run (200 games per strength match)
    python -m bench.ninesons --quick    # smoke run (few games, few samples)

Prints a table, returns a dict from :func:`run`, and merges it into ``bench/results.json``
under the key ``"ninesons"`` (``--no-json`` to skip).

Strength matches alternate seats game by game. To keep a 400-game run practical, the ``hard``
player uses a fixed node budget there (``--budget``, default 3000 nodes, well inside the 2 s
bound); the per-move timing section measures ``hard`` at its full default budget.
"""

from __future__ import annotations

import argparse
import json
import os
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

from engine.ninesons import NineSonsGame, core, new_game  # noqa: E402
from engine.ninesons.ai import HARD_NODE_BUDGET, choose_action  # noqa: E402
from render.ninesons import render_png, render_text  # noqa: E402

PLAYERS = ["p1", "p2"]


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return 0.0
    return xs[min(len(xs) - 1, int(q * len(xs)))]


# -- playouts ------------------------------------------------------------------------------------


def playouts_per_second(seconds: float) -> dict[str, float]:
    """Random playouts to the end: on the fast core, and through the string API."""
    rng = random.Random(1)
    out = {}
    n = 0
    plies = 0
    t0 = time.perf_counter()
    seed = 0
    while time.perf_counter() - t0 < seconds:
        g = new_game(PLAYERS, seed)
        st = g.st.copy()
        while not st.over:
            acts = core.gen_actions(st)
            core.apply(st, acts[rng.randrange(len(acts))])
            plies += 1
        n += 1
        seed += 1
    dt = time.perf_counter() - t0
    out["core_playouts_per_s"] = n / dt
    out["core_plies_per_s"] = plies / dt
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        g = new_game(PLAYERS, seed)
        while not g.is_over:
            who = g.to_act()[0]
            moves = g.legal_actions(who)
            g.play(who, moves[rng.randrange(len(moves))])
        n += 1
        seed += 1
    out["api_playouts_per_s"] = n / (time.perf_counter() - t0)
    return out


# -- AI timing -------------------------------------------------------------------------------------


def _sample_positions(count: int, seed: int = 0) -> list:
    """Positions from games between two medium players (realistic mid-game states)."""
    rng = random.Random(seed)
    games: list[NineSonsGame] = []
    s = seed
    while len(games) < count:
        g = new_game(PLAYERS, s)
        s += 1
        stop = rng.randrange(0, 30)
        for i in range(stop):
            if g.is_over:
                break
            who = g.to_act()[0]
            act = choose_action(g, who, "medium", i) if i % 2 else rng.choice(g.legal_actions(who))
            g.play(who, act)
        if not g.is_over:
            games.append(g)
    return games


def ai_times(positions: int) -> dict[str, dict[str, float]]:
    """Wall and CPU time per decision (CPU time is what the levels' budgets fix; wall time on a
    shared machine adds whatever the other jobs take)."""
    games = _sample_positions(positions)
    out = {}
    for level in ("easy", "medium", "hard", "expert"):
        ts, cpu = [], []
        for i, g in enumerate(games):
            who = g.to_act()[0]
            t, c = time.perf_counter(), time.process_time()
            choose_action(g, who, level, i)
            ts.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        out[level] = {
            "median_s": statistics.median(ts),
            "max_s": max(ts),
            "cpu_median_s": statistics.median(cpu),
            "cpu_p99_s": _pct(cpu, 0.99),
            "cpu_max_s": max(cpu),
            "n": len(ts),
        }
    return out


# -- rendering -----------------------------------------------------------------------------------


def render_times(samples: int) -> dict[str, float]:
    games = _sample_positions(8, seed=99)
    views = [g.view(None) for g in games]
    render_png(views[0])  # warm the font cache
    tt, tp, cp, sizes = [], [], [], []  # cp: CPU time, immune to other processes' load
    for i in range(samples):
        v = views[i % len(views)]
        t = time.perf_counter()
        render_text(v)
        tt.append(time.perf_counter() - t)
        t = time.perf_counter()
        c = time.process_time()
        data = render_png(v)
        tp.append(time.perf_counter() - t)
        cp.append(time.process_time() - c)
        sizes.append(len(data))
    return {
        "text_median_ms": statistics.median(tt) * 1000,
        "text_p99_ms": _pct(tt, 0.99) * 1000,
        "png_median_ms": statistics.median(tp) * 1000,
        "png_p99_ms": _pct(tp, 0.99) * 1000,
        "png_cpu_median_ms": statistics.median(cp) * 1000,
        "png_cpu_p99_ms": _pct(cp, 0.99) * 1000,
        "png_bytes_median": statistics.median(sizes),
        "png_bytes_max": max(sizes),
    }


# -- strength --------------------------------------------------------------------------------------


def play_match_game(args: tuple[str, str, int, int]) -> dict[str, Any]:
    """One game: ``hard`` against ``opponent``; ``hard`` sits first when ``index`` is even."""
    opponent, level, index, budget = args
    hard_seat = index % 2
    g = new_game(PLAYERS, 10_000 + index, first_player="first")
    levels = {PLAYERS[hard_seat]: level, PLAYERS[hard_seat ^ 1]: opponent}
    worst = 0.0
    while not g.is_over:
        who = g.to_act()[0]
        t = time.perf_counter()
        kwargs = {"node_budget": budget} if levels[who] == "hard" else {}
        act = choose_action(g, who, levels[who], index * 1000 + len(g.log), **kwargs)
        if levels[who] == level:
            worst = max(worst, time.perf_counter() - t)
        g.play(who, act)
    res = g.result
    assert res is not None
    won = res.winners == [PLAYERS[hard_seat]]
    outcome = "draw" if len(res.ranking) == 1 else ("win" if won else "loss")
    return {
        "outcome": outcome,
        "plies": len(g.log),
        "reason": res.reason,
        "worst_move_s": worst,
        "seat": hard_seat,
    }


def strength(opponent: str, games: int, budget: int, jobs: int, level: str = "hard") -> dict[str, Any]:
    tasks = [(opponent, level, i, budget) for i in range(games)]
    t = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as ex:
            results = list(ex.map(play_match_game, tasks, chunksize=2))
    else:
        results = [play_match_game(x) for x in tasks]
    wins = sum(r["outcome"] == "win" for r in results)
    draws = sum(r["outcome"] == "draw" for r in results)
    losses = games - wins - draws
    by_seat = {s: sum(r["outcome"] == "win" for r in results if r["seat"] == s) for s in (0, 1)}
    reasons: dict[str, int] = {}
    for r in results:
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    return {
        "level": level,
        "opponent": opponent,
        "games": games,
        "node_budget": budget,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": wins / games if games else 0.0,
        "wins_first_seat": by_seat[0],
        "wins_second_seat": by_seat[1],
        "avg_plies": statistics.mean(r["plies"] for r in results) if results else 0,
        "worst_move_s": max((r["worst_move_s"] for r in results), default=0.0),
        "end_reasons": reasons,
        "wall_s": time.perf_counter() - t,
    }


# -- driver ------------------------------------------------------------------------------------------


def run(
    quick: bool = False,
    games: int | None = None,
    budget: int = 3000,
    jobs: int | None = None,
    ladder: bool = False,
) -> dict[str, Any]:
    jobs = jobs or os.cpu_count() or 1
    n_games = games if games is not None else (10 if quick else 200)
    out: dict[str, Any] = {"quick": quick, "hard_default_node_budget": HARD_NODE_BUDGET}
    out["load_average"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    out["playouts"] = playouts_per_second(0.5 if quick else 3.0)
    out["ai_move_time"] = ai_times(6 if quick else 40)
    out["render"] = render_times(30 if quick else 300)
    out["strength"] = [strength("random", n_games, budget, jobs), strength("greedy", n_games, budget, jobs)]
    if ladder:
        m = max(10, n_games // 5)
        out["strength"] += [
            strength("random", m, budget, jobs, "easy"),
            strength("greedy", m, budget, jobs, "medium"),
        ]
    return out


def print_table(r: dict[str, Any]) -> None:
    rows = []
    if r.get("load_average"):
        rows.append(("machine load average (1/5/15 min)", " / ".join(f"{x:.2f}" for x in r["load_average"])))
    p = r["playouts"]
    rows.append(
        ("random playouts/s (core)", f"{p['core_playouts_per_s']:.1f}  ({p['core_plies_per_s']:.0f} plies/s)")
    )
    rows.append(("random playouts/s (string API)", f"{p['api_playouts_per_s']:.1f}"))
    for level, t in r["ai_move_time"].items():
        rows.append(
            (
                f"AI {level} s/move median / max (wall); CPU median / p99",
                f"{t['median_s']:.3f} / {t['max_s']:.3f}; {t['cpu_median_s']:.3f} / {t['cpu_p99_s']:.3f}  (n={t['n']})",
            )
        )
    rd = r["render"]
    rows.append(("render text ms median / p99", f"{rd['text_median_ms']:.2f} / {rd['text_p99_ms']:.2f}"))
    rows.append(("render PNG ms median / p99 (wall)", f"{rd['png_median_ms']:.1f} / {rd['png_p99_ms']:.1f}"))
    rows.append(
        ("render PNG ms median / p99 (CPU)", f"{rd['png_cpu_median_ms']:.1f} / {rd['png_cpu_p99_ms']:.1f}")
    )
    rows.append(("PNG bytes median / max", f"{rd['png_bytes_median']:.0f} / {rd['png_bytes_max']}"))
    for s in r["strength"]:
        rows.append(
            (
                f"{s['level']} vs {s['opponent']} ({s['games']} games, budget {s['node_budget']})",
                f"W {s['wins']} D {s['draws']} L {s['losses']} = {100 * s['win_rate']:.1f}%  "
                f"(seat1 {s['wins_first_seat']}, seat2 {s['wins_second_seat']}; worst move {s['worst_move_s']:.2f}s)",
            )
        )
    width = max(len(a) for a, _ in rows)
    print(f"{'Nine Sons bench':<{width}} | value")
    print("-" * width + "-+-" + "-" * 40)
    for a, b in rows:
        print(f"{a:<{width}} | {b}")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smoke run: 10 games per match, few samples")
    ap.add_argument(
        "--games", type=int, default=None, help="games per strength match (default 200, quick 10)"
    )
    ap.add_argument("--budget", type=int, default=3000, help="hard node budget in strength matches")
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    ap.add_argument("--ladder", action="store_true", help="also easy vs random and medium vs greedy")
    ap.add_argument("--no-json", action="store_true", help="do not write bench/results.json")
    ap.add_argument(
        "--ai-times", type=int, metavar="N", help="only time every level's decision on N sampled positions"
    )
    a = ap.parse_args(argv)
    if a.ai_times:
        times = ai_times(a.ai_times)
        for level, t in times.items():
            print(
                f"{level}: CPU s median {t['cpu_median_s']:.3f}, p99 {t['cpu_p99_s']:.3f}, max {t['cpu_max_s']:.3f}; "
                f"wall median {t['median_s']:.3f}, max {t['max_s']:.3f} (n={t['n']})"
            )
        return {"ai_move_time": times}
    r = run(a.quick, a.games, a.budget, a.jobs, a.ladder)
    print_table(r)
    if not a.no_json:
        path = Path(__file__).with_name("results.json")
        try:
            data = json.loads(path.read_text()) if path.exists() else {}
        except ValueError:
            data = {}
        data["ninesons"] = r
        path.write_text(json.dumps(data, indent=2, sort_keys=True))
    return r


if __name__ == "__main__":
    main()
