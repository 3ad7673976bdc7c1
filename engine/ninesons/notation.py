"""The text notation of The Nine Sons of the Dragon's actions (see engine/ninesons/game.py's
docstring): writing an action, reading one typed by a player, describing it in words, and
saying why one is not legal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.ninesons import core
from engine.ninesons.core import CELL_INDEX, CELL_NAMES, MOVE, PLACE, State

if TYPE_CHECKING:
    from engine.ninesons.cards import Card

SEAT_LETTERS = "AB"  # the seats as the board and written positions show them


def action_to_str(action: tuple, pending: list[tuple] | None = None) -> str:
    kind = action[0]
    if kind == PLACE:
        return f"{action[1]}@{CELL_NAMES[action[2]]}"
    if kind == MOVE:
        return "-".join(CELL_NAMES[c] for c in action[1])
    slot, cell = action[1], action[2]
    same_card = sum(1 for o in pending or () if o[1] == slot)
    if same_card > 1:
        return f"tame:S{slot + 1}:{CELL_NAMES[cell]}"
    return f"tame:S{slot + 1}"


def origin_of(action: str) -> str:
    """What an action picks up: ``3@b2`` -> "3@" (a 3 from the reserve), ``a1-a2-b2`` -> "a1"
    (the stack on a1), ``tame:S3`` -> "tame" (a taming choice)."""
    if action.startswith("tame:"):
        return "tame"
    if "@" in action:
        return action.partition("@")[0] + "@"
    return action.split("-")[0]


def normalise(action: str) -> str:
    """An action as typed -> the form legal actions are written in (lower case, no spaces, `-`
    between cells)."""
    a = action.strip().lower().replace(" ", "")
    for sep in ("→", "->", ">", ","):
        a = a.replace(sep, "-")
    return a


def exact_legal_action(st: State, key: str) -> tuple | None:
    """The legal placement or move that ``key`` names exactly, found without writing out
    every legal action as text (the legal map: ~90 strings per check, half an action's
    engine time); None when it names none (or a taming choice is pending: the map)."""
    if st.pending is not None:
        return None
    act: tuple
    if "@" in key:
        value, _, cell = key.partition("@")
        if not value.isdigit() or cell not in CELL_INDEX:
            return None
        act = (PLACE, int(value), CELL_INDEX[cell])
    else:
        parts = key.split("-")
        if len(parts) < 2 or not all(part in CELL_INDEX for part in parts):
            return None
        act = (MOVE, tuple(CELL_INDEX[part] for part in parts))
    # The exact text of a legal action, as the legal map would have it ("03@b2" is not "3@b2").
    if action_to_str(act) != key or act not in core.gen_actions(st):
        return None
    return act


def explain_illegal(st: State, action: str, legal_now: list[str]) -> str:
    """Why ``action`` is not legal now, in words (``legal_now``: the legal actions, named while a
    taming choice is pending)."""
    a = normalise(action)
    if st.pending is not None:
        return "First choose which tamed card to resolve: " + ", ".join(legal_now)
    if "@" in a:
        v, _, cell = a.partition("@")
        if cell not in CELL_INDEX:
            return f"`{cell}` is not a cell (a1..d3)."
        if not v.isdigit() or int(v) not in st.reserve[st.turn]:
            return f"You have no die showing {v} in your reserve."
        c = CELL_INDEX[cell]
        if not st.exists(c):
            return f"{cell} is in a hole: its card is gone."
        return f"{cell} is not empty: you can only place on an empty cell."
    parts = a.split("-")
    if len(parts) >= 2 and all(p in CELL_INDEX for p in parts):
        start = CELL_INDEX[parts[0]]
        stack = st.cells[start]
        if not stack:
            return f"There is no stack on {parts[0]}."
        if (stack[-1] >> 3) != st.turn:
            return f"The top die on {parts[0]} is not yours."
        if len(parts) - 1 != len(stack):
            return (
                f"The stack on {parts[0]} has {len(stack)} dice, so it must move exactly {len(stack)} steps."
            )
        return "That path is blocked (a step must go to a neighbouring, unvisited cell with fewer than 3 dice whose top die your die can beat)."
    return f"`{action}` is not an action. Place like `3@b2`, move like `a1-a2-b2`."


def describe(st: State, cards: list[Card], action: str) -> str:
    """An action in words for people ("Place 3 on b2", "Tame BiXi (S2) first")."""
    a = normalise(action)
    if "@" in a:
        v, _, cell = a.partition("@")
        return f"Place {v} on {cell}"
    if a.startswith("tame:"):
        parts = a.split(":")
        try:
            k = int(parts[1].lstrip("s")) - 1
        except (IndexError, ValueError):
            return action
        ci = st.slots[k] if 0 <= k < 6 else -1
        name = cards[ci].name if ci >= 0 else "?"
        if len(parts) == 3 and parts[2] in CELL_INDEX:
            stack = st.cells[CELL_INDEX[parts[2]]]
            # The seat letter shown on the board (A/B), not a player id: this label is
            # also public (last action, the choice event) and ids mean nothing to people.
            who = SEAT_LETTERS[stack[-1] >> 3] if stack else "?"
            return f"Tame {name} (S{k + 1}) with the stack on {parts[2]}: {who} tames"
        # Offered only while several cards wait: the choice is which one is resolved first.
        return f"Tame {name} (S{k + 1}) first"
    return "Move " + "→".join(a.split("-"))
