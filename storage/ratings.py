"""The rating tables (migration 006): ratings, rating_history, unrated_seats, the results
a finished game writes, and the reads behind /game leaderboard, profile, history and stats.

:class:`RatingTables` only reads and writes rows. How a finished game changes ratings is a
function given by the session layer (``RateGame``); storage calls it inside the transaction
that finishes the game, and again for every finished game, in finishing order, when the
ratings are rebuilt, so the two can never disagree.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from storage.backend import Step, Table, marks
from storage.records import SeatRecord, seat_from_row


@dataclass(frozen=True)
class ResultRow:
    """A member's place in a finished game (the ``results`` table, behind /game stats)."""

    user_id: int
    place: int
    score: float | None
    outcome: str


@dataclass(frozen=True)
class StoredRating:
    """One player's rating in one game on one server. ``player`` is ``u:<user id>`` or
    ``ai:<level>``."""

    player: str
    user_id: int | None
    name: str  # as shown at the player's latest rated game
    mu: float
    sigma: float
    rating: float  # what players see (see sessions.ratings.display_rating)
    games: int
    wins: int
    draws: int
    streak: int  # > 0 wins in a row, < 0 losses in a row
    best_streak: int
    last_game_id: int

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.draws


@dataclass(frozen=True)
class RatingChange:
    """What one finished game did to one participant's rating."""

    seat: str
    rank: int
    outcome: str  # win / loss / draw
    before: StoredRating  # a first rated game starts from the default rating (games = 0)
    after: StoredRating


@dataclass
class FinishedGame:
    """Everything a rating update reads about a finished game, loaded the same way for the
    live update and for the rebuild."""

    id: int
    guild_id: int
    kind: str
    options: dict[str, Any]
    result: dict[str, Any]
    finished_at: float
    seats: list[SeatRecord] = field(default_factory=list)
    unrated: set[str] = field(default_factory=set)  # seats left unrated (a hint taken)
    resigned: set[str] = field(default_factory=set)  # seats whose player resigned


# (game, current ratings of its participants by player) -> the changes to write
RateGame = Callable[[FinishedGame, Mapping[str, StoredRating]], Sequence[RatingChange]]


@dataclass(frozen=True)
class HistoryGame:
    """One line of /game history: a finished game a member played."""

    game_id: int
    kind: str
    finished_at: float
    place: int
    outcome: str  # the results table's: win / loss / draw / resigned
    result: dict[str, Any]
    seats: list[SeatRecord]
    rating_delta: float | None  # None: the game was not rated for this member


_RATING_COLUMNS = (
    "player, user_id, name, mu, sigma, rating, games, wins, draws, streak, best_streak, last_game_id"
)
_REPLACE_RATING = ", ".join(f"{c} = excluded.{c}" for c in _RATING_COLUMNS.split(", ")[1:])


