"""CPU to draw and encode one board picture, per game, on real mid-game positions.

    python -m bench.render_cpu              # 120 positions per game
    python -m bench.render_cpu --quick      # 40 positions per game
    python -m bench.render_cpu --tables 2000 # as 2,000 games drawn in turn (the caches' steady state)
    python -m bench.render_cpu --json out.json

The bot draws a board's picture (``render.render_png``) in a worker thread each time what it
shows changed; at a few hundred games that was ~40 % of its CPU (issue 25). The figures here are
that call's CPU time on this thread (``time.thread_time``: what other processes on a shared
machine do does not count) and the PNG's size. Positions are the boards the presenter draws (the public view through the
game's ``image_view`` hook) sampled from seeded AI games, from the first move to the final board;
each game has its own player names (the bot draws thousands of names, not eight).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import render  # noqa: E402
from engine import Game  # noqa: E402

GAMES = ("farkle", "ninesons", "flagon")
_NAMES = ("alice", "Bartholomew the Bold", "carol", "dave", "Ёлка-Пушистая", "frank", "gwen", "hal")
Position = tuple[dict[str, Any], dict[str, str]]  # a view and the names it is drawn with


def names_of(seed: int) -> dict[str, str]:
    """Seat -> display name for game ``seed``: every game has its own players, as in the bot
    (a name drawn once is not a cached text for the next game's board)."""
    return {f"p{i}": f"{name} {seed}" for i, name in enumerate(_NAMES, start=1)}


def _new_game(kind: str, seed: int) -> tuple[Game, Callable[[Game, str, int], str]]:
    """A seeded game of ``kind`` and the AI that plays every seat of it."""
    if kind == "farkle":
        from engine.farkle import new_game as farkle
        from engine.farkle.ai import choose_action as farkle_ai

        return farkle(["p1", "p2", "p3"], seed=seed), lambda g, p, i: farkle_ai(g, p, "easy", i)  # type: ignore[arg-type]
    if kind == "ninesons":
        from engine.ninesons import new_game as ninesons
        from engine.ninesons.ai import choose_action as ninesons_ai

        return ninesons(["p1", "p2"], seed=seed), lambda g, p, i: ninesons_ai(g, p, "greedy", i)  # type: ignore[arg-type]
    from engine.flagon import new_game as flagon
    from engine.flagon.ai import choose_action as flagon_ai

    return flagon(["p1", "p2", "p3", "p4"], seed=seed), lambda g, p, i: flagon_ai(g, p, "easy", i)


def sample_views(kind: str, count: int, every: int = 3) -> list[Position]:
    """``count`` boards of ``kind`` as the presenter draws them: every ``every``-th position of
    seeded AI games (public view, through the game's ``image_view``), the final board included."""
    from cogs.plugins import load_plugins
    from cogs.ui import ui_for  # the presenter's own narrowing of what the picture shows

    load_plugins()
    shown = ui_for(kind).image_view
    out: list[Position] = []
    seed = 0
    while len(out) < count:
        game, ai = _new_game(kind, seed)
        names = names_of(seed)
        moves = 0
        while not game.is_over and moves < 2000:
            player = game.to_act()[0]
            game.play(player, ai(game, player, seed * 1000 + moves))
            moves += 1
            if moves % every == 0:
                out.append((shown(game.view(None)), names))
        out.append((shown(game.view(None)), names))
        seed += 1
    return out[:count]


def as_tables(positions: list[Position], tables: int, rounds: int = 3) -> tuple[list[Position], int]:
    """The sampled games re-dealt as ``tables`` games running at once, each with its own names,
    drawn in turn (table 1, 2, ... N, then table 1's next position ...) for ``rounds`` rounds, as a
    busy bot draws them; and where the last round starts. Only the last round is measured: by
    then the caches of texts hold what they would hold at that many games."""
    games: dict[int, list[Position]] = {}
    for view, names in positions:
        games.setdefault(id(names), []).append((view, names))
    sampled = list(games.values())
    order: list[Position] = []
    for step in range(rounds):
        for table in range(tables):
            moves = sampled[table % len(sampled)]
            view, _ = moves[(step + table) % len(moves)]
            order.append((view, names_of(table)))
    return order, (rounds - 1) * tables


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(kind: str, positions: list[Position], tables: int = 1) -> dict[str, Any]:
    """CPU ms per picture (median, p95) and PNG bytes; with ``tables`` > 1, drawn as that many
    games at once (:func:`as_tables`)."""
    module = render.renderer(kind)
    assert module is not None and module.png is not None
    module.png(*positions[-1])  # warm: palette, fonts, first-use caches (once per process in the bot)
    order, measured_from = as_tables(positions, tables) if tables > 1 else (positions, 0)
    total, sizes = [], []
    for i, (view, names) in enumerate(order):
        t0 = time.thread_time()
        png = module.png(view, names)
        if i >= measured_from:
            total.append((time.thread_time() - t0) * 1000)
            sizes.append(len(png))
    return {
        "game": kind,
        "positions": len(total),
        "ms_median": round(statistics.median(total), 2),
        "ms_p95": round(percentile(total, 0.95), 2),
        "kb_median": round(statistics.median(sizes) / 1024, 1),
        "kb_max": round(max(sizes) / 1024, 1),
    }


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="40 positions per game")
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--tables", type=int, default=1, help="draw as this many games at once (e.g. 2000)")
    parser.add_argument("--only", nargs="*", choices=GAMES)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    count = 40 if args.quick else args.positions
    rows = [measure(kind, sample_views(kind, count), args.tables) for kind in (args.only or GAMES)]
    print(f"{'game':<9} {'positions':>9} {'CPU ms p50':>10} {'p95':>6} {'KB p50':>7} {'KB max':>7}")
    for r in rows:
        print(
            f"{r['game']:<9} {r['positions']:>9} {r['ms_median']:>10.2f} {r['ms_p95']:>6.2f} "
            f"{r['kb_median']:>7.1f} {r['kb_max']:>7.1f}"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return rows


if __name__ == "__main__":
    main()
