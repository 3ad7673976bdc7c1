"""The Nine Sons ``expert`` search: negamax alpha-beta with a transposition table.

What it adds to ``hard`` (:mod:`engine.ninesons.ai`):

* a transposition table keyed by the position (stacks, cards, reserves, scores, side to act), so
  the node budget is not spent on positions already searched by another move order;
* iterative deepening that orders each iteration by the previous one, then the table's best
  move, moves that finish a stack of three (a tame), killer moves and history;
* quiescence: at the horizon the side to act may still take tames (and must settle a pending
  taming choice), so the search never stops in the middle of an exchange of tames;
* an evaluation that knows die values (a top die showing 5 or 6 can be covered only by two
  values, a 1 or a 2 by five) and what can cover what right now (the cells each side can drop a
  die on this move: a stack of two that the side to act can reach is a tame in hand).

The budget is a node count; the clock is only a guard far above it.
"""

from __future__ import annotations

import time

from engine.ninesons import core
from engine.ninesons.core import ADJ, GE, MOVE, SLOT_OF_CELL, TAME, State
from engine.rng import Rng

WIN = 1_000_000
INF = 2 * WIN
EXACT, LOWER, UPPER = 0, 1, 2
MAX_DEPTH = 16
QUIESCENCE_PLIES = 4

# How many of the six values can enter onto a top die showing v (1 beats 6, 6 cannot enter a 1).
COVERERS = [0] + [sum(1 for a in range(1, 7) if GE[a][v]) for v in range(1, 7)]
TOP_SAFETY = [0] + [6 - COVERERS[v] for v in range(1, 7)]  # 6/5 -> 4, 4 -> 3, 3 -> 2, 2/1 -> 1


class _Stop(Exception):
    pass


def _reach(st: State) -> tuple[list[int], list[int]]:
    """Per player: the cells (a bit mask) one move can drop a die on, and how many moves there
    are. The same walk as :func:`core.gen_moves`, for both players at once, without the paths."""
    cells, slots = st.cells, st.slots
    top = [-1] * 12  # -1: no entering (no card, or a full stack); 0: empty; else the top value
    for i in range(12):
        if slots[SLOT_OF_CELL[i]] >= 0 and len(cells[i]) < 3:
            c = cells[i]
            top[i] = c[-1] & 7 if c else 0
    masks, counts = [0, 0], [0, 0]
    compare_top = st.rules.compare_top
    for s in range(12):
        hand = cells[s]
        n = len(hand)
        if not n:
            continue
        p = hand[-1] >> 3
        if compare_top:
            c1 = c2 = c3 = hand[-1] & 7
        else:
            c1, c2, c3 = hand[0] & 7, hand[1] & 7 if n > 1 else 0, hand[2] & 7 if n > 2 else 0
        m, k = masks[p], counts[p]
        for t1 in ADJ[s]:  # a stack moves exactly as many cells as it has dice
            tv = top[t1]
            if tv < 0 or (tv and not GE[c1][tv]):
                continue
            if n == 1:
                m |= 1 << t1
                k += 1
                continue
            for t2 in ADJ[t1]:
                tv = top[t2]
                if t2 == s or tv < 0 or (tv and not GE[c2][tv]):
                    continue
                if n == 2:
                    m |= 1 << t1 | 1 << t2
                    k += 1
                    continue
                for t3 in ADJ[t2]:
                    tv = top[t3]
                    if t3 in (s, t1) or tv < 0 or (tv and not GE[c3][tv]):
                        continue
                    m |= 1 << t1 | 1 << t2 | 1 << t3
                    k += 1
        masks[p], counts[p] = m, k
    return masks, counts


