"""An independent Nine Sons reference player, and the top level's record against it at equal time.

``python -m bench.reference.ninesons [--games N]``. The reference is written separately from
``engine/ninesons/ai.py`` and ``expert.py`` and deliberately plain: fail-hard negamax alpha-beta,
iterative deepening on a **clock** (this process's CPU time, not nodes), a transposition table keyed by the rules'
own repetition key, ordering by the table move then tames, and a score-only evaluation (points,
tamed cards, stacks controlled). It sees what a player sees (the deck is reshuffled from its
public contents). Equal time: for each of its moves it gets the mean time the AI level took per
move so far in that game (1 s before the first), so both sides spend the same clock. The clock
is CPU time (``time.process_time``): on a shared machine wall time would hand the reference
whatever the other jobs leave it, CPU time gives both sides the same work whatever the load.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from bench.common import pct
from bench.strength import wilson
from engine.ninesons import core, new_game
from engine.ninesons.ai import choose_action
from engine.ninesons.game import NineSonsGame, action_to_str

BIG = 10**7


class _OutOfTime(Exception):
    pass


def _score(st: core.State, side: int) -> int:
    if st.over:
        if st.winner == -1:
            return 0
        return BIG if st.winner == side else -BIG
    other = side ^ 1
    v = 1000 * (st.score[side] - st.score[other]) + 100 * (len(st.tamed[side]) - len(st.tamed[other]))
    for c in st.cells:
        if c:
            v += (10 * len(c)) if (c[-1] >> 3) == side else -(10 * len(c))
    return v


class Reference:
    def __init__(self, seconds: float) -> None:
        self.stop_at = time.process_time() + seconds
        self.table: dict[str, tuple[int, int, tuple | None]] = {}
        self.count = 0

    def negamax(self, st: core.State, depth: int, alpha: int, beta: int) -> int:
        self.count += 1
        if self.count % 512 == 0 and time.process_time() > self.stop_at:
            raise _OutOfTime
        side = st.turn
        if st.over or depth == 0:
            return _score(st, side)
        key = st.key() + ("p" if st.pending else "")
        hit = self.table.get(key)
        if hit and hit[0] >= depth and hit[1] >= beta:
            return hit[1]
        moves = core.gen_actions(st)
        moves.sort(key=lambda m: (m != (hit[2] if hit else None), m[0] != core.TAME))
        best_move = None
        for m in moves:
            nxt = st.copy()
            core.apply(nxt, m)
            if nxt.over:
                val = _score(nxt, side)
            elif nxt.turn == side:
                val = (
                    self.negamax(nxt, depth, alpha, beta)
                    if m[0] == core.TAME
                    else self.negamax(nxt, depth - 1, alpha, beta)
                )
            else:
                val = -self.negamax(nxt, depth - 1, -beta, -alpha)
            if val >= beta:
                self.table[key] = (depth, val, m)
                return beta
            if val > alpha:
                alpha, best_move = val, m
        self.table[key] = (depth, -BIG * 2, best_move)  # no cut: only the move is useful
        return alpha

    def choose(self, st: core.State) -> tuple:
        moves = core.gen_actions(st)
        choice = moves[0]
        try:
            for depth in range(1, 30):
                best, alpha = None, -BIG * 2
                for m in moves:
                    nxt = st.copy()
                    core.apply(nxt, m)
                    if nxt.over:
                        val = _score(nxt, st.turn)
                    elif nxt.turn == st.turn:
                        val = self.negamax(nxt, depth - 1, alpha, BIG * 2)
                    else:
                        val = -self.negamax(nxt, depth - 1, -BIG * 2, -alpha)
                    if val > alpha:
                        alpha, best = val, m
                choice = best or choice
                moves.remove(choice)
                moves.insert(0, choice)
        except _OutOfTime:
            pass
        return choice


def reference_action(game: NineSonsGame, seconds: float, seed: int) -> str:
    st = game.st.copy()
    deck = list(st.deck)
    random.Random(seed).shuffle(deck)
    st.deck = deck
    return action_to_str(Reference(seconds).choose(st), st.pending)


def match(level: str, games: int, first: int = 0) -> dict[str, Any]:
    score = 0.0
    ai_times: list[float] = []
    ref_times: list[float] = []
    for i in range(first, first + games):
        game_cpu = time.process_time()
        players = ["p1", "p2"]
        ai_seat = players[i % 2]
        g = new_game(players, 50_000 + i // 2, first_player="first")
        mine: list[float] = []
        while not g.is_over:
            who = g.to_act()[0]
            t = time.process_time()
            if who == ai_seat:
                act = choose_action(g, who, level, i * 1000 + len(g.log))
                mine.append(time.process_time() - t)
            else:
                act = reference_action(g, sum(mine) / len(mine) if mine else 1.0, i * 1000 + len(g.log))
                ref_times.append(time.process_time() - t)
            g.play(who, act)
        ai_times.extend(mine)
        res = g.result
        assert res is not None
        if len(res.ranking) == 1:
            score += 0.5
        elif res.winners == [ai_seat]:
            score += 1.0
        print(
            f"game {i + 1}: {level} {'won' if res.winners == [ai_seat] else 'did not win'} "
            f"({res.reason}, {len(mine)} moves, {time.process_time() - game_cpu:.0f} s CPU); "
            f"running {score}/{i + 1 - first}",
            flush=True,
        )
    lo, hi = wilson(score, games)
    return {
        "level": level,
        "games": games,
        "score": score / games,
        "wilson": [lo, hi],
        "ai_mean_s": sum(ai_times) / len(ai_times),
        "ai_median_s": statistics.median(ai_times),
        "ai_p99_s": pct(ai_times, 0.99),
        "reference_mean_s": sum(ref_times) / len(ref_times),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--level", default="expert")
    ap.add_argument(
        "--first", type=int, default=0, help="index of the first game (to split a match over processes)"
    )
    args = ap.parse_args(argv)
    r = match(args.level, args.games, args.first)
    print(
        f"{r['level']} vs reference at equal time: {100 * r['score']:.0f} % of {r['games']} games "
        f"[{100 * r['wilson'][0]:.0f}, {100 * r['wilson'][1]:.0f}]; mean s per move: "
        f"{r['level']} {r['ai_mean_s']:.2f} (median {r['ai_median_s']:.2f}, p99 {r['ai_p99_s']:.2f}), "
        f"reference {r['reference_mean_s']:.2f}"
    )
    return r


if __name__ == "__main__":
    main()
