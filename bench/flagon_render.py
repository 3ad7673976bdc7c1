"""The Dragon & Flagon renderer benchmark: PNG and text render times on real positions.

    python -m bench.flagon_render            # 8-character games, 300 positions
    python -m bench.flagon_render --quick    # 60 positions
    python -m bench.flagon_render --json out.json

Positions come from seeded games played by the easy AI (every 3rd position is sampled, from
placement to the end), so the figures cover crowded boards, long time tracks and the final
board. The target is a median and p99 under 60 ms per PNG on one core.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.flagon import new_game  # noqa: E402
from engine.flagon.ai import choose_action  # noqa: E402
from render import flagon as renderer  # noqa: E402

NAMES = {f"p{i}": name for i, name in enumerate(["alice", "bob", "carol", "dave", "erin", "frank"], start=1)}


def positions(count: int) -> list[dict[str, Any]]:
    """Public views sampled from seeded easy-AI games (4 seats = 8 characters)."""
    out: list[dict[str, Any]] = []
    seed = 0
    while len(out) < count:
        game = new_game(["p1", "p2", "p3", "p4"], seed=seed)
        i = 0
        while not game.is_over:
            player = game.to_act()[0]
            game.play(player, choose_action(game, player, "easy", seed * 1000 + i))
            i += 1
            if i % 3 == 0:
                out.append(game.view(None))
        out.append(game.view(None))
        seed += 1
    return out[:count]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    views = positions(60 if args.quick else 300)
    renderer.render_png(views[0], NAMES)  # warm the font and background caches
    png_ms, text_ms, sizes, text_len = [], [], [], []
    for view in views:
        t0 = time.perf_counter()
        png = renderer.render_png(view, NAMES)
        t1 = time.perf_counter()
        text = renderer.render_text(view, NAMES)
        t2 = time.perf_counter()
        png_ms.append((t1 - t0) * 1000)
        text_ms.append((t2 - t1) * 1000)
        sizes.append(len(png))
        text_len.append(len(text))
    figures = {
        "positions": len(views),
        "png_median_ms": round(statistics.median(png_ms), 2),
        "png_p99_ms": round(percentile(png_ms, 0.99), 2),
        "png_max_ms": round(max(png_ms), 2),
        "png_median_kib": round(statistics.median(sizes) / 1024, 1),
        "text_median_ms": round(statistics.median(text_ms), 3),
        "text_max_chars": max(text_len),
    }
    width = max(map(len, figures))
    for key, value in figures.items():
        print(f"{key:<{width}}  {value}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return figures


if __name__ == "__main__":
    main()