def evaluate(st: State, me: int) -> int:
    """Static value for ``me`` (positive = good), assuming ``st.turn`` acts next."""
    opp = me ^ 1
    w = st.rules.win_points
    sm, so = st.score[me], st.score[opp]
    v = 100 * (sm - so) + 20 * (len(st.tamed[me]) - len(st.tamed[opp]))
    v += 15 * (max(0, sm - (w - 3)) - max(0, so - (w - 3)))
    masks, counts = _reach(st)
    reach_me, reach_opp = masks[me], masks[opp]
    v += 2 * (counts[me] - counts[opp])
    mover = st.turn
    cells, slots, cards = st.cells, st.slots, st.rules.cards
    for i in range(12):
        c = cells[i]
        n = len(c)
        if not n:
            continue
        top = c[-1]
        owner = top >> 3
        s = 1 if owner == me else -1
        enemy_reach = reach_opp if owner == me else reach_me
        bit = 1 << i
        safe = not enemy_reach & bit
        v += s * (4 + 3 * n + (3 * TOP_SAFETY[top & 7] if safe else 0))
        for d in c[:-1]:  # dice buried under an enemy top die are stuck
            if (d >> 3) != owner:
                v += -5 if (d >> 3) == me else 5
        ci = slots[SLOT_OF_CELL[i]]
        if ci < 0 or n != 2:
            continue
        pts = cards[ci].points
        # a stack of two: whoever drops the third die tames the card
        me_can, opp_can = bool(reach_me & bit), bool(reach_opp & bit)
        if mover == me and me_can:
            v += 60 * pts
        elif mover == opp and opp_can:
            v -= 60 * pts
        else:
            v += 12 * pts * (int(me_can) - int(opp_can))
    v += 3 * (len(st.reserve[me]) - len(st.reserve[opp]))
    v += 8 * (len(st.removed[opp]) - len(st.removed[me]))
    v += 10 if mover == me else -10
    return v


def _key(st: State) -> tuple:
    return (
        tuple(st.slots),
        tuple(tuple(c) for c in st.cells),
        tuple(st.reserve[0]),
        tuple(st.reserve[1]),
        st.score[0],
        st.score[1],
        len(st.tamed[0]),
        len(st.tamed[1]),
        st.turn,
        st.pending is not None,
    )


def _finishes_stack(st: State, a: tuple) -> bool:
    """Does this action drop a third die on a card (a possible tame)?"""
    if a[0] == TAME:
        return True
    if a[0] != MOVE:
        return False  # a die is placed on an empty cell only
    cells = st.cells
    return any(len(cells[c]) == 2 for c in a[1][1:])


def _stacks_of_two(st: State) -> list[bool]:
    return [len(c) == 2 for c in st.cells]


