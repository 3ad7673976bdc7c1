"""Picking up, dropping and snatching mugs, chairs and the prizes (Flagon, Cookies); holding a
prize brings the character's Dragon card into the deck."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.flagon import geometry as G
from engine.flagon.board import PRIZES
from engine.flagon.effects.registry import effect

if TYPE_CHECKING:
    from engine.flagon.cards import Card
    from engine.flagon.rules import Rules


@effect("pickup")
def pickup(r: Rules, cid: str, card: Card) -> None:
    c = r.ch(cid)
    here = c["pos"]
    opts = []
    if r.s["mugs"].get(here):
        opts.append("mug")
    if r.s["chairs"].get(here):
        opts.append("chair")
    ah = r.ahead(cid)
    for item, at in r.s["prizes"].items():
        if at is not None and (at == here or (r.inb(ah) and at == G.name(ah))):
            opts.append(item)
    if c["held"]:
        opts.append("drop")
    if not opts:
        r.emit(f"{r.label(cid)} finds nothing to pick up.")
        return
    pick = r.ctx.ask(r.owner(cid), "item", cid, opts)
    drop_held(r, cid)
    if pick == "drop":
        return
    if pick in PRIZES:
        r.s["prizes"][pick] = None
        r.gain_dragon(cid)
    else:
        key = "mugs" if pick == "mug" else "chairs"
        _take_one(r, key, here)
    c["held"] = pick
    r.emit(f"{r.label(cid)} picks up the {pick}.", kind="item")


def drop_held(r: Rules, cid: str) -> None:
    c = r.ch(cid)
    item = c["held"]
    if not item:
        return
    if item in PRIZES:
        r.drop_prize(cid)
        return
    c["held"] = None
    key = "mugs" if item == "mug" else "chairs"
    r.s[key][c["pos"]] = r.s[key].get(c["pos"], 0) + 1
    r.emit(f"{r.label(cid)} drops the {item}.", kind="item")


def _take_one(r: Rules, key: str, sq: str) -> None:
    """Take one mug or chair (``key``) off square ``sq``."""
    r.s[key][sq] -= 1
    if r.s[key][sq] <= 0:
        del r.s[key][sq]


@effect("snatch")
def snatch(r: Rules, cid: str, card: Card) -> None:
    targets = [t for t in r.chars_in(r.board_squares(cid, card.squares), exclude=cid) if r.ch(t)["held"]]
    if not targets:
        r.emit("Nothing to snatch.")
        return
    t = r.ctx.ask(r.owner(cid), "target", cid, targets)
    item = r.ch(t)["held"]
    drop_held(r, cid)
    r.ch(t)["held"] = None
    r.ch(cid)["held"] = item
    r.emit(f"{r.label(cid)} snatches the {item} from {r.label(t)}.", kind="item")
    if item in PRIZES:
        r.gain_dragon(cid)
