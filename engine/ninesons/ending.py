"""How a game of The Nine Sons of the Dragon ended, in words: the reason, the tally, the
tie-break. Player names are "{seat}" placeholders that the bot (and render.ninesons) fill with
display names."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.ninesons import core
from engine.ninesons.core import CELL_NAMES, State

if TYPE_CHECKING:
    from engine.ninesons.cards import Card

# Why the game ended; ``winner``/``loser`` are filled in by why_text.
REASON_TEXT = {
    core.POINTS: "{winner} reached {win_points} points",
    core.CARDS: "only 4 cards are left on the board",
    core.REPETITION: "the same position appeared for the third time",
    core.NO_ACTION: "{loser} could not act on their turn and loses",
}


def seat_placeholder(players: list[str], p: int) -> str:
    """``{p1}`` for the first seat when ``players[0]`` is p1."""
    # A placeholder, not the id: the bot shows display names (docs: engine events use {p1}).
    return f"{{{players[p]}}}"


def why_text(st: State, players: list[str], win_points: int) -> str:
    """Why the game ended, with the winner and loser as placeholders."""
    why = REASON_TEXT.get(st.reason, st.reason)
    winner = seat_placeholder(players, st.winner) if st.winner is not None and st.winner >= 0 else "?"
    loser = seat_placeholder(players, st.winner ^ 1) if st.winner is not None and st.winner >= 0 else "?"
    return why.replace("{winner}", winner).replace("{loser}", loser).replace("{win_points}", str(win_points))


def tally(st: State, players: list[str]) -> str:
    """Each player's points and tamed cards ("{p1} 5 pts / 2 cards, {p2} ...")."""
    return ", ".join(
        f"{seat_placeholder(players, p)} {st.score[p]} pts / {len(st.tamed[p])} card{'s' if len(st.tamed[p]) != 1 else ''}"
        for p in (0, 1)
    )


def result_text(st: State, players: list[str], win_points: int) -> str:
    """The game-over line of the board ("" while the game runs)."""
    if not st.over:
        return ""
    if st.winner == -1:
        return f"Game over ({why_text(st, players, win_points)}): a draw. {tally(st, players)}."
    assert st.winner is not None
    return f"Game over ({why_text(st, players, win_points)}): {seat_placeholder(players, st.winner)} wins. {tie_break(st, players)}{tally(st, players)}."


def tie_break(st: State, players: list[str]) -> str:
    """Why equal points still have a winner (§7: more tamed cards), or "" ("Tied on 2
    points: {p2} tamed more cards (3 to 2). ")."""
    if st.winner is None or st.winner < 0 or st.score[0] != st.score[1] or st.reason == core.NO_ACTION:
        return ""
    won, lost = len(st.tamed[st.winner]), len(st.tamed[st.winner ^ 1])
    points = f"{st.score[0]} point{'s' if abs(st.score[0]) != 1 else ''}"
    return f"Tied on {points}: {seat_placeholder(players, st.winner)} tamed more cards ({won} to {lost}). "


def result_reason(st: State, players: list[str], cards: list[Card], win_points: int) -> str:
    """The sentence under the final ranking: why it ended, the tie-break, the cards each tamed."""
    tamed = "; ".join(
        f"{seat_placeholder(players, p)} tamed "
        + (", ".join(cards[ci].name for ci in st.tamed[p]) or "no card")
        for p in (0, 1)
    )
    why = why_text(st, players, win_points)
    reason = (
        f"{why[0].upper()}{why[1:]}{' (a draw)' if st.winner == -1 else ''}. {tie_break(st, players)}{tamed}."
    )
    return reason


def tame_text(cards: list[Card], tamer: str, ci: int, slot: int, cell: int, removed: int, new: int) -> str:
    """The event a tame makes: who (a placeholder) tamed card ``ci`` from ``slot`` with the stack
    on ``cell``, what its red effect did, and the card revealed in its place (``new``, or -1)."""
    card = cards[ci]
    text = (
        f"{tamer} tames {card.name} ({card.colour}, {card.points:+d}) "
        f"from S{slot + 1} with the stack on {CELL_NAMES[cell]}."
    )
    if card.rule == "pulao":
        text += f" PuLao turns {tamer}'s dice on it into 1s for good."
    if card.rule == "chiwen":
        text += f" ChiWen removes {tamer}'s {removed} from the game."
    text += f" {cards[new].name} is revealed." if new >= 0 else " The deck is empty: the slot stays a hole."
    return text
