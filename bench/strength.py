"""The AI ladder: every adjacent pair of levels, per game, seats alternated, Wilson 95 % intervals.

``python -m bench.strength`` (``--quick`` for a short run; ``--games N`` per pair; ``--only
ninesons``). Two-seat games: one player of each level, the higher level sits first in even
games. Flagon with four seats: two players of each level, alternating around the table (the
higher level starts in even games); the pair's score is the share of games a higher-level player
wins (50 % is chance). A draw counts half. Every decision is timed: the table shows each level's
median and p99 per decision (Flagon: CPU time, time.process_time). Games use fixed seeds, so a
run can be repeated.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from bench.common import latency_ms, merge_results
from cogs.plugins import load_plugins
from engine import registry

QUICK_GAMES = {"ninesons": 8, "farkle": 200, "flagon": 8}
FULL_GAMES = {"ninesons": 60, "farkle": 1000, "flagon": 60}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion (wins may be fractional: draws count half)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Pair:
    game: str
    high: str
    low: str
    seats: int
    games: int = 0
    score: float = 0.0  # wins of the higher level, draws half
    times: dict[str, list[float]] = field(default_factory=dict)

    def row(self) -> dict[str, Any]:
        lo, hi = wilson(self.score, self.games)
        out: dict[str, Any] = {
            "game": self.game,
            "seats": self.seats,
            "higher": self.high,
            "lower": self.low,
            "games": self.games,
            "higher_score": self.score / self.games if self.games else 0.0,
            "wilson_low": lo,
            "wilson_high": hi,
        }
        for level, ts in self.times.items():
            out[f"{level}_ms"] = latency_ms(ts)
        return out


def play(game: str, seat_levels: list[str], seed: int, times: dict[str, list[float]]) -> dict[str, float]:
    """One game; returns each level's share of the win (1 to the winner's level, split on ties)."""
    info = registry.get(game)
    players = [f"p{i + 1}" for i in range(len(seat_levels))]
    level_of = dict(zip(players, seat_levels, strict=True))
    options: dict[str, Any] = {"first_player": "first"} if game == "ninesons" else {}
    if game == "farkle":
        options["first_player"] = "lobby"
    g = info.new_game(players, seed, **options)
    step = 0
    # Flagon's budget (1 s per decision) is CPU time: on the shared machine wall time is not ours.
    clock = time.process_time if game == "flagon" else time.perf_counter
    while not g.is_over and step < 5000:
        who = g.to_act()[0]
        lvl = level_of[who]
        t = clock()
        act = info.choose_ai_action(g, who, lvl, seed * 7919 + step)
        times.setdefault(lvl, []).append(clock() - t)
        g.play(who, act)
        step += 1
    res = g.result
    share: dict[str, float] = {lvl: 0.0 for lvl in set(seat_levels)}
    if res is None or not res.ranking:
        return {lvl: 0.5 for lvl in share} if len(share) == 2 else share
    first = res.ranking[0]
    levels_first = [level_of[p] for p in first]
    for lvl in levels_first:
        share[lvl] += 1.0 / len(levels_first)
    return share


def run_pair(game: str, high: str, low: str, seats: int, games: int, seed0: int = 0) -> Pair:
    pair = Pair(game, high, low, seats)
    for i in range(games):
        if seats == 2:
            order = [high, low] if i % 2 == 0 else [low, high]
        else:
            order = [high, low] * (seats // 2) if i % 2 == 0 else [low, high] * (seats // 2)
        share = play(game, order, seed0 + 1000 + i // 2, pair.times)  # both seatings of one seed
        pair.score += share.get(high, 0.0)
        pair.games += 1
        print(
            f"  {game} {high} vs {low}, {seats} seats: game {pair.games}, {high} {pair.score:g}",
            file=sys.stderr,
            flush=True,
        )
    return pair


def ladder(game: str) -> list[str]:
    return list(registry.get(game).ai_levels)


def print_table(rows: list[dict[str, Any]]) -> None:
    print(
        "| game | seats | pair (higher vs lower) | games | higher wins [95 % CI] | ms per decision, median / p99 |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for r in rows:
        hi_t = r.get(f"{r['higher']}_ms", {})
        lo_t = r.get(f"{r['lower']}_ms", {})
        t = (
            f"{r['higher']} {hi_t.get('latency_ms_median', 0):.1f} / {hi_t.get('latency_ms_p99', 0):.0f} · "
            f"{r['lower']} {lo_t.get('latency_ms_median', 0):.1f} / {lo_t.get('latency_ms_p99', 0):.0f}"
        )
        print(
            f"| {r['game']} | {r['seats']} | {r['higher']} vs {r['lower']} | {r['games']} | "
            f"{100 * r['higher_score']:.1f} % [{100 * r['wilson_low']:.0f}, {100 * r['wilson_high']:.0f}] | {t} |"
        )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="few games per pair")
    ap.add_argument("--games", type=int, help="games per pair (overrides --quick)")
    ap.add_argument("--only", nargs="*", help="games to run: ninesons farkle flagon")
    ap.add_argument("--pair", help="only this pair (higher:lower, any two levels), e.g. expert:hard")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--seats", type=int, choices=(2, 4), help="Flagon: only this table size")
    args = ap.parse_args(argv)
    load_plugins(ui=False)
    rows = []
    for game in ("ninesons", "farkle", "flagon"):
        if args.only and game not in args.only:
            continue
        n = args.games or (QUICK_GAMES if args.quick else FULL_GAMES)[game]
        levels = ladder(game)
        for seats in (2, 4) if game == "flagon" else (2,):
            if args.seats and game == "flagon" and seats != args.seats:
                continue
            pairs = list(pairwise(levels))
            if args.pair:  # any two levels, e.g. expert:medium to check the ladder is monotone
                high, _, low = args.pair.partition(":")
                pairs = [(low, high)] if {high, low} <= set(levels) else []
            for low, high in pairs:
                started = time.perf_counter()
                row = run_pair(game, high, low, seats, n, args.seed).row()
                row["wall_s"] = time.perf_counter() - started
                rows.append(row)
                print_table([row])
                sys.stdout.flush()
    print()
    print_table(rows)
    result = {"pairs": rows}
    if not args.pair and not args.only:
        merge_results("strength", result)
    return result


if __name__ == "__main__":
    main()