class RatingTables(Table):
    """Rating reads and writes (``db.ratings``)."""

    # -- writing ---------------------------------------------------------------------------
    async def rate_finished_game(self, game_id: int, rate: RateGame) -> None:
        """Inside the transaction that finished ``game_id``: apply ``rate`` to it."""
        await self._backend.lock_ratings()
        (game,) = await self._finished_games("g.id = ?", (game_id,))
        current = await self._ratings_of(game.guild_id, game.kind, _players_of(game))
        await self._write_changes(game, rate(game, current))

    async def rebuild(self, rate: RateGame) -> tuple[int, int]:
        """Forget every rating and replay every finished game through ``rate``, in finishing
        order, in one transaction (a game finishing meanwhile waits for it). Returns (games
        rated, rating rows)."""
        async with self._transaction():
            await self._backend.lock_ratings()
            await self._run("DELETE FROM rating_history")
            await self._run("DELETE FROM ratings")
            games = await self._finished_games("1 = 1", ())
            current: dict[tuple[int, str, str], StoredRating] = {}
            history: list[tuple[Any, ...]] = []
            rated = 0
            for game in games:
                mine = {
                    p: current[(game.guild_id, game.kind, p)]
                    for p in _players_of(game)
                    if (game.guild_id, game.kind, p) in current
                }
                changes = rate(game, mine)
                rated += bool(changes)
                for change in changes:
                    current[(game.guild_id, game.kind, change.after.player)] = change.after
                    history.append(_history_row(game, change))
            await self._run_many(
                f"INSERT INTO ratings (guild_id, kind, {_RATING_COLUMNS}) VALUES ({marks(14)})",
                [(guild, kind, *_rating_values(r)) for (guild, kind, _), r in current.items()],
            )
            await self._run_many(f"INSERT INTO rating_history VALUES ({marks(14)})", history)
        return rated, len(current)

    async def mark_unrated(self, game_id: int, seat: str, reason: str) -> bool:
        """Leave ``seat`` unrated in this game; False if it already was."""
        count = await self._run(
            "INSERT INTO unrated_seats (game_id, seat, reason) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (game_id, seat, reason),
        )
        return count == 1

    async def unrated_seats(self, game_id: int) -> set[str]:
        rows = await self._fetch("SELECT seat FROM unrated_seats WHERE game_id = ?", (game_id,))
        return {r[0] for r in rows}

    async def snapshot(self) -> list[tuple[Any, ...]]:
        """Every rating and rating-history row in a fixed order (to compare two databases)."""
        ratings = await self._fetch(
            f"SELECT guild_id, kind, {_RATING_COLUMNS} FROM ratings ORDER BY guild_id, kind, player"
        )
        history = await self._fetch("SELECT * FROM rating_history ORDER BY game_id, player")
        return [tuple(r) for r in ratings] + [tuple(r) for r in history]

    # -- reading ---------------------------------------------------------------------------
    async def leaderboard(self, guild_id: int, kind: str, offset: int, limit: int) -> list[StoredRating]:
        rows = await self._fetch(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND kind = ? "
            "ORDER BY rating DESC, player LIMIT ? OFFSET ?",
            (guild_id, kind, limit, offset),
        )
        return [_rating_from_row(r) for r in rows]

    async def rated_players(self, guild_id: int, kind: str) -> int:
        rows = await self._fetch(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND kind = ?", (guild_id, kind)
        )
        return int(rows[0][0])

    async def rating_and_rank(self, guild_id: int, kind: str, player: str) -> tuple[StoredRating, int] | None:
        """A player's rating and place on the leaderboard (1 = top), or None if unrated."""
        rows = await self._fetch(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND kind = ? AND player = ?",
            (guild_id, kind, player),
        )
        if not rows:
            return None
        mine = _rating_from_row(rows[0])
        above = await self._fetch(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND kind = ? "
            "AND (rating > ? OR (rating = ? AND player < ?))",
            (guild_id, kind, mine.rating, mine.rating, player),
        )
        return mine, int(above[0][0]) + 1

    async def player_kinds(self, guild_id: int, player: str) -> list[str]:
        """The games a player has a rating in on this server."""
        rows = await self._fetch(
            "SELECT kind FROM ratings WHERE guild_id = ? AND player = ? ORDER BY kind", (guild_id, player)
        )
        return [r[0] for r in rows]

    async def series(self, guild_id: int, player: str, kind: str, limit: int) -> list[tuple[float, float]]:
        """(finished_at, rating after) of the player's latest ``limit`` rated games, oldest first."""
        rows = await self._fetch(
            "SELECT finished_at, rating FROM rating_history WHERE guild_id = ? AND player = ? AND kind = ? "
            "ORDER BY finished_at DESC LIMIT ?",
            (guild_id, player, kind, limit),
        )
        return [(r[0], r[1]) for r in reversed(rows)]

    async def member_games(
        self, guild_id: int, user_id: int, kind: str | None, offset: int, limit: int
    ) -> list[HistoryGame]:
        """A member's finished games on this server, newest first."""
        sql = (
            "SELECT r.game_id, r.kind, r.finished_at, r.place, r.outcome, g.result, "
            "h.rating - h.rating_before AS delta FROM results r JOIN games g ON g.id = r.game_id "
            "LEFT JOIN rating_history h ON h.game_id = r.game_id AND h.player = ? "
            "WHERE r.guild_id = ? AND r.user_id = ?"
        )
        params: list[Any] = [f"u:{user_id}", guild_id, user_id]
        if kind is not None:
            sql += " AND r.kind = ?"
            params.append(kind)
        rows = await self._fetch(
            sql + " ORDER BY r.finished_at DESC, r.game_id DESC LIMIT ? OFFSET ?", [*params, limit, offset]
        )
        seats = await self._seats_of([r[0] for r in rows])
        return [
            HistoryGame(r[0], r[1], r[2], r[3], r[4], json.loads(r[5] or "{}"), seats.get(r[0], []), r[6])
            for r in rows
        ]

    async def member_games_count(self, guild_id: int, user_id: int, kind: str | None) -> int:
        sql = "SELECT COUNT(*) FROM results WHERE guild_id = ? AND user_id = ?"
        params: list[Any] = [guild_id, user_id]
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        rows = await self._fetch(sql, params)
        return int(rows[0][0])

    async def member_stats(self, guild_id: int, user_id: int) -> dict[str, dict[str, int]]:
        """A member's finished games on this server: kind -> outcome -> how many."""
        rows = await self._fetch(
            "SELECT kind, outcome, COUNT(*) FROM results WHERE guild_id = ? AND user_id = ? GROUP BY kind, outcome",
            (guild_id, user_id),
        )
        stats: dict[str, dict[str, int]] = {}
        for kind, outcome, count in rows:
            stats.setdefault(kind, {})[outcome] = count
        return stats

    # -- internals --------------------------------------------------------------------------
    async def _ratings_of(self, guild_id: int, kind: str, players: Sequence[str]) -> dict[str, StoredRating]:
        if not players:
            return {}
        rows = await self._fetch(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND kind = ? "
            f"AND player IN ({marks(len(players))})",
            (guild_id, kind, *players),
        )
        return {r[0]: _rating_from_row(r) for r in rows}

    async def _write_changes(self, game: FinishedGame, changes: Sequence[RatingChange]) -> None:
        if not changes:
            return
        await self._run_many(
            f"INSERT INTO ratings (guild_id, kind, {_RATING_COLUMNS}) VALUES ({marks(14)}) "
            f"ON CONFLICT (guild_id, kind, player) DO UPDATE SET {_REPLACE_RATING}",
            [(game.guild_id, game.kind, *_rating_values(c.after)) for c in changes],
        )
        await self._run_many(
            f"INSERT INTO rating_history VALUES ({marks(14)})", [_history_row(game, c) for c in changes]
        )

    async def _seats_of(self, game_ids: Sequence[int]) -> dict[int, list[SeatRecord]]:
        seats: dict[int, list[SeatRecord]] = {}
        for start in range(0, len(game_ids), 500):  # SQLite's limit on bound parameters
            chunk = game_ids[start : start + 500]
            rows = await self._fetch(
                f"SELECT * FROM seats WHERE game_id IN ({marks(len(chunk))}) ORDER BY game_id, position",
                chunk,
            )
            for row in rows:
                seats.setdefault(row["game_id"], []).append(seat_from_row(row))
        return seats

    async def _finished_games(self, where: str, params: Sequence[Any]) -> list[FinishedGame]:
        rows = await self._fetch(
            "SELECT g.id, g.guild_id, g.kind, g.options, g.result, g.finished_at FROM games g "
            f"WHERE g.status = 'finished' AND g.finished_at IS NOT NULL AND {where} "
            "AND g.id NOT IN (SELECT game_id FROM damaged_games) ORDER BY g.finished_at, g.id",
            params,
        )
        games = {
            r[0]: FinishedGame(r[0], r[1], r[2], json.loads(r[3] or "{}"), json.loads(r[4] or "{}"), r[5])
            for r in rows
        }
        if not games:
            return []
        ids = list(games)
        for game_id, seats in (await self._seats_of(ids)).items():
            games[game_id].seats = seats
        # One game (a live finish) or all of them (a rebuild): the two lists below either way.
        only = ("WHERE game_id = ?", (ids[0],)) if len(ids) == 1 else ("", ())
        for game_id, seat in await self._fetch(f"SELECT game_id, seat FROM unrated_seats {only[0]}", only[1]):
            if game_id in games:
                games[game_id].unrated.add(seat)
        resigned = f"SELECT game_id, seat FROM actions {only[0] or 'WHERE 1 = 1'} AND action = 'resign' "
        for game_id, seat in await self._fetch(resigned + "AND source = 'system'", only[1]):
            if game_id in games:
                games[game_id].resigned.add(seat)
        return list(games.values())


