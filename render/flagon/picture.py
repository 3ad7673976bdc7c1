"""The Dragon & Flagon picture: a ``view`` -> a PNG of the room inside the reputation track,
with a panel of the characters under it."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image

from render.canvas import Canvas, TextBox, fit_text, font, text_width
from render.flagon.pieces import (
    cell_centre,
    draw_chair,
    draw_character,
    draw_cookies,
    draw_flagon,
    draw_mug,
    draw_token,
)
from render.flagon.style import (
    BG,
    CELL_AREA,
    FLOOR,
    FLOOR_LINE,
    GAIA_ROW,
    GOLD,
    INK,
    LIGHT,
    MARGIN,
    PANEL_ROW,
    RUG,
    RUG_EDGE,
    SIDE,
    SMALL,
    SP,
    SPACES,
    START,
    TABLE,
    TABLE_EDGE,
    TRACK,
    TRACK_EDGE,
)
from render.flagon.text import COLOUR, gaia_text, phase_lines, square_xy, things_by_square
from render.png import board_png
from render.text import ordinal


def _geometry(view: dict[str, Any]) -> tuple[int, int, int]:
    w, h = view["grid"]["width"], view["grid"]["height"]
    cell = CELL_AREA // max(w, h)
    ox = SP + MARGIN + (CELL_AREA - cell * w) // 2
    oy = SP + MARGIN + (CELL_AREA - cell * h) // 2
    return cell, ox, oy


@lru_cache(maxsize=32)
def _background(
    w: int,
    h: int,
    tables: tuple[tuple[str, ...], ...],
    rugs: tuple[tuple[str, ...], ...],
    starts: tuple[str, ...],
) -> tuple[Image.Image, tuple[TextBox, ...]]:
    """The parts that rarely change (floor, rugs, tables, start squares, ring, labels), cached
    with the boxes of their texts."""
    cv = Canvas(Image.new("RGB", (SIDE, SIDE), BG))
    d = cv.draw
    cell = CELL_AREA // max(w, h)
    ox = SP + MARGIN + (CELL_AREA - cell * w) // 2
    oy = SP + MARGIN + (CELL_AREA - cell * h) // 2
    d.rectangle((ox, oy, ox + cell * w, oy + cell * h), fill=FLOOR)
    for x in range(w + 1):
        d.line((ox + x * cell, oy, ox + x * cell, oy + h * cell), fill=FLOOR_LINE)
    for y in range(h + 1):
        d.line((ox, oy + y * cell, ox + w * cell, oy + y * cell), fill=FLOOR_LINE)
    for q in starts:
        x, y = square_xy(q)
        d.rectangle(
            (ox + x * cell + 2, oy + y * cell + 2, ox + (x + 1) * cell - 2, oy + (y + 1) * cell - 2),
            fill=START,
        )
    for squares in rugs:
        xs = [square_xy(q) for q in squares]
        x0, y0 = min(p[0] for p in xs), min(p[1] for p in xs)
        x1, y1 = max(p[0] for p in xs) + 1, max(p[1] for p in xs) + 1
        box = (ox + x0 * cell + 3, oy + y0 * cell + 3, ox + x1 * cell - 3, oy + y1 * cell - 3)
        d.rectangle(box, fill=RUG, outline=RUG_EDGE, width=3)
        d.rectangle((box[0] + 7, box[1] + 7, box[2] - 7, box[3] - 7), outline=RUG_EDGE, width=1)
    for squares in tables:
        xs = [square_xy(q) for q in squares]
        x0, y0 = min(p[0] for p in xs), min(p[1] for p in xs)
        x1, y1 = max(p[0] for p in xs) + 1, max(p[1] for p in xs) + 1
        d.rounded_rectangle(
            (ox + x0 * cell + 4, oy + y0 * cell + 4, ox + x1 * cell - 4, oy + y1 * cell - 4),
            radius=8,
            fill=TABLE,
            outline=TABLE_EDGE,
            width=3,
        )
    label = font(SMALL, True)
    for x in range(w):
        letter = chr(ord("a") + x)
        cv.text((ox + x * cell + cell / 2, oy - MARGIN / 2), letter, label, LIGHT, anchor="mm")
        cv.text((ox + x * cell + cell / 2, oy + h * cell + MARGIN / 2), letter, label, LIGHT, anchor="mm")
    for y in range(h):
        cv.text((ox - MARGIN / 2, oy + y * cell + cell / 2), str(y + 1), label, LIGHT, anchor="mm")
        cv.text((ox + w * cell + MARGIN / 2, oy + y * cell + cell / 2), str(y + 1), label, LIGHT, anchor="mm")
    num = font(SMALL)
    for i, (x, y) in enumerate(SPACES):
        d.rectangle((x + 1, y + 1, x + SP - 2, y + SP - 2), fill=TRACK, outline=TRACK_EDGE)
        cv.text((x + 4, y + 1), str(i + 1), num, (110, 95, 80))
    return cv.image, tuple(cv.texts)


def _draw_track(cv: Canvas, view: dict[str, Any]) -> None:
    d = cv.draw
    track = view["time"]
    marker = track["marker"]
    last = len(SPACES)

    def box(space: int) -> tuple[int, int]:
        return SPACES[max(1, min(space, last)) - 1]

    mx, my = box(marker)
    d.rectangle((mx, my, mx + SP - 1, my + SP - 1), outline=GOLD, width=4)
    for tok in track["game_end"]:
        x, y = box(tok["space"])
        tile = (x + SP - 28, y + 3, x + SP - 4, y + 27)
        if not tok["revealed"]:
            d.rectangle(tile, fill=(60, 60, 80), outline=LIGHT)
            cv.text((tile[0] + 12, tile[1] + 12), "?", font(SMALL, True), LIGHT, anchor="mm")
        elif tok["guard"]:
            d.rectangle(tile, fill=(200, 30, 30), outline=INK)
            cv.text((tile[0] + 12, tile[1] + 12), "G", font(SMALL, True), LIGHT, anchor="mm")
        else:
            d.rectangle(tile, fill=(200, 200, 200), outline=INK)
    # Status tokens: a small tag in the character's colour at the space where the status ends.
    status_count: dict[int, int] = {}
    for st in track["status_tokens"]:
        x, y = box(st["space"])
        k = status_count.get(st["space"], 0)
        status_count[st["space"]] = k + 1
        tx, ty = x + 3 + k * 14, y + SP - 15
        d.rectangle(
            (tx, ty, tx + 12, ty + 12), fill=COLOUR.get(st["char"], (90, 90, 90)), outline=GOLD, width=2
        )
    # Time tokens, bottom -> top: filled from the bottom-left, left to right, then the row above,
    # so the reading order is the stack order (two rows of four fit under the space's number).
    # Discs in the characters' colours without letters: a letter readable on a phone would not
    # fit; the panel says each character's time and place in its stack, the text board the stacks.
    size = 14
    for space, cids in track["stacks"].items():
        x, y = box(int(space))
        for i, cid in enumerate(cids):
            col, row = i % 4, i // 4
            draw_token(cv, cid, x + 2 + col * size, y + SP - 2 - size - row * size, size, letter=False)


def _draw_panel(cv: Canvas, view: dict[str, Any], names: dict[str, str], top: int) -> None:
    f, fb = font(SMALL), font(SMALL, True)
    y = top + 8
    teams = view.get("teams")
    scores = view.get("scores") or {}
    planning = set(view.get("planning") or [])
    for c in view["characters"]:
        draw_token(cv, c["id"], 8, y + 2, 30)
        owner = names.get(c["owner"], c["owner"])
        team = f" · team {c['team']}" if c.get("team") else ""
        rep = cv.text((SIDE - 12, y + 1), f"{c['rep']}", fb, GOLD, anchor="ra")
        cv.text((48, y + 1), c["name"], fb, LIGHT, width=200)
        cv.text((260, y + 1), f"{owner}{team}", f, (220, 210, 190), width=rep[0] - 260 - 12)
        state = [f"time {c['token']} · {ordinal(c['stack'] + 1)} in stack"]
        if c["prone"]:
            state.append("prone")
        if c["held"]:
            state.append(f"holds {c['held']}")
        if c["id"] in planning:
            state.append("planning…")
        if c["statuses"]:
            state.append(", ".join(f"{s['name']}→{s['until']}" for s in c["statuses"]))
        cv.text((48, y + 24), " · ".join(state), f, (200, 230, 255), width=SIDE - 48 - 12)
        gaia = gaia_text(c)
        if gaia:  # its own line: cut into the state line, the card's name would be lost first
            cv.text((48, y + 24 + GAIA_ROW), gaia, f, GOLD, width=SIDE - 48 - 12)
            y += GAIA_ROW
        y += PANEL_ROW
    cv.draw.line((10, y + 3, SIDE - 10, y + 3), fill=(120, 100, 80))
    y += 10
    if teams:
        parts = [(f"Team {t}", scores[t]) for t in sorted(scores)]
    else:
        parts = [(names.get(p, p), s) for p, s in sorted(scores.items(), key=lambda kv: -kv[1])]
    label = "Reputation: "
    line = label + "   ".join(f"{name}: {score}" for name, score in parts)
    # Nobody has chosen a character yet during setup: no reputation to show. A line too long for
    # the picture is left to the text board (each character's reputation is on its line above).
    if parts and text_width(line, f) <= SIDE - 20:
        cv.text((10, y), line, f, LIGHT, width=SIDE - 20)
        y += 24
    # names cut short enough that the verb after them ("chooses a character") still shows
    short = {seat: fit_text(name, f, 200) for seat, name in names.items()}
    status = _status_line(view, short)
    if status:
        cv.text((10, y), status, f, GOLD, width=SIDE - 20)


def _status_line(view: dict[str, Any], names: dict[str, str]) -> str:
    result = view.get("result")
    if result:
        winners = ", ".join(names.get(p, p) for p in result["ranking"][0])
        return f"Game over — winner: {winners}"
    lines = phase_lines(view, names)
    return lines[0] if lines else ""


def _panel_height(view: dict[str, Any]) -> int:
    gaia = sum(1 for c in view["characters"] if gaia_text(c))
    return 8 + PANEL_ROW * len(view["characters"]) + GAIA_ROW * gaia + 10 + 24 + 28


def draw(view: dict[str, Any], names: dict[str, str] | None = None) -> Canvas:
    """The board as a Canvas (the picture and where each text went)."""
    names = names or {}
    w, h = view["grid"]["width"], view["grid"]["height"]
    base, base_texts = _background(
        w,
        h,
        tuple(tuple(t["squares"]) for t in view["tables"]),
        tuple(tuple(r["squares"]) for r in view["rugs"]),
        tuple(view["start_squares"]),
    )
    cv = Canvas(Image.new("RGB", (SIDE, SIDE + _panel_height(view)), BG), list(base_texts))
    cv.image.paste(base, (0, 0))
    d = cv.draw
    cell, ox, oy = _geometry(view)
    cells = things_by_square(view)
    s = cell * 0.3
    for (x, y), content in cells.items():
        cx, cy = cell_centre(cell, ox, oy, x, y)
        if content.get("barrel"):
            d.ellipse(
                (cx - cell * 0.38, cy - cell * 0.38, cx + cell * 0.38, cy + cell * 0.38),
                fill=(140, 90, 40),
                outline=INK,
                width=2,
            )
            d.ellipse(
                (cx - cell * 0.22, cy - cell * 0.22, cx + cell * 0.22, cy + cell * 0.22),
                outline=(60, 35, 15),
                width=2,
            )
        if content.get("chairs"):
            draw_chair(d, cx - cell * 0.22, cy - cell * 0.12, s)
            if content["chairs"] > 1:
                cv.text(
                    (cx - cell * 0.3, cy + cell * 0.3), f"×{content['chairs']}", font(SMALL), INK, anchor="mm"
                )
        if content.get("mugs"):
            draw_mug(d, cx + cell * 0.2, cy + cell * 0.18, s * 0.9)
            if content["mugs"] > 1:
                cv.text(
                    (cx + cell * 0.3, cy - cell * 0.32), f"×{content['mugs']}", font(SMALL), INK, anchor="mm"
                )
        for prize in content.get("prizes", []):
            if prize == "flagon":
                draw_flagon(d, cx, cy, cell * 0.3)
            else:
                draw_cookies(d, cx, cy + cell * 0.1, cell * 0.3)
        if "familiar" in content:
            r = cell * 0.3
            d.polygon(
                [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=(170, 120, 230), outline=INK
            )
            cv.text((cx, cy), "f", font(SMALL, True), INK, anchor="mm")
        if content.get("barrage"):
            r = cell * 0.42
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=(220, 30, 30), width=3)
            d.line((cx - r, cy, cx + r, cy), fill=(220, 30, 30), width=2)
            d.line((cx, cy - r, cx, cy + r), fill=(220, 30, 30), width=2)
    for c in view["characters"]:
        if c["xy"]:
            cx, cy = cell_centre(cell, ox, oy, c["xy"][0], c["xy"][1])
            draw_character(cv, c, cx, cy, cell)
    _draw_track(cv, view)
    _draw_panel(cv, view, names, SIDE)
    return cv


def render_image(view: dict[str, Any], names: dict[str, str] | None = None) -> Image.Image:
    return draw(view, names).image


# Colours drawn outside the sample board below (ninth character, tiles, markers, item shades).
_SWATCHES = [
    *COLOUR.values(),
    BG,
    FLOOR,
    FLOOR_LINE,
    RUG,
    RUG_EDGE,
    TABLE,
    TABLE_EDGE,
    START,
    TRACK,
    TRACK_EDGE,
    INK,
    LIGHT,
    GOLD,
    (200, 30, 30),
    (60, 60, 80),
    (200, 200, 200),
    (170, 120, 230),
    (220, 30, 30),
    (250, 200, 60),
    (255, 250, 235),
    (160, 110, 60),
    (140, 90, 40),
    (60, 35, 15),
    (240, 240, 240),
    (180, 120, 60),
    (200, 230, 255),
    (220, 210, 190),
    (110, 95, 80),
    (120, 100, 80),
]


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """A fixed palette: a sample 8-character board (text on every background gives the
    antialiasing shades) plus a swatch of every colour, quantised once."""
    from engine.flagon import new_game  # static sample data, not a game being rendered

    game = new_game([f"p{i}" for i in range(1, 9)], seed=1, cookies="with")
    while game.s["phase"] == "setup":
        who = game.to_act()[0]
        game.play(who, game.legal_actions(who)[0])
    cv = draw(game.view(None), {f"p{i}": f"player {i}" for i in range(1, 9)})
    for i, colour in enumerate(_SWATCHES):
        cv.draw.rectangle((4 + i * 14, 4, 16 + i * 14, 16), fill=colour)
    for i, cid in enumerate(COLOUR):
        draw_token(cv, cid, 4 + i * 26, 20, 22)
    return cv.image.quantize(colors=160)


def render_png(view: dict[str, Any], names: dict[str, str] | None = None) -> bytes:
    # Mapping onto a fixed palette (no dithering) is 3x cheaper than adaptive quantising and
    # keeps flat colours exact; the palette image is a fifth of the RGB size to compress.
    return board_png(render_image(view, names), _palette)
