"""The Dragon & Flagon renderers: ``view`` dict -> text (Discord code block) or PNG bytes.

Both take only a view from ``FlagonGame.view`` (never the raw state). A public view holds no
planned card, so nothing drawn from it can leak a plan; a player's own view adds ``me`` (their
slots, deck and cards under the mat), which only the private prompt shows.

Card and character *names* come from the static card data (not game state).
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.flagon.cards import CHARACTER_NAMES, load_cards
from render import register
from render.canvas import Canvas, TextBox, fit_text, font, smallest_font, text_width
from render.text import CODE_WIDTH, fill_names, nowrap, with_score, wrap_code

TEXT_LIMIT = 1800
WRAP = 44  # characters per prose line in the text board (a phone shows CODE_WIDTH)
SLOT_NAMES = ("I", "II", "III")
# One letter per character, unique (Thras/Teo/Tuuli and Montero/Margalo share initials).
LETTER = {"thras": "T", "jack": "J", "tuuli": "U", "margalo": "G", "teo": "O",
          "goodheart": "H", "nari": "N", "montero": "M", "asma": "A"}  # fmt: skip
COLOUR = {
    "thras": (198, 40, 40), "jack": (33, 33, 33), "tuuli": (0, 131, 143), "margalo": (46, 125, 50),
    "teo": (239, 108, 0), "goodheart": (21, 101, 192), "nari": (106, 27, 154), "montero": (173, 20, 87),
    "asma": (93, 64, 55),
}  # fmt: skip
ARROW = {"N": "^", "E": ">", "S": "v", "W": "<"}


def _cname(cid: str) -> str:
    return CHARACTER_NAMES.get(cid, cid)


def _card(card_id: str) -> str:
    cards = load_cards()
    return cards[card_id].name if card_id in cards else card_id


def _fill(text: str, names: dict[str, str]) -> str:
    return fill_names(text, names)


def _owner(view: dict[str, Any], names: dict[str, str], seat: str) -> str:
    return names.get(seat, seat)


def _squares(view: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
    """Everything standing on each square, keyed by (x, y) with x = column, y = row (0-based)."""
    cells: dict[tuple[int, int], dict[str, Any]] = {}

    def at(name: str) -> dict[str, Any]:
        return cells.setdefault(_xy(name), {})

    _place_furniture(view, at)
    _place_pieces(view, at)
    return cells


def _place_furniture(view: dict[str, Any], at: Callable[[str], dict[str, Any]]) -> None:
    """The room: tables, rugs and start squares, then the chairs, mugs and barrels on the floor."""
    for t in view["tables"]:
        for q in t["squares"]:
            at(q)["table"] = t["id"]
    for r in view["rugs"]:
        for q in r["squares"]:
            at(q)["rug"] = r["id"]
    for q in view["start_squares"]:
        at(q)["start"] = True
    for q, n in view["chairs"].items():
        at(q)["chairs"] = n
    for q, n in view["mugs"].items():
        at(q)["mugs"] = n
    for q in view["barrels"]:
        at(q)["barrel"] = True


def _place_pieces(view: dict[str, Any], at: Callable[[str], dict[str, Any]]) -> None:
    """What moves: the prizes nobody holds, the familiar, the barrage, the characters."""
    for prize, where in view["prizes"].items():
        if where["at"] and not where["held_by"]:
            at(where["at"]).setdefault("prizes", []).append(prize)
    if view.get("familiar"):
        at(view["familiar"]["at"])["familiar"] = view["familiar"].get("facing", "N")
    barrage = view.get("barrage")
    if barrage and barrage.get("at"):
        at(barrage["at"])["barrage"] = True
    for c in view["characters"]:
        if c["pos"]:
            at(c["pos"])["char"] = c


def _xy(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


# -- text -----------------------------------------------------------------------------------------


def _cell_text(cell: dict[str, Any]) -> str:
    """Two characters per square (see the legend printed under the grid)."""
    c = cell.get("char")
    if c is not None:
        letter = LETTER.get(c["id"], "?")
        return (letter.lower() if c["prone"] else letter) + ARROW.get(c["facing"], " ")
    if "prizes" in cell:
        return "F!" if "flagon" in cell["prizes"] else "C!"
    if cell.get("barrel"):
        return "()"
    if "familiar" in cell:
        return "ff"
    if cell.get("barrage"):
        return "xx"
    table = "table" in cell
    mugs, chairs = cell.get("mugs", 0), cell.get("chairs", 0)
    if table:
        return "#u" if mugs else "#h" if chairs else "##"
    if mugs and chairs:
        return "hu"
    if mugs:
        return "u " if mugs == 1 else f"u{min(mugs, 9)}"
    if chairs:
        return "h " if chairs == 1 else f"h{min(chairs, 9)}"
    if "rug" in cell:
        return "~ "
    if cell.get("start"):
        return "+ "
    return ". "


def _grid_lines(view: dict[str, Any]) -> list[str]:
    w, h = view["grid"]["width"], view["grid"]["height"]
    cells = _squares(view)
    cols = "".join(chr(ord("a") + x) + " " for x in range(w))
    lines = ["   " + cols.rstrip()]
    for y in range(h):
        row = "".join(_cell_text(cells.get((x, y), {})) for x in range(w))
        lines.append(f"{y + 1:>2} {row.rstrip()}")
    return lines


def _status_text(c: dict[str, Any]) -> str:
    bits = []
    if c["prone"]:
        bits.append("prone")
    if c["on_table"]:
        bits.append("on a table")
    if c["held"]:
        bits.append(f"holds {c['held']}")
    for st in c["statuses"]:
        bits.append(f"{st['name']}→{st['until']}")
    if c["riposte"]:
        bits.append("Riposte")
    if c.get("hand_cannon") == "unloaded":
        bits.append("cannon empty")
    return ", ".join(bits)


def gaia_text(c: dict[str, Any]) -> str | None:
    """Under Eyes of Gaia the card a character played last may not be played next; the rulebook
    keeps it face up as a reminder, so the board names it. Only revealed cards get here (the
    engine sets it at the reveal), never one still planned."""
    last = c.get("gaia_last")
    return f"Last card played: {last} — not allowed next" if last else None


def _phase_lines(view: dict[str, Any], names: dict[str, str]) -> list[str]:
    lines: list[str] = []
    if view.get("result"):
        return lines
    if view["phase"] == "setup" and view.get("setup"):
        who = names.get(view["setup"]["player"], view["setup"]["player"])
        what = "chooses a character" if view["setup"]["next"] == "choose" else "places a character"
        lines.append(f"Setup: {who} {what}.")
        return lines
    if view["planning"]:
        by_owner: dict[str, list[str]] = {}
        for c in view["characters"]:
            if c["id"] in view["planning"]:
                by_owner.setdefault(c["owner"], []).append(_cname(c["id"]))
        waiting = "; ".join(f"{names.get(o, o)} ({', '.join(cs)})" for o, cs in by_owner.items())
        lines.append(f"Planning in secret: {waiting}")
    cur = view.get("current")
    if cur:
        lines.append(f"Now: {_cname(cur['char'])} — {_card(cur['card'])}")
    pend = view.get("pending")
    if pend:
        who = names.get(pend["player"], pend["player"])
        lines.append(f"Waiting for {who}: {pend['verb']} ({_cname(pend['char'])})")
    return lines


_SEP = nowrap(" ·") + " "  # a wrapped line never starts with the separator


def _score_lines(view: dict[str, Any], names: dict[str, str]) -> list[str]:
    scores = view.get("scores") or {}
    if not scores:
        return []
    teams = view.get("teams")
    if teams:
        parts = []
        for team in sorted(scores):
            members = ", ".join(names.get(p, p) for p, t in teams.items() if t == team)
            parts.append(f"{with_score(f'Team {team}', str(scores[team]))} ({members})")
        return ["Teams: " + _SEP.join(parts)]
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    # a name and its score are one unit: the line wraps between players, never inside one
    return ["Players: " + _SEP.join(with_score(names.get(p, p), str(s)) for p, s in ranked)]


def tie_break_text(view: dict[str, Any], names: dict[str, str]) -> str | None:
    """Why the winner won a tie on reputation, or None if reputation alone decided."""
    result = view.get("result")
    scores = view.get("scores") or {}
    if not result or not scores or len(result["ranking"]) < 2:
        return None
    teams = view.get("teams")

    def side(seat: str) -> str:
        return teams[seat] if teams else seat

    first, second = side(result["ranking"][0][0]), side(result["ranking"][1][0])
    if scores.get(first) != scores.get(second):
        return None

    def best(s: str) -> tuple[int, int]:
        return min((c["token"], c["stack"]) for c in view["characters"] if side(c["owner"]) == s)

    (t1, _), (t2, _) = best(first), best(second)
    label = f"Team {first}" if teams else names.get(first, first)
    if t1 < t2:
        return (
            f"Tie on {scores[first]} reputation: {label} wins the tie-break, with a time token "
            f"further back on the track (space {t1} vs {t2})."
        )
    return (
        f"Tie on {scores[first]} reputation: {label} wins the tie-break — tokens on the same "
        f"space {t1}, theirs lower in the stack."
    )


def _final_lines(view: dict[str, Any], names: dict[str, str]) -> list[str]:
    result = view.get("result")
    if not result:
        return []
    lines = ["GAME OVER — " + _fill(result["reason"], names)]
    scores = view.get("scores") or {}
    teams = view.get("teams")
    for place, group in enumerate(result["ranking"], start=1):
        key = (teams[group[0]] if teams else group[0]) if group else ""
        who = ", ".join(names.get(p, p) for p in group)
        lines.append(f"{place}. {with_score(who + ':', str(scores.get(key, 0)))}")
    tie = tie_break_text(view, names)
    if tie:
        lines.append(tie)
    return lines


def _private_lines(view: dict[str, Any]) -> list[str]:
    me = view.get("me")
    if not me:
        return []
    lines = ["Your characters (only you see this):"]
    for cid, mine in me["characters"].items():
        slots = " ".join(
            f"{SLOT_NAMES[i]}:{_card(k) if k != '?' else '?'}" for i, k in enumerate(mine["slots"])
        )
        lines.append(f" {_cname(cid)}: {slots or 'no card planned'}")
        if view.get("late_night") and mine["slots"]:
            lines.append("  (Late Night: placed cards stay face down)")
        lines += textwrap.wrap(
            "deck: " + ", ".join(_card(k) for k in mine["deck"]),
            WRAP,
            initial_indent="  ",
            subsequent_indent="    ",
        )
    return lines


def render_text(view: dict[str, Any], names: dict[str, str] | None = None, *, fence: bool = True) -> str:
    """A compact board for a code block (about 36 columns wide, at most 1800 characters)."""
    names = names or {}
    opts = view.get("options", {})
    flags = [k.replace("_", " ") for k in ("extended", "team", "late_night") if opts.get(k)]
    if opts.get("cookies", "off") != "off":
        flags.append(f"cookies {opts['cookies']}")
    head = f"DRAGON & FLAGON · time {view['time']['marker']}" + (f" · {', '.join(flags)}" if flags else "")
    lines = [head, *_grid_lines(view)]
    lines.append("X^ char+facing (lower=prone) ## table ~ rug")
    lines.append("h chair u mug () barrel F! Flagon C! cookies")
    lines.append("ff familiar xx barrage + start")
    for c in view["characters"]:
        letter = LETTER.get(c["id"], "?")
        extra = _status_text(c)
        mark = "*" if c["id"] in view["planning"] else " "
        where = c["pos"] or "--"
        lines.append(
            f"{mark}{letter} {c['name'][:13]:<13} {c['rep']:>3}rep t{c['token']:<2}{where:>4} "
            f"{_owner(view, names, c['owner'])[:10]}"
        )
        if extra:
            lines.append(f"    {extra}"[:60])
        gaia = gaia_text(c)
        if gaia:
            lines += wrap_code(f"    {gaia}", CODE_WIDTH, indent="      ")
    track = view["time"]
    stacks = " ".join(
        f"{sp}:{''.join(LETTER.get(c, '?') for c in cs)}"
        for sp, cs in sorted(track["stacks"].items(), key=lambda kv: int(kv[0]))
    )
    if stacks:
        lines += textwrap.wrap(f"Track (bottom→top) {stacks}", WRAP, subsequent_indent="  ")
    ends = " ".join(
        f"{t['space']}{'G' if t['guard'] else '-' if t['revealed'] else '?'}" for t in track["game_end"]
    )
    lines.append(f"Game End {ends}")
    # Prose lines are wrapped to a phone's code-block width; the grid above is 36 wide.
    for line in _score_lines(view, names) + _phase_lines(view, names) + _final_lines(view, names):
        lines += wrap_code(line, WRAP)
    if view.get("planning"):
        lines.append("* = still planning")
    private = _private_lines(view)
    body = "\n".join(lines)
    # The private part goes last and is the first thing trimmed if the text runs long.
    for extra_line in private:
        if len(body) + len(extra_line) + 1 > TEXT_LIMIT - 8:
            break
        body += "\n" + extra_line
    body = body[: TEXT_LIMIT - 8]
    return f"```\n{body}\n```" if fence else body


# -- PNG ------------------------------------------------------------------------------------------

RING = 11  # track spaces per side of the ring (corners shared): 40 spaces
SP = 62  # a track space, pixels
MARGIN = 26  # between the ring and the grid, for the coordinate labels
PANEL_ROW = 50  # a character's two lines under the board: who, then time and state
GAIA_ROW = 23  # a third line under a character while Eyes of Gaia names its last card
BG = (43, 33, 28)
FLOOR = (222, 196, 160)
FLOOR_LINE = (196, 168, 130)
RUG = (150, 52, 52)
RUG_EDGE = (214, 166, 80)
TABLE = (121, 78, 44)
TABLE_EDGE = (74, 45, 22)
START = (250, 225, 120)
TRACK = (245, 236, 215)
TRACK_EDGE = (120, 100, 80)
INK = (30, 25, 20)
LIGHT = (250, 245, 235)
GOLD = (240, 190, 40)


def _track_spaces() -> list[tuple[int, int]]:
    """Top-left corners of the ring's spaces, clockwise from the top-left corner (space 1)."""
    out = []
    n = RING - 1
    out += [(i * SP, 0) for i in range(n)]
    out += [(n * SP, i * SP) for i in range(n)]
    out += [((n - i) * SP, n * SP) for i in range(n)]
    out += [(0, (n - i) * SP) for i in range(n)]
    return out


