"""What a Recruit turn is worth in soldiers: the expected bank with n dice to roll and t in hand,
played on optimally (the Dragon die's Blank, Rally and Dragon faces included). Medium and hard
stop from it (engine.farkle.ai); the exact turn solution (engine.farkle.turn_solver) and the
offline win-probability solver (bench/farkle_winprob.py) build on its roll outcomes."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial

from engine.farkle.scoring import ScoreTable, scoring_selections

STEP = 50
T_MAX = 8000  # above this the table assumes stopping (far beyond any sensible bank)
ITEM_VALUE = 150  # rough worth of a Magic Item in soldiers
_PAD = 2 * 3000 // STEP + ITEM_VALUE // STEP + 2
P_BLANK, P_DRAGON, P_RALLY = 4 / 6, 1 / 6, 1 / 6

def _multiset_prob(roll: tuple[int, ...]) -> float:
    n = len(roll)
    perms = factorial(n)
    for c in Counter(roll).values():
        perms //= factorial(c)
    return perms / 6**n


@lru_cache(maxsize=4)
def _outcomes(table: ScoreTable) -> dict[int, list[tuple[float, list[tuple[int, int]]]]]:
    """For each dice count n: (probability, [(dice left after keeping, best value)]) per roll."""
    out: dict[int, list[tuple[float, list[tuple[int, int]]]]] = {}
    for n in range(1, 7):
        rows = []
        for roll in combinations_with_replacement(range(1, 7), n):
            best: dict[int, int] = {}
            for sel, v in scoring_selections(roll, table):
                left = n - len(sel)
                left = 6 if left == 0 else left
                if v > best.get(left, -1):
                    best[left] = v
            rows.append((_multiset_prob(roll), sorted(best.items())))
        out[n] = rows
    return out


@lru_cache(maxsize=4)
def value_table(table: ScoreTable) -> list[list[float]]:
    """``V[n][i]``: expected bank with n dice to roll (or stop) and ``i * STEP`` in hand."""
    outs = _outcomes(table)
    size = T_MAX // STEP + 1
    # Beyond T_MAX the table assumes stopping; the padding covers the largest single roll.
    V = [[float(i * STEP) for i in range(size + _PAD)] for _ in range(7)]

    for i in range(size - 1, -1, -1):
        t = i * STEP
        # Parts that only look at larger totals (Blank / Rally with scoring dice).
        fixed = [0.0] * 7
        dragon_sets: list[list[tuple[float, list[int]]]] = [[] for _ in range(7)]
        farkle_p = [0.0] * 7
        for n in range(1, 7):
            acc = 0.0
            groups: dict[tuple[int, ...], float] = {}
            fp = 0.0
            for p, opts in outs[n]:
                if not opts:
                    fp += p
                    continue
                acc += p * P_BLANK * max(V[left][i + v // STEP] for left, v in opts)
                acc += (
                    p
                    * P_RALLY
                    * max(
                        max(V[left][i + 2 * v // STEP], V[left][i + (v + ITEM_VALUE) // STEP])
                        for left, v in opts
                    )
                )
                key = tuple(sorted({left for left, _ in opts}))
                groups[key] = groups.get(key, 0.0) + p
            fixed[n] = acc
            dragon_sets[n] = [(p, list(k)) for k, p in groups.items()]
            farkle_p[n] = fp
        # Dragon face: the roll is eaten (same total) or a Farkle is cancelled (same dice).
        cur = [float(t)] * 7
        for _ in range(30):
            new = [float(t)] * 7
            for n in range(1, 7):
                dr = sum(p * max(cur[left] for left in lefts) for p, lefts in dragon_sets[n])
                cont = fixed[n] + P_DRAGON * dr + farkle_p[n] * P_DRAGON * cur[n]
                new[n] = max(float(t), cont)
            if max(abs(a - b) for a, b in zip(new, cur, strict=True)) < 1e-6:
                cur = new
                break
            cur = new
        for n in range(1, 7):
            V[n][i] = cur[n]
    return V


def expected_bank(table: ScoreTable, n: int, t: int) -> float:
    """V[n][t], or t itself past the table (stopping is all that is left there)."""
    V = value_table(table)
    i = max(0, t) // STEP
    return V[n][i] if i < len(V[n]) else float(t)


@lru_cache(maxsize=8192)  # a few hundred (n, t) per scoring table: hard's stops become lookups
def continue_value(table: ScoreTable, n: int, t: int) -> float:
    """Expected bank if we roll ``n`` dice now holding ``t`` (and play on optimally)."""
    V = value_table(table)
    i = t // STEP
    if i >= len(V[n]) - _PAD:
        return float(t)
    outs = _outcomes(table)
    acc = 0.0
    for p, opts in outs[n]:
        if not opts:
            acc += p * P_DRAGON * V[n][i]
            continue
        acc += p * P_BLANK * max(V[left][i + v // STEP] for left, v in opts)
        acc += (
            p
            * P_RALLY
            * max(max(V[left][i + 2 * v // STEP], V[left][i + (v + ITEM_VALUE) // STEP]) for left, v in opts)
        )
        acc += p * P_DRAGON * max(V[left][i] for left, _ in opts)
    return acc
