"""Statuses and tricks: lasting cards (Boast, Chug, ...), Vision, Tithe, Mark Prey, the Familiar."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.flagon import geometry as G
from engine.flagon.effects.registry import effect
from engine.flagon.geometry import FACINGS

if TYPE_CHECKING:
    from engine.flagon.cards import Card
    from engine.flagon.rules import Rules


@effect("status")
def status(r: Rules, cid: str, card: Card) -> None:
    if card.id == "eyes_of_gaia":
        c = r.ch(cid)
        if c["slots"]:
            r.emit(f"{r.label(cid)} takes back {len(c['slots'])} planned card(s).")
        c["slots"] = []
    r.add_status(cid, card.id, card["duration"])
    r.dest = "faceup"


@effect("vision")
def vision(r: Rules, cid: str, card: Card) -> int:
    c = r.ch(cid)
    c["playing"] = None  # Vision goes back to the deck; the chosen card is performed instead
    opts = [k for k in r.deck(cid) if k != "vision"]
    pick = r.ctx.ask(r.owner(cid), "vision", cid, ["cancel", *opts])
    if pick == "cancel":
        r.emit(f"{r.label(cid)} cancels the Vision.", kind="cancel")
        if c["prone"]:  # still down only under our reading (see reveal_and_resolve); up after any reveal
            c["prone"] = False
            r.emit(f"{r.label(cid)} stands up.")
        r.dest = "cancel"
        return 1
    r.emit(f"Vision becomes {r.card(pick).name}.", kind="reveal", char=cid, card=pick)
    c["playing"] = pick
    cost = r.reveal_and_resolve(cid, pick)
    r.dest = "deck"  # Vision itself goes back to the deck (the chosen card went its own way)
    if r.cancelled:  # the chosen card was cancelled: time 1, like any cancelled card
        return 1
    return cost + card["extra_time"]


@effect("tithe")
def tithe(r: Rules, cid: str, card: Card) -> None:
    targets = r.chars_in(r.board_squares(cid, card.squares), exclude=cid)
    for t in targets:
        if r.ch(t)["rep"] < card["poor_below"]:
            r.transfer(cid, t, card["give"], real=True)
    for t in targets:
        if r.ch(t)["rep"] > card["rich_above"]:
            r.transfer(t, cid, card["rep"], real=True)


@effect("mark_prey")
def mark_prey(r: Rules, cid: str, card: Card) -> None:
    # RB: "If Mark Prey is played when the token is already on a character, move it to a different
    # character."
    marked = (r.s.get("mark") or {}).get("on")
    targets = [t for t in r.s["chars"] if t != cid and t != marked]
    if not targets:
        r.emit(f"{r.label(cid)} has nobody else to mark.")
        return
    t = r.ctx.ask(r.owner(cid), "target", cid, targets)
    r.s["mark"] = {"by": cid, "on": t}
    r.emit(f"{r.label(cid)} marks {r.label(t)} as prey.", kind="mark")


@effect("familiar")
def familiar(r: Rules, cid: str, card: Card) -> None:
    s = r.s
    busy = {c["pos"] for c in s["chars"].values()} | set(s["mugs"]) | set(s["chairs"]) | set(s["barrels"])
    busy |= {v for v in s["prizes"].values() if v}
    opts = [G.name((x, y)) for x in range(r.w) for y in range(r.h)
            if G.name((x, y)) not in busy and r.table_at((x, y)) is None]  # fmt: skip
    at = r.ctx.ask(r.owner(cid), "at", cid, opts)
    facing = r.ctx.ask(r.owner(cid), "turn", cid, list(FACINGS))
    s["familiar"] = {"at": at, "facing": facing}
    r.emit(f"{r.label(cid)}'s Familiar appears on {at}, facing {facing}.", kind="familiar")
