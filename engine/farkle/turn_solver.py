"""Dragon Farkle's exact turn solution and Final Battle odds, for a value of the game state.

The soldier table in :mod:`engine.farkle.ai` answers "how many soldiers does rolling on win on
average". That is the wrong question near the Keep: 5,000 soldiers at the start of a turn open
the Final Battle, and a rival may win first. :func:`recruit_costs` solves one Recruit turn
exactly for *any* value of where the turn ends (``stop_cost(army)``, and a Farkle's cost): the
expert's win-probability table (:mod:`engine.farkle.winprob`, solved by ``python -m
bench.farkle_winprob``) uses the same recurrence with "the chance to lose from there", and the
tests use this pure-Python version to check the shipped decisions. The Final Battle is solved
exactly too (:func:`battle_outcomes`: every scoring die costs soldiers, Dragon 1 / Rally 2
damage, 3 damage wins, a blank Farkle or an empty army loses).

Every roll averages over the dice and the Event die (Dragon eats the roll or cancels a Farkle,
Rally doubles the roll or draws an item worth :data:`ITEM_VALUE` soldiers).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import combinations_with_replacement

from engine.farkle.scoring import DEFAULT_TABLE, ScoreTable, score_all
from engine.farkle.turn_values import (
    ITEM_VALUE,
    P_BLANK,
    P_DRAGON,
    P_RALLY,
    STEP,
    _multiset_prob,
    _outcomes,
)

A_MAX = 7000  # armies above this count as this (they only buffer Final Battle losses)
HP = 3
DAMAGE = {"dragon": 1, "rally": 2}  # the default battle damage options
# The options this model plays (the defaults); a game with others falls back to ``hard``.
SOLVED_OPTIONS = {
    "dragon_eats": "roll",
    "rally_double": "roll",
    "battle_dragon_damage": 1,
    "battle_rally_damage": 2,
    "battle_score_all": True,
    "battle_rally_item": False,
    # the win table's Brawls and game end
    "defender_dice": 5,
    "defender_hot_dice": 5,
    "brawl_tie": "no_winner",
    "max_rounds": 0,
}

Grouped = list[tuple[float, tuple[tuple[int, int], ...]]]


@lru_cache(maxsize=2)
def _grouped(table: ScoreTable) -> dict[int, tuple[Grouped, Grouped, float]]:
    """Per dice count: scoring rolls grouped by their options ``(left, value in steps)``, the
    same rolls grouped by the dice counts they can leave (for the Dragon face), and P(Farkle)."""
    out: dict[int, tuple[Grouped, Grouped, float]] = {}
    for n, rows in _outcomes(table).items():
        by_opts: dict[tuple[tuple[int, int], ...], float] = {}
        by_left: dict[tuple[tuple[int, int], ...], float] = {}
        fp = 0.0
        for p, opts in rows:
            if not opts:
                fp += p
                continue
            key = tuple((left, v // STEP) for left, v in opts)
            by_opts[key] = by_opts.get(key, 0.0) + p
            lefts = tuple(sorted({(left, 0) for left, _ in opts}))
            by_left[lefts] = by_left.get(lefts, 0.0) + p
        scoring = [(p, k) for k, p in sorted(by_opts.items())]
        dragon = [(p, k) for k, p in sorted(by_left.items())]
        out[n] = (scoring, dragon, fp)
    return out


def recruit_costs(
    a: int, farkle_cost: float, stop_cost: Callable[[int], float], table: ScoreTable = DEFAULT_TABLE
) -> tuple[list[list[float]], list[list[float]]]:
    """One Recruit turn from army ``a``: ``(best, roll)`` with ``best[n][i]`` the expected turns
    to win from ``n`` dice to roll and ``i * STEP`` banked, playing on optimally, and
    ``roll[n][i]`` the same if the player rolls now. ``stop_cost(x)`` values ending the turn with army ``x``."""
    groups = _grouped(table)
    top = (A_MAX - a) // STEP  # past this bank the army is capped: stopping is final
    pad = 2 * 3000 // STEP + ITEM_VALUE // STEP + 2
    size = top + 1 + pad
    stops = [stop_cost(min(a + i * STEP, A_MAX)) for i in range(size)]
    best = [stops[:] for _ in range(7)]
    roll = [[float("inf")] * size for _ in range(7)]
    item = ITEM_VALUE // STEP
    for i in range(top, -1, -1):
        fixed = [0.0] * 7
        for n in range(1, 7):
            scoring, _, _ = groups[n]
            acc = 0.0
            for p, opts in scoring:
                b = min(best[left][i + v] for left, v in opts)
                r = min(min(best[left][i + 2 * v], best[left][i + v + item]) for left, v in opts)
                acc += p * (P_BLANK * b + P_RALLY * r)
            fixed[n] = acc
        # The Dragon face keeps the bank where it is: a small fixed point over the dice counts.
        stop_here = farkle_cost if i == 0 else stops[i]
        cur = [min(stop_here, fixed[n] + farkle_cost) for n in range(7)]
        rolled = cur[:]
        for _ in range(60):
            new = cur[:]
            for n in range(1, 7):
                _, dragon, fp = groups[n]
                dr = sum(p * min(cur[left] for left, _ in lefts) for p, lefts in dragon)
                rolled[n] = (
                    fixed[n] + P_DRAGON * dr + fp * P_DRAGON * cur[n] + fp * (1 - P_DRAGON) * farkle_cost
                )
                new[n] = min(stop_here, rolled[n])
            if max(abs(x - y) for x, y in zip(new, cur, strict=True)) < 1e-10:
                cur = new
                break
            cur = new
        for n in range(1, 7):
            best[n][i] = cur[n]
            roll[n][i] = rolled[n]
    return best, roll


# CC 17: h28-ai owns this module this round and splits it; the lead drops the noqa on merging.
@lru_cache(maxsize=2)
def battle_outcomes(table: ScoreTable = DEFAULT_TABLE) -> tuple[list[float], list[dict[int, float]]]:
    """For every starting army ``x`` (in steps, up to :data:`A_MAX`): P(win the Final Battle) and
    the distribution of the army left after a lost battle (in steps)."""
    size = A_MAX // STEP + 1
    walk = _BattleWalk(size)
    walk.run(_battle_rolls(table))
    wins = [sum(walk.win_from[:x]) if x else 0.0 for x in range(size)]
    return wins, [walk.left_after_loss(x) for x in range(size)]


def _battle_rolls(table: ScoreTable) -> dict[int, dict[tuple[int, int], float]]:
    """For each dice count: P(dice used, soldiers lost in steps) of one battle roll."""
    rolls: dict[int, dict[tuple[int, int], float]] = {}
    for n in range(1, 7):
        agg: dict[tuple[int, int], float] = {}
        for roll in combinations_with_replacement(range(1, 7), n):
            sel, loss = score_all(roll, table)
            key = (len(sel), loss // STEP)
            agg[key] = agg.get(key, 0.0) + _multiset_prob(roll)
        rolls[n] = agg
    return rolls


class _BattleWalk:
    """The battle's probability mass walked in order of soldiers lost (L steps), damage dealt
    (d) and dice to roll (n): where it wins, where it Farkles, where it loses soldiers."""

    FACES = (("blank", 4 / 6), ("dragon", 1 / 6), ("rally", 1 / 6))

    def __init__(self, size: int) -> None:
        self.size = size
        # mass[(L, d, n)]: probability of being alive with L steps lost, d damage, n dice to roll
        self.mass: dict[tuple[int, int, int], float] = {(0, 0, 6): 1.0}
        self.win_from = [0.0] * size  # win mass from states with L lost
        self.farkle_at = [0.0] * size  # blank Farkle with L lost
        self.arrivals: dict[tuple[int, int], float] = {}  # (L from, L to) for rolls that lose soldiers

    def run(self, rolls: dict[int, dict[tuple[int, int], float]]) -> None:
        for L in range(self.size):
            for d in range(HP):
                for n in range(6, 0, -1):
                    m = self.mass.pop((L, d, n), 0.0)
                    if m:
                        for (used, loss), p in rolls[n].items():
                            for face, pf in self.FACES:
                                self._step(L, d, n, used, loss, face, m * p * pf)

    def _step(self, L: int, d: int, n: int, used: int, loss: int, face: str, q: float) -> None:
        dmg = d + DAMAGE.get(face, 0)
        L2 = L + loss
        if dmg >= HP:
            self.win_from[L] += q
            return
        if loss:
            key = (L, min(L2, self.size))
            self.arrivals[key] = self.arrivals.get(key, 0.0) + q
        if not used and dmg == d:
            self.farkle_at[L] += q
            return
        if self.size > L2:
            n2 = n - used or 6
            self.mass[(L2, dmg, n2)] = self.mass.get((L2, dmg, n2), 0.0) + q

    def left_after_loss(self, x: int) -> dict[int, float]:
        """The army left (in steps) when a battle started with ``x`` is lost."""
        dist: dict[int, float] = {}
        for L in range(min(x, self.size)):
            if self.farkle_at[L]:
                dist[x - L] = dist.get(x - L, 0.0) + self.farkle_at[L]
        zero = sum(q for (src, dst), q in self.arrivals.items() if src < x <= dst)
        if zero:
            dist[0] = dist.get(0, 0.0) + zero
        return dist
