"""Computer players for The Dragon & Flagon: three levels that differ in kind.

* ``easy``: plans cards whose requirements hold right now and answers choices at random.
* ``medium``: Monte Carlo. Every candidate card is tried in copies of the game where the
  opponents' hidden cards are *replaced by samples* from what they could have planned (the AI
  never looks at real hidden plans), the step is played out with quick policies, and the card
  with the best average reputation balance is planned. Choices while a card resolves are scored
  by playing the rest of the activation out for each option. It turns to the nearest enemy.
* ``hard`` (engine/flagon/ai_threat.py): positions scored by threats (what every character's
  next card would take from where it stands) and time left, the others' hidden cards sampled
  from an opponent model (the hit that is on), turning to feed its next card, and picking the
  characters that win most.

``expert`` was a fourth level until issue 28's ladder measured it no stronger than ``hard`` (both
were medium with more samples then); a saved game or lobby seat that names it plays ``hard``
(:data:`LEVEL_ALIASES`). Every level is deterministic for a seed (no clock is read).
"""

from __future__ import annotations

import random
from typing import Any

from engine.base import Game
from engine.flagon import geometry as G
from engine.flagon.cards import deck_of, load_cards
from engine.flagon.game import FlagonGame, _clone
from engine.flagon.rules import Ctx, Rules

# Cards a player is happy to give away to a Daze (cheap, harmless when revealed later).
DAZE_PREFERENCE = ("move", "move2", "dash", "pickup", "riposte", "slash")
CHAR_PREFERENCE = ("thras", "asma", "goodheart", "montero", "margalo", "teo", "nari", "tuuli", "jack")
# Hard takes the characters that won most in AI games (Asma's ranged spells, Montero's
# one-time Witty Retort) while they are free.
HARD_CHAR_PREFERENCE = ("asma", "montero", "thras", "goodheart", "margalo", "teo", "nari", "tuuli", "jack")
SAMPLES = 2  # medium's samples per candidate card
LEVEL_ALIASES = {"expert": "hard"}  # a level that was removed -> the level that plays it now
ROLLOUT_LIMIT = 80


def choose_action(game: Game, player: str, level: str, seed: int) -> str:
    """Return one member of ``game.legal_actions(player)``."""
    assert isinstance(game, FlagonGame)
    acts = game.legal_actions(player)
    if not acts:
        raise ValueError("no legal action")
    if len(acts) == 1:
        return acts[0]
    level = LEVEL_ALIASES.get(level, level)
    rnd = random.Random(seed)
    verb = acts[0].split(":", 1)[0]
    if verb == "char":
        for c in HARD_CHAR_PREFERENCE if level == "hard" else CHAR_PREFERENCE:
            if f"char:{c}" in acts:
                return f"char:{c}"
    if verb in ("start", "slide", "barrel", "preface") or (
        level == "easy" and verb not in ("plan", "daze", "face")
    ):
        return rnd.choice(acts)
    if verb == "daze":
        for c in DAZE_PREFERENCE:
            hit = [a for a in acts if a.endswith(":" + c)]
            if hit:
                return hit[0]
        return rnd.choice(acts)
    if level == "hard":
        from engine.flagon import ai_threat

        return ai_threat.choose(game, player, acts, rnd)
    if verb in ("face", "turn"):
        return _face(game, acts, rnd)
    if verb == "plan":
        if level == "easy":
            return _plan_easy(game, acts, rnd)
        return _plan_mc(game, player, acts, rnd, SAMPLES)
    return _choice_mc(game, player, acts, rnd, SAMPLES)


# ---------------------------------------------------------------- quick policies
def _face(game: FlagonGame, acts: list[str], rnd: random.Random) -> str:
    """Face the nearest enemy (or the Flagon if nobody is near)."""
    cid = acts[0].split(":")[1]
    s = game.s
    me = G.parse(s["chars"][cid]["pos"])
    r = Rules(s, Ctx([]))
    foes = [G.parse(c["pos"]) for k, c in s["chars"].items() if k != cid and not r.friends(k, cid)]
    target = min(foes, key=lambda q: abs(q[0] - me[0]) + abs(q[1] - me[1])) if foes else G.parse(s["centre"])
    want = f"{acts[0].rsplit(':', 1)[0]}:{G.facing_towards(me, target)}"
    return want if want in acts and target != me else rnd.choice(acts)


def _usable(game: FlagonGame, acts: list[str]) -> list[str]:
    """The plan actions whose card could be performed if revealed right now."""
    r = Rules(game.s, Ctx([]))
    cards = load_cards()
    out = []
    for a in acts:
        _, cid, _, card_id = a.split(":")
        card = cards[card_id]
        if game.s["chars"][cid]["prone"] and card["purple"]:
            continue
        if r.requirement_unmet(cid, card) is None:
            out.append(a)
    return out


def _plan_easy(game: FlagonGame, acts: list[str], rnd: random.Random) -> str:
    cid = acts[0].split(":")[1]
    mine = [a for a in acts if a.split(":")[1] == cid]
    return rnd.choice(_usable(game, mine) or mine)


def _quick(game: FlagonGame, player: str, rnd: random.Random) -> str:
    """The rollout policy: sensible-ish and fast."""
    acts = game.legal_actions(player)
    if len(acts) == 1:
        return acts[0]
    verb = acts[0].split(":", 1)[0]
    if verb == "plan":
        return _plan_easy(game, acts, rnd)
    if verb in ("face", "turn"):
        return _face(game, acts, rnd)
    if verb == "daze":
        return choose_action(game, player, "medium", rnd.randrange(1 << 30))
    return rnd.choice(acts)


