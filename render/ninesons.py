"""Nine Sons of the Dragon renderers: ``view`` dict -> text (Discord code block, drawn by
render.ninesons_text) or PNG bytes.

Both take only a view from ``NineSonsGame.view`` (never the raw state), so they cannot leak
the deck order.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import register
from render.canvas import Box, Canvas, TextBox, fit_font, fit_text, font, text_width
from render.ninesons_text import COLS, ROWS, _condition, _fill, _seat, _who, render_text
from render.png import board_png

# -- PNG -------------------------------------------------------------------------------------------
# Sized for a phone: Discord shows the picture about 360 px wide there, so every text is at
# least 17 px here (about 10 px on the phone) and the dice are 40 px.

W = 640
HEAD_H = 104  # the two player boxes
BOARD_X, BOARD_Y = 38, HEAD_H + 40  # room for the column letters above and row numbers left
GAP = 10
CARD_W = (W - BOARD_X - 10 - GAP) // 2
CARD_H = 174
CELL_TOP = 62  # the card's name and taming condition above its two cells
DIE = 40
STEP = DIE - 6  # a die on a stack sits this much higher than the one under it
FOOT_Y = BOARD_Y + 3 * CARD_H + 2 * GAP + 10
H = FOOT_Y + 108
CARD_BG = {"green": (214, 240, 214), "yellow": (252, 240, 190), "red": (246, 206, 204)}
CARD_EDGE = {"green": (46, 125, 50), "yellow": (170, 120, 0), "red": (183, 28, 28)}
SEAT_FILL = {"A": (30, 90, 190), "B": (40, 40, 40)}
HILITE = (220, 50, 190)
BG = (250, 248, 242)
INK = (30, 30, 30)
MUTED = (96, 96, 96)
HOLE = (225, 222, 215)


def _cell_box(name: str) -> tuple[int, int, int, int]:
    col = COLS.index(name[0])
    row = int(name[1]) - 1
    x0 = BOARD_X + (col // 2) * (CARD_W + GAP) + (col % 2) * (CARD_W // 2)
    y0 = BOARD_Y + row * (CARD_H + GAP)
    return x0, y0 + CELL_TOP, x0 + CARD_W // 2, y0 + CARD_H


@lru_cache(maxsize=64)
def _die_sprite(seat: str, value: int | str, size: int) -> tuple[Image.Image, Box]:
    """A die in its owner's colour and the box of its number (to record where text went)."""
    spr = Image.new("RGBA", (size + 1, size + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(spr)
    d.rounded_rectangle(
        (0, 0, size, size),
        radius=size // 6,
        fill=SEAT_FILL.get(seat, (120, 120, 120)),
        outline=(255, 255, 255),
        width=2,
    )
    f = font(int(size * 0.62), True)
    centre = (size / 2, size / 2)
    d.text(centre, str(value), fill=(255, 255, 255), font=f, anchor="mm")
    box = tuple(int(v) for v in d.textbbox(centre, str(value), font=f, anchor="mm"))
    return spr, box  # type: ignore[return-value]


def _die(c: Canvas, x: float, y: float, seat: str, value: int | str, size: int = DIE) -> None:
    spr, box = _die_sprite(seat, value, size)
    c.paste(spr, (int(x), int(y)), str(value), box, int(size * 0.62))


def _header(c: Canvas, view: dict[str, Any], names: dict[str, str] | None) -> None:
    """A box per player: seat, name, points and cards, the dice in reserve."""
    box_w = (W - 30) // 2
    for i, pid in enumerate(view["players"]):
        seat = _seat(view, pid)
        x = 10 + i * (box_w + 10)
        active = view.get("turn") == pid
        c.paste(_player_box(box_w, active), (x, 8))
        _die(c, x + 10, 16, seat, seat, 36)
        c.text((x + 54, 16), _who(names, pid), font(22, True), INK, width=box_w - 64)
        n = view["cards_tamed"][pid]
        c.text((x + 54, 44), f"{view['points'][pid]:+d} pts · {n} card{'s' if n != 1 else ''}", font(18), INK)
        reserve = view["reserves"][pid]
        for j, v in enumerate(reserve):
            _die(c, x + 10 + j * 34, 68, seat, v, 30)
        gone = view["removed"][pid]
        if gone:
            c.text((x + box_w - 10, 84), "out " + " ".join(map(str, gone)), font(17), MUTED, anchor="rm")


@lru_cache(maxsize=1)
def _base() -> tuple[Image.Image, tuple[TextBox, ...]]:
    """What every board shows the same (the background, the column letters and row numbers),
    drawn once with the boxes of its texts; each board starts from a copy."""
    c = Canvas(Image.new("RGB", (W, H), BG))
    _coordinates(c)
    return c.image, tuple(c.texts)


def _coordinates(c: Canvas) -> None:
    f = font(18, True)
    for col in COLS:
        x0, _, x1, _ = _cell_box(col + "1")
        c.text(((x0 + x1) / 2, BOARD_Y - 10), col, f, MUTED, anchor="ms")
    for row in ROWS:
        _, y0, _, y1 = _cell_box("a" + row)
        c.text((BOARD_X - 12, (y0 + y1) / 2 - 20), row, f, MUTED, anchor="mm")


def _card_origin(slot: dict[str, Any]) -> tuple[int, int]:
    k = int(slot["slot"][1:]) - 1
    return BOARD_X + (k % 2) * (CARD_W + GAP), BOARD_Y + (k // 2) * (CARD_H + GAP)


def _card(c: Canvas, slot: dict[str, Any]) -> None:
    """A card's face without its texts (drawn after the path of the last move, over it)."""
    c.paste(_card_face(None if slot["hole"] else slot["card"]["colour"]), _card_origin(slot))


@lru_cache(maxsize=8)
def _card_face(colour: str | None) -> Image.Image:
    """A card of ``colour`` (None: a hole) on the board's background, without its texts: drawn
    once, pasted on every board (a rounded rectangle costs ~40 µs to draw)."""
    tile = Image.new("RGB", (CARD_W + 1, CARD_H + 1), BG)
    d = ImageDraw.Draw(tile)
    if colour is None:
        d.rounded_rectangle((0, 0, CARD_W, CARD_H), radius=10, fill=HOLE, outline=(180, 180, 180))
        return tile
    edge = CARD_EDGE.get(colour, INK)
    d.rounded_rectangle(
        (0, 0, CARD_W, CARD_H), radius=10, fill=CARD_BG.get(colour, (230, 230, 230)), outline=edge, width=4
    )
    mid = CARD_W // 2
    d.line((mid, CELL_TOP, mid, CARD_H - 8), fill=edge, width=2)
    return tile


@lru_cache(maxsize=4)
def _player_box(width: int, active: bool) -> Image.Image:
    """A player's box in the header on the background, outlined in the highlight on their turn."""
    tile = Image.new("RGB", (width + 1, HEAD_H - 8 + 1), BG)
    ImageDraw.Draw(tile).rounded_rectangle(
        (0, 0, width, HEAD_H - 8),
        radius=10,
        fill=(255, 255, 255),
        outline=HILITE if active else (200, 200, 200),
        width=5 if active else 2,
    )
    return tile


def _card_texts(c: Canvas, slot: dict[str, Any]) -> None:
    """Name, points and taming condition."""
    x0, y0 = _card_origin(slot)
    if slot["hole"]:
        c.text((x0 + CARD_W / 2, y0 + 40), f"{slot['slot']}: hole", font(20, True), MUTED, anchor="mm")
        return
    card = slot["card"]
    edge = CARD_EDGE.get(card["colour"], INK)
    points = c.text((x0 + CARD_W - 10, y0 + 8), f"{card['points']:+d}", font(22, True), edge, anchor="ra")
    c.text(
        (x0 + 10, y0 + 8), f"{slot['slot']} {card['name']}", font(22, True), INK, width=points[0] - x0 - 18
    )
    caption = _condition(card)
    f = fit_font(caption, (20, 19, 18), CARD_W - 20, condensed=True)
    c.text((x0 + 10, y0 + 36), caption, f, edge, width=CARD_W - 20)


def _last_move(c: Canvas, last: list[str]) -> None:
    """The cells of the last move outlined, and its path from cell to cell."""
    for name in last:
        x0, y0, x1, y1 = _cell_box(name)
        c.draw.rounded_rectangle((x0 + 4, y0 - 2, x1 - 4, y1 - 4), radius=8, outline=HILITE, width=4)
    if len(last) > 1:
        pts = []
        for name in last:
            x0, y0, x1, y1 = _cell_box(name)
            pts.append(((x0 + x1) // 2 - 46, (y0 + y1) // 2))
        c.draw.line(pts, fill=HILITE, width=5)
        for p in pts[1:]:
            c.draw.ellipse((p[0] - 6, p[1] - 6, p[0] + 6, p[1] + 6), fill=HILITE)


def _cells(c: Canvas, view: dict[str, Any]) -> None:
    for cell in view["cells"]:
        if not cell["exists"]:
            continue
        x0, y0, x1, y1 = _cell_box(cell["cell"])
        # dice bottom -> top, drawn upwards, each a little to the right of the one below
        cx = (x0 + x1) // 2 - DIE // 2 - 8
        for j, (owner, value) in enumerate(cell["stack"]):
            _die(c, cx + j * 8, y1 - 8 - DIE - j * STEP, _seat(view, owner), value)


def _footer(c: Canvas, view: dict[str, Any], names: dict[str, str] | None) -> None:
    y = FOOT_Y
    f = font(18)
    tamed = []
    for pid in view["players"]:
        cards = ", ".join(t["name"] for t in view["tamed"][pid]) or "none"
        tamed.append(f"{_seat(view, pid)} tamed {cards}")
    c.text((14, y), " · ".join(tamed), f, INK, width=W - 28)
    deck = view["deck"]
    left = f"Deck: {deck['count']} (order hidden)" if deck["count"] else "Deck empty: tames leave holes"
    deck_box = c.text((14, y + 28), left, f, INK)
    la = view.get("last_action")
    if la:
        last = f"Last: {_seat(view, la['player'])} {la['label'].replace('→', '-')}"
        c.text((W - 14, y + 28), last, font(18, True), HILITE, anchor="ra", width=W - 28 - deck_box[2] - 16)
    if view.get("is_over"):
        # Who won and why; the points and cards are already in the two header boxes.
        msg = _fill(view.get("result_text") or "Game over", names).split(". ")[0].rstrip(".") + "."
    elif view.get("pending"):
        msg = f"{_seat(view, view['pending']['player'])} chooses: " + ", ".join(view["pending"]["options"])
    elif view.get("turn"):
        # the name is cut, never "to play" (the header box shows the whole name too)
        f = font(24, True)
        tail = " to play"
        head = f"{_seat(view, view['turn'])} · "
        name = fit_text(_who(names, view["turn"]), f, W - 28 - text_width(head + tail, f))
        msg = head + name + tail
    else:
        msg = ""
    c.text((14, y + 60), msg, fit_font(msg, (24, 20, 18), W - 28, bold=True), INK, width=W - 28)


def draw(view: dict[str, Any], names: dict[str, str] | None = None) -> Canvas:
    """The board as a Canvas (the picture and where each text went)."""
    base, base_texts = _base()
    c = Canvas(base.copy(), list(base_texts))
    _header(c, view, names)
    for slot in view["slots"]:
        _card(c, slot)
    exists = {cell["cell"] for cell in view["cells"] if cell["exists"]}
    _last_move(c, [name for name in (view.get("last_action") or {}).get("cells") or [] if name in exists])
    for slot in view["slots"]:  # texts over the path, dice over everything
        _card_texts(c, slot)
    _cells(c, view)
    _footer(c, view, names)
    return c


def render_image(view: dict[str, Any], names: dict[str, str] | None = None) -> Image.Image:
    return draw(view, names).image


def _swatch_view() -> dict[str, Any]:
    """A made-up board using every colour the renderer draws (all card colours, a hole, both
    seats' dice, the highlight, text on every background); its colours seed the PNG palette."""
    colours = ["green", "yellow", "red", "green", "red", None]
    slots = []
    for k, colour in enumerate(colours):
        a, b = COLS[2 * (k % 2)] + ROWS[k // 2], COLS[2 * (k % 2) + 1] + ROWS[k // 2]
        card = (
            None
            if colour is None
            else {
                "name": "ChaoFeng",
                "colour": colour,
                "points": 2 - k,
                "rule": "x",
                "text": "Tamed only if the taming stack's top die shows 5 or 6.",
            }
        )
        slots.append({"slot": f"S{k + 1}", "hole": colour is None, "card": card, "cells": [a, b]})
    cells = []
    for i in range(12):
        name = COLS[i % 4] + ROWS[i // 4]
        stack = [["x" if (i + j) % 2 else "y", (i + j) % 6 + 1] for j in range(i % 4)]
        cells.append({"cell": name, "exists": i < 10, "stack": stack})
    return {
        "players": ["x", "y"],
        "seats": {"x": "A", "y": "B"},
        "points": {"x": 3, "y": -2},
        "cards_tamed": {"x": 2, "y": 1},
        "turn": "x",
        "slots": slots,
        "cells": cells,
        "last_action": {
            "player": "y",
            "label": "Move a1-b1-b2 0123456789",
            "cells": ["a1", "b1", "b2", "c2"],
        },
        "reserves": {"x": [1, 2, 3, 4, 5, 6], "y": [1, 2, 3, 4, 5, 6]},
        "removed": {"x": [6], "y": []},
        "tamed": {"x": [{"name": "QiuNiu BiAn FuXi"}], "y": [{"name": "YaZi SuanNi BaXia"}]},
        "deck": {"count": 2, "contents": []},
        "is_over": False,
        "pending": None,
    }


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    return render_image(_swatch_view()).quantize(colors=160)


def render_png(view: dict[str, Any], names: dict[str, str] | None = None) -> bytes:
    """PNG bytes of the board (640 x 780, palette image, about 25 KB).

    The RGB drawing is mapped onto a fixed 160-colour palette (no dithering), which makes the
    PNG a third of the size and several times faster to encode than RGB."""
    return board_png(render_image(view, names), _palette)


__all__ = ["draw", "render_image", "render_png", "render_text"]


register("ninesons", render_text, render_png)
