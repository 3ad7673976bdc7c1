"""AI players for The Nine Sons of the Dragon.

``choose_action(game, player, level, seed) -> str`` returns one of ``game.legal_actions(player)``.

Levels
------
* ``easy``   greedy-light: takes an immediately good tame when one exists, otherwise plays a
  random action (with a light preference for not handing the opponent a tame).
* ``medium`` two-ply alpha-beta (my action, the opponent's best reply) on a material evaluation.
* ``expert`` :mod:`engine.ninesons.expert`: negamax with a transposition table, quiescence on
  tames and an evaluation that knows die values and which cells each side can cover.
* ``hard``   iterative-deepening alpha-beta with a real evaluation, move ordering (previous
  iteration, killer moves, history) and a node budget (deterministic for a seed: the same seed
  gives the same move on any machine; the wall clock is only a guard far above the budget).

Bench baselines (not offered to players): ``random`` and ``greedy`` (one-ply: the action with
the best points/cards balance right after it, random among equals).

Hidden information: the deck *order* is the only secret. The AI never reads it: before
searching it replaces the deck with a seeded shuffle of the deck's (public) contents.
Taming-order and tamer choices are ordinary actions in the search; the repetition rule is
played out by the engine core inside the search (a third repetition is a terminal node).
"""

from __future__ import annotations

import time
from typing import Any

from engine.ninesons import core
from engine.ninesons.core import MOVE, TAME, State
from engine.ninesons.expert import ExpertSearch
from engine.ninesons.game import NineSonsGame, action_to_str
from engine.rng import Rng

LEVELS = ("easy", "medium", "hard", "expert")
BASELINES = ("random", "greedy")

WIN = 1_000_000
HARD_NODE_BUDGET = 15_000
EXPERT_NODE_BUDGET = 20_000
# The node budget is what stops a search, so a seed gives the same move on any machine. The clock
# is only a guard against a pathological position, far above the budget's normal duration.
WALL_CLOCK_GUARD = 20.0  # seconds
HARD_TIME_CAP = WALL_CLOCK_GUARD
MAX_DEPTH = 12


class _Stop(Exception):
    pass


def _determinise(game: NineSonsGame, seed: int) -> State:
    st = game.st.copy()
    deck = sorted(st.deck)
    Rng(seed ^ 0x5EED).shuffle(deck)
    st.deck = deck
    return st


# -- evaluation ------------------------------------------------------------------------------------


def _terminal(st: State, me: int, ply: int) -> int:
    if st.winner == -1:
        return 0
    return WIN - ply if st.winner == me else -WIN + ply


def material(st: State, me: int) -> int:
    opp = me ^ 1
    return 100 * (st.score[me] - st.score[opp]) + 20 * (len(st.tamed[me]) - len(st.tamed[opp]))


def evaluate(st: State, me: int) -> int:
    """Static evaluation from ``me``'s point of view (positive = good for ``me``)."""
    opp = me ^ 1
    w = st.rules.win_points
    sm, so = st.score
    if me == 1:
        sm, so = so, sm
    v = 100 * (sm - so) + 20 * (len(st.tamed[me]) - len(st.tamed[opp]))
    # closeness to the winning score counts extra
    v += 12 * (max(0, sm - (w - 3)) - max(0, so - (w - 3)))
    cells = st.cells
    slots = st.slots
    cards = st.rules.cards
    for i in range(12):
        c = cells[i]
        n = len(c)
        if not n:
            continue
        top = c[-1]
        owner = top >> 3
        s = 1 if owner == me else -1
        # a stack you control is mobile material; taller stacks are closer to a tame
        v += s * (6 + 4 * n)
        # dice buried under an enemy top die are stuck
        for d in c[:-1]:
            if (d >> 3) != owner:
                v += -5 if (d >> 3) == me else 5
        if n == 2:
            ci = slots[core.SLOT_OF_CELL[i]]
            if ci >= 0:
                pts = cards[ci].points
                # whoever can drop a die on it next is likely to tame; the top die's owner
                # is the most likely mover nearby. Weighted by the card's value.
                v += s * 4 * pts
        elif n == 3:  # a stuck 3-stack (yellow condition unmet): someone may unlock it
            ci = slots[core.SLOT_OF_CELL[i]]
            if ci >= 0:
                v += s * 8 * cards[ci].points
    # dice in reserve give options (and protect against being unable to act)
    v += 3 * (len(st.reserve[me]) - len(st.reserve[opp]))
    v += 8 * (len(st.removed[opp]) - len(st.removed[me]))
    # tempo: the side to act
    v += 10 if st.turn == me else -10
    return v


# -- search ----------------------------------------------------------------------------------------


