"""Effects on the tavern's furniture: barrels, tables and rugs (and Living Wood, which strikes
everyone standing on a table)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.flagon import geometry as G
from engine.flagon.effects.registry import effect
from engine.flagon.geometry import STEP, Sq

if TYPE_CHECKING:
    from engine.flagon.cards import Card
    from engine.flagon.rules import Rules


@effect("push_barrel")
def push_barrel(r: Rules, cid: str, card: Card) -> None:
    me, ah = r.pos(cid), r.ahead(cid)
    opts = [G.name(q) for q in (me, ah) if r.inb(q) and G.name(q) in r.s["barrels"]]
    start = G.parse(r.ctx.ask(r.owner(cid), "barrel", cid, opts))
    d = STEP[r.ch(cid)["facing"]]
    cur = start
    victim = None
    while True:
        nxt = (cur[0] + d[0], cur[1] + d[1])
        if not r.inb(nxt):
            break
        if r.table_at(nxt) is not None:
            k = nxt
            while r.inb(k) and r.table_at(k) is not None:
                k = (k[0] + d[0], k[1] + d[1])
            if not r.inb(k):
                break  # a table against the wall: stop before it
            t = r.who(k)
            if t is not None:
                # RB: "Nothing may ever be under a table", yet the barrel "does not stop moving when
                # it moves into a table square" and stops "when it hits a character". Our reading:
                # it stops before the table and still hits the character just past it. Option
                # ``barrel_table_shields``: the table shields that character, as a wall would.
                if not r.s["options"].get("barrel_table_shields", False):
                    victim = t
                break
            cur = k
            _barrel_enters(r, k)
            continue
        t = r.who(nxt)
        if t is not None:
            victim = t
            break
        cur = nxt
        _barrel_enters(r, cur)
    r.s["barrels"].remove(G.name(start))
    r.s["barrels"].append(G.name(cur))
    r.s["barrels"].sort()
    r.emit(f"{r.label(cid)} rolls a barrel from {G.name(start)} to {G.name(cur)}.", kind="barrel")
    if victim is not None:
        r.strike(cid, victim, card, kb=d)


def _barrel_enters(r: Rules, q: Sq) -> None:
    """A barrel rolls onto ``q`` (never a table square: it passes under those, and chairs standing
    on a table it passes under are above it, so they are not smashed: our reading)."""
    n = G.name(q)
    if r.s["chairs"].pop(n, None):
        r.emit(f"The barrel smashes the chairs on {n}.")
    fam = r.s.get("familiar")
    if fam and fam["at"] == n:
        r.s["familiar"] = None


@effect("push_table")
def push_table(r: Rules, cid: str, card: Card) -> None:
    s = r.s
    d = STEP[r.ch(cid)["facing"]]
    first = r.table_at(r.ahead(cid))
    assert first is not None, "the card requires a table ahead"
    chain = _pushed_tables(r, first, d)
    if chain is None:
        r.emit("The tables would hit the wall: Push Table is cancelled.", kind="cancel")
        r.dest = "cancel"
        return
    old = {n for tid in chain for n in s["tables"][tid]}
    new = {_shifted(n, d) for n in old}
    entered = new - old
    riders = [t for t, c in s["chars"].items() if c["pos"] in old]
    floor = [t for t, c in s["chars"].items() if c["pos"] in entered]
    blockers = [t for t in floor if r.has(t, "earthbond")]
    for t in r.order(cid, sorted(riders + floor), card):
        r.strike(cid, t, card, kb=(0, 0))
    if blockers:
        r.emit(f"The table stops against {r.label(blockers[0])} (Earthbond).")
        return
    for t in floor:
        r.knockback(t, d)
    _shove_floor_objects(r, entered, new, d)
    _carry_table_tops(r, old, d)
    for tid in chain:
        s["tables"][tid] = sorted(_shifted(n, d) for n in s["tables"][tid])
    for t in riders:
        s["chars"][t]["pos"] = _shifted(s["chars"][t]["pos"], d)
    for t in floor:  # stuck in front of the table: it ends up on top, and falls
        if s["chars"][t]["pos"] in entered:
            r.fall(t)
    fam = s.get("familiar")
    if fam and fam["at"] in new:
        s["familiar"] = None
    r.emit(f"{r.label(cid)} pushes table {first}" + (f" and {len(chain) - 1} more." if len(chain) > 1 else "."),
              kind="table")  # fmt: skip


def _step(n: str, d: Sq) -> Sq:
    """The square one step ``d`` from the square named ``n`` (maybe off the grid)."""
    x, y = G.parse(n)
    return (x + d[0], y + d[1])


def _shifted(n: str, d: Sq) -> str:
    """The name of the square one step ``d`` from the square named ``n``."""
    return G.name(_step(n, d))


def _pushed_tables(r: Rules, first: str, d: Sq) -> list[str] | None:
    """The table ``first`` and every table it pushes on (tables push tables), in the order met;
    None when one of them would leave the grid (the push is cancelled)."""
    chain = [first]
    grow = True
    while grow:
        grow = False
        for tid in list(chain):
            for n in r.s["tables"][tid]:
                q = _step(n, d)
                if not r.inb(q):
                    return None
                other = r.table_at(q)
                if other is not None and other not in chain:
                    chain.append(other)
                    grow = True
    return chain


def _shove_floor_objects(r: Rules, entered: set[str], new: set[str], d: Sq) -> None:
    """Mugs, chairs, barrels and prizes on the floor squares the tables move onto are shoved one
    step on, or crushed against a wall or table (a prize that cannot move stays, on the table top)."""
    s = r.s

    def free(n: str) -> bool:  # the floor square past ``n`` can take a shoved object
        q = _step(n, d)
        return r.inb(q) and G.name(q) not in new and r.table_at(q) is None

    for key in ("mugs", "chairs"):
        for n in sorted(entered):
            cnt = s[key].pop(n, 0)
            if not cnt:
                continue
            if free(n):
                s[key][_shifted(n, d)] = s[key].get(_shifted(n, d), 0) + cnt
            else:
                r.emit(f"{key.title()} on {n} are crushed.")
    for i, n in enumerate(list(s["barrels"])):
        if n not in entered:
            continue
        if free(n):
            s["barrels"][i] = _shifted(n, d)
        else:
            s["barrels"][i] = ""
            r.emit(f"The barrel on {n} is crushed.")
    s["barrels"] = sorted(b for b in s["barrels"] if b)
    for item, at in s["prizes"].items():
        if at in entered and free(at):
            s["prizes"][item] = _shifted(at, d)


def _carry_table_tops(r: Rules, old: set[str], d: Sq) -> None:
    """Mugs, chairs and prizes on the pushed tables ride along one step."""
    s = r.s
    for key in ("mugs", "chairs"):
        moving = {n: s[key].pop(n) for n in list(s[key]) if n in old}
        for n, cnt in moving.items():
            dest = _shifted(n, d)
            s[key][dest] = s[key].get(dest, 0) + cnt
    for item, at in s["prizes"].items():
        if at in old:
            s["prizes"][item] = _shifted(at, d)


@effect("flip_table")
def flip_table(r: Rules, cid: str, card: Card) -> None:
    s = r.s
    d = STEP[r.ch(cid)["facing"]]
    tid = r.table_at(r.ahead(cid))
    sqs = [G.parse(n) for n in s["tables"][tid]]

    def proj(q: Sq) -> int:
        return q[0] * d[0] + q[1] * d[1]

    lo = min(proj(q) for q in sqs)
    depth = max(proj(q) for q in sqs) - lo + 1
    far = [q for q in sqs if proj(q) - lo + 1 == depth]
    beyond = {G.name((q[0] + d[0], q[1] + d[1])) for q in far}
    names = set(s["tables"][tid])
    riders = sorted(t for t, c in s["chars"].items() if c["pos"] in names)
    floor = sorted(t for t, c in s["chars"].items() if c["pos"] in beyond)
    targets = r.order(cid, riders + floor, card)
    for t in targets:
        r.strike(cid, t, card, fall=False, kb=(0, 0))
    # the table goes, with the objects on it (the Flagon returns to the centre)
    del s["tables"][tid]
    for key in ("mugs", "chairs"):
        for n in names:
            s[key].pop(n, None)
    for item, at in s["prizes"].items():
        if at in names:
            s["prizes"][item] = s["centre"]
    r.emit(f"{r.label(cid)} flips table {tid}; it is removed.", kind="table")
    for t in sorted(riders, key=lambda t: -(proj(r.pos(t)) - lo + 1)):
        p = r.pos(t)
        dd = proj(p) - lo + 1
        k = 2 * depth + 1 - 2 * dd
        dest = (p[0] + d[0] * k, p[1] + d[1] * k)
        while not r.inb(dest) and k > 0:
            k -= 1
            dest = (p[0] + d[0] * k, p[1] + d[1] * k)
        r.emit(f"{r.label(t)} is thrown to {G.name(dest)}.", kind="knockback")
        r.arrive(t, dest, d, effect=False)
    for t in targets:
        r.fall(t)


@effect("yank_rug")
def yank_rug(r: Rules, cid: str, card: Card) -> None:
    rid = r.rug_at(r.ahead(cid))
    rug = set(r.s["rugs"][rid])
    tables = {tid for tid, sqs in r.s["tables"].items() if rug & set(sqs)}
    targets = []
    for t, tc in r.s["chars"].items():
        tt = r.table_at(G.parse(tc["pos"]))
        if t != cid and ((tt is None and tc["pos"] in rug) or (tt is not None and tt in tables)):
            targets.append(t)
    for t in sorted(targets):
        r.strike(cid, t, card)
    if not targets:
        r.emit("The rug is yanked but nobody is on it.")


@effect("living_wood")
def living_wood(r: Rules, cid: str, card: Card) -> None:
    targets = [t for t in r.s["chars"] if t != cid and r.on_table(t)]
    for t in sorted(targets):
        r.strike(cid, t, card)
