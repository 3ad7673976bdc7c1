"""Nine Sons of the Dragon renderers: ``view`` dict -> text (Discord code block) or PNG bytes.

Both take only a view from ``NineSonsGame.view`` (never the raw state), so they cannot leak
the deck order.
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from render import register
from render.text import fill_names

COLOUR_LETTER = {"green": "G", "yellow": "Y", "red": "R"}
ROWS = ("1", "2", "3")
COLS = ("a", "b", "c", "d")


def _who(names: dict[str, str] | None, pid: str) -> str:
    """A player's display name (the bot passes seat -> name); the raw id without names."""
    return (names or {}).get(pid, pid)


def _fill(text: str, names: dict[str, str] | None) -> str:
    """Engine texts name players as ``{p1}`` placeholders; show display names instead."""
    return fill_names(text, names or {})


def _seat(view: dict[str, Any], pid: str) -> str:
    return view["seats"].get(pid, "?")


def _stack_text(view: dict[str, Any], stack: list) -> str:
    return "".join(f"{_seat(view, o)}{v}" for o, v in stack)


# -- text ------------------------------------------------------------------------------------------


def render_text(view: dict[str, Any], names: dict[str, str] | None = None, *, fence: bool = True) -> str:
    """A compact board for a Discord code block (about 36 columns, fits a phone).

    Stacks read bottom -> top: ``B6A4`` is B's 6 with A's 4 on top (A moves it).
    ``*`` marks the cells of the last action; ``xxxx`` is a hole (card gone, deck empty).
    """
    cells = {c["cell"]: c for c in view["cells"]}
    slots = view["slots"]
    last = set((view.get("last_action") or {}).get("cells") or [])
    pl = view["players"]
    lines: list[str] = []
    lines.append(f"THE NINE SONS OF THE DRAGON · ply {view['ply']}")
    for pid in pl:
        seat = _seat(view, pid)
        pts = view["points"][pid]
        n = view["cards_tamed"][pid]
        hand = " ".join(str(v) for v in view["reserves"][pid]) or "-"
        gone = view["removed"][pid]
        extra = f" gone:{''.join(map(str, gone))}" if gone else ""
        turn = ">" if view.get("turn") == pid else " "
        lines.append(f"{turn}{seat} {_who(names, pid)[:12]}: {pts:+d} pts {n} card{'s' if n != 1 else ''}")
        lines.append(f"   hand {hand}{extra}")
    # grid: row label (3) + 4 cells of 7 chars ("*" mark + 6 for up to 3 dice), "|" between cards
    lines.append("   " + "".join(f" {c:<6}" + ("|" if c == "b" else "") for c in COLS).rstrip())
    for r, row in enumerate(ROWS):
        parts = []
        for col in COLS:
            name = col + row
            c = cells[name]
            txt = "xxxx" if not c["exists"] else (_stack_text(view, c["stack"]) or ".")
            mark = "*" if name in last else " "
            parts.append(f"{mark}{txt:<6}")
        lines.append(f" {row} {parts[0]}{parts[1]}|{parts[2]}{parts[3]}".rstrip())
        labels = []
        for k in (2 * r, 2 * r + 1):
            s = slots[k]
            if s["hole"]:
                labels.append(f"{s['slot']} (hole)")
            else:
                card = s["card"]
                labels.append(
                    f"{s['slot']} {card['name']} {COLOUR_LETTER.get(card['colour'], '?')}{card['points']:+d}"
                )
        lines.append(f" {labels[0]:<16}| {labels[1]}".rstrip())
    deck = view["deck"]
    if deck["count"]:
        lines.append(f"Deck {deck['count']}: {', '.join(deck['contents'])}")
    else:
        lines.append("Deck empty: a tamed card leaves a hole")
    la = view.get("last_action")
    if la:
        lines.append(f"Last: {_seat(view, la['player'])} {la['label']}")
        for t in la.get("tames") or []:
            lines.append(f"  {_seat(view, t['tamer'])} tamed {t['card']} ({t['slot']})")
    if view.get("is_over"):
        lines.append(_fill(view.get("result_text") or "Game over.", names))
    elif view.get("pending"):
        pend = view["pending"]
        lines.append(f"{_seat(view, pend['player'])} chooses: " + ", ".join(pend["options"]))
    elif view.get("turn"):
        lines.append(f"{_seat(view, view['turn'])} ({_who(names, view['turn'])}) to play")
    lines.append("Stacks bottom->top, * = last move")
    lines.append("Card points are reconstructions")
    text = "\n".join(lines)
    return f"```\n{text}\n```" if fence else text