class Searcher:
    def __init__(self, me: int, node_budget: int, time_cap: float, eval_fn: Any, rng: Rng) -> None:
        self.me = me
        self.budget = node_budget
        self.deadline = time.perf_counter() + time_cap
        self.eval_fn = eval_fn
        self.nodes = 0
        self.rng = rng
        self.killers: dict[int, tuple] = {}
        self.history: dict[tuple, int] = {}

    def _order(self, acts: list[tuple], ply: int) -> list[tuple]:
        killer = self.killers.get(ply)
        hist = self.history

        def score(a: tuple) -> int:
            s = hist.get(a, 0)
            if a == killer:
                s += 1_000_000
            if a[0] == TAME:
                s += 2_000_000
            elif a[0] == MOVE:
                s += 10 * len(a[1])
            return -s

        return sorted(acts, key=score)

    def search(self, st: State, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes >= self.budget or (self.nodes & 255 == 0 and time.perf_counter() > self.deadline):
            raise _Stop
        if st.over:
            return _terminal(st, self.me, ply)
        if depth <= 0:
            return self.eval_fn(st, self.me)
        acts = self._order(core.gen_actions(st), ply)
        maximizing = st.turn == self.me
        best = -WIN * 2 if maximizing else WIN * 2
        for a in acts:
            child = st.copy()
            core.apply(child, a)
            v = self.search(child, depth if a[0] == TAME else depth - 1, alpha, beta, ply + 1)
            if maximizing:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                self.killers[ply] = a
                self.history[a] = self.history.get(a, 0) + depth * depth
                break
        return best

    def root(self, st: State, max_depth: int) -> tuple[tuple, int, int]:
        acts = core.gen_actions(st)
        self.rng.shuffle(acts)  # seeded variety among equal moves
        if len(acts) == 1:
            return acts[0], 0, 0
        best_move = acts[0]
        best_val = 0
        completed = 0
        order = acts
        try:
            for depth in range(1, max_depth + 1):
                scored: list[tuple[int, int, tuple]] = []
                alpha = -WIN * 2
                cur_best, cur_val = order[0], -WIN * 2
                for idx, a in enumerate(order):
                    child = st.copy()
                    core.apply(child, a)
                    d = depth if a[0] == TAME else depth - 1
                    v = self.search(child, d, alpha, WIN * 2, 1)
                    scored.append((v, -idx, a))
                    if v > cur_val:
                        cur_val, cur_best = v, a
                        alpha = v
                best_move, best_val = cur_best, cur_val
                completed = depth
                scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
                order = [a for _, _, a in scored]
                if abs(best_val) >= WIN - 1000:  # a forced result is known
                    break
        except _Stop:
            # keep the partial iteration's best only if it beats the previous one
            if completed and cur_val > best_val and cur_best is not None:
                best_move, best_val = cur_best, cur_val
            elif not completed:
                best_move = cur_best if cur_val > -WIN * 2 else best_move
        return best_move, best_val, completed


def _pick_random(acts: list[tuple], rng: Rng) -> tuple:
    return rng.choice(acts)


def _greedy(st: State, me: int, rng: Rng, eval_fn: Any = material) -> tuple:
    """One-ply: best value right after my whole action (tame choices resolved greedily)."""
    acts = core.gen_actions(st)
    best: list[tuple] = []
    best_v = None
    for a in acts:
        child = st.copy()
        core.apply(child, a)
        v = _after_choices(child, me, eval_fn)
        if best_v is None or v > best_v:
            best_v, best = v, [a]
        elif v == best_v:
            best.append(a)
    return rng.choice(best)


def _after_choices(st: State, me: int, eval_fn: Any) -> int:
    if st.over:
        return _terminal(st, me, 0)
    if st.pending is not None and st.turn == me:
        vals = []
        for a in st.pending:
            c = st.copy()
            core.apply(c, a)
            vals.append(_after_choices(c, me, eval_fn))
        return max(vals)
    return eval_fn(st, me)


def _easy(st: State, me: int, rng: Rng) -> tuple:
    acts = core.gen_actions(st)
    base = material(st, me)
    good = []
    safe = []
    for a in acts:
        child = st.copy()
        core.apply(child, a)
        v = _after_choices(child, me, material)
        if v > base:
            good.append((v, a))
        elif v == base:
            safe.append(a)
    if good and rng.random() < 0.8:
        top = max(v for v, _ in good)
        return rng.choice([a for v, a in good if v == top])
    return rng.choice(safe or acts)


def choose_action(
    game: NineSonsGame,
    player: str,
    level: str = "medium",
    seed: int = 0,
    *,
    node_budget: int | None = None,
    time_cap: float = HARD_TIME_CAP,
) -> str:
    """Pick an action for ``player`` (who must be the player to act) at ``level``."""
    if game.is_over or game.to_act() != [player]:
        raise ValueError(f"{player} is not to act")
    st = _determinise(game, seed)
    me = st.turn
    rng = Rng(seed * 2654435761 + len(game.log))
    acts = core.gen_actions(st)
    if len(acts) == 1:
        a = acts[0]
    elif level == "random":
        a = _pick_random(acts, rng)
    elif level == "greedy":
        a = _greedy(st, me, rng)
    elif level == "easy":
        a = _easy(st, me, rng)
    elif level == "medium":
        s = Searcher(me, node_budget or 4000, time_cap, material, rng)
        a, _, _ = s.root(st, 2)
    elif level == "hard":
        s = Searcher(me, node_budget or HARD_NODE_BUDGET, time_cap, evaluate, rng)
        a, _, _ = s.root(st, MAX_DEPTH)
    elif level == "expert":
        a, _, _ = ExpertSearch(node_budget or EXPERT_NODE_BUDGET, time_cap, rng).root(st)
    else:
        raise ValueError(f"unknown level {level!r}; use one of {', '.join(LEVELS)}")
    return action_to_str(a, st.pending)


def search_info(game: NineSonsGame, player: str, seed: int = 0, node_budget: int = HARD_NODE_BUDGET) -> dict:
    """Hard search with statistics (for the bench and debugging)."""
    st = _determinise(game, seed)
    s = Searcher(st.turn, node_budget, HARD_TIME_CAP, evaluate, Rng(seed))
    t = time.perf_counter()
    a, v, depth = s.root(st, MAX_DEPTH)
    return {
        "action": action_to_str(a, st.pending),
        "value": v,
        "depth": depth,
        "nodes": s.nodes,
        "seconds": time.perf_counter() - t,
    }


__all__ = ["BASELINES", "LEVELS", "choose_action", "evaluate", "search_info"]
