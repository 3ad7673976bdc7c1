"""Solve Dragon Farkle's two-player win probability and write the ``expert`` level's table.

``python -m bench.farkle_winprob`` (numpy, offline only: ``pip install .[solver]``) solves
``C[m, o]``: the probability that the player about to start a turn with an army of ``m`` steps
(50 soldiers) *loses* against one opponent holding ``o``, both playing this same policy. The
game is symmetric and zero-sum, so after the mover's turn ends with an army ``m'`` (the
opponent's army ``o'``) the mover's losing chance is the opponent's winning chance,
``1 - C[o', m']``. The mover chooses the best of

* **Recruit**: an exact push-your-luck turn (the same recurrence as
  :func:`engine.farkle.turn_solver.recruit_costs`, vectorised over every pair of armies): stop
  at ``x`` -> ``1 - C[o, x]``; Farkle -> ``1 - C[o, m]``;
* **Final Battle** (``m`` >= 5,000): won with the exact battle odds, else the army left;
* **Brawl** the opponent, rolling to a target score ``tau`` (a few targets): the attack score's
  distribution and the defender's (5 dice, rolling until it beats the attack) are exact; the
  winner takes the difference (capped by the loser's army) and 500 fresh soldiers.

Value iteration (Jacobi sweeps) until no value moves by more than ``--tol``. The shipped file
(:data:`engine.farkle.winprob.TABLE_PATH`) holds ``C`` (uint16), the best action per pair of
armies, and every Recruit state's stop decision (one bit). Magic Items count
:data:`engine.farkle.turn_values.ITEM_VALUE` soldiers when a Rally draws one, as in the soldier table.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import numpy as np

from engine.farkle import winprob
from engine.farkle.ai import KEEP_MIN_ARMY
from engine.farkle.scoring import DEFAULT_TABLE
from engine.farkle.turn_solver import A_MAX, _grouped, battle_outcomes
from engine.farkle.turn_values import ITEM_VALUE, P_BLANK, P_DRAGON, P_RALLY, STEP, _outcomes

N = A_MAX // STEP + 1  # army steps 0 .. A_MAX
KEEP = KEEP_MIN_ARMY // STEP
PAD = 2 * 3000 // STEP + ITEM_VALUE // STEP + 2
DT = np.float32  # the recruit sweep's arrays (half the memory traffic of float64)
BONUS = 500 // STEP  # a Brawl's winner gains 500 fresh soldiers
TARGETS = winprob.BRAWL_TARGETS  # attack scores to roll for, in steps


def _score_walk(dice: int, aim: int, cap: int) -> tuple[list[float], float]:
    """Roll ``dice`` (hot dice give ``dice`` again) until the score reaches ``aim`` steps, keeping
    the most soldiers (most dice left on a Dragon). Returns P(final score = s) for s < cap (every
    reached score is >= aim; the last entry gathers the rest) and P(Farkle)."""
    moves = _walk_moves(dice)
    final = [0.0] * cap
    farkle = 0.0
    mass = [[0.0] * (dice + 1) for _ in range(cap + 1)]
    mass[0][dice] = 1.0
    for t in range(min(aim, cap)):
        for _ in range(200):  # the Dragon keeps the score: repeat until the mass at t is gone
            row = mass[t]
            if sum(row) < 1e-15:
                break
            mass[t] = [0.0] * (dice + 1)
            for n in range(1, dice + 1):
                m = row[n]
                if not m:
                    continue
                fk, stay, steps = moves[n]
                farkle += m * fk
                for left, p in stay:
                    mass[t][left] += m * p
                for gain, left, p in steps:
                    mass[min(t + gain, cap)][left] += m * p
    for t in range(min(aim, cap), cap + 1):
        final[min(t, cap - 1)] += sum(mass[t])
    return final, farkle


def _walk_moves(dice: int) -> dict[int, tuple[float, list[tuple[int, float]], list[tuple[int, int, float]]]]:
    """Per dice count: P(Farkle), moves that keep the score (Dragon), moves that add to it."""
    out = {}
    for n, rows in _outcomes(DEFAULT_TABLE).items():
        if n > dice:
            continue
        fk = 0.0
        stay: dict[int, float] = {}
        steps: dict[tuple[int, int], float] = {}
        for p, opts in rows:
            if not opts:
                fk += p * (1 - P_DRAGON)
                stay[n] = stay.get(n, 0.0) + p * P_DRAGON  # the Dragon cancels the Farkle
                continue
            left, v = max(opts, key=lambda o: (o[1], o[0]))
            left = dice if left == 6 else left
            for gain, pf in ((v // STEP, P_BLANK), (2 * v // STEP, P_RALLY)):
                steps[(gain, left)] = steps.get((gain, left), 0.0) + p * pf
            most = max(o[0] for o in opts)
            most = dice if most == 6 else most
            stay[most] = stay.get(most, 0.0) + p * P_DRAGON
        out[n] = (fk, list(stay.items()), [(g, lf, p) for (g, lf), p in steps.items()])
    return out


def brawl_outcomes(cap: int = 90) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Per target: P(attacker wins taking A steps) by A (A = 0: the defender also Farkled, a
    tie), and P(defender wins by d steps) by d."""
    defence = {}
    for a in range(cap):
        final, fark = _score_walk(5, a + 1, cap + 40)
        defence[a] = (final, fark)
    out = {}
    for tau in TARGETS:
        attack, afark = _score_walk(6, tau, cap)
        dist = attack[:]
        dist[0] += afark
        att_win = [0.0] * cap
        def_win = [0.0] * (cap + 40)
        for a in range(cap):
            if not dist[a]:
                continue
            final, fark = defence[a]
            att_win[a] += dist[a] * fark
            for d in range(a + 1, len(final)):
                if final[d]:
                    def_win[d - a] += dist[a] * final[d]
        out[tau] = (np.array(att_win), np.array(def_win))
    return out


