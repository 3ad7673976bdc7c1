"""Dragon Farkle's two-player win probability: the ``expert`` level's shipped table.

Solved offline (``python -m bench.farkle_winprob``, value iteration over both armies, the turn
bank and the dice left; see that module) and read here with no numpy. Armies are in steps of
50 soldiers up to :data:`A_MAX`. For the player about to start a turn with army ``m`` against an
opponent with ``o`` the table holds

* ``lose(m, o)``: the chance that player loses (both playing this policy);
* ``action(m, o)``: recruit, the Final Battle, or a Brawl rolling to one of
  :data:`BRAWL_TARGETS`;
* for every Recruit state (``n`` dice to roll, ``t`` banked) whether to stop: exactly when
  stopping loses no more often than rolling on.

With three or more players the AI plays against the leader among the others (the one most
likely to win before it), which is this table's "opponent".
"""

from __future__ import annotations

import json
import zlib
from array import array
from functools import lru_cache
from pathlib import Path

STEP = 50
A_MAX = 7000
N = A_MAX // STEP + 1
TABLE_PATH = Path(__file__).with_name("data") / "expert_winprob.bin"
SCALE = 65535
RECRUIT, BATTLE = 0, 1
BRAWL_TARGETS = (6, 10, 14, 20, 30, 40, 50)  # attack scores to roll for, in steps (300 .. 2,500)


def encode(lose: list[list[float]], action: list[list[int]], stop_bits: bytes) -> bytes:
    """The shipped blob: a JSON header, ``lose`` as uint16 (1/65535), actions, stop bits."""
    header = json.dumps({"step": STEP, "a_max": A_MAX, "targets": BRAWL_TARGETS}).encode()
    q = array("H", (round(min(max(v, 0.0), 1.0) * SCALE) for row in lose for v in row))
    acts = bytes(a for row in action for a in row)
    body = len(header).to_bytes(4, "little") + header + q.tobytes() + acts + stop_bits
    return zlib.compress(body, 9)


class WinTable:
    def __init__(self, blob: bytes) -> None:
        body = zlib.decompress(blob)
        hlen = int.from_bytes(body[:4], "little")
        meta = json.loads(body[4 : 4 + hlen])
        if meta["step"] != STEP or meta["a_max"] != A_MAX:
            raise ValueError("the Farkle win table was solved for another grid")
        pos = 4 + hlen
        self.lose_q = array("H")
        self.lose_q.frombytes(body[pos : pos + 2 * N * N])
        pos += 2 * N * N
        self.actions = body[pos : pos + N * N]
        self.bits = body[pos + N * N :]
        self.offsets = []
        total = 0
        for m in range(N):
            self.offsets.append(total)
            total += N * 6 * (N - m)

    @staticmethod
    def steps(army: int) -> int:
        return min(max(army, 0), A_MAX) // STEP

    def lose(self, mine: int, theirs: int) -> float:
        """P(the player to start a turn with ``mine`` loses to one with ``theirs``)."""
        return self.lose_q[self.steps(mine) * N + self.steps(theirs)] / SCALE

    def after_turn(self, mine: int, theirs: int) -> float:
        """P(lose) for a player whose turn ends with ``mine``, the opponent to move next."""
        return 1.0 - self.lose(theirs, mine)

    def action(self, mine: int, theirs: int) -> tuple[str, int]:
        """``("recruit", 0)``, ``("battle", 0)`` or ``("brawl", target soldiers)``."""
        a = self.actions[self.steps(mine) * N + self.steps(theirs)]
        if a == RECRUIT:
            return ("recruit", 0)
        if a == BATTLE:
            return ("battle", 0)
        return ("brawl", BRAWL_TARGETS[a - 2] * STEP)

    def should_stop(self, mine: int, theirs: int, n: int, banked: int) -> bool:
        """In a Recruit turn begun with ``mine``: stop now with ``banked`` and ``n`` dice to roll?"""
        m, o, i = self.steps(mine), self.steps(theirs), max(banked, 0) // STEP
        top = N - 1 - m
        if i > top:
            return True
        k = self.offsets[m] + (o * 6 + (n - 1)) * (top + 1) + i
        return bool(self.bits[k >> 3] >> (k & 7) & 1)


@lru_cache(maxsize=1)
def shipped() -> WinTable:
    return WinTable(TABLE_PATH.read_bytes())
