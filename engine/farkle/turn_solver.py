"""Dragon Farkle's game-state value: expected turns to slay the dragon, solved exactly.

The soldier table in :mod:`engine.farkle.ai` answers "how many soldiers does rolling on win on
average". That is the wrong question near the Keep: 5,000 soldiers at the start of a turn open
the Final Battle, and soldiers beyond that are worth little. This module values the *game state*
instead: ``T(a)`` is the expected number of turns a player starting a turn with army ``a`` needs
to win, playing Recruit turns until the Keep opens and then the Final Battle (solitaire: the
other players' brawls are not modelled). Every Recruit decision then minimises the expected
``T`` of where the turn ends:

* stop with ``t`` banked -> ``T(a + t)``;
* Farkle -> ``T(a)`` (the army is unchanged and a turn is gone);
* roll -> the average over the dice and the Event die (Dragon eats the roll or cancels a Farkle,
  Rally doubles the roll or draws an item worth :data:`ITEM_VALUE` soldiers).

The Final Battle is solved exactly too (every scoring die costs soldiers, Dragon 1 / Rally 2
damage, 3 damage wins, a blank Farkle or an empty army loses), which gives ``T`` above 5,000.
``T`` is found by value iteration (the battle sends a loser back below 5,000, so the two parts
depend on each other); each Recruit turn is solved by backward induction over the bank, with the
turn's own Farkle value solved as a fixed point. Offline only: ``python -m bench.farkle_table``
writes :data:`TABLE_PATH`, which :mod:`engine.farkle.ai` reads (the ``expert`` level).
"""

from __future__ import annotations

import json
import zlib
from array import array
from collections.abc import Callable
from functools import lru_cache
from itertools import combinations_with_replacement
from pathlib import Path

from engine.farkle.ai import (
    ITEM_VALUE,
    KEEP_MIN_ARMY,
    P_BLANK,
    P_DRAGON,
    P_RALLY,
    STEP,
    _multiset_prob,
    _outcomes,
)
from engine.farkle.scoring import DEFAULT_TABLE, ScoreTable, score_all