class Solver:
    def __init__(self) -> None:
        m, o = np.meshgrid(np.arange(N), np.arange(N), indexing="ij")
        self.m = m.ravel()
        self.o = o.ravel()
        self.top = (N - 1) - self.m  # past this bank the army is capped: stopping is final
        self.groups = _grouped(DEFAULT_TABLE)
        wins, lost = battle_outcomes(DEFAULT_TABLE)
        self.battle_win = np.array(wins)
        self.battle_lost = lost
        self.brawls = brawl_outcomes()

    def recruit(self, C: np.ndarray, want_stops: bool = False) -> tuple[np.ndarray, Any]:
        """Every pair's losing chance when it recruits now (6 dice, nothing banked)."""
        m, o = self.m, self.o
        C = C.astype(DT)
        lose_if_stop = 1.0 - C[o[None, :], np.minimum(m[None, :] + np.arange(N + PAD)[:, None], N - 1)]
        farkle = 1.0 - C[o, m]
        best = [lose_if_stop if n == 0 else lose_if_stop.copy() for n in range(7)]
        stops = np.zeros((7, N, len(m)), dtype=bool) if want_stops else None
        item = ITEM_VALUE // STEP
        for i in range(N - 1, -1, -1):
            # pairs are ordered army-major: past bank i only armies m <= N - 1 - i can still roll
            k = (N - i) * N
            fixed: list[np.ndarray] = [np.zeros(0, dtype=DT)] * 7
            for n in range(1, 7):
                scoring, _, _ = self.groups[n]
                acc = np.zeros(k, dtype=DT)
                for p, opts in scoring:
                    b = best[opts[0][0]][i + opts[0][1], :k]
                    r = np.minimum(
                        best[opts[0][0]][i + 2 * opts[0][1], :k], best[opts[0][0]][i + opts[0][1] + item, :k]
                    )
                    for left, v in opts[1:]:
                        b = np.minimum(b, best[left][i + v, :k])
                        r = np.minimum(r, np.minimum(best[left][i + 2 * v, :k], best[left][i + v + item, :k]))
                    acc += DT(p * P_BLANK) * b + DT(p * P_RALLY) * r
                fixed[n] = acc
            fark = farkle[:k]
            stop_here = fark if i == 0 else lose_if_stop[i, :k]
            cur = [stop_here] + [np.minimum(stop_here, fixed[n] + fark) for n in range(1, 7)]
            rolled = cur[:]
            for _ in range(60):
                new = cur[:]
                for n in range(1, 7):
                    _, dragon, fp = self.groups[n]
                    dr = np.zeros(k, dtype=DT)
                    for p, lefts in dragon:
                        low = cur[lefts[0][0]]
                        for left, _ in lefts[1:]:
                            low = np.minimum(low, cur[left])
                        dr += DT(p) * low
                    rolled[n] = (
                        fixed[n]
                        + DT(P_DRAGON) * dr
                        + DT(fp * P_DRAGON) * cur[n]
                        + DT(fp * (1 - P_DRAGON)) * fark
                    )
                    new[n] = np.minimum(stop_here, rolled[n])
                change = max(float(np.max(np.abs(x - y))) for x, y in zip(new[1:], cur[1:], strict=True))
                cur = new
                if change < 1e-8:
                    break
            for n in range(1, 7):
                best[n][i, :k] = cur[n]
                if stops is not None:
                    stops[n, i, :k] = cur[n] < rolled[n]
                    stops[n, i, k:] = True
        return best[6][0].astype(np.float64), stops

    def battle(self, C: np.ndarray) -> np.ndarray:
        m, o = self.m, self.o
        out = np.zeros(len(m))
        for x in range(KEEP, N):
            sel = m == x
            acc = np.zeros(int(sel.sum()))
            for y, p in self.battle_lost[x].items():
                acc += p * (1.0 - C[o[sel], y])
            out[sel] = acc
        out[m < KEEP] = np.inf
        return out

    def brawl(self, C: np.ndarray) -> np.ndarray:
        """Per target (rows): the attacker's losing chance."""
        m, o = self.m, self.o
        rows = []
        for tau in TARGETS:
            att_win, def_win = self.brawls[tau]
            acc = np.zeros(len(m))
            for a, p in enumerate(att_win):
                if not p:
                    continue
                if a == 0:  # both Farkled: nothing moves
                    acc += p * (1.0 - C[o, m])
                    continue
                take = np.minimum(a, o)
                acc += p * (1.0 - C[o - take, np.minimum(m + take + BONUS, N - 1)])
            for d, p in enumerate(def_win):
                if not p:
                    continue
                take = np.minimum(d, m)
                acc += p * (1.0 - C[np.minimum(o + take + BONUS, N - 1), m - take])
            rows.append(acc)
        return np.array(rows)

    def sweep(self, C: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rec, _ = self.recruit(C)
        options = np.vstack([rec, self.battle(C), self.brawl(C)])
        action = np.argmin(options, axis=0)
        return options.min(axis=0).reshape(N, N), action.reshape(N, N)


def solve(
    tol: float = 1e-6, sweeps: int = 400, checkpoint: str | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    solver = Solver()
    C = np.load(checkpoint) if checkpoint and Path(checkpoint).exists() else np.full((N, N), 0.5)
    started = time.perf_counter()
    two_back = C
    last: np.ndarray | None = None
    for k in range(sweeps):
        new, action = solver.sweep(C)
        change = float(np.max(np.abs(new - C)))
        C = new
        print(
            f"sweep {k}: lose(0, 0) = {C[0, 0]:.6f}, change {change:.2e} ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
        if change < tol:
            break
        if k % 2 == 0:
            continue
        # The mover and the opponent swap every turn, so an error changes sign from one sweep to
        # the next; over two sweeps it shrinks by about the same ratio (a game not yet over): jump
        # ahead along it (Aitken). The sweeps after a jump check the fixed point again exactly.
        step = C - two_back if k > 0 else None
        if step is not None and last is not None:
            ratio = float(np.max(np.abs(step))) / max(float(np.max(np.abs(last))), 1e-15)
            if 0.0 < ratio < 0.95:
                C = C + step * (ratio / (1.0 - ratio))
                step = None
        last = step
        two_back = C
        if checkpoint:
            np.save(checkpoint, C)
    _, stops = solver.recruit(C, want_stops=True)
    return C, action, stops


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tol", type=float, default=1e-6)
    ap.add_argument("--sweeps", type=int, default=400)
    ap.add_argument("--checkpoint", help="a .npy file: resume from it and save every sweep to it")
    args = ap.parse_args(argv)
    C, action, stops = solve(args.tol, args.sweeps, args.checkpoint)
    bits = []
    for mm in range(N):  # per pair of armies and dice count: the banks 0 .. top of that army
        top = N - 1 - mm
        rows = stops[1:, : top + 1, mm * N : (mm + 1) * N]  # (n, i, o)
        bits.append(np.transpose(rows, (2, 0, 1)).ravel())  # o, n, i
    blob = winprob.encode(
        [[float(x) for x in row] for row in C],
        [[int(x) for x in row] for row in action],
        np.packbits(np.concatenate(bits), bitorder="little").tobytes(),
    )
    winprob.TABLE_PATH.write_bytes(blob)
    print(f"wrote {winprob.TABLE_PATH} ({len(blob):,} bytes); first player wins {1 - C[0, 0]:.4f}")


if __name__ == "__main__":
    main()
