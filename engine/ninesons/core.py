"""Fast internal rules core of The Nine Sons of the Dragon.

This module works on small integers so that the AI can search quickly; the public, string
based API is :mod:`engine.ninesons.game`. Rules: the Nine Sons of the Dragon rulebook and
``docs/ninesons.md`` (the § numbers below are those of the written rules reading this engine
was built from, not of the rulebook).

Encodings
---------
* cell ``i = (row-1)*4 + col`` with ``a=0 .. d=3``; ``a1=0 .. d3=11``  (§3.2)
* slot ``k`` (``S(k+1)``) covers cells ``SLOT_CELLS[k]``                (§3.2)
* a die is ``owner << 3 | value`` (owner 0 or 1, value 1..6)
* actions are tuples: ``(PLACE, value, cell)``, ``(MOVE, path)`` where ``path`` holds the start
  cell and every cell stepped on, and ``(TAME, slot, cell)`` for a pending taming choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.ninesons.cards import Card  # the card table; cards.py imports nothing of this module

PLACE, MOVE, TAME = 0, 1, 2

CELL_NAMES = [f"{'abcd'[i % 4]}{i // 4 + 1}" for i in range(12)]
CELL_INDEX = {name: i for i, name in enumerate(CELL_NAMES)}
SLOT_CELLS = [((k // 2) * 4 + 2 * (k % 2), (k // 2) * 4 + 2 * (k % 2) + 1) for k in range(6)]
SLOT_OF_CELL = [(i // 4) * 2 + (i % 4) // 2 for i in range(12)]


def _neighbours(i: int) -> tuple[int, ...]:
    r, c = divmod(i, 4)
    out = []
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < 3 and 0 <= cc < 4:
            out.append(rr * 4 + cc)
    return tuple(out)


ADJ = [_neighbours(i) for i in range(12)]


def ge(a: int, b: int) -> bool:
    """May a die showing ``a`` enter onto a top die showing ``b``? 1 beats 6 (§4.3)."""
    if a == b:
        return True
    if a == 1 and b == 6:
        return True
    if a == 6 and b == 1:
        return False
    return a > b


# GE[a][b] for a, b in 0..6 (index 0 unused)
GE = [[False] * 7] + [[False] + [ge(a, b) for b in range(1, 7)] for a in range(1, 7)]


class Rules:
    """Fixed parameters of one game (options + card table)."""

    __slots__ = ("cards", "compare_top", "end_cards", "rep_limit", "rule_of", "win_points")

    def __init__(
        self,
        cards: list[Card],
        *,
        compare_top: bool,  # the lobby options; their defaults are declared once, in NineSonsGame.OPTIONS
        win_points: int,
        end_cards: int = 4,
        rep_limit: int = 3,
    ) -> None:
        self.cards = cards
        self.rule_of = [c.rule for c in cards]
        self.compare_top = compare_top
        self.win_points = win_points
        self.end_cards = end_cards
        self.rep_limit = rep_limit


# end reasons
POINTS, CARDS, REPETITION, NO_ACTION = "points", "cards", "repetition", "no_action"


# A die ``d`` is written chr(48 + d) in the repetition key. ``key`` runs after every action the AI
# searches, so it maps a whole stack's bytes through this table at once instead of char by char.
_DIE_CHARS = bytes((48 + d) % 256 for d in range(256))


class State:
    """Mutable game position. ``copy`` is cheap; the AI searches on copies."""

    __slots__ = (
        "cells",
        "deck",
        "over",
        "pending",
        "reason",
        "removed",
        "reps",
        "reserve",
        "rules",
        "score",
        "slots",
        "tamed",
        "turn",
        "winner",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.cells: list[list[int]] = [[] for _ in range(12)]
        self.slots: list[int] = [-1] * 6  # card index per slot, -1 = hole
        self.deck: list[int] = []  # card indices, next card first
        self.reserve: list[list[int]] = [[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6]]  # kept sorted
        self.removed: list[list[int]] = [[], []]
        self.tamed: list[list[int]] = [[], []]  # card indices, in taming order
        self.score = [0, 0]
        self.turn = 0  # player to act (the actor while a choice is pending)
        self.pending: list[tuple] | None = None  # TAME options awaiting the actor's choice
        self.reps: dict[str, int] = {}
        self.over = False
        self.winner: int | None = None  # 0/1, -1 = draw, None while running
        self.reason = ""

    def copy(self) -> State:
        s = State.__new__(State)
        s.rules = self.rules
        s.cells = [c[:] for c in self.cells]
        s.slots = self.slots[:]
        s.deck = self.deck[:]
        s.reserve = [self.reserve[0][:], self.reserve[1][:]]
        s.removed = [self.removed[0][:], self.removed[1][:]]
        s.tamed = [self.tamed[0][:], self.tamed[1][:]]
        s.score = self.score[:]
        s.turn = self.turn
        s.pending = self.pending
        s.reps = self.reps.copy()
        s.over = self.over
        s.winner = self.winner
        s.reason = self.reason
        return s

    # -- queries ---------------------------------------------------------------------------
    def exists(self, cell: int) -> bool:
        return self.slots[SLOT_OF_CELL[cell]] >= 0

    def cards_on_board(self) -> int:
        return sum(1 for k in self.slots if k >= 0)

    def key(self) -> str:
        """Position key for the repetition rule (§8): slots, stacks, reserves, removed dice,
        tamed cards and the side to move."""
        parts = [
            ",".join(map(str, self.slots)),
            "/".join([bytes(c).translate(_DIE_CHARS).decode() for c in self.cells]),
            "".join(map(str, self.reserve[0])),
            "".join(map(str, self.reserve[1])),
            "".join(map(str, sorted(self.removed[0]))),
            "".join(map(str, sorted(self.removed[1]))),
            ",".join(map(str, sorted(self.tamed[0]))),
            ",".join(map(str, sorted(self.tamed[1]))),
            str(self.turn),
        ]
        return "|".join(parts)


# -- move generation ---------------------------------------------------------------------------


def gen_moves(st: State, p: int) -> list[tuple]:
    """All legal stack moves of player ``p`` as ``(MOVE, path)`` (§4.2)."""
    cells = st.cells
    slots = st.slots
    # which cells can be entered at all (on a card, under three dice), and their top value (0 = empty)
    open_ = [False] * 12
    top = [0] * 12
    for i in range(12):
        if slots[SLOT_OF_CELL[i]] >= 0:
            c = cells[i]
            n = len(c)
            if n < 3:
                open_[i] = True
                top[i] = c[-1] & 7 if n else 0
    return _stack_moves(st, p, open_, top)


def _stack_moves(st: State, p: int, open_: list[bool], top: list[int]) -> list[tuple]:
    """Every path of every stack ``p`` tops: a die left on each cell stepped on, no cell twice,
    each die entering only onto a top it beats. Hot (the AI's search calls it at every node),
    so the three steps stay unrolled loops."""
    cells = st.cells
    compare_top = st.rules.compare_top
    out: list[tuple] = []
    for s in range(12):
        hand = cells[s]
        n = len(hand)
        if not n or (hand[-1] >> 3) != p:
            continue
        if compare_top:  # the value each step compares with the top die where it enters
            c1 = c2 = c3 = hand[-1] & 7
        else:
            c1 = hand[0] & 7
            c2 = hand[1] & 7 if n > 1 else 0
            c3 = hand[2] & 7 if n > 2 else 0
        for t1 in ADJ[s]:
            if not open_[t1] or ((tv := top[t1]) and not GE[c1][tv]):
                continue
            if n == 1:
                out.append((MOVE, (s, t1)))
                continue
            for t2 in ADJ[t1]:
                if t2 == s or not open_[t2] or ((tv := top[t2]) and not GE[c2][tv]):
                    continue
                if n == 2:
                    out.append((MOVE, (s, t1, t2)))
                    continue
                for t3 in ADJ[t2]:
                    if t3 in (s, t1) or not open_[t3] or ((tv := top[t3]) and not GE[c3][tv]):
                        continue
                    out.append((MOVE, (s, t1, t2, t3)))
    return out


def gen_places(st: State, p: int) -> list[tuple]:
    """All placements ``(PLACE, value, cell)``; equal values are one choice (§4.1)."""
    res = st.reserve[p]
    if not res:
        return []
    values = sorted(set(res))
    cells = st.cells
    slots = st.slots
    empties = [i for i in range(12) if not cells[i] and slots[SLOT_OF_CELL[i]] >= 0]
    return [(PLACE, v, c) for v in values for c in empties]


def gen_actions(st: State) -> list[tuple]:
    """Every legal action for the player to act (``st.turn``)."""
    if st.over:
        return []
    if st.pending is not None:
        return list(st.pending)
    return gen_places(st, st.turn) + gen_moves(st, st.turn)


def has_action(st: State, p: int) -> bool:
    """Can ``p`` place or move at all? (§4.4)"""
    if st.reserve[p]:
        cells = st.cells
        for i in range(12):
            if not cells[i] and st.slots[SLOT_OF_CELL[i]] >= 0:
                return True
    return bool(gen_moves(st, p))


# -- taming -------------------------------------------------------------------------------------


def tame_options(st: State) -> list[tuple]:
    """Tameable (slot, taming-stack) choices after an action (§5.2).

    Candidate stacks on one card that lead to the same outcome (same tamer, and for ChiWen the
    same removed value) are merged, so each option is a real choice.
    """
    cells = st.cells
    rule_of = st.rules.rule_of
    opts: list[tuple] = []
    for k in range(6):
        ci = st.slots[k]
        if ci < 0:
            continue
        a, b = SLOT_CELLS[k]
        ca, cb = cells[a], cells[b]
        la, lb = len(ca), len(cb)
        if la != 3 and lb != 3:
            continue
        rule = rule_of[ci]
        if rule == "suanni" and la + lb != 3:
            continue
        if rule == "baxia" and la + lb < 4:
            continue
        cands = []
        for cell, stack in ((a, ca), (b, cb)):
            if len(stack) != 3:
                continue
            if rule == "chaofeng" and (stack[-1] & 7) < 5:
                continue
            cands.append((cell, stack[-1]))
        if len(cands) == 2:
            (_, d1), (_, d2) = cands
            if (d1 >> 3) == (d2 >> 3) and (rule != "chiwen" or d1 == d2):
                cands = cands[:1]
        for cell, _ in cands:
            opts.append((TAME, k, cell))
    return opts


def resolve(st: State, slot: int, cell: int, log: list | None = None) -> None:
    """Resolve one tamed card (§5.3): score, red effect, return dice, refill, end check."""
    ci = st.slots[slot]
    card = st.rules.cards[ci]
    stack = st.cells[cell]
    tamer = stack[-1] >> 3
    st.tamed[tamer].append(ci)
    st.score[tamer] += card.points
    rule = card.rule
    removed = 0
    a, b = SLOT_CELLS[slot]
    if rule == "chiwen":
        removed = stack.pop() & 7
        st.removed[tamer].append(removed)
    returned: list[list[int]] = [[], []]
    for c in (a, b):
        for d in st.cells[c]:
            owner = d >> 3
            v = 1 if (rule == "pulao" and owner == tamer) else d & 7
            returned[owner].append(v)
        st.cells[c] = []
    for p in (0, 1):
        if returned[p]:
            st.reserve[p].extend(returned[p])
            st.reserve[p].sort()
    new = st.deck.pop(0) if st.deck else -1
    st.slots[slot] = new
    if log is not None:
        log.append(("tame", slot, cell, tamer, ci, removed, returned, new))
    w = st.rules.win_points
    if st.score[0] >= w or st.score[1] >= w:
        end_normal(st, POINTS)
    elif st.cards_on_board() <= st.rules.end_cards:
        end_normal(st, CARDS)


def end_normal(st: State, reason: str) -> None:
    """Normal end (§7): points, then number of tamed cards, then draw."""
    st.over = True
    st.reason = reason
    s0, s1 = st.score
    if s0 != s1:
        st.winner = 0 if s0 > s1 else 1
    else:
        n0, n1 = len(st.tamed[0]), len(st.tamed[1])
        st.winner = -1 if n0 == n1 else (0 if n0 > n1 else 1)


def _settle(st: State, log: list | None) -> None:
    """Resolve automatic tames, stop for a choice, or finish the action."""
    while True:
        opts = tame_options(st)
        if not opts:
            break
        if len(opts) > 1:
            st.pending = opts
            return
        resolve(st, opts[0][1], opts[0][2], log)
        if st.over:
            return
    # action complete: pass the turn, repetition, unable to act (§5.4 pseudocode)
    st.turn ^= 1
    key = st.key()
    n = st.reps.get(key, 0) + 1
    st.reps[key] = n
    if n >= st.rules.rep_limit:
        end_normal(st, REPETITION)
        if log is not None:
            log.append(("end", REPETITION))
        return
    if not has_action(st, st.turn):
        st.over = True
        st.reason = NO_ACTION
        st.winner = st.turn ^ 1
        if log is not None:
            log.append(("end", NO_ACTION))


def apply(st: State, action: tuple, log: list | None = None) -> None:
    """Apply a legal action for ``st.turn`` (no legality check: callers use gen_actions)."""
    kind = action[0]
    p = st.turn
    if kind == PLACE:
        v, c = action[1], action[2]
        st.reserve[p].remove(v)
        st.cells[c].append((p << 3) | v)
    elif kind == MOVE:
        path = action[1]
        cells = st.cells
        hand = cells[path[0]]
        cells[path[0]] = []
        for i in range(1, len(path)):
            cells[path[i]].append(hand[i - 1])
    else:  # TAME choice
        st.pending = None
        resolve(st, action[1], action[2], log)
        if st.over:
            return
    _settle(st, log)
