"""A small picture of one Dragon & Flagon card for ``/game card``: everything printed on it, the
icons included. The header is purple when the card is cancelled while prone (plain brown
otherwise), the red box lists the requirements, the squares are drawn around the character (an
arrow facing up) with a sword in each target square of a weapon attack, and the badges give time,
duration, reputation, Daze, Fall and knockback. Drawn through :class:`render.canvas.Canvas`, so the
layout test can check that no text overlaps another or leaves the card."""

from __future__ import annotations

import io

from PIL import Image

from engine.flagon.face import FlagonFace, diagram_rows, marks_of
from engine.handbook import CardEntry
from render.canvas import Canvas, Colour, Font, fit_font, font, text_width

WIDTH = 360
MARGIN = 14
CELL = 28
PAPER: Colour = (246, 237, 214)
INK: Colour = (48, 36, 26)
BORDER: Colour = (92, 64, 40)
PURPLE: Colour = (112, 58, 150)
PLAIN: Colour = (124, 88, 52)
RED: Colour = (178, 34, 34)
TARGET: Colour = (242, 196, 64)
GRID: Colour = (214, 200, 170)
WHITE: Colour = (255, 255, 255)
STAR: Colour = (214, 160, 20)
LINE = WIDTH - 2 * MARGIN  # the width of a line of text


def _wrap(text: str, f: Font, width: float = LINE) -> list[str]:
    """``text`` in lines of at most ``width`` pixels, broken between words."""
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and text_width(joined, f) <= width:
            lines[-1] = joined
        else:
            lines.append(word)
    return lines


def _badges(face: FlagonFace) -> list[str]:
    badges = [f"★ {face.rep} reputation"] if face.rep else []
    if face.daze:
        badges.append(f"Daze {face.daze}")
    if face.fall:
        badges.append("Fall")
    if face.knockback:
        badges.append(f"Knockback {face.knockback}")
    return badges


def time_mark(face: FlagonFace) -> str:
    """The time cost as it fits the card's disc: "2", or "1/2/3" when the player chooses."""
    return face.time.replace(", ", "/").replace(" or ", "/")


def _pairs(items: list[str]) -> list[list[str]]:
    """Badges two to a line, so the longest pair still fits the card's width."""
    return [items[i : i + 2] for i in range(0, len(items), 2)]


def _sword(c: Canvas, cx: int, cy: int) -> None:
    """The weapon icon: a small sword, point up."""
    c.draw.line((cx, cy - 9, cx, cy + 6), fill=INK, width=2)
    c.draw.line((cx - 5, cy + 3, cx + 5, cy + 3), fill=INK, width=2)
    c.draw.line((cx, cy + 6, cx, cy + 9), fill=BORDER, width=3)


def _clock(c: Canvas, cx: int, cy: int, r: int) -> None:
    c.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=INK, width=2)
    c.draw.line((cx, cy, cx, cy - r + 4), fill=INK, width=2)
    c.draw.line((cx, cy, cx + r - 5, cy), fill=INK, width=2)


def _squares(c: Canvas, face: FlagonFace, top: int) -> int:
    """The affected squares around the character; returns the bottom of the drawing."""
    marks = marks_of(face)
    n = face.reach
    rows = list(diagram_rows(face))
    left = (WIDTH - (2 * n + 1) * CELL) // 2
    for row, y in enumerate(rows):
        for col, x in enumerate(range(-n, n + 1)):
            box = (
                left + col * CELL,
                top + row * CELL,
                left + (col + 1) * CELL - 2,
                top + (row + 1) * CELL - 2,
            )
            mark = marks.get((x, y), "")
            fill = TARGET if mark in ("■", "▣") else WHITE if mark else GRID
            c.draw.rectangle(box, fill=fill, outline=BORDER if mark else GRID)
            cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
            if mark in ("▲", "▣"):
                c.draw.polygon([(cx, cy - 9), (cx - 8, cy + 8), (cx + 8, cy + 8)], fill=INK)
            elif mark == "■" and face.weapon:
                _sword(c, cx, cy)
            elif mark and mark not in ("■",):
                c.text((cx, cy), mark, font(16, bold=True), INK, anchor="mm")
    return top + len(rows) * CELL


