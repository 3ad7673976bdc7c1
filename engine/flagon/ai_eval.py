"""A position evaluation for the Flagon AI that knows threats, not only reputation.

Flagon is a game of the *next* card: a character's next card is revealed from where it stands
and the way it faces now (the facing is chosen at the end of its previous action). So the value
of a position is the reputation balance plus what every character's next card would take if it
were revealed now: :func:`card_gain` plays the card out on a copy (answering its own questions by
trying them, up to a few leaves), and :func:`evaluate` adds my characters' gains and subtracts the
others'. A character with nothing planned yet is scored by a cheap stand-in (how many enemies its
best facing puts in front of it).

Pure functions of the state: no clock, no randomness.
"""

from __future__ import annotations

from typing import Any

from engine.base import copy_state
from engine.flagon import geometry as G
from engine.flagon.cards import load_cards
from engine.flagon.game import FlagonGame
from engine.flagon.rules import PRIZES, Ctx, NeedChoice, Rules

HELD_PRIZE = 1.5  # holding the Flagon: a Dragon card in the deck (dropped on any loss)
PRONE = 1.0  # a prone character's purple card is cancelled
THREAT = 0.5  # a next card is worth about half its take: others move before it is revealed
OPEN = 1.0  # per enemy in the front squares of a character with nothing planned (a Slash is 2)
TEMPO = 0.6  # per time space a character has left before the expected end: one more action's worth
LEAVES = 6  # answered activations tried per card
FRONT3 = G.PATTERNS["FRONT3"]
# Cards that move reputation only by where the character ends up: scored by the position, not played out.
POSITIONAL = frozenset(("move", "dash", "leap", "shadow_step", "familiar"))


def side_balance(s: dict[str, Any], side: str, sides: dict[str, str]) -> float:
    """Reputation of ``side`` against the others (the leader and the average count half each),
    plus the Flagon and falls."""
    scores: dict[str, float] = {}
    for c in s["chars"].values():
        k = sides[c["owner"]]
        scores[k] = scores.get(k, 0.0) + c["rep"]
    others = [v for k, v in scores.items() if k != side] or [0.0]
    val = scores.get(side, 0.0) - 0.5 * max(others) - 0.5 * sum(others) / len(others)
    for c in s["chars"].values():
        sign = 1.0 if sides[c["owner"]] == side else -1.0 / len(others)
        if c["held"] in PRIZES:
            val += HELD_PRIZE * sign
        if c["prone"]:
            val -= PRONE * sign
    return val


def sides_of(game: FlagonGame) -> dict[str, str]:
    return {p: game.side_of(p) for p in game.players}


def card_gain(s: dict[str, Any], cid: str, sides: dict[str, str], facing: str | None = None) -> float:
    """What ``cid``'s next planned card takes if revealed now (with ``facing``, else its own),
    for its side, the card's own choices made as well as :data:`LEAVES` tries allow."""
    c0 = s["chars"][cid]
    if not c0["slots"]:
        return 0.0
    card = c0["slots"][0]
    if load_cards()[card].effect in POSITIONAL:
        return 0.0
    owner = c0["owner"]
    side = sides[owner]
    # Every reveal stands a prone character up; that is not the card's doing.
    before = side_balance(s, side, sides) + (PRONE if c0["prone"] else 0.0)
    best: float | None = None
    stack: list[list[str]] = [[]]
    tried = 0
    while stack and tried < LEAVES:
        choices = stack.pop()
        st = copy_state(s)
        if facing is not None:
            st["chars"][cid]["facing"] = facing
        st["pending"] = None
        try:
            Rules(st, Ctx(choices)).perform(cid)
        except NeedChoice as q:
            opts = q.options if q.player == owner else q.options[:1]
            stack.extend([*choices, o] for o in reversed(opts))
            continue
        except RuntimeError:
            continue
        tried += 1
        v = side_balance(st, side, sides) - before
        best = v if best is None else max(best, v)
    return best or 0.0


def open_front(s: dict[str, Any], cid: str, sides: dict[str, str], facing: str | None = None) -> int:
    """Enemies in the front squares of ``cid`` (with ``facing``, else its own)."""
    c = s["chars"][cid]
    me = G.parse(c["pos"])
    f = facing or c["facing"]
    squares = {G.name(G.to_board(me, f, rel)) for rel in FRONT3}
    side = sides[c["owner"]]
    return sum(1 for o in s["chars"].values() if o["pos"] in squares and sides[o["owner"]] != side)


def next_take(s: dict[str, Any], cid: str, sides: dict[str, str], facing: str | None = None) -> float:
    """What ``cid``'s next action takes: its planned card played out, or with nothing planned,
    the enemies in its front squares."""
    if s["chars"][cid]["slots"]:
        return card_gain(s, cid, sides, facing)
    return OPEN * open_front(s, cid, sides, facing)


def best_facing(s: dict[str, Any], cid: str, sides: dict[str, str]) -> tuple[str, float]:
    """The facing that gives ``cid``'s next card (or, with nothing planned, its front squares)
    the most, and that value."""
    best, best_val = s["chars"][cid]["facing"], -1e9
    for f in G.FACINGS:
        v = next_take(s, cid, sides, f)
        if v > best_val + 1e-9:
            best, best_val = f, v
    return best, best_val


def expected_end(s: dict[str, Any]) -> float:
    """Where the Town Guard is expected: the mean of the Game End tokens not yet revealed
    (which one is the Guard is hidden)."""
    left = [t["space"] for t in s["game_end"] if not t["revealed"]]
    return sum(left) / len(left) if left else float(s["marker"])


def evaluate(game: FlagonGame, player: str) -> float:
    """The balance for ``player``'s side plus the threats of every character's next card and
    the time each has left before the expected end (a cheap card is a sooner next action)."""
    s = game.s
    sides = sides_of(game)
    mine = sides[player]
    val = side_balance(s, mine, sides)
    n_sides = len(set(sides.values()))
    end = expected_end(s)
    for cid, c in s["chars"].items():
        own = sides[c["owner"]] == mine
        g = THREAT * next_take(s, cid, sides) + TEMPO * max(0.0, end - c["token"])
        # Another side's take is my loss only in part when several sides share the table.
        val += g if own else -g / max(1, n_sides - 1)
    return val
