"""The end of a game on its board: the Result field, the final picture and the final
components (the game's own final rows and **Rematch**), and the footer of a running board.

The saved record is the truth about whether a game has ended: a resign, a cancel or an AFK
abandonment ends the game in the database (status and result) while the engine's game object
is still mid-turn. So a board is final when ``rec.status`` says so *or* the engine says so,
and the turn markers of an engine view that does not know it has ended are taken off here.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs import components, routing
from cogs.ui import ui_for
from engine import Game, registry
from render import text
from render.text import fill_names
from storage import GameRecord

ENDED_STATUSES = ("finished", "cancelled", "abandoned")
MEDALS = ("🥇", "🥈", "🥉")
REMATCH_VERB = "rematch"
REPLAY_VERB = "rpo"  # cogs.replay opens the game's replay for the presser


def has_ended(rec: GameRecord, game: Game) -> bool:
    return rec.status in ENDED_STATUSES or game.is_over


# -- the final picture ----------------------------------------------------------------------------

View = dict[str, Any]


def final_view(rec: GameRecord, game: Game, view: View) -> View:
    """``view`` (the public one) without turn markers when the record ended a game the engine
    still thinks is running (resign, cancel, abandonment)."""
    still = registry.get(rec.kind).final_view  # how the game's view stops showing whose turn it is
    if game.is_over or rec.status not in ENDED_STATUSES or still is None:
        return view  # a game without one is drawn as the engine left it; its Result still says it ended
    why = {"finished": "a player resigned", "cancelled": "cancelled", "abandoned": "abandoned"}[rec.status]
    return still(view, why)


# -- the Result field -----------------------------------------------------------------------------


def result_text(rec: GameRecord, game: Game, view: View) -> str:
    """The Result field of an ended board: who won and why, or who stopped the game and why,
    with the scores (so far), then what the rules reveal once the game is over."""
    saved = rec.result or (game.result.to_dict() if game.is_over and game.result is not None else None)
    if saved is None:  # ended before results were saved for cancels and abandonments
        return f"The game was {rec.status}."
    names = {**text.shown_names(saved.get("names", {})), **text.seat_names(rec.seats)}
    reason = fill_names(str(saved.get("reason", "")), names)
    scores_of = registry.get(rec.kind).standing  # the game's scores so far, read from its public view
    standing = scores_of(view) if scores_of is not None else {}
    scores = saved.get("scores") or standing
    ranking: list[list[str]] = saved.get("ranking") or []
    lines = []
    if (rec.status == "finished" or game.is_over) and ranking:
        if not game.is_over:  # a resignation ended it: say so first
            lines.append(f"🏳️ {reason.rstrip('.')} — {_winners(ranking[0], names)}.")
        lines += _ranking_lines(ranking, scores, names)
        if game.is_over:
            lines.append(reason)
    else:
        lines.append(f"{'🚫' if rec.status == 'cancelled' else '⌛'} {reason}")
        if standing:
            lines.append(
                "Scores so far: "
                + " · ".join(
                    f"{names.get(seat, seat)} {_fmt(score)}"
                    for seat, score in sorted(standing.items(), key=lambda kv: -kv[1])
                )
            )
    lines += _revealed_lines(view, names)
    return "\n".join(lines)


def _winners(group: list[str], names: dict[str, str]) -> str:
    who = " and ".join(names.get(p, p) for p in group)
    return f"{who} win{'s' if len(group) == 1 else ''}"


def _ranking_lines(ranking: list[list[str]], scores: dict[str, float], names: dict[str, str]) -> list[str]:
    lines = []
    for place, group in enumerate(ranking):
        medal = MEDALS[place] if place < len(MEDALS) else f"{place + 1}."
        who = ", ".join(names.get(p, p) + (f" ({_fmt(scores[p])})" if p in scores else "") for p in group)
        lines.append(f"{medal} {who}")
    return lines


def _revealed_lines(view: View, names: dict[str, str]) -> list[str]:
    """What the engine's public view reveals once the game is over (``revealed``: player ->
    lines), e.g. the Magic Items still in hand. Card names may come from an operator's card
    file, so they are escaped."""
    revealed: dict[str, list[str]] = view.get("revealed") or {}
    if not revealed:
        return []
    return ["🔓 Revealed at the end:"] + [
        f"{names.get(seat, seat)}: {text.escape_markdown('; '.join(items))}"
        for seat, items in revealed.items()
    ]


def _fmt(score: float) -> str:
    return str(int(score)) if float(score).is_integer() else f"{score:g}"


# -- the components of an ended board ---------------------------------------------------------------


def final_components(rec: GameRecord, game: Game) -> components.Layout:
    """The game's own final rows (e.g. Flagon's action log, once it really finished), the
    Rematch button and the Replay button."""
    view = components.Layout()
    if rec.status == "finished" or game.is_over:
        for item in ui_for(rec.kind).final_rows(rec, game):
            view.add_item(item)
    view.add_item(
        discord.ui.Button(
            label="🔁 Rematch",
            style=discord.ButtonStyle.success,
            row=4,
            custom_id=routing.make(rec.id, REMATCH_VERB),
        )
    )
    if rec.state is not None:  # it had started: every move can be watched again
        view.add_item(
            discord.ui.Button(
                label="🎞 Replay",
                style=discord.ButtonStyle.secondary,
                row=4,
                custom_id=routing.make(rec.id, REPLAY_VERB),
            )
        )
    return view


# -- the footer of a running board -----------------------------------------------------------------


def running_footer(rec: GameRecord, moves: int) -> str:
    return f"move {moves + 1} · /play <action> · /game rules {rec.kind}"


__all__ = [
    "ENDED_STATUSES",
    "REMATCH_VERB",
    "REPLAY_VERB",
    "final_components",
    "final_view",
    "has_ended",
    "result_text",
    "running_footer",
]
