"""The pictures in docs/images/: one mid-game board of each game, from seeded games, and the
README's screenshot of the sandbox page mid-game (``sandbox.png``).

    PYTHONPATH=$PWD python -m bench.doc_images            # rewrites docs/images/*.png
    PYTHONPATH=$PWD python -m bench.doc_images /tmp/out   # somewhere else

Games are played by the easy AI from a fixed seed, so the pictures change only when a renderer
or an engine does. The screenshot is taken from ``python bot.py --sandbox`` in Debian's headless
Chromium (tests/sandbox/driver.py; it needs the test extra): alice and bob play a few moves of
Nine Sons by clicking, as a newcomer would. Without the browser it is left as it is, saying why.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cogs.plugins import load_plugins  # noqa: E402
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
    load_plugins(ui=False)
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


SANDBOX_MOVES = 4  # Nine Sons moves before the screenshot: dice on the board, bob to play


def write_sandbox_screenshot(folder: Path) -> Path | None:
    """``sandbox.png``: the sandbox page as bob, mid-game; None (and why, on stderr) without a browser."""
    from tests.sandbox.driver import browser_page, missing_browser, place_a_die, running_sandbox

    reason = missing_browser()
    if reason is not None:
        print(f"doc_images: sandbox.png not made: {reason}", file=sys.stderr)
        return None
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        with running_sandbox(work) as url, browser_page(url, work, work / "shots") as tavern:
            tavern.act_as("alice")
            tavern.slash("/game new", "ninesons")
            tavern.act_as("bob")
            tavern.click("Join")
            tavern.act_as("alice")
            tavern.click("Start")
            tavern.wait_text("it's your turn in The Nine Sons")
            for _ in range(SANDBOX_MOVES):
                mover = re.findall(r"@(alice|bob), it's your turn", tavern.latest_ping())[-1]
                place_a_die(tavern, mover)
            tavern.act_as(re.findall(r"@(alice|bob), it's your turn", tavern.latest_ping())[-1])
            path = folder / "sandbox.png"
            tavern.page.screenshot(path=path)
    return path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--no-screenshot", action="store_true", help="only the board pictures")
    arguments = parser.parse_args(argv)
    for path in write(arguments.folder):
        print(path)
    if not arguments.no_screenshot and (shot := write_sandbox_screenshot(arguments.folder)) is not None:
        print(shot)


if __name__ == "__main__":
    main()
