"""The Nine Sons of the Dragon on the board message: a move menu (cogs.menu).

Level 1 is a board button, deeper levels are private selects (paginated by the platform):

- **Place** → die value → cell (``3@b2`` = ["Place", "3", "b2"]);
- **Move** → the stack to lift → its path (``a1-a2-b2`` = ["Move", "stack on a1", "a1→a2→b2"]);
- **Tame** (only while the rules leave the acting player a choice) → which card is resolved
  first, and on a card with two qualifying 3-stacks, which stack (so who tames it).

A node with a single action below it plays at once (cogs.menu), so a one-die stack with one
path, or a value that fits one cell, costs no extra click. Lists stay short on a 3 x 4 board
(at most 12 cells or stacks, 14 paths for a 3-dice stack), within one 25-option select; the
platform's picker would page longer ones. Nine Sons has no hidden information
(only the deck order, which the view never shows), so every action is public.
"""

from __future__ import annotations

from typing import Any

from cogs.ui import GameUI, register
from engine.base import Game

PLACE, MOVE, TAME = "Place", "Move", "Tame"


def menu_path(game: Game, seat: str, action: str) -> list[str]:
    """Labels placing ``action`` in the move menu of ``seat`` (see the module docstring)."""
    if "@" in action:
        value, _, cell = action.partition("@")
        return [PLACE, value, cell]
    if action.startswith("tame:"):
        return [TAME, tame_label(game.view(seat), seat, action)]
    cells = action.split("-")
    if len(cells) >= 2:
        return [MOVE, f"stack on {cells[0]}", "→".join(cells)]
    return [action]  # unknown notation: a level-1 button of its own rather than a crash


def tame_label(view: dict[str, Any], seat: str, action: str) -> str:
    """``tame:S3`` -> "BaXia (S3) first" (when several cards wait); ``tame:S6:d3`` -> "FuXi (S6), stack on d3
    (top 5): you tame". The tamer is said from the chooser's side ("you" / "opponent"), which a
    generic label could not do; the top die matters on ChiWen (that die leaves the game)."""
    parts = action.split(":")
    slot = parts[1].upper() if len(parts) > 1 else "?"
    card = next((s["card"] for s in view["slots"] if s["slot"] == slot and s["card"]), None)
    label = f"{card['name'] if card else slot} ({slot})"
    # "first" only when the choice is an order, i.e. several cards are waiting.
    pending = (view.get("pending") or {}).get("options") or []
    if len({p.split(":")[1].upper() for p in pending if p.count(":") >= 1}) > 1:
        label += " first"
    if len(parts) < 3:
        return label
    cell = parts[2].lower()
    stack: list[list[Any]] = next((c["stack"] for c in view["cells"] if c["cell"] == cell), [])
    if not stack:
        return f"{label}, stack on {cell}"
    owner, value = stack[-1]
    who = "you tame" if owner == seat else "opponent tames"
    return f"{label}, stack on {cell} (top {value}): {who}"


class NineSonsUI(GameUI):
    menu = True

    def menu_path(self, game: Game, seat: str, action: str) -> list[str]:
        return menu_path(game, seat, action)


register("ninesons", NineSonsUI())
