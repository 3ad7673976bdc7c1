"""Ratings: how a finished game moves its players' openskill ratings (Plackett–Luce).

One rating per player per game per server. A player is a member (``u:<id>``) or an AI level
(``ai:<level>``, so beating the hard AI counts and the levels show their strength). Placings
come from the engine's Result: each place of the ranking is one rank, players sharing it tie,
and in a team game (``Result.teams``) each side is one openskill team.

Who is rated in a finished game:

- nobody when the lobby option ``rated`` was off;
- not a member who took a hint in it (``unrated_seats``); the others are still rated against
  the ratings everyone had;
- an AI level only when at least one member in the game is rated and the level sits in one
  seat only (two seats of one level in one game would be one player playing itself);
- a member who resigned ranks below everyone who did not (a seat an AI took over after a
  resignation may have played on and finished higher);
- a seat an AI took over after timeouts is still its member's (leaving a game to the AI counts
  as playing it out). Abandoned and cancelled games are not finished games: not rated.

:func:`rate_game` is the only rule; storage applies it when a game finishes and when the
ratings are rebuilt, so both give the same numbers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Set

from openskill.models import PlackettLuce, PlackettLuceRating

from storage import FinishedGame, RatingChange, StoredRating, player_of

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300

# The rating players see is openskill's ordinal, mu - 3 sigma (a rating the player is very
# likely above), scaled by openskill's own ordinal(alpha, target) so that a newcomer starts at
# 1000 and one point of mu is 40 points: numbers players know from chess sites.
DISPLAY_ALPHA = 40.0
DISPLAY_TARGET = 1000.0


def display_rating(mu: float, sigma: float) -> float:
    return MODEL.rating(mu=mu, sigma=sigma).ordinal(3.0, DISPLAY_ALPHA, DISPLAY_TARGET)


def new_rating(player: str, user_id: int | None, name: str = "") -> StoredRating:
    """The rating before a player's first rated game of a kind on a server."""
    mu, sigma = MODEL.mu, MODEL.sigma
    return StoredRating(player, user_id, name, mu, sigma, display_rating(mu, sigma), 0, 0, 0, 0, 0, 0)


def is_rated(options: Mapping[str, object]) -> bool:
    return options.get("rated", True) is not False


def rate_game(game: FinishedGame, current: Mapping[str, StoredRating]) -> list[RatingChange]:
    """The rating changes ``game`` makes, from the participants' ``current`` ratings (a player
    missing there has the starting rating). Empty when the game rates nobody."""
    if not is_rated(game.options) or not game.seats:
        return []
    sides = _sides(game)
    if len(sides) < 2:
        return []
    by_seat = {s.seat: s for s in game.seats}
    seats_of_player = Counter(player_of(s) for s in game.seats)
    members_rated = any(
        by_seat[seat].user_id is not None and seat not in game.unrated for side in sides for seat in side[1]
    )
    if not members_rated:
        return []
    before: dict[str, StoredRating] = {}
    for s in game.seats:
        player = player_of(s)
        before[player] = current.get(player) or new_rating(player, s.user_id)
    teams = [[MODEL.rating(mu=before[player_of(by_seat[seat])].mu, sigma=before[player_of(by_seat[seat])].sigma)
              for seat in seats] for _, seats in sides]  # fmt: skip
    ranks = [float(rank) for rank, _ in sides]
    rated_teams = MODEL.rate(teams, ranks=ranks)
    first_sides = sum(1 for rank, _ in sides if rank == 1)
    changes = []
    for (rank, seats), new_team in zip(sides, rated_teams, strict=True):
        outcome = "loss" if rank > 1 else ("draw" if first_sides > 1 else "win")
        for seat, new in zip(seats, new_team, strict=True):
            record = by_seat[seat]
            player = player_of(record)
            if seat in game.unrated or (record.user_id is None and seats_of_player[player] > 1):
                continue
            name = record.display_name if record.user_id is not None else ai_name(player)
            after = _after(before[player], new, outcome, game.id, name)
            changes.append(RatingChange(seat, rank, outcome, before[player], after))
    return changes


def _sides(game: FinishedGame) -> list[tuple[int, list[str]]]:
    """(rank, seats) per openskill team, best first. Rank 1 is first; equal ranks tie."""
    seated = {s.seat for s in game.seats}
    ranking = [[p for p in place if p in seated] for place in game.result.get("ranking", [])]
    ranking = [place for place in ranking if place]
    teams = game.result.get("teams")
    if teams:  # a team game: each side is a team, ranked where its members are
        rank_of = {p: i for i, place in enumerate(ranking, start=1) for p in place}
        sides = [(min(rank_of.get(p, len(ranking) + 1) for p in side), [p for p in side if p in seated])
                 for side in teams]  # fmt: skip
        return sorted((s for s in sides if s[1]), key=lambda s: s[0])
    # Free for all: every seat is its own team; resigners rank below everyone else.
    placed = placings(ranking, game.resigned)
    return [(rank, [seat]) for rank, place in enumerate(placed, start=1) for seat in place]


def placings(ranking: list[list[str]], resigned: Set[str]) -> list[list[str]]:
    """The places of a free-for-all game as players are credited with them: the engine's
    ranking, with everyone who resigned moved below everyone who did not (together, last),
    even when the AI that played on for them finished higher."""
    placed = [[p for p in place if p not in resigned] for place in ranking]
    placed = [place for place in placed if place]
    last = [p for place in ranking for p in place if p in resigned]
    return [*placed, last] if last else placed


def _after(before: StoredRating, new: PlackettLuceRating, outcome: str, game_id: int, name: str) -> StoredRating:
    if outcome == "win":
        streak = before.streak + 1 if before.streak > 0 else 1
    elif outcome == "loss":
        streak = before.streak - 1 if before.streak < 0 else -1
    else:
        streak = 0
    return StoredRating(
        player=before.player,
        user_id=before.user_id,
        name=name,
        mu=new.mu,
        sigma=new.sigma,
        rating=display_rating(new.mu, new.sigma),
        games=before.games + 1,
        wins=before.wins + (outcome == "win"),
        draws=before.draws + (outcome == "draw"),
        streak=streak,
        best_streak=max(before.best_streak, streak),
        last_game_id=game_id,
    )


def describe_rating(rating: StoredRating) -> str:
    """ "1,084 (12 games, 58% won)"."""
    share = round(100 * rating.wins / rating.games) if rating.games else 0
    return f"{rating.rating:,.0f} ({rating.games} game{'s' if rating.games != 1 else ''}, {share}% won)"


def ai_name(player: str) -> str:
    """``ai:hard`` -> "AI · hard"."""
    return f"AI · {player.removeprefix('ai:')}"
