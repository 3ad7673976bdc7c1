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
    w, h = _grid_size(raw, name)

    def sq(text: Any, what: str) -> Sq:
        try:
            s = G.parse(str(text))
        except ValueError as exc:
            raise LayoutError(f"layout `{name}`: {what}: {exc}") from None
        if not (0 <= s[0] < w and 0 <= s[1] < h):
            raise LayoutError(f"layout `{name}`: {what} {text} is off the grid")
        return s

    centre = sq(raw.get("centre", ""), "centre")
    tables, large, small = _tables(raw, name, w, h)
    owner = {s: ident for ident, sqs in tables.items() for s in sqs}  # square -> the table on it
    rugs = _rugs(raw, name, w, h)
    start = tuple(sq(s, "start square") for s in raw.get("start", []))
    _check_start_and_centre(name, start, centre, owner, w, h)
    chairs = tuple(sq(s, "chair") for s in raw.get("chairs", []))
    mugs = tuple(sq(s, "mug") for s in raw.get("mugs", []))
    barrels = tuple(sq(s, "barrel") for s in raw.get("barrels", []))
    for what, squares in (("barrel", barrels), ("chair", chairs)):
        for s in squares:
            if s in owner:
                raise LayoutError(
                    f"layout `{name}`: a {what} at {G.name(s)} would be under table `{owner[s]}`"
                )
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


def _grid_size(raw: dict[str, Any], name: str) -> tuple[int, int]:
    """Width and height: odd (so one square is the centre), 5 to 25."""
    try:
        w, h = int(raw["width"]), int(raw["height"])
    except (KeyError, ValueError):
        raise LayoutError(f"layout `{name}`: needs width and height") from None
    if w < 5 or h < 5 or w > 26 or h > 26 or w % 2 == 0 or h % 2 == 0:
        raise LayoutError(f"layout `{name}`: the grid must be odd-sized between 5 and 25 (one centre square)")
    return w, h


# a table's sorted (short side, long side) -> its size in the box
_TABLE_SIZES: dict[tuple[int, ...], str] = {(2, 3): "large", (1, 2): "small"}


def _tables(raw: dict[str, Any], name: str, w: int, h: int) -> tuple[dict[str, tuple[Sq, ...]], int, int]:
    """The tables by id, and how many are large (3x2) and small (2x1); no two overlap."""
    tables: dict[str, tuple[Sq, ...]] = {}
    owner: dict[Sq, str] = {}
    sizes = {"large": 0, "small": 0}
    for entry in raw.get("tables", []):
        ident = str(entry.get("id", len(tables)))
        if ident in tables:
            raise LayoutError(f"layout `{name}`: two tables are called `{ident}`")
        sqs = _rect("table", ident, entry, w, h)
        xs, ys = {s[0] for s in sqs}, {s[1] for s in sqs}
        size = _TABLE_SIZES.get(tuple(sorted((len(xs), len(ys)))))
        if size is None:
            raise LayoutError(f"layout `{name}`: table `{ident}` must be 3x2 (large) or 2x1 (small)")
        sizes[size] += 1
        for s in sqs:
            if s in owner:
                raise LayoutError(
                    f"layout `{name}`: tables `{owner[s]}` and `{ident}` overlap at {G.name(s)}"
                )
            owner[s] = ident
        tables[ident] = sqs
    return tables, sizes["large"], sizes["small"]


def _rugs(raw: dict[str, Any], name: str, w: int, h: int) -> dict[str, tuple[Sq, ...]]:
    """The rugs by id; no two overlap (a rug may lie under a table)."""
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
    return rugs


def _check_start_and_centre(
    name: str, start: tuple[Sq, ...], centre: Sq, owner: dict[Sq, str], w: int, h: int
) -> None:
    """At least 8 different start squares, each against a wall; none of them, nor the centre,
    under a table."""
    if len(start) < 8 or len(set(start)) != len(start):
        raise LayoutError(f"layout `{name}`: needs at least 8 different start squares")
    for s in start:
        if s[0] not in (0, w - 1) and s[1] not in (0, h - 1):
            raise LayoutError(f"layout `{name}`: start square {G.name(s)} is not against a wall")
        if s in owner:
            raise LayoutError(f"layout `{name}`: start square {G.name(s)} is under table `{owner[s]}`")
    if centre in owner:
        raise LayoutError(f"layout `{name}`: the centre {G.name(centre)} is under table `{owner[centre]}`")


@cache
def load_layout(name: str) -> Layout:
    path = LAYOUT_DIR / f"{name}.toml"
    if not path.is_file():
        raise LayoutError(f"no layout called `{name}`; known: {', '.join(layout_names())}")
    with path.open("rb") as fh:
        return parse_layout(tomllib.load(fh))


def layout_names() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in LAYOUT_DIR.glob("*.toml")))
