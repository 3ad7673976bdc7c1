"""A Nine Sons position as data: written out by hand (tests, puzzles, the spec's examples) and
saved and restored with a game (the state part of ``NineSonsGame.to_dict``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.ninesons import core
from engine.ninesons.core import CELL_INDEX, TAME, State
from engine.ninesons.notation import SEAT_LETTERS

if TYPE_CHECKING:
    from engine.ninesons.cards import Card


def set_up_position(
    st: State,
    index: dict[str, int],
    cells: dict[str, str] | None,
    slots: list[str | None] | dict[str, str | None] | None,
    deck: list[str] | None,
    turn: int,
    reserves: list[list[int]] | None,
    removed: list[list[int]] | None,
    scores: list[int] | None,
) -> None:
    """Put the written position into ``st`` (``index``: card name -> card index); see
    ``NineSonsGame.from_position`` for the notation."""
    names: list[str | None] = ["QiuNiu"] * 6
    if isinstance(slots, dict):
        for k, v in slots.items():
            names[int(k.upper().lstrip("S")) - 1] = v
    elif slots is not None:
        names = list(slots)
    st.slots = [-1 if n is None else index[n] for n in names]
    st.deck = [index[n] for n in (deck or [])]
    on_board: list[list[int]] = [[], []]
    for cell, text in (cells or {}).items():
        stack = []
        for tok in text.replace(",", " ").split():
            owner = SEAT_LETTERS.index(tok[0].upper())
            value = int(tok[1:])
            stack.append((owner << 3) | value)
            on_board[owner].append(value)
        if len(stack) > 3:
            raise ValueError(f"{cell}: more than 3 dice")
        st.cells[CELL_INDEX[cell]] = stack
    if reserves is None:
        reserves = []
        for p in (0, 1):
            rest = [1, 2, 3, 4, 5, 6]
            for val in on_board[p]:
                if val in rest:
                    rest.remove(val)
            reserves.append(rest)
    st.reserve = [sorted(r) for r in reserves]
    st.removed = [list(r) for r in (removed or [[], []])]
    st.score = list(scores or [0, 0])
    st.turn = turn
    if not core.has_action(st, turn):  # the player to act cannot act: they lose (§4.4)
        st.over, st.reason, st.winner = True, core.NO_ACTION, turn ^ 1


def state_to_dict(st: State, cards: list[Card]) -> dict[str, Any]:
    """The position part of a saved game: cards by name, dice as [owner, value]."""
    name = lambda ci: None if ci < 0 else cards[ci].name  # noqa: E731
    return {
        "slots": [name(ci) for ci in st.slots],
        "deck": [name(ci) for ci in st.deck],
        "cells": [[[d >> 3, d & 7] for d in c] for c in st.cells],
        "reserves": [list(r) for r in st.reserve],
        "removed": [list(r) for r in st.removed],
        "tamed": [[name(ci) for ci in t] for t in st.tamed],
        "scores": list(st.score),
        "turn": st.turn,
        "pending": None if st.pending is None else [[o[1], o[2]] for o in st.pending],
        "reps": dict(st.reps),
        "over": st.over,
        "winner": st.winner,
        "reason": st.reason,
    }


def restore_state(st: State, d: dict[str, Any], index: dict[str, int]) -> None:
    """Read back into ``st`` what :func:`state_to_dict` wrote (``index``: card name -> index)."""
    idx = lambda n: -1 if n is None else index[n]  # noqa: E731
    st.slots = [idx(n) for n in d["slots"]]
    st.deck = [idx(n) for n in d["deck"]]
    st.cells = [[(o << 3) | v for o, v in c] for c in d["cells"]]
    st.reserve = [list(r) for r in d["reserves"]]
    st.removed = [list(r) for r in d["removed"]]
    st.tamed = [[idx(n) for n in t] for t in d["tamed"]]
    st.score = list(d["scores"])
    st.turn = d["turn"]
    st.pending = None if d["pending"] is None else [(TAME, k, c) for k, c in d["pending"]]
    st.reps = dict(d["reps"])
    st.over = d["over"]
    st.winner = d["winner"]
    st.reason = d["reason"]


def json_copy(x: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists; tuples become lists as in JSON)."""
    if isinstance(x, dict):
        return {k: json_copy(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [json_copy(v) for v in x]
    return x