class ExpertSearch:
    def __init__(self, node_budget: int, guard_seconds: float, rng: Rng, *, null_window: bool = True) -> None:
        self.budget = node_budget
        self.null_window = null_window  # False: plain alpha-beta (the tests compare the two)
        self.deadline = time.perf_counter() + guard_seconds
        self.rng = rng
        self.nodes = 0
        self.tt: dict[tuple, tuple[int, int, int, tuple | None]] = {}
        self.killers: dict[int, tuple] = {}
        self.history: dict[tuple, int] = {}

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self.budget or (self.nodes & 255 == 0 and time.perf_counter() > self.deadline):
            raise _Stop

    def _ordered(self, st: State, acts: list[tuple], ply: int, first: tuple | None) -> list[tuple]:
        killer = self.killers.get(ply)
        hist = self.history
        two = _stacks_of_two(st)  # what _finishes_stack asks, once per node instead of per action

        def rank(a: tuple) -> int:
            if a == first:
                return -10_000_000
            s = hist.get(a, 0)
            kind = a[0]
            if kind == TAME or (kind == MOVE and any(two[c] for c in a[1][1:])):
                s += 2_000_000
            if a == killer:
                s += 1_000_000
            return -s

        return sorted(acts, key=rank)

    def quiesce(self, st: State, alpha: int, beta: int, ply: int, left: int) -> int:
        self._tick()
        if st.pending is None:
            stand = evaluate(st, st.turn)
            if stand >= beta or left <= 0:
                return stand
            alpha = max(alpha, stand)
            two = _stacks_of_two(st)
            acts = [a for a in core.gen_moves(st, st.turn) if any(two[c] for c in a[1][1:])]
        else:
            stand = -INF
            acts = list(st.pending)
        best = stand
        for a in acts:
            child = st.copy()
            core.apply(child, a)
            if child.score == st.score and child.pending is None and not child.over:
                continue  # the stack of three tamed nothing (a rule's condition failed)
            v = self._child(st, child, 0, alpha, beta, ply, left - 1)
            if v > best:
                best = v
                alpha = max(alpha, v)
                if alpha >= beta:
                    break
        if best == -INF:  # a pending choice whose options all failed to change anything: value it
            return evaluate(st, st.turn)
        return best

    def search(self, st: State, depth: int, alpha: int, beta: int, ply: int) -> int:
        if depth <= 0:
            return self.quiesce(st, alpha, beta, ply, QUIESCENCE_PLIES)
        self._tick()
        key = _key(st)
        entry = self.tt.get(key)
        first = None
        if entry is not None:
            e_depth, e_val, e_flag, first = entry
            if e_depth >= depth:
                if e_flag == EXACT:
                    return e_val
                if e_flag == LOWER and e_val >= beta:
                    return e_val
                if e_flag == UPPER and e_val <= alpha:
                    return e_val
        alpha0 = alpha
        best, best_move = -INF, None
        for i, a in enumerate(self._ordered(st, core.gen_actions(st), ply, first)):
            child = st.copy()
            core.apply(child, a)
            d = depth if a[0] == TAME else depth - 1
            if i == 0 or not self.null_window:
                v = self._child(st, child, d, alpha, beta, ply, None)
            else:
                # Principal variation search: the first move is most likely the best, so the
                # others only need to be shown no better (a null window, cheap to refute);
                # a move that is better after all is searched again with the full window.
                v = self._child(st, child, d, alpha, alpha + 1, ply, None)
                if alpha < v < beta:
                    v = self._child(st, child, d, alpha, beta, ply, None)
            if v > best:
                best, best_move = v, a
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        self.killers[ply] = a
                        self.history[a] = self.history.get(a, 0) + depth * depth
                        break
        flag = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
        self.tt[key] = (depth, best, flag, best_move)
        return best

    def root(self, st: State, max_depth: int = MAX_DEPTH) -> tuple[tuple, int, int]:
        acts = core.gen_actions(st)
        self.rng.shuffle(acts)  # seeded variety among equal moves
        if len(acts) == 1:
            return acts[0], 0, 0
        best_move, best_val, completed = acts[0], -INF, 0
        order = acts
        try:
            for depth in range(1, max_depth + 1):
                alpha = -INF
                scored: list[tuple[int, int, tuple]] = []
                for idx, a in enumerate(order):
                    child = st.copy()
                    core.apply(child, a)
                    d = depth if a[0] == TAME else depth - 1
                    if idx == 0 or not self.null_window:
                        v = self._child(st, child, d, alpha, INF, 0, None)
                    else:  # principal variation search, as in `search`
                        v = self._child(st, child, d, alpha, alpha + 1, 0, None)
                        if v > alpha:
                            v = self._child(st, child, d, alpha, INF, 0, None)
                    scored.append((v, -idx, a))
                    if v > alpha:
                        # The previous best is searched first, so a better move found in an
                        # unfinished iteration is better at this depth too.
                        alpha = v
                        best_move, best_val = a, v
                scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
                order = [a for _, _, a in scored]
                best_val, best_move = scored[0][0], order[0]
                completed = depth
                if abs(best_val) >= WIN - 1000:  # a forced result is known
                    break
        except _Stop:
            pass
        return best_move, best_val, completed

    def _child(
        self, st: State, child: State, depth: int, alpha: int, beta: int, ply: int, quiet_left: int | None
    ) -> int:
        """The value of ``child`` for ``st``'s side to act (a taming choice keeps the same side)."""
        if child.over:
            self._tick()
            return _terminal(child, st.turn, ply + 1)
        same = child.turn == st.turn
        if quiet_left is not None:
            if same:
                return self.quiesce(child, alpha, beta, ply + 1, quiet_left)
            return -self.quiesce(child, -beta, -alpha, ply + 1, quiet_left)
        if same:
            return self.search(child, depth, alpha, beta, ply + 1)
        return -self.search(child, depth, -beta, -alpha, ply + 1)


def _terminal(st: State, side: int, ply: int) -> int:
    """Value of a finished position for ``side``; a sooner win (a later loss) is better."""
    if st.winner == -1:
        return 0
    return WIN - ply if st.winner == side else -WIN + ply
