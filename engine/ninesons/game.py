"""The Nine Sons of the Dragon: public engine API (see docs/ninesons.md).

Text notation
-------------
* ``3@b2``        place your die showing 3 on the empty cell b2
* ``a1-a2-b2``    lift the stack on a1 and walk it a1 -> a2 -> b2 (one cell per die)
* ``tame:S3``     resolve card slot S3 next (only offered when a choice is pending)
* ``tame:S3:b2``  resolve S3 with the 3-stack on b2 as the taming stack (offered when the
  card's two 3-stacks give different outcomes: a contested tamer, or ChiWen's removed die)
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.base import (
    STATE_VERSION_KEY,
    Event,
    Game,
    IllegalAction,
    InvalidSetup,
    OptionSpec,
    Result,
    resolve_options,
)
from engine.ninesons import core
from engine.ninesons.cards import Card, load_cards
from engine.ninesons.core import CELL_NAMES, MOVE, PLACE, SLOT_CELLS, Rules, State
from engine.ninesons.ending import result_reason, result_text, seat_placeholder, tame_text
from engine.ninesons.notation import (
    action_to_str,
    describe,
    exact_legal_action,
    explain_illegal,
    normalise,
    origin_of,
)
from engine.ninesons.positions import json_copy, restore_state, set_up_position, state_to_dict
from engine.rng import Rng

COMPARE_DIE = ("hand_top", "dropped_die")
FIRST_PLAYER = ("random", "first", "second")


class NineSonsGame(Game):
    NAME: ClassVar[str] = "ninesons"
    TITLE: ClassVar[str] = "The Nine Sons of the Dragon"
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 2
    STATE_VERSION: ClassVar[int] = 1
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "compare_die",
            "hand_top",
            "Die compared when a moving stack enters an occupied cell: hand_top (the rulebook: "
            "your own top die, for every step) or dropped_die (Board Game Arena: the die being put down).",
            choices=COMPARE_DIE,
        ),
        OptionSpec(
            "first_player",
            "random",
            "Who starts: random, first (first seat) or second (second seat). The paper rule uses the zodiac.",
            choices=FIRST_PLAYER,
        ),
        OptionSpec("win_points", 7, "Points that end the game at once.", minimum=1, maximum=30),
    )

    def __init__(self, players: list[str], seed: int, options: dict[str, Any], cards: list[Card]) -> None:
        if len(players) != 2 or players[0] == players[1]:
            raise InvalidSetup("The Nine Sons of the Dragon needs exactly 2 different players.")
        self.players = list(players)
        self.seed = seed
        self.options = dict(options)
        self.cards = list(cards)
        self._index = {c.name: i for i, c in enumerate(self.cards)}
        self.rules = Rules(
            self.cards,
            compare_top=self.options["compare_die"] == "hand_top",
            win_points=int(self.options["win_points"]),
        )
        self.st = State(self.rules)
        self.rng = Rng(seed)
        self.log: list[tuple[str, str]] = []  # (player, action) in order; tuples: a copy shares them
        self.last: dict[str, Any] | None = None
        # (ply, lower-cased text -> action, the texts sorted): what _legal_map computed last
        self._legal_cache: tuple[int, dict[str, tuple], list[str]] | None = None
        self._origin_cache: tuple[int, str, dict[str, list[str]]] | None = None

    # -- construction ----------------------------------------------------------------------
    @classmethod
    def new(cls, players: list[str], seed: int, **options: Any) -> NineSonsGame:
        opts = resolve_options(cls.OPTIONS, options, "The Nine Sons of the Dragon")
        g = cls(players, seed, opts, load_cards())
        order = list(range(9))
        g.rng.shuffle(order)
        g.st.slots = order[:6]
        g.st.deck = order[6:]
        fp = opts["first_player"]
        g.st.turn = g.rng.below(2) if fp == "random" else (0 if fp == "first" else 1)
        return g

    @classmethod
    def from_position(
        cls,
        players: list[str],
        cells: dict[str, str] | None = None,
        *,
        slots: list[str | None] | dict[str, str | None] | None = None,
        deck: list[str] | None = None,
        turn: int = 0,
        reserves: list[list[int]] | None = None,
        removed: list[list[int]] | None = None,
        scores: list[int] | None = None,
        seed: int = 0,
        **options: Any,
    ) -> NineSonsGame:
        """Build a game from a written position (tests, puzzles, the spec's examples).

        ``cells`` maps a cell to its stack bottom to top, ``"B6 A4"`` (A = first seat, B = second).
        ``slots`` gives card names per slot (``None`` = hole); unnamed slots get the green
        QiuNiu (a card may appear twice here, unlike in a real game). Reserves default to each
        player's 1..6 minus their dice on the board.
        """
        g = cls.new(players, seed, **{"first_player": "first", **options})
        set_up_position(g.st, g._index, cells, slots, deck, turn, reserves, removed, scores)
        return g

    # -- contract ----------------------------------------------------------------------------
    def to_act(self) -> list[str]:
        if self.st.over:
            return []
        return [self.players[self.st.turn]]

    def _legal_texts(self) -> tuple[dict[str, tuple], list[str]]:
        """This ply's legal actions: lower-cased text -> action, and the texts sorted."""
        ply = len(self.log)
        if self._legal_cache is None or self._legal_cache[0] != ply:
            acts = core.gen_actions(self.st)
            texts = [action_to_str(a, self.st.pending) for a in acts]
            by_text = {text.lower(): a for text, a in zip(texts, acts, strict=True)}
            self._legal_cache = (ply, by_text, sorted(texts))
        return self._legal_cache[1], self._legal_cache[2]

    def _legal_map(self) -> dict[str, tuple]:
        return self._legal_texts()[0]

    def legal_actions(self, player: str) -> list[str]:
        if self.st.over or player != self.players[self.st.turn]:
            return []
        return list(self._legal_texts()[1])

    def legal_by_origin(self, player: str) -> dict[str, list[str]]:
        """``player``'s legal actions grouped by :func:`origin_of` (what they pick up), each
        group sorted like ``legal_actions``. Cached per ply (a move menu asks once per action),
        so the dict is shared: read it, do not change it."""
        ply = len(self.log)
        if self._origin_cache is not None and self._origin_cache[:2] == (ply, player):
            return self._origin_cache[2]
        groups: dict[str, list[str]] = {}
        for action in self.legal_actions(player):
            groups.setdefault(origin_of(action), []).append(action)
        self._origin_cache = (ply, player, groups)
        return groups

    def play(self, player: str, action: str) -> list[Event]:
        if self.st.over:
            raise IllegalAction("The game is over.")
        if player not in self.players:
            raise IllegalAction("You are not playing in this game.")
        if player != self.players[self.st.turn]:
            raise IllegalAction("It is not your turn.")
        key = normalise(action)
        act = exact_legal_action(self.st, key)
        if act is None:
            act = self._legal_map().get(key)
        if act is None:
            raise IllegalAction(explain_illegal(self.st, action, self.legal_actions(player)))
        return self._apply(act)

    def _apply(self, act: tuple) -> list[Event]:
        st = self.st
        p = st.turn
        pid = self.players[p]
        text_action = action_to_str(act, st.pending)
        label = self.describe_action(pid, text_action)
        events: list[Event] = []
        if act[0] == PLACE:
            events.append(
                Event("place", f"{self._name(p)}: {label}", data={"player": pid, "action": text_action})
            )
            cells = [CELL_NAMES[act[2]]]
        elif act[0] == MOVE:
            events.append(
                Event("move", f"{self._name(p)}: {label}", data={"player": pid, "action": text_action})
            )
            cells = [CELL_NAMES[c] for c in act[1]]
        else:
            cells = [CELL_NAMES[c] for c in SLOT_CELLS[act[1]]]
        log: list = []
        core.apply(st, act, log)
        self.log.append((pid, text_action))
        tames = []
        for entry in log:
            if entry[0] == "tame":
                _, slot, cell, tamer, ci, removed, _returned, new = entry
                text = tame_text(self.cards, self._name(tamer), ci, slot, cell, removed, new)
                tames.append(
                    {
                        "slot": f"S{slot + 1}",
                        "cell": CELL_NAMES[cell],
                        "tamer": self.players[tamer],
                        "card": self.cards[ci].name,
                    }
                )
                events.append(Event("tame", text, data=tames[-1]))
        if st.pending is not None:
            opts = ", ".join(self.describe_action(pid, s) for s in self.legal_actions(pid))
            events.append(Event("choice", f"{self._name(p)} must choose: {opts}.", data={"player": pid}))
        self.last = {
            "player": pid,
            "action": text_action,
            "kind": ("place", "move", "tame")[act[0]],
            "cells": cells,
            "label": label,
            "tames": tames,
        }
        if st.over:
            res = self.result
            assert res is not None
            events.append(Event("game_over", self._result_text(), data=res.to_dict()))
        return events

    # -- people ------------------------------------------------------------------------------
    def _name(self, p: int) -> str:
        return seat_placeholder(self.players, p)

    def describe_action(self, player: str, action: str) -> str:
        return describe(self.st, self.cards, action)

    @property
    def end_reason(self) -> str:
        """Why the game ended as a code: points, cards, repetition, no_action ("" while running)."""
        return self.st.reason

    def _result_text(self) -> str:
        return result_text(self.st, self.players, self.rules.win_points)

    def _card_view(self, ci: int) -> dict[str, Any]:
        c = self.cards[ci]
        return {
            "name": c.name,
            "chinese": c.chinese,
            "colour": c.colour,
            "points": c.points,
            "rule": c.rule,
            "text": c.text,
            "condition": c.condition,
        }

    def view(self, player: str | None) -> dict[str, Any]:
        """Everything but the deck order (the only hidden information)."""
        st = self.st
        pl = self.players
        cells = []
        for i in range(12):
            cells.append(
                {
                    "cell": CELL_NAMES[i],
                    "slot": f"S{core.SLOT_OF_CELL[i] + 1}",
                    "exists": st.exists(i),
                    "stack": [[pl[d >> 3], d & 7] for d in st.cells[i]],
                }
            )
        slots = []
        for k in range(6):
            ci = st.slots[k]
            a, b = SLOT_CELLS[k]
            slots.append(
                {
                    "slot": f"S{k + 1}",
                    "cells": [CELL_NAMES[a], CELL_NAMES[b]],
                    "hole": ci < 0,
                    "card": self._card_view(ci) if ci >= 0 else None,
                    "dice": len(st.cells[a]) + len(st.cells[b]),
                }
            )
        pending = None
        if st.pending is not None:
            who = pl[st.turn]
            acts = self.legal_actions(who)
            pending = {
                "player": who,
                "kind": "tame_order",
                "options": acts,
                "labels": [self.describe_action(who, a) for a in acts],
            }
        res = self.result
        return {
            "game": self.NAME,
            "viewer": player,
            "players": list(pl),
            "seats": {pl[0]: "A", pl[1]: "B"},
            "cells": cells,
            "slots": slots,
            "reserves": {pl[p]: list(st.reserve[p]) for p in (0, 1)},
            "removed": {pl[p]: list(st.removed[p]) for p in (0, 1)},
            "tamed": {pl[p]: [self._card_view(ci) for ci in st.tamed[p]] for p in (0, 1)},
            "points": {pl[p]: st.score[p] for p in (0, 1)},
            "cards_tamed": {pl[p]: len(st.tamed[p]) for p in (0, 1)},
            "deck": {"count": len(st.deck), "contents": sorted(self.cards[ci].name for ci in st.deck)},
            "turn": None if st.over else pl[st.turn],
            "to_act": self.to_act(),
            "last_action": dict(self.last) if self.last else None,
            "pending": pending,
            "ply": len(self.log),
            "win_points": self.rules.win_points,
            "options": dict(self.options),
            "is_over": st.over,
            "result": res.to_dict() if res else None,
            "result_text": self._result_text() if res else None,
        }

    # -- persistence ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.NAME,
            STATE_VERSION_KEY: self.STATE_VERSION,
            "players": list(self.players),
            "seed": self.seed,
            "options": dict(self.options),
            "cards": [c.to_dict() for c in self.cards],
            "rng": self.rng.to_dict(),
            **state_to_dict(self.st, self.cards),
            "log": [list(x) for x in self.log],
            "last": None if self.last is None else json_copy(self.last),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> NineSonsGame:
        if d.get("game") != cls.NAME:
            raise ValueError("not a ninesons state")
        d = cls.upgrade(d)
        g = cls(d["players"], d["seed"], d["options"], [Card.from_dict(c) for c in d["cards"]])
        g.rng = Rng.from_state(d["rng"])
        restore_state(g.st, d, g._index)
        g.log = [(p, a) for p, a in d["log"]]
        g.last = None if d["last"] is None else json_copy(d["last"])
        return g

    def copy(self) -> NineSonsGame:
        """An independent copy without the JSON round trip (the service copies the game it
        kept before each click instead of restoring it). The cards are frozen, the rules never
        change after the start and the log's entries are tuples: those are shared."""
        g = NineSonsGame.__new__(NineSonsGame)
        g.players = list(self.players)
        g.seed = self.seed
        g.options = dict(self.options)
        g.cards = list(self.cards)
        g._index = dict(self._index)
        g.rules = self.rules
        g.st = self.st.copy()
        g.st.pending = None if self.st.pending is None else list(self.st.pending)
        g.rng = Rng.from_state(self.rng.state)
        g.log = list(self.log)  # immutable entries
        g.last = None if self.last is None else json_copy(self.last)
        g._legal_cache = None
        g._origin_cache = None
        return g

    # -- the end ----------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.st.over

    @property
    def result(self) -> Result | None:
        st = self.st
        if not st.over:
            return None
        pl = self.players
        scores = {pl[p]: float(st.score[p]) for p in (0, 1)}
        if st.winner == -1:
            ranking = [[pl[0], pl[1]]]
        else:
            assert st.winner is not None
            ranking = [[pl[st.winner]], [pl[st.winner ^ 1]]]
        # A sentence for people (the bot shows it under the ranking); the code is ``end_reason``.
        reason = result_reason(self.st, self.players, self.cards, self.rules.win_points)
        return Result(scores=scores, ranking=ranking, reason=reason)


def new_game(players: list[str], seed: int, **options: Any) -> NineSonsGame:
    """Start a game: shuffle the nine cards (six on the board, three in the deck) and pick the
    first player. Options: ``compare_die`` (hand_top | dropped_die), ``first_player``
    (random | first | second), ``win_points`` (7)."""
    return NineSonsGame.new(players, seed, **options)
