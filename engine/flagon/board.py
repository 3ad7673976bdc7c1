"""Board layouts: loads and validates ``data/layouts/*.toml``.

A layout is refused with a clear reason when it breaks a rule: something under a table (a barrel,
a start square, the centre), overlapping tables or rugs, a square off the grid, more furniture
than the box holds.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.flagon import geometry as G
from engine.flagon.geometry import Sq

LAYOUT_DIR = Path(__file__).parent / "data" / "layouts"
# What the box holds (RB component list; rugs: 2, see spec section 1).
BOX = {"large": 2, "small": 3, "chairs": 9, "mugs": 12, "barrels": 4, "rugs": 2}
# What a character can hold: the prizes return to the centre when dropped.
PRIZES = ("flagon", "cookies")
THROWABLE = ("mug", "chair", *PRIZES)
DRINKS = ("mug", *PRIZES)


class LayoutError(ValueError):
    """A layout that breaks a rule; the message says which and why."""


@dataclass(frozen=True)
class Layout:
    name: str
    title: str
    status: str
    width: int
    height: int
    centre: Sq
    start: tuple[Sq, ...]
    tables: dict[str, tuple[Sq, ...]]
    rugs: dict[str, tuple[Sq, ...]]
    chairs: tuple[Sq, ...]
    mugs: tuple[Sq, ...]
    barrels: tuple[Sq, ...]

    def start_facing(self, sq: Sq) -> str:
        """Back to the wall, facing the centre (corners face along the longer way in)."""
        x, y = sq
        if y == 0:
            return "S"
        if y == self.height - 1:
            return "N"
        if x == 0:
            return "E"
        return "W"


def _rect(kind: str, ident: str, entry: dict[str, Any], w: int, h: int) -> tuple[Sq, ...]:
    try:
        a, b = G.parse(entry["from"]), G.parse(entry["to"])
    except (KeyError, ValueError) as exc:
        raise LayoutError(f"{kind} `{ident}`: needs `from` and `to` squares ({exc})") from None
    x0, x1 = sorted((a[0], b[0]))
    y0, y1 = sorted((a[1], b[1]))
    sqs = tuple((x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1))
    for s in sqs:
        if not (0 <= s[0] < w and 0 <= s[1] < h):
            raise LayoutError(f"{kind} `{ident}` runs off the {w}x{h} grid at {G.name(s)}")
    return sqs


def parse_layout(raw: dict[str, Any]) -> Layout:
    name = str(raw.get("name", "?"))
    try:
        w, h = int(raw["width"]), int(raw["height"])
    except (KeyError, ValueError):
        raise LayoutError(f"layout `{name}`: needs width and height") from None
    if w < 5 or h < 5 or w > 26 or h > 26 or w % 2 == 0 or h % 2 == 0:
        raise LayoutError(f"layout `{name}`: the grid must be odd-sized between 5 and 25 (one centre square)")

    def sq(text: Any, what: str) -> Sq:
        try:
            s = G.parse(str(text))
        except ValueError as exc:
            raise LayoutError(f"layout `{name}`: {what}: {exc}") from None
        if not (0 <= s[0] < w and 0 <= s[1] < h):
            raise LayoutError(f"layout `{name}`: {what} {text} is off the grid")
        return s

    centre = sq(raw.get("centre", ""), "centre")
    tables: dict[str, tuple[Sq, ...]] = {}
    owner: dict[Sq, str] = {}
    large = small = 0
    for entry in raw.get("tables", []):
        ident = str(entry.get("id", len(tables)))
        if ident in tables:
            raise LayoutError(f"layout `{name}`: two tables are called `{ident}`")
        sqs = _rect("table", ident, entry, w, h)
        xs, ys = {s[0] for s in sqs}, {s[1] for s in sqs}
        dims = sorted((len(xs), len(ys)))
        if dims == [2, 3]:
            large += 1
        elif dims == [1, 2]:
            small += 1
        else:
            raise LayoutError(f"layout `{name}`: table `{ident}` must be 3x2 (large) or 2x1 (small)")
        for s in sqs:
            if s in owner:
                raise LayoutError(
                    f"layout `{name}`: tables `{owner[s]}` and `{ident}` overlap at {G.name(s)}"
                )
            owner[s] = ident
        tables[ident] = sqs
    rugs: dict[str, tuple[Sq, ...]] = {}
    rug_at: dict[Sq, str] = {}
    for entry in raw.get("rugs", []):
        ident = str(entry.get("id", len(rugs)))
        sqs = _rect("rug", ident, entry, w, h)
        for s in sqs:
            if s in rug_at:
                raise LayoutError(f"layout `{name}`: rugs `{rug_at[s]}` and `{ident}` overlap at {G.name(s)}")
            rug_at[s] = ident
        rugs[ident] = sqs
    start = tuple(sq(s, "start square") for s in raw.get("start", []))
    if len(start) < 8 or len(set(start)) != len(start):
        raise LayoutError(f"layout `{name}`: needs at least 8 different start squares")
    for s in start:
        if s[0] not in (0, w - 1) and s[1] not in (0, h - 1):
            raise LayoutError(f"layout `{name}`: start square {G.name(s)} is not against a wall")
        if s in owner:
            raise LayoutError(f"layout `{name}`: start square {G.name(s)} is under table `{owner[s]}`")
    if centre in owner:
        raise LayoutError(f"layout `{name}`: the centre {G.name(centre)} is under table `{owner[centre]}`")
    chairs = tuple(sq(s, "chair") for s in raw.get("chairs", []))
    mugs = tuple(sq(s, "mug") for s in raw.get("mugs", []))
    barrels = tuple(sq(s, "barrel") for s in raw.get("barrels", []))
    for b in barrels:
        if b in owner:
            raise LayoutError(f"layout `{name}`: a barrel at {G.name(b)} would be under table `{owner[b]}`")
    for c in chairs:
        if c in owner:
            raise LayoutError(f"layout `{name}`: a chair at {G.name(c)} would be under table `{owner[c]}`")
    counts = {
        "large": large,
        "small": small,
        "chairs": len(chairs),
        "mugs": len(mugs),
        "barrels": len(barrels),
        "rugs": len(rugs),
    }
    for k, n in counts.items():
        if n > BOX[k]:
            raise LayoutError(f"layout `{name}`: {n} {k} but the box has only {BOX[k]}")
    return Layout(name, str(raw.get("title", name)), str(raw.get("status", "proposed")), w, h, centre, start,
                  tables, rugs, chairs, mugs, barrels)  # fmt: skip


@cache
def load_layout(name: str) -> Layout:
    path = LAYOUT_DIR / f"{name}.toml"
    if not path.is_file():
        raise LayoutError(f"no layout called `{name}`; known: {', '.join(layout_names())}")
    with path.open("rb") as fh:
        return parse_layout(tomllib.load(fh))


def layout_names() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in LAYOUT_DIR.glob("*.toml")))
