"""The wording of the ratings pages (/game profile and /game history): a profile's line per
game, a streak, a finished game's line. Discord markdown and timestamps, so it lives beside the
cog rather than in render/."""

from __future__ import annotations

from render import text
from render.text import ordinal
from storage import HistoryGame, StoredRating


def profile_line(rating: StoredRating, rank: int, total: int) -> str:
    """A game's line on a profile: rating, rank, games, wins, draws and the current streak."""
    share = round(100 * rating.wins / rating.games) if rating.games else 0
    return (
        f"**{rating.rating:,.0f}** · #{rank} of {total} · {rating.games} game{'s' if rating.games != 1 else ''}, "
        f"{rating.wins} won ({share}%), {rating.draws} drawn · {streak_text(rating.streak, rating.best_streak)}"
    )


def streak_text(streak: int, best: int) -> str:
    """The current run of wins or losses; beside a run of wins, the best one when it was longer
    ("2 wins in a row (best 5)"). A run of losses has no "best"."""
    if streak > 0:
        now = f"{streak} win{'s' if streak != 1 else ''} in a row"
        return f"{now} (best {best})" if best > streak else now
    if streak < 0:
        return f"{-streak} loss{'es' if streak != -1 else ''} in a row"
    return "no streak"


def history_line(game: HistoryGame, user_id: int, title: str) -> str:
    """A finished game on a member's history page: number, date, game ``title``, place or
    outcome, rating change and the other players."""
    seats = sorted(game.seats, key=lambda s: s.position)
    others = [text.shown_name(s.display_name) for s in seats if s.user_id != user_id]
    outcome = {"win": "won", "loss": "lost", "draw": "drew", "resigned": "resigned"}.get(
        game.outcome, game.outcome
    )
    count = len(seats)
    place = f"{ordinal(game.place)} of {count}" if count > 2 else outcome
    delta = " · unrated" if game.rating_delta is None else f" · {game.rating_delta:+.0f}"
    when = f"<t:{int(game.finished_at)}:d>"
    against = text.fit(", ".join(others), 120)
    return (
        f"`#{game.game_id}` {when} **{title}** — {place}"
        f"{f' ({outcome})' if count > 2 else ''}{delta} · vs {against}"
    )
