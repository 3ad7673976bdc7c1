"""Effects that move the acting character: Move, Dash, Charge, Leap, Swing, Dragon Kick, Shadow Step."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.flagon import geometry as G
from engine.flagon.effects.registry import effect
from engine.flagon.geometry import Sq

if TYPE_CHECKING:
    from engine.flagon.cards import Card
    from engine.flagon.rules import Rules


def _go_to_chosen_square(r: Rules, cid: str, squares: list[str], moves: str, nowhere: str) -> None:
    """The owner picks one of ``squares`` and the character goes there ("<label> <moves> <sq>."),
    or, with nowhere to go, the ``nowhere`` line is all that happens."""
    if not squares:
        r.emit(nowhere)
        return
    pick = r.ctx.ask(r.owner(cid), "to", cid, squares)
    r.place(cid, G.parse(pick), effect=False)
    r.emit(f"{r.label(cid)} {moves} {pick}.", kind="move")


@effect("move")
def move(r: Rules, cid: str, card: Card) -> int:
    opts = [G.name(q) for q in r.board_squares(cid, card.squares) if r.reachable(cid, q)]
    pick = r.ctx.ask(r.owner(cid), "to", cid, ["stay", *opts])
    times = card["time"] if isinstance(card["time"], list) else [card["time"]] * 2
    if pick == "stay":
        r.emit(f"{r.label(cid)} stays put.")
        return int(times[0])
    r.place(cid, G.parse(pick), effect=False)
    r.emit(f"{r.label(cid)} moves to {pick}.", kind="move")
    return int(times[-1])


@effect("dash")
def dash(r: Rules, cid: str, card: Card) -> None:
    height = r.on_table(cid)
    opts = []
    for rel in card.squares:
        q = r.board_squares(cid, [rel])[0]
        if not r.inb(q) or r.who(q) is not None or (r.table_at(q) is not None) != height:
            break
        opts.append(G.name(q))
    _go_to_chosen_square(r, cid, opts, "dashes to", f"{r.label(cid)} cannot dash anywhere.")
    # RB: the Familiar "is removed if a character or object moves into the same square" and "a
    # character may freely continue to move after entering the square with the familiar": a Dash
    # runs through every square before its end, so it removes a Familiar it passes.
    fam = r.s.get("familiar")
    here = G.name(r.pos(cid))
    if fam and here in opts and fam["at"] in opts[: opts.index(here)]:
        r.s["familiar"] = None
        r.emit("The Familiar is removed.")


@effect("charge")
def charge(r: Rules, cid: str, card: Card) -> None:
    r.place(cid, r.ahead(cid), effect=False)
    r.emit(f"{r.label(cid)} charges to {G.name(r.pos(cid))}.", kind="move")
    t = r.who(r.ahead(cid))
    if t is not None:
        r.strike(cid, t, card)


@effect("leap")
def leap(r: Rules, cid: str, card: Card) -> None:
    opts = [G.name(q) for q in r.board_squares(cid, card.squares) if r.inb(q) and r.who(q) is None]
    _go_to_chosen_square(r, cid, opts, "leaps to", f"{r.label(cid)} has nowhere to leap.")


@effect("swing")
def swing(r: Rules, cid: str, card: Card) -> None:
    c = r.ch(cid)
    me = r.pos(cid)
    if card.rays:
        dirs = [G.rel_dir(c["facing"], ray) for ray in card.rays]
        dists = sorted({sq[1] for sq in r.card("swing").squares})
    else:
        dirs = [G.rel_dir(c["facing"], (0, 1))]
        dists = sorted({sq[1] for sq in card.squares})
    opts: dict[str, tuple[Sq, int]] = {}
    for d in dirs:
        for k in dists:
            q = (me[0] + d[0] * k, me[1] + d[1] * k)
            if r.inb(q):
                opts[G.name(q)] = (d, k)
    if not opts:
        r.emit(f"No room to {card.name}.")
        r.dest = "cancel"
        return
    pick = r.ctx.ask(r.owner(cid), "to", cid, list(opts))
    d, k = opts[pick]
    path = [(me[0] + d[0] * i, me[1] + d[1] * i) for i in range(1, k + 1)]
    r.emit(f"{r.label(cid)} swings to {pick}.", kind="move")
    for q in path:
        t = r.who(q, exclude=cid)
        if t is not None:
            r.strike(cid, t, card, kb=None)
    fam = r.s.get("familiar")
    if fam and G.parse(fam["at"]) in path[:-1]:
        r.s["familiar"] = None
    if not r.arrive(cid, G.parse(pick), d, effect=False):
        r.emit(f"{r.label(cid)} cannot land and stays put.")


@effect("dragon_kick")
def dragon_kick(r: Rules, cid: str, card: Card) -> None:
    # RB: "Move in a straight line in any direction until you reach another character. End in the
    # location of the affected character. If there is no character in a straight line, move as far as
    # you would like in the direction of your choice (including not moving at all)."
    # So a line with a character offers only that character's square; an empty line offers every
    # square, and staying put is allowed only because an empty line exists.
    me = r.pos(cid)
    opts: dict[str, tuple[Sq, str | None]] = {}
    empty_line = False
    for rel in card.rays:
        d = G.rel_dir(r.ch(cid)["facing"], rel)
        line: list[Sq] = []
        hit: str | None = None
        k = 1
        while True:
            q = (me[0] + d[0] * k, me[1] + d[1] * k)
            if not r.inb(q):
                break
            hit = r.who(q)
            if hit is not None:
                opts[G.name(q)] = (d, hit)
                break
            line.append(q)
            k += 1
        if hit is None:
            empty_line = True
            for q in line:
                opts[G.name(q)] = (d, None)
    if empty_line or not opts:
        opts = {"stay": ((0, 0), None), **opts}
    pick = r.ctx.ask(r.owner(cid), "to", cid, list(opts))
    if pick == "stay":
        r.emit(f"{r.label(cid)} kicks the air and stays put.")
        return
    d, t = opts[pick]
    dest = G.parse(pick)
    r.emit(f"{r.label(cid)} flies to {pick}.", kind="move")
    if t is not None:
        r.strike(cid, t, card, kb=d)
    if not r.arrive(cid, dest, d, effect=False):
        back = (dest[0] - d[0], dest[1] - d[1])
        if back != me and r.who(back) is None:
            r.place(cid, back, effect=False)


@effect("shadow_step")
def shadow_step(r: Rules, cid: str, card: Card) -> None:
    opts = []
    for yellow, green in zip(
        r.board_squares(cid, card.squares), r.board_squares(cid, card["landing"]), strict=True
    ):
        if r.who(yellow, exclude=cid) and r.inb(green) and r.who(green) is None:
            opts.append(G.name(green))
    if r.has(cid, "shadow_dash"):
        for t, tc in r.s["chars"].items():
            if t == cid:
                continue
            q = G.to_board(r.pos(t), tc["facing"], (0, -1))
            if r.inb(q) and r.who(q, exclude=cid) is None:
                opts.append(G.name(q))
    _go_to_chosen_square(r, cid, opts, "steps through the shadows to", "No shadow to step into.")
