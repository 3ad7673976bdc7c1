"""The Nine Sons of the Dragon text board: ``view`` dict -> a Discord code block, and the
helpers the picture (render.ninesons) shares with it.

It takes only a view from ``NineSonsGame.view`` (never the raw state), so it cannot leak the
deck order.
"""

from __future__ import annotations

import re
from typing import Any

from render.text import fill_names, nowrap, wrap_code

TEXT_WIDTH = 40  # characters per line of the text board
COLOUR_LETTER = {"green": "G", "yellow": "Y", "red": "R"}
ROWS = ("1", "2", "3")
COLS = ("a", "b", "c", "d")
# Each card's taming condition in a few words, by its engine rule (cards.toml has the long
# text, which stays the fallback for a rule not listed here). Every card is tamed by a stack
# of 3 dice on it; yellow cards add a condition, red ones a cost.


def _who(names: dict[str, str] | None, pid: str) -> str:
    """A player's display name (the bot passes seat -> name); the raw id without names."""
    return (names or {}).get(pid, pid)


def _fill(text: str, names: dict[str, str] | None) -> str:
    """Engine texts name players as ``{p1}`` placeholders; show display names instead."""
    return fill_names(text, names or {})


def _seat(view: dict[str, Any], pid: str) -> str:
    return view["seats"].get(pid, "?")


_SCORE = re.compile(r" [+-]?\d+ pts(?: / \d+ cards?)?")


def _condition(card: dict[str, Any]) -> str:
    return str(card.get("condition") or card.get("text", ""))  # cards.toml's short condition


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
    table = len(lines)
    rules: dict[str, str] = {}  # condition -> the cards on the board that have it
    for slot in slots:
        if not slot["hole"]:
            cond, card_name = _condition(slot["card"]), slot["card"]["name"]
            rules[cond] = f"{rules[cond]}/{card_name}" if cond in rules else card_name
    lines.append("Taming (a 3-dice stack on the card):")
    for cond, cards in rules.items():
        lines.append(f" {cards}: {cond}")
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
        # "alice 3 pts" is read as one: no line break before or inside a score
        lines.append(
            _SCORE.sub(lambda m: nowrap(m.group(0)), _fill(view.get("result_text") or "Game over.", names))
        )
    elif view.get("pending"):
        pend = view["pending"]
        lines.append(f"{_seat(view, pend['player'])} chooses: " + ", ".join(pend["options"]))
    elif view.get("turn"):
        lines.append(f"{_seat(view, view['turn'])} ({_who(names, view['turn'])}) to play")
    lines.append("Stacks bottom->top, * = last move")
    lines.append("Card points are reconstructions")
    # the grid is 36 wide; prose is wrapped to match (well under a phone's CODE_WIDTH)
    wrapped = lines[:table] + [part for line in lines[table:] for part in wrap_code(line, TEXT_WIDTH)]
    text = "\n".join(wrapped)
    return f"```\n{text}\n```" if fence else text
