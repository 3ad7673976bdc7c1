"""The pieces drawn on the Dragon & Flagon picture: mugs, chairs, the prizes, characters and
their tokens."""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from render.canvas import Canvas, font
from render.flagon.style import GOLD, INK, LIGHT, SMALL
from render.flagon.text import COLOUR, LETTER


def cell_centre(view_cell: int, ox: int, oy: int, x: int, y: int) -> tuple[float, float]:
    return ox + x * view_cell + view_cell / 2, oy + y * view_cell + view_cell / 2


def draw_mug(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    d.rectangle((cx - s * 0.5, cy - s * 0.6, cx + s * 0.5, cy + s * 0.6), fill=(250, 200, 60), outline=INK)
    d.rectangle((cx - s * 0.5, cy - s * 0.6, cx + s * 0.5, cy - s * 0.25), fill=(255, 250, 235))
    d.arc((cx + s * 0.25, cy - s * 0.35, cx + s * 0.95, cy + s * 0.35), -90, 90, fill=INK, width=2)


def draw_chair(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    d.rectangle((cx - s * 0.6, cy - s * 0.1, cx + s * 0.6, cy + s * 0.5), fill=(160, 110, 60), outline=INK)
    d.rectangle((cx - s * 0.6, cy - s * 0.8, cx + s * 0.6, cy - s * 0.45), fill=(160, 110, 60), outline=INK)
    d.line((cx - s * 0.5, cy - s * 0.45, cx - s * 0.5, cy - s * 0.1), fill=INK, width=2)
    d.line((cx + s * 0.5, cy - s * 0.45, cx + s * 0.5, cy - s * 0.1), fill=INK, width=2)


def draw_flagon(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    d.polygon(
        [
            (cx - s * 0.6, cy - s * 0.7),
            (cx + s * 0.6, cy - s * 0.7),
            (cx + s * 0.35, cy + s * 0.1),
            (cx - s * 0.35, cy + s * 0.1),
        ],
        fill=GOLD,
        outline=INK,
    )
    d.rectangle((cx - s * 0.1, cy + s * 0.1, cx + s * 0.1, cy + s * 0.55), fill=GOLD, outline=INK)
    d.rectangle((cx - s * 0.45, cy + s * 0.55, cx + s * 0.45, cy + s * 0.75), fill=GOLD, outline=INK)


def draw_cookies(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    d.ellipse((cx - s * 0.8, cy - s * 0.5, cx + s * 0.8, cy + s * 0.5), fill=(240, 240, 240), outline=INK)
    for dx in (-0.35, 0.0, 0.35):
        d.ellipse(
            (cx + dx * s - s * 0.2, cy - s * 0.2, cx + dx * s + s * 0.2, cy + s * 0.2), fill=(180, 120, 60)
        )


def draw_item(d: ImageDraw.ImageDraw, item: str, cx: float, cy: float, s: float) -> None:
    if item == "mug":
        draw_mug(d, cx, cy, s)
    elif item == "chair":
        draw_chair(d, cx, cy, s)
    elif item == "flagon":
        draw_flagon(d, cx, cy, s)
    elif item == "cookies":
        draw_cookies(d, cx, cy, s)


_FACING = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def draw_character(cv: Canvas, c: dict[str, Any], cx: float, cy: float, cell: int) -> None:
    d = cv.draw
    r = cell * 0.36
    colour = COLOUR.get(c["id"], (90, 90, 90))
    fx, fy = _FACING.get(c["facing"], (0, -1))
    # The facing wedge: a triangle beyond the disc, pointing where the character looks.
    tip = (cx + fx * r * 1.45, cy + fy * r * 1.45)
    side = (-fy, fx)
    base1 = (cx + fx * r * 0.6 + side[0] * r * 0.7, cy + fy * r * 0.6 + side[1] * r * 0.7)
    base2 = (cx + fx * r * 0.6 - side[0] * r * 0.7, cy + fy * r * 0.6 - side[1] * r * 0.7)
    d.polygon([tip, base1, base2], fill=colour, outline=LIGHT)
    if c["prone"]:
        d.ellipse(
            (cx - r * 1.1, cy - r * 0.7, cx + r * 1.1, cy + r * 0.7),
            fill=(200, 200, 200),
            outline=colour,
            width=4,
        )
        cv.text(
            (cx, cy), LETTER.get(c["id"], "?"), font(max(SMALL, int(cell * 0.4)), True), colour, anchor="mm"
        )
        cv.text((cx + r * 1.15, cy - r * 1.1), "z", font(SMALL, True), INK, anchor="mm")
    else:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=LIGHT, width=2)
        cv.text(
            (cx, cy), LETTER.get(c["id"], "?"), font(max(SMALL, int(cell * 0.42)), True), LIGHT, anchor="mm"
        )
    if c["held"]:
        hx, hy = cx + r * 0.95, cy + r * 0.95
        d.ellipse(
            (hx - cell * 0.2, hy - cell * 0.2, hx + cell * 0.2, hy + cell * 0.2), fill=LIGHT, outline=INK
        )
        draw_item(d, c["held"], hx, hy, cell * 0.14)


def draw_token(cv: Canvas, cid: str, x: float, y: float, size: int, *, letter: bool = True) -> None:
    """A character's round token in its colour, with its letter when it is large enough to read."""
    cv.draw.ellipse((x, y, x + size, y + size), fill=COLOUR.get(cid, (90, 90, 90)), outline=LIGHT, width=2)
    if letter:
        cv.text(
            (x + size / 2, y + size / 2),
            LETTER.get(cid, "?"),
            font(int(size * 0.6), True),
            LIGHT,
            anchor="mm",
        )
