"""The Flagon ``hard`` level: determinised Monte Carlo scored by threats, with a facing policy.

What medium (and the old hard and expert, medium with more samples) misses, read from their
games: a position is scored only by reputation at the moment the planned card resolves, so a Move
is worth nothing and its destination is picked by the order of the options; the free facing
change always turns to the nearest enemy, whatever the next card needs (a Slash, a Charge two
squares ahead, a Throw along a ray), so many attacks hit nobody.
Hard instead

* scores a position with :func:`engine.flagon.ai_eval.evaluate`: the balance plus what every
  character's next card would take from where it stands now (mine added, the others' subtracted);
* turns, after each action, to the facing that gives its next card the most (played out on a
  copy), in its own decisions and for its own side in its rollouts;
* plans by determinised rollouts, the others' hidden cards sampled from an opponent model
  (:func:`opponent_model`: the card that would hit now is the likely one), each candidate scored
  by that evaluation once the candidate has been performed;
* picks Asma and Montero first when characters are chosen (engine/flagon/ai.py).

Deterministic for a seed; budgeted by samples, not by the clock.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.flagon import ai_eval as E
from engine.flagon import geometry as G
from engine.flagon.ai_policies import _acted, _determinize, _face, _quick, _usable, play_out
from engine.flagon.cards import deck_of, load_cards
from engine.flagon.game import FlagonGame
from engine.flagon.rules import Ctx, Rules

# Budgets in rollouts, not seconds: a rollout's cost grows with the characters at the table.
PLAN_ROLLOUT_CHARS = 28  # samples per plan candidate = this // characters (7 with 4, 3 with 8)
CHOICE_SAMPLES = 3
MAX_CANDIDATES = 10
ROLLOUT_LIMIT = 60


def choose(game: FlagonGame, player: str, acts: list[str], rnd: random.Random) -> str:
    """Hard's answer to any question with more than one option."""
    verb = acts[0].split(":", 1)[0]
    pend = game.s["pending"]
    if verb == "face" and pend and pend.get("after"):
        return _turn(game, acts, rnd)
    if verb == "plan":
        return _plan(game, player, acts, rnd)
    return _choice(game, player, acts, rnd)


def _turn(game: FlagonGame, acts: list[str], rnd: random.Random) -> str:
    """The free facing change: what the next card takes from here, the nearest enemy on ties."""
    cid = acts[0].split(":")[1]
    sides = E.sides_of(game)
    default = _face(game, acts, rnd).rsplit(":", 1)[1]
    s = game.s
    if not s["chars"][cid]["slots"]:
        f, v = E.best_facing(s, cid, sides)
        return f"face:{cid}:{f if v > 0 else default}"
    best, best_val = default, E.card_gain(s, cid, sides, default)
    for f in G.FACINGS:
        if f == default:
            continue
        v = E.card_gain(s, cid, sides, f)
        if v > best_val + 1e-9:
            best, best_val = f, v
    return f"face:{cid}:{best}"


def opponent_model(game: FlagonGame, player: str) -> dict[str, dict[str, float]]:
    """How likely each other character is to hold each card: a card it could perform now weighs
    1 plus twice what it would take if revealed now from where it stands (a club player plans
    the hit that is on), a card it could not perform now almost nothing."""
    s = game.s
    sides = E.sides_of(game)
    r = Rules(s, Ctx([]))
    cards = load_cards()
    out: dict[str, dict[str, float]] = {}
    for cid, c in s["chars"].items():
        if c["owner"] == player or not c["slots"]:
            continue
        w: dict[str, float] = {}
        for k in deck_of(cid):
            card = cards[k]
            if (c["prone"] and card["purple"]) or r.requirement_unmet(cid, card) is not None:
                w[k] = 0.05
                continue
            probe = {**s, "chars": {**s["chars"], cid: {**c, "slots": [k]}}}
            w[k] = 1.0 + 2.0 * max(0.0, E.card_gain(probe, cid, sides))
        out[cid] = w
    return out


def _policy(g: FlagonGame, p: str, rnd: random.Random, me: str) -> str:
    """The rollout policy: plausible random plans; my side turns to feed its next card, the
    others to the nearest enemy, as medium and hard do."""
    pend = g.s["pending"]
    if pend and pend.get("after") and g.side_of(p) == g.side_of(me) and len(pend["options"]) > 1:
        return _turn(g, list(pend["options"]), rnd)
    return _quick(g, p, rnd)


def _rollout(g: FlagonGame, player: str, rnd: random.Random, done: Callable[[FlagonGame], bool]) -> float:
    play_out(g, lambda p: _policy(g, p, rnd, player), done, ROLLOUT_LIMIT)
    if g.is_over:  # the end: only reputation counts, no threats are left
        sides = E.sides_of(g)
        return E.side_balance(g.s, sides[player], sides)
    return E.evaluate(g, player)


def _plan(game: FlagonGame, player: str, acts: list[str], rnd: random.Random) -> str:
    cid = acts[0].split(":")[1]
    mine = [a for a in acts if a.split(":")[1] == cid]
    cands = _usable(game, mine) or mine
    if len(cands) > MAX_CANDIDATES:
        cands = sorted(rnd.sample(cands, MAX_CANDIDATES))
    slot = int(mine[0].split(":")[2])
    target = _acted(game, cid) + slot

    def done(g: FlagonGame) -> bool:
        return _acted(g, cid) >= target

    model = opponent_model(game, player)
    samples = max(2, PLAN_ROLLOUT_CHARS // len(game.s["chars"]))
    seeds = [rnd.randrange(1 << 30) for _ in range(samples)]
    best, best_val = cands[0], -1e9
    for a in cands:
        total = 0.0
        for sd in seeds:
            r2 = random.Random(sd)
            g = _determinize(game, player, r2, model)
            try:
                g._apply(player, a)
            except RuntimeError:
                continue
            total += _rollout(g, player, r2, done)
        val = total / len(seeds) + rnd.random() * 1e-3
        if val > best_val:
            best, best_val = a, val
    return best


def _choice(game: FlagonGame, player: str, acts: list[str], rnd: random.Random) -> str:
    """A question while a card resolves: each option played out to the end of the activation,
    the position then scored with its threats."""
    acting = game.s["pending"]["char"] if game.s["pending"] else None
    if acting is None:
        return rnd.choice(acts)
    opts = acts if len(acts) <= 12 else sorted(rnd.sample(acts, 12))
    start = _acted(game, acting)
    model = opponent_model(game, player)
    best, best_val = opts[0], -1e9
    for a in opts:
        total = 0.0
        for k in range(CHOICE_SAMPLES):
            r2 = random.Random(k * 7919 + 17)
            g = _determinize(game, player, r2, model)
            try:
                g._apply(player, a)
            except RuntimeError:
                continue
            total += _rollout(g, player, r2, lambda g2: _acted(g2, acting) > start)
        val = total + rnd.random() * 1e-3
        if val > best_val:
            best, best_val = a, val
    return best