A_MAX = 7000  # armies above this count as this (they only buffer Final Battle losses)
TABLE_PATH = Path(__file__).with_name("data") / "expert_turns.bin"
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
}
QUANTUM_SCALE = 2000  # costs are shipped as whole 1/2000ths of a turn

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
    ``roll[n][i]`` the same if the player rolls now. ``stop_cost(x)`` is ``T`` of army ``x``."""
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
def battle_outcomes(table: ScoreTable = DEFAULT_TABLE) -> tuple[list[float], list[dict[int, float]]]:  # noqa: C901
    """For every starting army ``x`` (in steps, up to :data:`A_MAX`): P(win the Final Battle) and
    the distribution of the army left after a lost battle (in steps)."""
    faces = [("blank", 4 / 6), ("dragon", 1 / 6), ("rally", 1 / 6)]
    rolls: dict[int, dict[tuple[int, int], float]] = {}
    for n in range(1, 7):
        agg: dict[tuple[int, int], float] = {}
        for roll in combinations_with_replacement(range(1, 7), n):
            sel, loss = score_all(roll, table)
            key = (len(sel), loss // STEP)
            agg[key] = agg.get(key, 0.0) + _multiset_prob(roll)
        rolls[n] = agg
    size = A_MAX // STEP + 1
    # mass[(L, d, n)]: probability of being alive with L steps lost, d damage, n dice to roll
    mass: dict[tuple[int, int, int], float] = {(0, 0, 6): 1.0}
    win_from = [0.0] * size  # win mass from states with L lost
    farkle_at = [0.0] * size  # blank Farkle with L lost
    arrivals: dict[tuple[int, int], float] = {}  # (L from, L to) for rolls that lose soldiers
    for L in range(size):
        for d in range(HP):
            for n in range(6, 0, -1):
                m = mass.pop((L, d, n), 0.0)
                if not m:
                    continue
                for (used, loss), p in rolls[n].items():
                    for face, pf in faces:
                        q = m * p * pf
                        dmg = d + DAMAGE.get(face, 0)
                        L2 = L + loss
                        if dmg >= HP:
                            win_from[L] += q
                            continue
                        if loss:
                            arrivals[(L, min(L2, size))] = arrivals.get((L, min(L2, size)), 0.0) + q
                        if not used and dmg == d:
                            farkle_at[L] += q
                            continue
                        if size <= L2:
                            continue
                        n2 = n - used or 6
                        mass[(L2, dmg, n2)] = mass.get((L2, dmg, n2), 0.0) + q
    wins = [0.0] * size
    lost: list[dict[int, float]] = [{} for _ in range(size)]
    for x in range(size):
        wins[x] = sum(win_from[:x]) if x else 0.0
        dist: dict[int, float] = {}
        for L in range(min(x, size)):
            if farkle_at[L]:
                dist[x - L] = dist.get(x - L, 0.0) + farkle_at[L]
        zero = sum(q for (src, dst), q in arrivals.items() if src < x <= dst)
        if zero:
            dist[0] = dist.get(0, 0.0) + zero
        lost[x] = dist
    return wins, lost


def solve(
    table: ScoreTable = DEFAULT_TABLE,
    sweeps: int = 40,
    tol: float = 1e-5,
    log: Callable[[str], None] | None = None,
    start: list[float] | None = None,
) -> list[float]:
    """Value iteration for ``T`` (expected turns to win) over armies ``0 .. A_MAX`` in steps."""
    size = A_MAX // STEP + 1
    keep = KEEP_MIN_ARMY // STEP
    wins, lost = battle_outcomes(table)
    # The recruit half of a sweep is exact given the armies above the Keep, so only their start
    # matters: about 5 turns (a battle is won about 4 times in 10; a loss falls back to ~4,500).
    T = list(start) if start else [12.0 if x < keep else 5.1 for x in range(size)]
    last_step: list[float] | None = None
    for sweep in range(sweeps):
        old = T[:]
        for x in range(keep - 1, -1, -1):
            T[x] = _recruit_fixed_point(x * STEP, T, table)
        for x in range(keep, size):  # a lost battle never gains soldiers: ascending order
            other = sum(p * T[y] for y, p in lost[x].items() if y != x)
            T[x] = (1.0 + other) / (1.0 - lost[x].get(x, 0.0))
        step = [u - v for u, v in zip(T, old, strict=True)]
        change = max(abs(d) for d in step)
        if log:
            log(f"sweep {sweep}: T(0)={T[0]:.6f} T(5000)={T[keep]:.6f} change={change:.2e} T={T}")
        if change < tol:
            break
        # A battle lost sends the error round again, shrunk by about the same ratio each sweep:
        # jump ahead along it (Aitken). The sweeps after it still check the fixed point exactly.
        if last_step is not None and abs(last_step[keep]) > 1e-12:
            ratio = step[keep] / last_step[keep]
            if 0.0 < ratio < 0.95:
                T = [v + d * ratio / (1.0 - ratio) for v, d in zip(T, step, strict=True)]
                step = [0.0] * size  # the next sweep measures afresh
        last_step = step if any(step) else None
    return T


def _recruit_fixed_point(a: int, T: list[float], table: ScoreTable) -> float:
    """``T(a) = 1 + (expected T after one optimal Recruit turn)``, where a Farkle costs T(a)."""

    def gap(f: float) -> float:
        _, roll = recruit_costs(a, f, lambda x: T[x // STEP], table)
        return 1.0 + roll[6][0] - f

    f0 = T[a // STEP]
    g0 = gap(f0)
    f1 = f0 + g0
    for _ in range(20):  # secant on a piecewise-linear function: exact once the policy settles
        g1 = gap(f1)
        if abs(g1) < 1e-11 or g1 == g0:
            return f1
        f0, g0, f1 = f1, g1, f1 - g1 * (f1 - f0) / (g1 - g0)
    return f1


# ---------------------------------------------------------------------------------- the shipped table


def encode(T: list[float], table: ScoreTable = DEFAULT_TABLE) -> bytes:
    """The shipped table: ``T`` exactly (JSON header) and, per army below the Keep, every
    Recruit state's best cost (1/2000 turn) and whether to stop there (one byte each)."""
    keep = KEEP_MIN_ARMY // STEP
    costs = array("H")
    stops = bytearray()
    for x in range(keep):
        best, roll = recruit_costs(x * STEP, T[x], lambda y: T[y // STEP], table)
        top = (A_MAX - x * STEP) // STEP
        for n in range(1, 7):
            for i in range(top + 1):
                costs.append(min(65535, round(best[n][i] * QUANTUM_SCALE)))
                stops.append(1 if best[n][i] < roll[n][i] else 0)
    header = json.dumps(
        {
            "step": STEP,
            "a_max": A_MAX,
            "keep": KEEP_MIN_ARMY,
            "scale": QUANTUM_SCALE,
            "item_value": ITEM_VALUE,
            "T": [round(v, 9) for v in T],
        }
    ).encode()
    body = len(header).to_bytes(4, "little") + header + costs.tobytes() + bytes(stops)
    return zlib.compress(body, 9)


class ShippedTable:
    """The decoded table: ``T(army)``, and per Recruit state the best cost and stop decision."""

    def __init__(self, blob: bytes) -> None:
        body = zlib.decompress(blob)
        hlen = int.from_bytes(body[:4], "little")
        meta = json.loads(body[4 : 4 + hlen])
        self.T: list[float] = meta["T"]
        self.scale: int = meta["scale"]
        keep = meta["keep"] // STEP
        self.offsets: list[int] = []
        total = 0
        for x in range(keep):
            self.offsets.append(total)
            total += 6 * ((A_MAX - x * STEP) // STEP + 1)
        self.costs = array("H")
        self.costs.frombytes(body[4 + hlen : 4 + hlen + 2 * total])
        self.stops = body[4 + hlen + 2 * total :]
        self.keep = keep

    def _index(self, a: int, n: int, t: int) -> int | None:
        x, i = a // STEP, t // STEP
        if x >= self.keep:
            return None
        top = (A_MAX - x * STEP) // STEP
        if i > top:
            return None
        return self.offsets[x] + (n - 1) * (top + 1) + i

    def army_cost(self, army: int) -> float:
        return self.T[min(max(army, 0), A_MAX) // STEP]

    def cost(self, a: int, n: int, t: int) -> float:
        """Expected turns to win from this Recruit state (``n`` dice to roll, ``t`` banked)."""
        k = self._index(a, n, t)
        return self.army_cost(a + t) if k is None else self.costs[k] / self.scale

    def should_stop(self, a: int, n: int, t: int) -> bool:
        k = self._index(a, n, t)
        return True if k is None else bool(self.stops[k])


@lru_cache(maxsize=1)
def shipped() -> ShippedTable:
    return ShippedTable(TABLE_PATH.read_bytes())
