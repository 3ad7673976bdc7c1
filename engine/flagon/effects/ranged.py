"""Effects at a distance: throwing what you hold, rays, the Hand Cannon, Arc Lightning and the
Cannon Barrage (which lands at its caller's next activation, see ``rules.activation``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.flagon import geometry as G
from engine.flagon.board import PRIZES
from engine.flagon.effects.registry import effect
from engine.flagon.geometry import Sq

if TYPE_CHECKING:
    from engine.flagon.cards import Card
    from engine.flagon.rules import Rules


@effect("throw")
def throw(r: Rules, cid: str, card: Card) -> None:
    c = r.ch(cid)
    item = c["held"]
    kind = "chair" if item == "chair" else "mug"
    rng = card[f"{kind}_range"] if kind == "chair" else 0
    me = r.pos(cid)
    hits: dict[str, tuple[str, Sq]] = {}
    # RB: "You may deliberately throw a mug or chair at the familiar, and it will be removed."
    # Our reading: the Familiar is one more thing you may aim at (answer "familiar"); it neither
    # blocks the line nor must be hit. Option ``familiar_blocks``: it stops the throw on its line.
    blocks = r.s["options"].get("familiar_blocks", False)
    for rel in card.rays:
        d = G.rel_dir(c["facing"], rel)
        hit = r.first_on_ray(me, d, rng, cid, familiar=True)
        if hit and hit[0] == "@familiar" and not blocks:
            hits["familiar"] = hit
            hit = r.first_on_ray(me, d, rng, cid)
        if hit:
            hits[G.DIR8_NAME[d]] = hit
    pick = r.ctx.ask(r.owner(cid), "dir", cid, list(hits)) if hits else None
    c["held"] = None
    if item in PRIZES:
        r.s["prizes"][item] = r.s["centre"]
    r.emit(f"{r.label(cid)} throws the {item}" + (f" {pick}." if pick else " at nothing."), kind="throw")
    if item in PRIZES:
        r.emit(f"The {item.title()} returns to the centre.", kind="prize")
    if pick is None:
        return
    t = hits[pick][0]
    if t == "@familiar":
        r.s["familiar"] = None
        r.emit("The Familiar is hit and removed.")
        return
    kb = G.DIR8[pick] if card["knockback"] else None
    r.strike(
        cid, t, card, rep=card[f"{kind}_rep"], daze=card[f"{kind}_daze"], fall=card[f"{kind}_fall"], kb=kb
    )


@effect("ray")
def ray(r: Rules, cid: str, card: Card) -> None:
    p, f = r.spell_origin(cid, card)
    hits: dict[str, tuple[str, Sq]] = {}
    for rel in card.rays:
        d = G.rel_dir(f, rel)
        hit = r.first_on_ray(p, d, card["range"], cid)
        if hit:
            hits[G.DIR8_NAME[d]] = hit
    if not hits:
        r.emit(f"{card.name} has no target.")
        return
    pick = r.ctx.ask(r.owner(cid), "dir", cid, list(hits))
    t = hits[pick][0]
    res = r.strike(cid, t, card)
    if card.id == "daggerang" and res == "hit":
        r.dest = "removed"
        r.emit("The Daggerang stays stuck in its target: the card leaves the game.")


@effect("hand_cannon")
def hand_cannon(r: Rules, cid: str, card: Card) -> None:
    c = r.ch(cid)
    if not c["loaded"]:
        c["loaded"] = True
        r.emit(f"{r.label(cid)} reloads the Hand Cannon.")
        return
    c["loaded"] = False
    hit = r.first_on_ray(r.pos(cid), G.rel_dir(c["facing"], card.rays[0]), card["range"], cid)
    r.emit(f"{r.label(cid)} fires the Hand Cannon" + ("." if hit else " and misses."))
    if hit:
        r.strike(cid, hit[0], card, kb=G.rel_dir(c["facing"], card.rays[0]))


@effect("arc_lightning")
def arc_lightning(r: Rules, cid: str, card: Card) -> None:
    origin = r.spell_origin(cid, card)
    pool = r.chars_in(r.board_squares(cid, card.squares, origin), exclude=cid)
    hit: list[str] = []
    while pool:
        t = r.ctx.ask(r.owner(cid), "target", cid, pool)
        first = not hit
        hit.append(t)
        r.strike(cid, t, card, rep=card["rep"] if first else card["rep_chain"], boost=first)
        pool = [o for o in r.chars_in([(r.pos(t)[0] + x, r.pos(t)[1] + y) for x, y in G.PATTERNS["ADJ8"]], exclude=cid)
                if o not in hit]  # fmt: skip
    if not hit:
        r.emit("Arc Lightning finds no target.")


@effect("cannon_barrage")
def cannon_barrage(r: Rules, cid: str, card: Card) -> None:
    opts = [G.name((x, y)) for x in range(r.w) for y in range(r.h)]
    pick = r.ctx.ask(r.owner(cid), "at", cid, opts)
    r.s["barrage"] = {"at": pick, "owner": cid}
    r.emit(f"{r.label(cid)} calls a Cannon Barrage on {pick}.", kind="barrage")
