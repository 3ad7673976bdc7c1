"""Hand-to-hand effects: area and single-target attacks, Riposte, Shove, pulls and the character
specials built on them (God Smack, Radiance, Arise, Blade Waltz, Lure of the Sea)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.flagon import geometry as G
from engine.flagon.effects.registry import effect
from engine.flagon.geometry import FACINGS, STEP

if TYPE_CHECKING:
    from engine.flagon.cards import Card
    from engine.flagon.rules import Rules


@effect("area")
def area(r: Rules, cid: str, card: Card) -> None:
    targets = r.chars_in(r.board_squares(cid, card.squares), exclude=cid)
    hits = 0
    for t in r.order(cid, targets, card):
        if r.strike(cid, t, card) == "hit":
            hits += 1
    if not targets:
        r.emit(f"{card.name} hits nobody.")
    if card.id == "sword_dance" and hits:
        x, y = r.pos(cid)
        opts = [
            G.name(q) for q in [(x + dx, y + dy) for dx, dy in STEP.values()] if r.inb(q) and r.who(q) is None
        ]
        pick = r.ctx.ask(r.owner(cid), "to", cid, ["stay", *opts])
        if pick != "stay":
            r.place(cid, G.parse(pick), effect=False)
            r.emit(f"{r.label(cid)} dances to {pick}.", kind="move")
    if card.get("self_daze"):
        r.daze(cid, card["self_daze"])


@effect("flunge")
def flunge(r: Rules, cid: str, card: Card) -> None:
    r.place(cid, r.ahead(cid), effect=False)
    r.emit(f"{r.label(cid)} lunges to {G.name(r.pos(cid))}.", kind="move")
    area(r, cid, card)


@effect("single")
def single(r: Rules, cid: str, card: Card) -> None:
    origin = r.spell_origin(cid, card)
    targets = r.chars_in(r.board_squares(cid, card.squares, origin), exclude=cid)
    if not targets:
        r.emit(f"{card.name} finds no target.")
        return
    t = r.ctx.ask(r.owner(cid), "target", cid, targets)
    rep = card["rep"]
    if card.get("rep_behind") is not None:
        me, tc = r.pos(cid), r.ch(t)
        rel = G.to_rel(r.pos(t), tc["facing"], me)
        # Touch of Death: directly behind; Backstab: anywhere in the target's rear squares
        behind = rel == (0, -1) if card.id == "touch_of_death" else rel[1] == -1 and abs(rel[0]) <= 1
        rep = card["rep_behind"] if behind else card["rep"]
    if r.strike(cid, t, card, rep=rep) == "hit" and card.get("token_push"):
        push_token(r, t, card["token_push"])


def push_token(r: Rules, t: str, n: int) -> None:
    tc = r.ch(t)
    skipped = tc["token"] == r.s["marker"] and t not in r.s["acted"]
    r.s["seq"] += 1
    tc["token"] += n
    tc["seq"] = r.s["seq"]
    extra = " and loses its action this step" if skipped else ""
    r.emit(f"{r.label(t)}'s time token moves {n} forward{extra}.", kind="token", char=t)


@effect("riposte")
def riposte(r: Rules, cid: str, card: Card) -> int:
    t = r.ctx.ask(r.owner(cid), "time", cid, [str(x) for x in card["time"]])
    r.ch(cid)["riposte"] = True
    r.dest = "faceup"
    r.emit(f"{r.label(cid)} takes a Riposte stance for {t} time.")
    return int(t)


@effect("shove")
def shove(r: Rules, cid: str, card: Card) -> None:
    targets = [t for t in r.chars_in(r.board_squares(cid, card.squares), exclude=cid) if not r.ch(t)["prone"]]
    if not targets:
        r.emit("Shove finds no standing target.")
        return
    t = r.ctx.ask(r.owner(cid), "target", cid, targets)
    d = G.away(r.pos(cid), r.pos(t))
    start = r.pos(t)
    nxt = (start[0] + d[0], start[1] + d[1])
    moved = 0
    if not r.on_table(t) and r.table_at(nxt) is not None and not r.has(t, "earthbond"):
        k = nxt
        moved = 1
        while True:
            rider = r.who(k, exclude=t)
            if rider is not None or not r.inb(k) or r.table_at(k) is None:
                break
            k2 = (k[0] + d[0], k[1] + d[1])
            if not r.inb(k2):
                break
            k = k2
            moved += 1
        r.emit(f"{r.label(t)} skids across the table to {G.name(k)}.", kind="knockback")
        r.arrive(t, k, d, effect=True)
    else:
        r.knockback(t, d)
        moved = 1 if r.pos(t) != start else 0
    if moved:
        r.strike(cid, t, card, rep=card["rep"] * moved, kb=(0, 0))


@effect("god_smack")
def god_smack(r: Rules, cid: str, card: Card) -> None:
    targets = r.chars_in(r.board_squares(cid, card.squares), exclude=cid)
    if not targets:
        r.emit("God Smack finds no target.")
        return
    t = r.ctx.ask(r.owner(cid), "target", cid, targets)
    d = G.away(r.pos(cid), r.pos(t))
    r.transfer(t, cid, card["rep"])
    paid = {t}
    for _ in range(card["knockback"]):
        for o in r.knockback(t, d):
            if o not in paid:
                paid.add(o)
                r.transfer(o, cid, card["rep"])


@effect("radiance")
def radiance(r: Rules, cid: str, card: Card) -> None:
    me = r.pos(cid)
    front = set(G.PATTERNS["FRONT3"])
    for t in r.chars_in(r.board_squares(cid, card.squares), exclude=cid):
        tc = r.ch(t)
        if G.to_rel(r.pos(t), tc["facing"], me) in front:
            r.strike(cid, t, card)


@effect("arise")
def arise(r: Rules, cid: str, card: Card) -> None:
    for t in r.chars_in(r.board_squares(cid, card.squares), exclude=cid):
        tc = r.ch(t)
        if not tc["prone"]:
            continue
        tc["prone"] = False
        r.emit(f"{r.label(t)} stands up.")
        if not r.friends(cid, t):
            r.transfer(t, cid, card["rep"])


@effect("blade_waltz")
def blade_waltz(r: Rules, cid: str, card: Card) -> None:
    done: set[str] = set()
    for _ in range(12):
        t = r.who(r.ahead(cid))
        if t is None or t in done:
            break
        done.add(t)
        r.strike(cid, t, card)  # a Riposte makes him pay but the waltz goes on
        opts = [G.name(q) for q in r.board_squares(cid, card["landing"]) if r.reachable(cid, q)]
        pick = r.ctx.ask(r.owner(cid), "to", cid, ["stay", *opts])
        if pick != "stay":
            r.place(cid, G.parse(pick), effect=False)
            r.emit(f"{r.label(cid)} waltzes to {pick}.", kind="move")
        r.ch(cid)["facing"] = r.ctx.ask(r.owner(cid), "turn", cid, list(FACINGS))
    if not done:
        r.emit("Blade Waltz finds no partner.")


@effect("lure")
def lure(r: Rules, cid: str, card: Card) -> None:
    me = r.pos(cid)
    targets = r.chars_in(r.board_squares(cid, card.squares), exclude=cid)
    if not targets:
        r.emit("Lure of the Sea finds no one.")
        return
    t = r.ctx.ask(r.owner(cid), "target", cid, targets)
    tp = r.pos(t)
    steps = []
    if tp[0] != me[0]:
        steps.append((G.sign(me[0] - tp[0]), 0))
    if tp[1] != me[1]:
        steps.append((0, G.sign(me[1] - tp[1])))
    opts = {G.name((tp[0] + d[0], tp[1] + d[1])): d for d in steps}
    pick = r.ctx.ask(r.owner(cid), "to", cid, list(opts))
    r.strike(cid, t, card)
    if r.pos(t) == tp:
        r.emit(f"{r.label(t)} is pulled to {pick}.", kind="move")
        r.arrive(t, G.parse(pick), opts[pick], effect=True)
