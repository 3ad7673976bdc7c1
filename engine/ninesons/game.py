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
from engine.ninesons.core import CELL_INDEX, CELL_NAMES, MOVE, PLACE, SLOT_CELLS, TAME, Rules, State
from engine.rng import Rng

COMPARE_DIE = ("hand_top", "dropped_die")
FIRST_PLAYER = ("random", "first", "second")
SEAT_LETTERS = "AB"

# Why the game ended, for players. Player names are "{seat}" placeholders that the bot (and
# render.ninesons) fill with display names; ``winner``/``loser`` are filled in here.
REASON_TEXT = {
    core.POINTS: "{winner} reached {win_points} points",
    core.CARDS: "only 4 cards are left on the board",
    core.REPETITION: "the same position appeared for the third time",
    core.NO_ACTION: "{loser} could not act on their turn and loses",
}


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


def _normalise(action: str) -> str:
    a = action.strip().lower().replace(" ", "")
    for sep in ("→", "->", ">", ","):
        a = a.replace(sep, "-")
    return a


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
        self.log: list[list[str]] = []  # [player, action] in order
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
        st = g.st
        names: list[str | None] = ["QiuNiu"] * 6
        if isinstance(slots, dict):
            for k, v in slots.items():
                names[int(k.upper().lstrip("S")) - 1] = v
        elif slots is not None:
            names = list(slots)
        st.slots = [-1 if n is None else g._index[n] for n in names]
        st.deck = [g._index[n] for n in (deck or [])]
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

    def _explain_illegal(self, action: str) -> str:
        a = _normalise(action)
        st = self.st
        if st.pending is not None:
            return "First choose which tamed card to resolve: " + ", ".join(
                self.legal_actions(self.players[st.turn])
            )
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
                return f"The stack on {parts[0]} has {len(stack)} dice, so it must move exactly {len(stack)} steps."
            return "That path is blocked (a step must go to a neighbouring, unvisited cell with fewer than 3 dice whose top die your die can beat)."
        return f"`{action}` is not an action. Place like `3@b2`, move like `a1-a2-b2`."

    def play(self, player: str, action: str) -> list[Event]:
        if self.st.over:
            raise IllegalAction("The game is over.")
        if player not in self.players:
            raise IllegalAction("You are not playing in this game.")
        if player != self.players[self.st.turn]:
            raise IllegalAction("It is not your turn.")
        key = _normalise(action)
        act = self._parsed_legal(key)
        if act is None:
            act = self._legal_map().get(key)
        if act is None:
            raise IllegalAction(self._explain_illegal(action))
        return self._apply(act)

    def _parsed_legal(self, key: str) -> tuple | None:
        """The legal placement or move that ``key`` names exactly, found without writing out
        every legal action as text (the legal map: ~90 strings per check, half an action's
        engine time); None when it names none (or a taming choice is pending: the map)."""
        if self.st.pending is not None:
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
        if action_to_str(act) != key or act not in core.gen_actions(self.st):
            return None
        return act

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
        self.log.append([pid, text_action])
        tames = []
        for entry in log:
            if entry[0] == "tame":
                _, slot, cell, tamer, ci, removed, _returned, new = entry
                card = self.cards[ci]
                text = (
                    f"{self._name(tamer)} tames {card.name} ({card.colour}, {card.points:+d}) "
                    f"from S{slot + 1} with the stack on {CELL_NAMES[cell]}."
                )
                if card.rule == "pulao":
                    text += f" PuLao turns {self._name(tamer)}'s dice on it into 1s for good."
                if card.rule == "chiwen":
                    text += f" ChiWen removes {self._name(tamer)}'s {removed} from the game."
                text += (
                    f" {self.cards[new].name} is revealed."
                    if new >= 0
                    else " The deck is empty: the slot stays a hole."
                )
                tames.append(
                    {
                        "slot": f"S{slot + 1}",
                        "cell": CELL_NAMES[cell],
                        "tamer": self.players[tamer],
                        "card": card.name,
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
        # A placeholder, not the id: the bot shows display names (docs: engine events use {p1}).
        return f"{{{self.players[p]}}}"

    def describe_action(self, player: str, action: str) -> str:
        a = _normalise(action)
        if "@" in a:
            v, _, cell = a.partition("@")
            return f"Place {v} on {cell}"
        if a.startswith("tame:"):
            parts = a.split(":")
            try:
                k = int(parts[1].lstrip("s")) - 1
            except (IndexError, ValueError):
                return action
            ci = self.st.slots[k] if 0 <= k < 6 else -1
            name = self.cards[ci].name if ci >= 0 else "?"
            if len(parts) == 3 and parts[2] in CELL_INDEX:
                stack = self.st.cells[CELL_INDEX[parts[2]]]
                # The seat letter shown on the board (A/B), not a player id: this label is
                # also public (last action, the choice event) and ids mean nothing to people.
                who = SEAT_LETTERS[stack[-1] >> 3] if stack else "?"
                return f"Tame {name} (S{k + 1}) with the stack on {parts[2]}: {who} tames"
            # Offered only while several cards wait: the choice is which one is resolved first.
            return f"Tame {name} (S{k + 1}) first"
        return "Move " + "→".join(a.split("-"))

    @property
    def end_reason(self) -> str:
        """Why the game ended as a code: points, cards, repetition, no_action ("" while running)."""
        return self.st.reason

    def _why(self) -> str:
        st = self.st
        why = REASON_TEXT.get(st.reason, st.reason)
        winner = self._name(st.winner) if st.winner is not None and st.winner >= 0 else "?"
        loser = self._name(st.winner ^ 1) if st.winner is not None and st.winner >= 0 else "?"
        return (
            why.replace("{winner}", winner)
            .replace("{loser}", loser)
            .replace("{win_points}", str(self.rules.win_points))
        )

    def _tally(self) -> str:
        st = self.st
        return ", ".join(
            f"{self._name(p)} {st.score[p]} pts / {len(st.tamed[p])} card{'s' if len(st.tamed[p]) != 1 else ''}"
            for p in (0, 1)
        )

    def _result_text(self) -> str:
        if not self.st.over:
            return ""
        st = self.st
        if st.winner == -1:
            return f"Game over ({self._why()}): a draw. {self._tally()}."
        assert st.winner is not None
        return f"Game over ({self._why()}): {self._name(st.winner)} wins. {self._tie_break()}{self._tally()}."

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
        st = self.st
        name = lambda ci: None if ci < 0 else self.cards[ci].name  # noqa: E731
        return {
            "game": self.NAME,
            STATE_VERSION_KEY: self.STATE_VERSION,
            "players": list(self.players),
            "seed": self.seed,
            "options": dict(self.options),
            "cards": [c.to_dict() for c in self.cards],
            "rng": self.rng.to_dict(),
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
            "log": [list(x) for x in self.log],
            "last": None if self.last is None else _deep(self.last),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> NineSonsGame:
        if d.get("game") != cls.NAME:
            raise ValueError("not a ninesons state")
        d = cls.upgrade(d)
        g = cls(d["players"], d["seed"], d["options"], [Card.from_dict(c) for c in d["cards"]])
        g.rng = Rng.from_state(d["rng"])
        st = g.st
        idx = lambda n: -1 if n is None else g._index[n]  # noqa: E731
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
        g.log = [list(x) for x in d["log"]]
        g.last = None if d["last"] is None else _deep(d["last"])
        return g

    def copy(self) -> NineSonsGame:
        """An independent copy without the JSON round trip (the service copies the game it
        kept before each click instead of restoring it). The cards are frozen and the rules
        never change after the start: those are shared."""
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
        g.log = [list(entry) for entry in self.log]
        g.last = None if self.last is None else _deep(self.last)
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
        # A sentence for people (the bot shows it under the ranking): why it ended, and the
        # cards each player tamed; the code is ``end_reason``.
        tamed = "; ".join(
            f"{self._name(p)} tamed " + (", ".join(self.cards[ci].name for ci in st.tamed[p]) or "no card")
            for p in (0, 1)
        )
        why = self._why()
        reason = (
            f"{why[0].upper()}{why[1:]}{' (a draw)' if st.winner == -1 else ''}. {self._tie_break()}{tamed}."
        )
        return Result(scores=scores, ranking=ranking, reason=reason)

    def _tie_break(self) -> str:
        """Why equal points still have a winner (§7: more tamed cards), or "" ("Tied on 2
        points: {p2} tamed more cards (3 to 2). ")."""
        st = self.st
        if st.winner is None or st.winner < 0 or st.score[0] != st.score[1] or st.reason == core.NO_ACTION:
            return ""
        won, lost = len(st.tamed[st.winner]), len(st.tamed[st.winner ^ 1])
        points = f"{st.score[0]} point{'s' if abs(st.score[0]) != 1 else ''}"
        return f"Tied on {points}: {self._name(st.winner)} tamed more cards ({won} to {lost}). "


def _deep(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _deep(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_deep(v) for v in x]
    return x


def new_game(players: list[str], seed: int, **options: Any) -> NineSonsGame:
    """Start a game: shuffle the nine cards (six on the board, three in the deck) and pick the
    first player. Options: ``compare_die`` (hand_top | dropped_die), ``first_player``
    (random | first | second), ``win_points`` (7)."""
    return NineSonsGame.new(players, seed, **options)
