"""The Nine Sons of the Dragon on the board message: a move menu (cogs.menu) of two clicks.

A move is "what you pick up, then where it goes". Level 1 (board buttons) is the die or the
stack, level 2 (a private select) is its destination:

- **Place a 3** → the empty cell (``3@b2`` = ["Place a 3", "b2 · BaXia (S3)"]);
- **Move stack on a1 (2 dice)** → its path (``a1-a2-b2`` = [..., "a1→a2→b2"]);
- a die or stack with a single legal move is one button naming the whole move
  ("Move c3→c2"): one click plays it, and the label says exactly what it does;
- with few legal actions (``DIRECT_BUTTONS``, one row) every action is its own button;
- taming choices (only while the rules leave the acting player one) are buttons too:
  "Tame BaXia (S3) first", "Tame FuXi (S6) with the stack on d3 (top 5): you tame".

So every decision costs one or two interactions. The board never shows more than six origin
buttons: each value in your reserve and each stack topped by your die is a different one of
your six dice. The second level stays within one 25-option select (at most 12 cells, or 14
paths for a 3-dice stack); the platform's picker would page a longer one. Nine Sons has no
hidden information (only the deck order, which the view never shows), so every action is public.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, cast

from cogs.ui import GameUI, register
from engine.base import Game
from engine.ninesons.game import origin_of
from engine.ninesons.view import NineSonsAction, NineSonsView, typed_view

if TYPE_CHECKING:
    from engine.ninesons import NineSonsGame

DIRECT_BUTTONS = 5  # this many legal actions or fewer: one button each, one click per move


# The view the menu's labels read, one per game, ply and seat: the menu asks once per legal
# action (up to ~60), and a view per ask was the bot's largest CPU cost at 400 games.
_VIEWS: weakref.WeakKeyDictionary[NineSonsGame, tuple[int, str, NineSonsView]] = weakref.WeakKeyDictionary()
# The place labels of _VIEWS' view, every cell at once (menu_cell_label).
_CELL_LABELS: weakref.WeakKeyDictionary[NineSonsGame, dict[str, str]] = weakref.WeakKeyDictionary()


def menu_view(game: NineSonsGame, seat: str) -> NineSonsView:
    """``game.view(seat)``, computed once per ply (shared: read it, do not change it)."""
    ply = len(game.log)
    cached = _VIEWS.get(game)
    if cached is None or cached[:2] != (ply, seat):
        cached = _VIEWS[game] = (ply, seat, typed_view(game, seat))
        _CELL_LABELS.pop(game, None)
    return cached[2]


def menu_cell_label(game: NineSonsGame, seat: str, cell: str) -> str:
    """:func:`cell_label` of the menu's view, every cell's label worked out once per ply (the
    menu asks once per action: a search of the board for each
    was ~4 % of the bot's CPU at 800 games)."""
    view = menu_view(game, seat)
    labels = _CELL_LABELS.get(game)
    if labels is None:
        labels = _CELL_LABELS[game] = cell_labels(view)
    return labels.get(cell, cell)


def menu_path(game: NineSonsGame, seat: str, action: str) -> list[str]:
    """Labels placing ``action`` in the move menu of ``seat`` (see the module docstring)."""
    move = NineSonsAction.from_text(action)
    if move.kind == "tame":
        return [tame_label(menu_view(game, seat), seat, action)]
    by_origin = game.legal_by_origin(seat)  # cached per ply: the menu asks once per action
    if sum(map(len, by_origin.values())) <= DIRECT_BUTTONS or len(by_origin.get(origin_of(action), ())) == 1:
        return [game.describe_action(seat, action)]  # nothing to choose between: one button plays it
    if move.kind == "place":
        return [f"Place a {move.value}", menu_cell_label(game, seat, move.cells[0])]
    if move.kind == "move":
        return [stack_label(menu_view(game, seat), move.cells[0]), "→".join(move.cells)]
    return [game.describe_action(seat, action)]  # unknown notation: a button of its own rather than a crash


def cell_label(view: NineSonsView, cell: str) -> str:
    """``b2`` -> "b2 · BaXia (S3)": the card a die placed there counts towards."""
    return cell_labels(view).get(cell, cell)


def cell_labels(view: NineSonsView) -> dict[str, str]:
    """:func:`cell_label` of every cell of the board."""
    cards = {}
    for s in view["slots"]:
        if s["card"] and s["slot"] not in cards:
            cards[s["slot"]] = s["card"]["name"]
    labels: dict[str, str] = {}
    for c in view["cells"]:
        name = cards.get(c["slot"])
        labels.setdefault(c["cell"], f"{c['cell']} · {name} ({c['slot']})" if name else c["cell"])
    return labels


def stack_label(view: NineSonsView, cell: str) -> str:
    """"Move die on a1", or "Move stack on a1 (3 dice)": a stack takes one step per die."""
    stack: list[list[Any]] = next((c["stack"] for c in view["cells"] if c["cell"] == cell), [])
    return f"Move stack on {cell} ({len(stack)} dice)" if len(stack) > 1 else f"Move die on {cell}"


def tame_label(view: NineSonsView, seat: str, action: str) -> str:
    """``tame:S3`` -> "Tame BaXia (S3) first" (when several cards wait); ``tame:S6:d3`` -> "Tame
    FuXi (S6) with the stack on d3 (top 5): you tame". The tamer is said from the chooser's side
    ("you" / "opponent"), which the public label (seat letters) cannot do; the top die matters
    on ChiWen (that die leaves the game)."""
    tame = NineSonsAction.from_text(action)
    slot = tame.slot.upper() or "?"
    card = next((s["card"] for s in view["slots"] if s["slot"] == slot and s["card"]), None)
    label = f"Tame {card['name'] if card else slot} ({slot})"
    # "first" only when the choice is an order, i.e. several cards are waiting.
    pending = view["pending"]["options"] if view["pending"] else []
    if len({NineSonsAction.from_text(p).slot.upper() for p in pending if p.startswith("tame:")}) > 1:
        label += " first"
    if not tame.cells:
        return label
    cell = tame.cells[0].lower()
    stack: list[list[Any]] = next((c["stack"] for c in view["cells"] if c["cell"] == cell), [])
    if not stack:
        return f"{label} with the stack on {cell}"
    owner, value = stack[-1]
    who = "you tame" if owner == seat else "opponent tames"
    return f"{label} with the stack on {cell} (top {value}): {who}"


def ask(game: Game, seat: str) -> str:
    """What the seat must do now, for its turn ping."""
    if any(NineSonsAction.from_text(a).kind == "tame" for a in game.legal_actions(seat)):
        return "choose how the taming goes"
    return "place a die or move a stack"


class NineSonsUI(GameUI):
    menu = True
    picker_on_board = True  # no secrets, one player at a time: "where to" opens on the board

    def menu_path(self, game: Game, seat: str, action: str) -> list[str]:
        return menu_path(cast("NineSonsGame", game), seat, action)

    def ask(self, game: Game, seat: str) -> str:
        return ask(game, seat)


register("ninesons", NineSonsUI())