SPACES = _track_spaces()
SIDE = RING * SP
SMALL = smallest_font(SIDE)  # 18: no text smaller, so that a phone (360 px wide) can read it
CELL_AREA = SIDE - 2 * SP - 2 * MARGIN


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
        x, y = _xy(q)
        d.rectangle(
            (ox + x * cell + 2, oy + y * cell + 2, ox + (x + 1) * cell - 2, oy + (y + 1) * cell - 2),
            fill=START,
        )
    for squares in rugs:
        xs = [_xy(q) for q in squares]
        x0, y0 = min(p[0] for p in xs), min(p[1] for p in xs)
        x1, y1 = max(p[0] for p in xs) + 1, max(p[1] for p in xs) + 1
        box = (ox + x0 * cell + 3, oy + y0 * cell + 3, ox + x1 * cell - 3, oy + y1 * cell - 3)
        d.rectangle(box, fill=RUG, outline=RUG_EDGE, width=3)
        d.rectangle((box[0] + 7, box[1] + 7, box[2] - 7, box[3] - 7), outline=RUG_EDGE, width=1)
    for squares in tables:
        xs = [_xy(q) for q in squares]
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


def _centre(view_cell: int, ox: int, oy: int, x: int, y: int) -> tuple[float, float]:
    return ox + x * view_cell + view_cell / 2, oy + y * view_cell + view_cell / 2


