"""The quick policies the Flagon levels share: facing, cards playable now, the easy plan, the
rollout policy, and the sampling of the others' hidden cards (medium's and hard's
determinisation). Apart from engine/flagon/ai.py so that hard (ai_threat) can use them without
an import cycle."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.base import copy_state
from engine.flagon import geometry as G
from engine.flagon.cards import deck_of, load_cards
from engine.flagon.game import FlagonGame
from engine.flagon.rules import Ctx, Rules

# Cards a player is happy to give away to a Daze (cheap, harmless when revealed later).
DAZE_PREFERENCE = ("move", "move2", "dash", "pickup", "riposte", "slash")


def daze_choice(acts: list[str], rnd: random.Random) -> str:
    """The card given away to a Daze: the cheapest harmless one held."""
    for c in DAZE_PREFERENCE:
        hit = [a for a in acts if a.endswith(":" + c)]
        if hit:
            return hit[0]
    return rnd.choice(acts)


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
        return daze_choice(acts, random.Random(rnd.randrange(1 << 30)))
    return rnd.choice(acts)


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
    s = copy_state(game.s)
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
    g = FlagonGame(copy_state(base))
    try:
        g._run(pend["char"], choices, 0, copy_state(base))
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


def _acted(g: FlagonGame, cid: str) -> int:
    """How many actions ``cid`` has completed."""
    return int(g.s["chars"][cid]["actions"])


def play_out(
    g: FlagonGame, policy: Callable[[str], str], done: Callable[[FlagonGame], bool], limit: int
) -> None:
    """Play ``g`` on, in place, with ``policy`` choosing each answer, until the game ends,
    ``done`` says so, nobody is to act, or ``limit`` answers were given."""
    for _ in range(limit):
        if g.is_over or done(g):
            return
        to_act = g.to_act()
        if not to_act:
            return
        try:
            g._apply(to_act[0], policy(to_act[0]))
        except RuntimeError:  # a sampled position that cannot replay an old answer: stop here
            return
