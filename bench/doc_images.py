"""The board pictures in docs/images/: one mid-game board of each game, from seeded games.

    PYTHONPATH=$PWD python -m bench.doc_images            # rewrites docs/images/*.png
    PYTHONPATH=$PWD python -m bench.doc_images /tmp/out   # somewhere else

Games are played by the easy AI from a fixed seed, so the pictures change only when a renderer
or an engine does.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import registry  # noqa: E402
from engine.base import Game  # noqa: E402
from render import render_png  # noqa: E402

NAMES = ["Alice", "Bob", "Carol"]
# game -> (players, seed, actions played): a position with dice, stacks or characters in play
BOARDS = {"farkle": (3, 0, 47), "ninesons": (2, 4, 23), "flagon": (3, 5, 90)}


def mid_game(kind: str, players: int, seed: int, actions: int) -> Game:
    info = registry.get(kind)
    game = info.new_game([f"p{i}" for i in range(1, players + 1)], seed)
    for i in range(actions):
        if game.is_over:
            break
        who = game.to_act()[0]
        game.play(who, info.choose_ai_action(game, who, "easy", seed * 1000 + i))
    return game


def write(folder: Path) -> list[Path]:
    registry.load_builtin_games()
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for kind, (players, seed, actions) in BOARDS.items():
        game = mid_game(kind, players, seed, actions)
        names = {f"p{i}": NAMES[i - 1] for i in range(1, players + 1)}
        png = render_png(kind, game.view(None), names)
        assert png is not None, kind
        path = folder / f"{kind}.png"
        path.write_bytes(png)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=ROOT / "docs" / "images")
    for path in write(parser.parse_args(argv).folder):
        print(path)


if __name__ == "__main__":
    main()
