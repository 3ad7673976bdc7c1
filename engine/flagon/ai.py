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
from engine.flagon import ai_threat
from engine.flagon.ai_policies import (
    _acted,
    _determinize,
    _face,
    _plan_easy,
    _quick,
    _usable,
    daze_choice,
    play_out,
)
from engine.flagon.game import FlagonGame

# The characters easy and medium take first while they are free.
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
        return daze_choice(acts, rnd)
    if level == "hard":
        return ai_threat.choose(game, player, acts, rnd)
    if verb in ("face", "turn"):
        return _face(game, acts, rnd)
    if verb == "plan":
        if level == "easy":
            return _plan_easy(game, acts, rnd)
        return _plan_mc(game, player, acts, rnd, SAMPLES)
    return _choice_mc(game, player, acts, rnd, SAMPLES)


# ---------------------------------------------------------------- quick policies
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


def _rollout(g: FlagonGame, player: str, rnd: random.Random, done: Any) -> float:
    play_out(g, lambda p: _quick(g, p, rnd), done, ROLLOUT_LIMIT)
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