def player_of(seat: SeatRecord) -> str:
    """The rated identity behind a seat: its member (also when an AI took the seat over after
    timeouts or a resignation), else the AI's level."""
    return f"u:{seat.user_id}" if seat.user_id is not None else f"ai:{seat.ai_level}"


def _players_of(game: FinishedGame) -> list[str]:
    return sorted({player_of(s) for s in game.seats})


def result_steps(game_id: int, results: Sequence[ResultRow], now: float) -> list[Step]:
    """The ``results`` rows of a save that finishes a game (one per member)."""
    if not results:
        return []
    return [
        (
            "INSERT INTO results (game_id, guild_id, kind, user_id, place, score, outcome, finished_at) "
            "SELECT g.id, g.guild_id, g.kind, ?, ?, ?, ?, ? FROM games g WHERE g.id = ? "
            "ON CONFLICT (game_id, user_id) DO UPDATE SET place = excluded.place, score = excluded.score, "
            "outcome = excluded.outcome, finished_at = excluded.finished_at",
            [(r.user_id, r.place, r.score, r.outcome, now, game_id) for r in results],
            True,
        )
    ]


def _rating_values(r: StoredRating) -> tuple[Any, ...]:
    return (
        r.player,
        r.user_id,
        r.name,
        r.mu,
        r.sigma,
        r.rating,
        r.games,
        r.wins,
        r.draws,
        r.streak,
        r.best_streak,
        r.last_game_id,
    )


def _rating_from_row(r: Any) -> StoredRating:
    return StoredRating(*tuple(r))


def _history_row(game: FinishedGame, c: RatingChange) -> tuple[Any, ...]:
    return (
        game.id,
        game.guild_id,
        game.kind,
        c.after.player,
        c.seat,
        c.rank,
        c.outcome,
        c.before.mu,
        c.before.sigma,
        c.before.rating,
        c.after.mu,
        c.after.sigma,
        c.after.rating,
        game.finished_at,
    )