def flagon_card_png(face: FlagonFace) -> bytes:
    """PNG bytes of the card (360 pixels wide, as tall as its text needs)."""
    out = io.BytesIO()
    draw_flagon_card(face).image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def draw_flagon_card(face: FlagonFace) -> Canvas:
    """The card drawn on a canvas that remembers where each text went."""
    body = _wrap(face.text, font(15)) or [""]
    needs = (
        _wrap("Requires: " + "; ".join(face.requirements), font(14, bold=True)) if face.requirements else []
    )
    rows = len(diagram_rows(face))
    badge_lines = len(_pairs(_badges(face)))
    height = (
        96
        + 20 * len(needs)
        + (16 if needs else 0)
        + rows * CELL
        + 66
        + 22 * badge_lines
        + 20 * len(body)
        + MARGIN
    )
    c = Canvas(Image.new("RGB", (WIDTH, height), PAPER))
    c.draw.rectangle((0, 0, WIDTH - 1, height - 1), outline=BORDER, width=4)
    # Header: purple when a prone character's card is cancelled; the time in a white disc.
    header = PURPLE if face.purple else PLAIN
    c.draw.rectangle((4, 4, WIDTH - 5, 66), fill=header)
    c.draw.ellipse((MARGIN, 14, MARGIN + 42, 56), fill=WHITE, outline=INK, width=2)
    mark = time_mark(face)
    c.text((MARGIN + 21, 35), mark, fit_font(mark, (20, 14, 11), 36, bold=True), INK, anchor="mm")
    right = WIDTH - MARGIN - (52 if face.duration else 0)
    c.text((MARGIN + 52, 12), face.name, fit_font(face.name, (22, 18, 15), right - MARGIN - 52, bold=True), WHITE,
           width=right - MARGIN - 52)  # fmt: skip
    c.text((MARGIN + 52, 42), face.kind, font(13), WHITE, width=right - MARGIN - 52)
    if face.duration:
        _clock(c, WIDTH - MARGIN - 36, 35, 14)
        c.text((WIDTH - MARGIN - 12, 35), str(face.duration), font(18, bold=True), WHITE, anchor="mm")
    y = 76
    c.text((MARGIN, y), "Purple header: cancelled if prone" if face.purple else "Plain header: works when prone",
           font(13), PURPLE if face.purple else INK)  # fmt: skip
    y += 22
    if needs:
        c.draw.rectangle(
            (MARGIN - 4, y - 4, WIDTH - MARGIN + 4, y + 20 * len(needs) + 2), outline=RED, width=2
        )
        for line in needs:
            c.text((MARGIN, y), line, font(14, bold=True), RED, width=WIDTH - 2 * MARGIN)
            y += 20
        y += 12
    y = _squares(c, face, y) + 8
    weapon = "⚔ Weapon attack" if face.weapon else "No weapon icon"
    c.text((MARGIN, y), weapon, font(14, bold=face.weapon), INK)
    y += 22
    for pair in _pairs(_badges(face)):
        c.text((MARGIN, y), "    ".join(pair), font(14, bold=True), STAR, width=WIDTH - 2 * MARGIN)
        y += 22
    y += 4
    c.draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=GRID, width=2)
    y += 8
    for line in body:
        c.text((MARGIN, y), line, font(15), INK, width=WIDTH - 2 * MARGIN)
        y += 20
    return c


def card_png(card: CardEntry) -> bytes | None:
    """The picture of a Dragon & Flagon card for ``/game card`` (render.flagon registers it as
    the game's card renderer), or None for a card with no printed face to draw."""
    return flagon_card_png(card.face) if card.face is not None else None