# ---------------------------------------------------------------- evaluation
def _score(game: FlagonGame, player: str) -> float:
    sides = game.side_scores()
    mine = game.side_of(player)
    others = [v for k, v in sides.items() if k != mine] or [0]
    val = sides.get(mine, 0) - 0.5 * max(others) - 0.5 * sum(others) / len(others)
    for c in game.s["chars"].values():
        sign = 1 if game.side_of(c["owner"]) == mine else -0.3
        if c["held"] in ("flagon", "cookies"):
            val += 1.0 * sign
        if c["prone"]:
            val -= 0.7 * sign
    return val


def _weighted_order(pool: list[str], weight: dict[str, float], rnd: random.Random) -> list[str]:
    """``pool`` in a random order where heavier cards tend to come first (weighted sampling
    without replacement: each card's key is u ** (1 / w))."""
    keyed = [(rnd.random() ** (1.0 / max(1e-6, weight.get(k, 1.0))), k) for k in pool]
    return [k for _, k in sorted(keyed, reverse=True)]


def _determinize(
    game: FlagonGame,
    player: str,
    rnd: random.Random,
    weights: dict[str, dict[str, float]] | None = None,
) -> FlagonGame:
    """A copy in which every hidden card of the other players is replaced by a plausible sample.

    Mid-card (a question with a replay snapshot) the snapshot is determinized instead, the other
    players' private answers so far (Daze cards) are replaced by samples too, and the activation
    is replayed to rebuild the current position, so nothing hidden survives in the copy.
    """
    s = _clone(game.s)
    pend = s["pending"]
    replay = bool(pend and "snap" in pend)
    base = pend["snap"] if replay else s
    acting = pend["char"] if replay else None
    revealed = {a.split(":")[2] for a in (pend["choices"] if replay else []) if a.startswith("vision:")}
    spare: dict[str, list[str]] = {}
    for cid, c in base["chars"].items():
        if c["owner"] == player:
            continue
        slots = c["slots"]
        keep = slots[:1] if cid == acting else []  # the card being resolved is face up
        public = set(c["faceup"]) | set(c["removed"]) | set(c["mat"]) | set(keep) | revealed
        pool = [k for k in deck_of(cid) if k not in public and k != c.get("playing")]
        rnd.shuffle(pool)
        if weights is not None and not replay and cid in weights:  # hard's opponent model
            pool = _weighted_order(pool, weights[cid], rnd)
        n = len(slots) - len(keep)
        c["slots"] = keep + pool[:n]
        spare[cid] = pool[n:]
    if not replay:
        return FlagonGame(s)
    choices = []
    for a in pend["choices"]:
        verb, cid, arg = a.split(":")
        if verb == "daze" and base["chars"][cid]["owner"] != player and spare.get(cid):
            arg = spare[cid].pop(0)
        choices.append(f"{verb}:{cid}:{arg}")
    g = FlagonGame(_clone(base))
    try:
        g._run(pend["char"], choices, 0, _clone(base))
        again = g.s["pending"]
        if again and again["player"] == pend["player"] and again["options"] == pend["options"]:
            return g
    except RuntimeError:
        pass
    # An answer no longer fits the sampled position (rare): hide what is visible in the copy as it stands.
    for cid, c in s["chars"].items():
        if c["owner"] != player and cid in spare:
            c["slots"] = (spare[cid] + list(base["chars"][cid]["slots"]))[: len(c["slots"])]
    return FlagonGame(s)


def _rollout(g: FlagonGame, player: str, rnd: random.Random, done: Any) -> float:
    for _ in range(ROLLOUT_LIMIT):
        if g.is_over or done(g):
            break
        ta = g.to_act()
        if not ta:
            break
        p = ta[0]
        try:
            g._apply(p, _quick(g, p, rnd))
        except RuntimeError:  # a sampled position that cannot replay an old answer: stop here
            break
    return _score(g, player)


def _plan_mc(game: FlagonGame, player: str, acts: list[str], rnd: random.Random, samples: int) -> str:
    cid = acts[0].split(":")[1]
    mine = [a for a in acts if a.split(":")[1] == cid]
    cands = _usable(game, mine) or mine
    slot = int(mine[0].split(":")[2])
    target = (
        _acted(game, cid) + slot
    )  # the candidate is performed at this character's slot-th action from now

    def done(g: FlagonGame) -> bool:
        return _acted(g, cid) >= target

    best, best_val = cands[0], -1e9
    seeds = [rnd.randrange(1 << 30) for _ in range(samples)]
    for a in cands:
        total = 0.0
        for sd in seeds:
            r2 = random.Random(sd)
            g = _determinize(game, player, r2)
            try:
                g._apply(player, a)
            except RuntimeError:
                continue
            total += _rollout(g, player, r2, done)
        val = total / samples + rnd.random() * 1e-3
        if val > best_val:
            best, best_val = a, val
    return best


def _acted(g: FlagonGame, cid: str) -> int:
    """How many actions ``cid`` has completed."""
    return int(g.s["chars"][cid]["actions"])


def _choice_mc(game: FlagonGame, player: str, acts: list[str], rnd: random.Random, samples: int = 2) -> str:
    acting = game.s["pending"]["char"] if game.s["pending"] else None
    if acting is None:
        return rnd.choice(acts)
    opts = acts if len(acts) <= 12 else rnd.sample(acts, 12)
    start = _acted(game, acting)
    best, best_val = opts[0], -1e9
    for a in opts:
        total = 0.0
        for k in range(samples):
            r2 = random.Random(k * 7919 + len(a))
            g = _determinize(game, player, r2)
            try:
                g._apply(player, a)
            except RuntimeError:
                continue
            total += _rollout(g, player, r2, lambda g2: _acted(g2, acting) > start)
        if total > best_val:
            best, best_val = a, total
    return best
