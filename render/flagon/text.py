"""The Dragon & Flagon text board: a ``view`` -> a Discord code block (the grid with a
legend, the phase, the scores, and a player's own cards when the view is theirs), and the
character letters and colours the picture shares.

Card and character *names* come from the static card data (not game state).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable
from functools import cache, lru_cache
from typing import Any

from engine.flagon.cards import CHARACTER_NAMES, load_cards
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


def things_by_square(view: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
    """Everything standing on each square, keyed by (x, y) with x = column, y = row (0-based)."""
    cells: dict[tuple[int, int], dict[str, Any]] = {}

    def at(name: str) -> dict[str, Any]:
        return cells.setdefault(square_xy(name), {})

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


@cache
def square_xy(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


# -- text -----------------------------------------------------------------------------------------


def _grid_lines(view: dict[str, Any]) -> list[str]:
    """The grid, two characters per square (see the legend printed under it): each layer of
    the room written over the one below it, from the empty floor up to the characters."""
    w, h = view["grid"]["width"], view["grid"]["height"]
    grid = _Grid(w, h)
    _draw_floor(grid, view)
    _draw_pieces(grid, view)
    cells = grid.cells
    lines = [_column_head(w)]
    for y in range(h):
        row = "".join(cells[y * w : (y + 1) * w]).rstrip()
        lines.append(f"{y + 1:>2} {row}")
    return lines


class _Grid:
    """The grid's squares row by row, two characters each, written over layer by layer."""

    def __init__(self, w: int, h: int) -> None:
        self.w, self.h = w, h
        self.cells = [". "] * (w * h)
        self.known = _square_index(w, h)

    def index(self, name: str) -> int:
        """The square's place in ``cells``, or -1 off the grid."""
        i = self.known.get(name)
        if i is None:  # off the grid (or spelt unusually): where square_xy puts it, if on the grid
            x, y = square_xy(name)
            i = y * self.w + x if 0 <= x < self.w and 0 <= y < self.h else -1
        return i

    def put(self, names: Iterable[str], text: str) -> None:
        for q in names:
            i = self.index(q)
            if i >= 0:
                self.cells[i] = text


def _draw_floor(grid: _Grid, view: dict[str, Any]) -> None:
    """Start squares, rugs over them, then tables, chairs and mugs."""
    grid.put(view["start_squares"], "+ ")
    for r in view["rugs"]:
        grid.put(r["squares"], "~ ")
    chairs, mugs, cells = view["chairs"], view["mugs"], grid.cells
    tables = {q for t in view["tables"] for q in t["squares"]}
    for q in tables:
        i = grid.index(q)
        if i >= 0:
            cells[i] = "#u" if mugs.get(q) else "#h" if chairs.get(q) else "##"
    for q in chairs.keys() | mugs.keys():
        i = grid.index(q)
        if i >= 0 and q not in tables:
            cells[i] = _floor_text(mugs.get(q, 0), chairs.get(q, 0)) or cells[i]


def _draw_pieces(grid: _Grid, view: dict[str, Any]) -> None:
    """Over the floor: the barrage, the familiar, barrels, prizes nobody holds, characters."""
    barrage = view.get("barrage")
    if barrage and barrage.get("at"):
        grid.put((barrage["at"],), "xx")
    if view.get("familiar"):
        grid.put((view["familiar"]["at"],), "ff")
    grid.put(view["barrels"], "()")
    prizes: dict[str, str] = {}
    for prize, where in view["prizes"].items():
        if where["at"] and not where["held_by"]:
            prizes[where["at"]] = "F!" if prize == "flagon" or prizes.get(where["at"]) == "F!" else "C!"
    for q, text in prizes.items():
        grid.put((q,), text)
    for c in view["characters"]:
        if c["pos"]:
            letter = LETTER.get(c["id"], "?")
            grid.put((c["pos"],), (letter.lower() if c["prone"] else letter) + ARROW.get(c["facing"], " "))


def _floor_text(mugs: int, chairs: int) -> str:
    """Mugs and chairs on a square without a table ("" if there are none)."""
    if mugs and chairs:
        return "hu"
    if mugs:
        return "u " if mugs == 1 else f"u{min(mugs, 9)}"
    if chairs:
        return "h " if chairs == 1 else f"h{min(chairs, 9)}"
    return ""


@cache
def _square_index(w: int, h: int) -> dict[str, int]:
    """Each square's name -> its place in the grid's cells, row by row."""
    return {f"{chr(ord('a') + x)}{y + 1}": y * w + x for y in range(h) for x in range(w)}


@cache
def _column_head(width: int) -> str:
    return "   " + " ".join(chr(ord("a") + x) for x in range(width))


@lru_cache(maxsize=4096)
def _wrapped(text: str, initial: str = "", subsequent: str = "") -> tuple[str, ...]:
    """``textwrap.wrap`` at WRAP columns, kept: a deck or the time track reads the same for
    every seat and for many moves, and textwrap costs ~30 µs a line."""
    return tuple(textwrap.wrap(text, WRAP, initial_indent=initial, subsequent_indent=subsequent))


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


def phase_lines(view: dict[str, Any], names: dict[str, str]) -> list[str]:
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
        lines += _wrapped("deck: " + ", ".join(_card(k) for k in mine["deck"]), "  ", "    ")
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
        lines += _wrapped(f"Track (bottom→top) {stacks}", "", "  ")
    ends = " ".join(
        f"{t['space']}{'G' if t['guard'] else '-' if t['revealed'] else '?'}" for t in track["game_end"]
    )
    lines.append(f"Game End {ends}")
    # Prose lines are wrapped to a phone's code-block width; the grid above is 36 wide.
    for line in _score_lines(view, names) + phase_lines(view, names) + _final_lines(view, names):
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