# -- PNG -------------------------------------------------------------------------------------------

W = 640
CARD_W, CARD_H = 300, 132
BOARD_X, BOARD_Y = 14, 64
GAP = 12
DIE = 30
CARD_BG = {"green": (214, 240, 214), "yellow": (252, 240, 190), "red": (246, 206, 204)}
CARD_EDGE = {"green": (46, 125, 50), "yellow": (190, 140, 10), "red": (183, 28, 28)}
SEAT_FILL = {"A": (30, 90, 190), "B": (40, 40, 40)}
SEAT_TEXT = {"A": (255, 255, 255), "B": (255, 255, 255)}
HILITE = (230, 80, 200)
BG = (250, 248, 242)
INK = (30, 30, 30)
H = BOARD_Y + 3 * CARD_H + 2 * GAP + 118


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size)
    except Exception:  # Pillow without FreeType
        return ImageFont.load_default()


def _cell_box(name: str) -> tuple[int, int, int, int]:
    col = COLS.index(name[0])
    row = int(name[1]) - 1
    card_col = col // 2
    x0 = BOARD_X + card_col * (CARD_W + GAP) + (col % 2) * (CARD_W // 2)
    y0 = BOARD_Y + row * (CARD_H + GAP)
    return x0, y0 + 22, x0 + CARD_W // 2, y0 + CARD_H


@lru_cache(maxsize=256)
def _die_sprite(seat: str, value: int | str, size: int) -> Image.Image:
    spr = Image.new("RGBA", (size + 1, size + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(spr)
    d.rounded_rectangle(
        (0, 0, size, size),
        radius=6,
        fill=SEAT_FILL.get(seat, (120, 120, 120)),
        outline=(255, 255, 255),
        width=2,
    )
    d.text(
        (size / 2, size / 2),
        str(value),
        fill=SEAT_TEXT.get(seat, (255, 255, 255)),
        font=_font(int(size * 0.62)),
        anchor="mm",
    )
    return spr


def _die(img: Image.Image, x: int, y: int, seat: str, value: int | str, size: int = DIE) -> None:
    spr = _die_sprite(seat, value, size)
    img.paste(spr, (int(x), int(y)), spr)


def render_image(view: dict[str, Any], names: dict[str, str] | None = None) -> Image.Image:
    img = Image.new("RGB", (W, H), BG)
    d = ImageDraw.Draw(img)
    pl = view["players"]
    f_title, f_card, f_small, f_cell = _font(18), _font(15), _font(13), _font(11)

    # header: scores and turn
    for i, pid in enumerate(pl):
        seat = _seat(view, pid)
        x = 14 + i * 316
        active = view.get("turn") == pid
        d.rounded_rectangle(
            (x, 8, x + 296, 54),
            radius=8,
            fill=(255, 255, 255),
            outline=HILITE if active else (200, 200, 200),
            width=3 if active else 1,
        )
        _die(img, x + 8, 16, seat, seat, 30)
        pts = view["points"][pid]
        n = view["cards_tamed"][pid]
        d.text((x + 46, 14), f"{_who(names, pid)[:16]}", fill=INK, font=f_title)
        d.text(
            (x + 46, 35),
            f"{pts:+d} pts · {n} card{'s' if n != 1 else ''}" + ("  - to play" if active else ""),
            fill=INK,
            font=f_small,
        )

    # cards and cells
    last = (view.get("last_action") or {}).get("cells") or []
    for s in view["slots"]:
        k = int(s["slot"][1:]) - 1
        x0 = BOARD_X + (k % 2) * (CARD_W + GAP)
        y0 = BOARD_Y + (k // 2) * (CARD_H + GAP)
        if s["hole"]:
            d.rounded_rectangle(
                (x0, y0, x0 + CARD_W, y0 + CARD_H), radius=10, fill=(225, 222, 215), outline=(180, 180, 180)
            )
            d.text(
                (x0 + CARD_W / 2, y0 + CARD_H / 2),
                f"{s['slot']}: hole",
                fill=(120, 120, 120),
                font=f_card,
                anchor="mm",
            )
            continue
        card = s["card"]
        colour = card["colour"]
        d.rounded_rectangle(
            (x0, y0, x0 + CARD_W, y0 + CARD_H),
            radius=10,
            fill=CARD_BG.get(colour, (230, 230, 230)),
            outline=CARD_EDGE.get(colour, INK),
            width=3,
        )
        d.text((x0 + 8, y0 + 4), f"{s['slot']} {card['name']}", fill=INK, font=f_card)
        d.text(
            (x0 + CARD_W - 8, y0 + 4),
            f"{colour} {card['points']:+d}",
            fill=CARD_EDGE.get(colour, INK),
            font=f_card,
            anchor="ra",
        )
        d.line(
            (x0 + CARD_W // 2, y0 + 26, x0 + CARD_W // 2, y0 + CARD_H - 6),
            fill=CARD_EDGE.get(colour, INK),
            width=1,
        )
    for c in view["cells"]:
        if not c["exists"]:
            continue
        x0, y0, x1, y1 = _cell_box(c["cell"])
        if c["cell"] in last:
            d.rounded_rectangle((x0 + 3, y0, x1 - 3, y1 - 3), radius=8, outline=HILITE, width=3)
        d.text((x0 + 8, y1 - 18), c["cell"], fill=(110, 110, 110), font=f_cell)
        # dice bottom -> top, drawn upwards with a slight offset
        cx = (x0 + x1) // 2 - DIE // 2
        for j, (owner, value) in enumerate(c["stack"]):
            _die(img, cx + j * 6, y1 - 8 - DIE - j * (DIE - 4), _seat(view, owner), value)
    # path of the last move
    if len(last) > 1:
        pts = []
        for name in last:
            x0, y0, x1, y1 = _cell_box(name)
            pts.append(((x0 + x1) // 2 - 40, (y0 + y1) // 2))
        d.line(pts, fill=HILITE, width=3)
        for p in pts[1:]:
            d.ellipse((p[0] - 4, p[1] - 4, p[0] + 4, p[1] + 4), fill=HILITE)

    # reserves, deck, status
    y = BOARD_Y + 3 * CARD_H + 2 * GAP + 8
    for i, pid in enumerate(pl):
        seat = _seat(view, pid)
        x = 14 + i * 316
        d.text((x, y), f"{seat} reserve:", fill=INK, font=f_small)
        for j, v in enumerate(view["reserves"][pid]):
            _die(img, x + 86 + j * 30, y - 4, seat, v, 26)
        gone = view["removed"][pid]
        tamed = ", ".join(t["name"] for t in view["tamed"][pid]) or "none"
        d.text(
            (x, y + 28),
            f"tamed: {tamed}" + (f" · removed: {' '.join(map(str, gone))}" if gone else ""),
            fill=INK,
            font=f_small,
        )
    deck = view["deck"]
    y += 52
    d.text(
        (14, y),
        f"Deck: {deck['count']} card(s), order hidden"
        if deck["count"]
        else "Deck empty: tamed cards leave holes",
        fill=INK,
        font=f_small,
    )
    la = view.get("last_action")
    if la:
        d.text(
            (W - 14, y),
            f"Last: {_seat(view, la['player'])} {la['label'].replace('→', '-')}",
            fill=HILITE,
            font=f_small,
            anchor="ra",
        )
    y += 24
    if view.get("is_over"):
        # Who won and why; the points and cards are already in the two header boxes.
        msg = _fill(view.get("result_text") or "Game over", names).split(". ")[0].rstrip(".") + "."
    elif view.get("pending"):
        msg = f"{_who(names, view['pending']['player'])} chooses: " + ", ".join(view["pending"]["options"])
    elif view.get("turn"):
        msg = f"{_seat(view, view['turn'])} · {_who(names, view['turn'])} to play"
    else:
        msg = ""
    font = f_title if d.textlength(msg[:90], font=f_title) <= W - 28 else f_small  # long names
    d.text((14, y), msg[:90], fill=INK, font=font)
    return img


def _swatch_view() -> dict[str, Any]:
    """A made-up board using every colour the renderer draws (all card colours, a hole, both
    seats' dice, the highlight, text on every background); its colours seed the PNG palette."""
    colours = ["green", "yellow", "red", "green", "red", None]
    slots = []
    for k, colour in enumerate(colours):
        a, b = COLS[2 * (k % 2)] + ROWS[k // 2], COLS[2 * (k % 2) + 1] + ROWS[k // 2]
        card = None if colour is None else {"name": "ChaoFeng", "colour": colour, "points": 2 - k}
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
    """PNG bytes of the board (640 x 602, palette image, about 16 KB).

    The RGB drawing is mapped onto a fixed 160-colour palette (no dithering), which makes the
    PNG a third of the size and several times faster to encode than RGB."""
    img = render_image(view, names).quantize(palette=_palette(), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


__all__ = ["render_image", "render_png", "render_text"]


register("ninesons", render_text, render_png)