def _draw_mug(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    d.rectangle((cx - s * 0.5, cy - s * 0.6, cx + s * 0.5, cy + s * 0.6), fill=(250, 200, 60), outline=INK)
    d.rectangle((cx - s * 0.5, cy - s * 0.6, cx + s * 0.5, cy - s * 0.25), fill=(255, 250, 235))
    d.arc((cx + s * 0.25, cy - s * 0.35, cx + s * 0.95, cy + s * 0.35), -90, 90, fill=INK, width=2)


def _draw_chair(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    d.rectangle((cx - s * 0.6, cy - s * 0.1, cx + s * 0.6, cy + s * 0.5), fill=(160, 110, 60), outline=INK)
    d.rectangle((cx - s * 0.6, cy - s * 0.8, cx + s * 0.6, cy - s * 0.45), fill=(160, 110, 60), outline=INK)
    d.line((cx - s * 0.5, cy - s * 0.45, cx - s * 0.5, cy - s * 0.1), fill=INK, width=2)
    d.line((cx + s * 0.5, cy - s * 0.45, cx + s * 0.5, cy - s * 0.1), fill=INK, width=2)


def _draw_flagon(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
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


def _draw_cookies(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    d.ellipse((cx - s * 0.8, cy - s * 0.5, cx + s * 0.8, cy + s * 0.5), fill=(240, 240, 240), outline=INK)
    for dx in (-0.35, 0.0, 0.35):
        d.ellipse(
            (cx + dx * s - s * 0.2, cy - s * 0.2, cx + dx * s + s * 0.2, cy + s * 0.2), fill=(180, 120, 60)
        )


def _draw_item(d: ImageDraw.ImageDraw, item: str, cx: float, cy: float, s: float) -> None:
    if item == "mug":
        _draw_mug(d, cx, cy, s)
    elif item == "chair":
        _draw_chair(d, cx, cy, s)
    elif item == "flagon":
        _draw_flagon(d, cx, cy, s)
    elif item == "cookies":
        _draw_cookies(d, cx, cy, s)


_FACING = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def _draw_character(cv: Canvas, c: dict[str, Any], cx: float, cy: float, cell: int) -> None:
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
        _draw_item(d, c["held"], hx, hy, cell * 0.14)


def _token(cv: Canvas, cid: str, x: float, y: float, size: int, *, letter: bool = True) -> None:
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
            _token(cv, cid, x + 2 + col * size, y + SP - 2 - size - row * size, size, letter=False)


def _draw_panel(cv: Canvas, view: dict[str, Any], names: dict[str, str], top: int) -> None:
    f, fb = font(SMALL), font(SMALL, True)
    y = top + 8
    teams = view.get("teams")
    scores = view.get("scores") or {}
    planning = set(view.get("planning") or [])
    for c in view["characters"]:
        _token(cv, c["id"], 8, y + 2, 30)
        owner = names.get(c["owner"], c["owner"])
        team = f" · team {c['team']}" if c.get("team") else ""
        rep = cv.text((SIDE - 12, y + 1), f"{c['rep']}", fb, GOLD, anchor="ra")
        cv.text((48, y + 1), c["name"], fb, LIGHT, width=200)
        cv.text((260, y + 1), f"{owner}{team}", f, (220, 210, 190), width=rep[0] - 260 - 12)
        state = [f"time {c['token']} · {_ordinal(c['stack'] + 1)} in stack"]
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


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def _status_line(view: dict[str, Any], names: dict[str, str]) -> str:
    result = view.get("result")
    if result:
        winners = ", ".join(names.get(p, p) for p in result["ranking"][0])
        return f"Game over — winner: {winners}"
    lines = _phase_lines(view, names)
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
    cells = _squares(view)
    s = cell * 0.3
    for (x, y), content in cells.items():
        cx, cy = _centre(cell, ox, oy, x, y)
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
            _draw_chair(d, cx - cell * 0.22, cy - cell * 0.12, s)
            if content["chairs"] > 1:
                cv.text(
                    (cx - cell * 0.3, cy + cell * 0.3), f"×{content['chairs']}", font(SMALL), INK, anchor="mm"
                )
        if content.get("mugs"):
            _draw_mug(d, cx + cell * 0.2, cy + cell * 0.18, s * 0.9)
            if content["mugs"] > 1:
                cv.text(
                    (cx + cell * 0.3, cy - cell * 0.32), f"×{content['mugs']}", font(SMALL), INK, anchor="mm"
                )
        for prize in content.get("prizes", []):
            if prize == "flagon":
                _draw_flagon(d, cx, cy, cell * 0.3)
            else:
                _draw_cookies(d, cx, cy + cell * 0.1, cell * 0.3)
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
            cx, cy = _centre(cell, ox, oy, c["xy"][0], c["xy"][1])
            _draw_character(cv, c, cx, cy, cell)
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
        _token(cv, cid, 4 + i * 26, 20, 22)
    return cv.image.quantize(colors=160)


def render_png(view: dict[str, Any], names: dict[str, str] | None = None) -> bytes:
    img = render_image(view, names)
    buf = io.BytesIO()
    # Mapping onto a fixed palette (no dithering) is 3x cheaper than adaptive quantising and
    # keeps flat colours exact; the palette image is a fifth of the RGB size to compress.
    img.quantize(palette=_palette(), dither=Image.Dither.NONE).save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


register("flagon", render_text, render_png)
