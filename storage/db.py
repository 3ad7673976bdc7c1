"""Storage: games, seats, the action log, timers, settings and results.

One set of queries over two backends: SQLite (storage.sqlite, the default: one file, one
process) and PostgreSQL (storage.postgres, shared by several processes). Every save of a game is one transaction holding the new state, its
action-log rows and any seat changes, guarded by an optimistic version check, so a failed
save leaves the game exactly as it was.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import orjson

from storage.errors import (
    ChannelBusy,
    ConstraintViolation,
    DatabaseGone,
    DatabaseUnavailable,
    GameDamaged,
    GameNotFound,
    StorageError,
    VersionConflict,
)
from storage.ratings import RateGame, RatingTables
from storage.rowcache import DEFAULT_CAPACITY, GameRowCache, GameRows
from storage.schema import latest_schema_version, migrations
from storage.sqlite import SqliteBackend

log = logging.getLogger("dragon_tavern.storage.db")

ACTIVE_STATUSES = ("lobby", "active")
MAX_ROW_ID = 2**63 - 1  # SQLite's INTEGER range (and PostgreSQL's BIGINT): a larger id names no row

__all__ = [  # the errors live in storage.errors; importing them from here keeps working
    "ChannelBusy", "ConstraintViolation", "Database", "DatabaseGone", "DatabaseUnavailable", "GameDamaged",
    "GameNotFound", "StorageError", "VersionConflict", "latest_schema_version",
]


class Backend(Protocol):
    """What a backend gives :class:`Database`: four primitives, a per-game lock, closing."""

    name: str
    closed: bool
    # True when this process alone writes the data (SQLite: one process owns the file), so
    # Database may serve game loads from what it read and wrote (storage.rowcache).
    exclusive: bool

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int: ...

    async def run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    def transaction(self) -> contextlib.AbstractAsyncContextManager[None]: ...

    def game_lock(self, game_id: int) -> contextlib.AbstractAsyncContextManager[None]: ...

    async def run_steps(self, steps: Sequence[tuple[str, Any, bool]]) -> list[Any]: ...

    def delivery_lock(self, game_id: int) -> contextlib.AbstractAsyncContextManager[None]: ...

    async def lock_ratings(self) -> None: ...

    async def close(self) -> None: ...

    def close_now(self) -> None: ...


@dataclass
class SeatRecord:
    seat: str
    position: int
    user_id: int | None
    ai_level: str | None
    display_name: str
    timeouts_in_a_row: int = 0
    private_route: str = "unknown"

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None


@dataclass
class GameRecord:
    id: int
    kind: str
    guild_id: int
    channel_id: int
    host_user_id: int
    status: str
    options: dict[str, Any]
    seed: int
    state: dict[str, Any] | None
    version: int
    board_message_id: int | None
    result: dict[str, Any] | None
    created_at: float
    updated_at: float
    seats: list[SeatRecord] = field(default_factory=list)
    recent: list[str] = field(default_factory=list)  # last public lines, for the board
    in_thread: bool = False  # opened to be played in a thread of its channel (migration 008)
    thread_id: int | None = None  # where a started in_thread game is played
    rematch_of: int | None = None  # the ended game this lobby repeats (its Rematch button)

    @property
    def table_channel_id(self) -> int:
        """Where the game's board and turn pings are posted: its thread once it has one, else its channel."""
        return self.thread_id or self.channel_id

    def seat_of_user(self, user_id: int) -> SeatRecord | None:
        return next((s for s in self.seats if s.user_id == user_id and not s.is_ai), None)

    def seat(self, seat_id: str) -> SeatRecord:
        return next(s for s in self.seats if s.seat == seat_id)


@dataclass(frozen=True)
class GameAccess:
    """Who a game belongs to, read without decoding its saved data (for routing a click)."""

    guild_id: int
    channel_id: int
    status: str
    seated: bool  # the asking user holds a seat (their own, or one an AI took over)
    damaged: bool


@dataclass(frozen=True)
class ActionRow:
    seat: str
    action: str
    source: str = "player"  # player / ai / timeout / system
    user_id: int | None = None


@dataclass(frozen=True)
class LoggedAction:
    seq: int
    seat: str
    user_id: int | None
    source: str
    action: str
    created_at: float


@dataclass
class Announcement:
    """One saved change still to be announced (a row of the outbox)."""

    id: int
    game_id: int
    version: int
    events: list[dict[str, Any]]  # engine events as dicts (Event.to_dict)
    progress: dict[str, Any]  # delivery steps already done, e.g. {"recent": true, "dm": ["p1"]}


@dataclass(frozen=True)
class HandMessage:
    """A seat's private message of a game (a DM): where it is and what it last showed."""

    channel_id: int
    message_id: int
    prompt_key: str
    asked: bool  # sent as a call to act (a new DM), not only an update of the hand


@dataclass(frozen=True)
class ResultRow:
    user_id: int
    place: int
    score: float | None
    outcome: str


PROGRESS_MARK = "✍️"  # a Recent line that says how far a phase is, updated in place


def _migrations() -> list[tuple[int, str]]:
    return migrations()


class Database(RatingTables):
    """An open database. Open it with ``async with await Database.open(target) as db:`` (or
    ``await Database.open(target)`` and ``await db.close()`` on every path): an unclosed
    SQLite connection's worker thread keeps the process from exiting."""

    def __init__(self, backend: Backend, clock: Callable[[], float]) -> None:
        self._backend = backend
        self._clock = clock
        self._rows = GameRowCache(DEFAULT_CAPACITY if backend.exclusive else 0)
        # Called with a game id when a game is newly found damaged (the bot announces it).
        self.on_damaged: Callable[[int], None] | None = None

    # -- opening --------------------------------------------------------------------------
    @classmethod
    async def open(
        cls, target: str | Path, *, clock: Callable[[], float] = time.time, busy_timeout_ms: int = 5000
    ) -> Database:
        """Open (and migrate) the database at ``target``: a SQLite file (a path, or
        ``sqlite:///path``) or a PostgreSQL server (``postgresql://user:pass@host:port/db``)."""
        text = str(target)
        if text.startswith(("postgresql://", "postgres://")):
            from storage.postgres import PostgresBackend  # asyncpg is needed only for PostgreSQL

            return cls(await PostgresBackend.open(text, clock), clock)
        if text.startswith("sqlite://"):
            target = text.removeprefix("sqlite://")  # sqlite:///abs/path or sqlite://relative/path
        elif "://" in text:
            raise StorageError(f"DATABASE_URL must start with sqlite:// or postgresql://, not "
                               f"`{text.split('://', 1)[0]}://`.")
        return cls(await SqliteBackend.open(Path(target), clock, busy_timeout_ms), clock)

    @property
    def backend_name(self) -> str:
        """'sqlite' or 'postgres'."""
        return self._backend.name

    @property
    def exclusive(self) -> bool:
        """True when this process alone writes the database (SQLite): what it read and wrote
        stays true; False on PostgreSQL, where other processes write too."""
        return self._backend.exclusive

    @property
    def path(self) -> Path | None:
        """The SQLite file, or None on PostgreSQL."""
        return self._backend.path if isinstance(self._backend, SqliteBackend) else None

    @property
    def _conn(self) -> Any:
        """The SQLite connection (tests that simulate a full disk patch it)."""
        assert isinstance(self._backend, SqliteBackend)
        return self._backend.conn

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, exc_type: object, exc: BaseException | None, tb: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the connection (pool) and stop its worker thread (safe to call twice)."""
        await self._backend.close()

    def close_now(self) -> None:
        """Close without awaiting (no event loop needed): stops the worker thread."""
        self._backend.close_now()

    @property
    def _closed(self) -> bool:
        return self._backend.closed

    @property
    def read_only_reason(self) -> str | None:
        """Why writes are refused (the SQLite file was deleted or replaced), or None."""
        return self._backend.gone if isinstance(self._backend, SqliteBackend) else None

    def game_lock(self, game_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold while acting on a game: one action at a time per game. SQLite: a lock in this
        process (one process owns the file); PostgreSQL: an advisory lock, across processes."""
        return self._backend.game_lock(game_id)

    def delivery_lock(self, game_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold while announcing a game's saved changes (the outbox): one delivery per game at
        a time, across processes on PostgreSQL, so no Recent line or ping goes out twice."""
        return self._backend.delivery_lock(game_id)

    async def _lock_ratings(self) -> None:
        """Inside a transaction: until it ends, no other transaction (of any process) rates a
        game or rebuilds the ratings, so none of them reads ratings another is rewriting."""
        await self._backend.lock_ratings()

    async def claim_timer(self, game_id: int, purpose: str, now: float) -> bool:
        """Take a due timer: delete its row if its deadline has passed. True for exactly one
        caller, whichever process asks, so a timer fires once."""
        count = await self._backend.run(
            "DELETE FROM timers WHERE game_id = ? AND purpose = ? AND deadline <= ?", (game_id, purpose, now))
        return count == 1

    async def applied_migrations(self) -> list[int]:
        rows = await self._fetch("SELECT version FROM schema_migrations ORDER BY version")
        return [r[0] for r in rows]

    # -- settings -------------------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        rows = await self._fetch(
            "SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return {r["key"]: json.loads(r["value"]) for r in rows}

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        await self._run(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
            (guild_id, key, json.dumps(value)),
        )

    async def reset_guild_setting(self, guild_id: int, key: str) -> None:
        await self._run("DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))

    # -- games ----------------------------------------------------------------------------
    async def create_game(
        self,
        *,
        kind: str,
        guild_id: int,
        channel_id: int,
        host_user_id: int,
        options: dict[str, Any],
        seed: int,
        seats: Sequence[SeatRecord] = (),
        announce: Sequence[dict[str, Any]] | None = None,
        in_thread: bool = False,
        rematch_of: int | None = None,
    ) -> GameRecord:
        """Insert a lobby; with ``announce``, also queue its announcement (see :meth:`save_game`).
        ChannelBusy if the channel already has a game played in it (``in_thread`` lobbies never are)."""
        now = self._clock()
        async with self._transaction():
            try:
                [(game_id,)] = await self._fetch(
                    "INSERT INTO games (kind, guild_id, channel_id, host_user_id, status, options, seed, "
                    "created_at, updated_at, in_thread, rematch_of) "
                    "VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?) RETURNING id",
                    (kind, guild_id, channel_id, host_user_id, json.dumps(options), seed, now, now,
                     int(in_thread), rematch_of),
                )
            except ConstraintViolation as exc:
                raise ChannelBusy("This channel already has a game. Finish or cancel it first.") from exc
            assert game_id is not None
            await self._write_seats(game_id, seats)
            if announce is not None:
                await self._queue_announcement(game_id, 0, announce, now)
        return await self.load_game(game_id)

    async def load_game(self, game_id: int) -> GameRecord:
        """One game with its seats. GameNotFound if there is no such game (or the id is out of
        SQLite's range); GameDamaged if its saved data cannot be decoded. When this process
        owns the database, the rows come from what it last read or wrote (storage.rowcache)."""
        if not 0 < game_id <= MAX_ROW_ID:
            raise GameNotFound(f"Game {game_id} does not exist.")
        rows = self._rows.get(game_id)
        if rows is None:
            self._rows.start_read(game_id)
            try:
                rows = await self._read_game_rows(game_id)
            finally:
                self._rows.finish_read(game_id, rows)
        try:
            record = _game_from_row(rows.game)
        except _DECODE_ERRORS as exc:
            await self.mark_damaged(game_id, f"saved data cannot be decoded: {exc}")
            raise GameDamaged(DAMAGED_MESSAGE) from exc
        record.seats = [_seat_from_row(seat) for seat in rows.seats]
        return record

    async def _read_game_rows(self, game_id: int) -> GameRows:
        # The game and its seats in one statement (one row per seat, the game's columns repeated):
        # every statement is a round trip to the database thread, and a click loads a game.
        rows = await self._fetch(
            "SELECT g.*, d.game_id IS NOT NULL AS damaged, s.seat AS seat_id, s.position AS seat_position, "
            "s.user_id AS seat_user_id, s.ai_level AS seat_ai_level, s.display_name AS seat_display_name, "
            "s.timeouts_in_a_row AS seat_timeouts, s.private_route AS seat_private_route "
            "FROM games g LEFT JOIN damaged_games d ON d.game_id = g.id "
            "LEFT JOIN seats s ON s.game_id = g.id WHERE g.id = ? ORDER BY s.position", (game_id,))
        if not rows:
            raise GameNotFound(f"Game {game_id} does not exist.")
        if rows[0]["damaged"]:
            raise GameDamaged(DAMAGED_MESSAGE)
        game = {column: rows[0][column] for column in rows[0].keys()  # noqa: SIM118 (a Row iterates values)
                if column != "damaged" and not column.startswith("seat_")}
        seats = [{"seat": r["seat_id"], "position": r["seat_position"], "user_id": r["seat_user_id"],
                  "ai_level": r["seat_ai_level"], "display_name": r["seat_display_name"],
                  "timeouts_in_a_row": r["seat_timeouts"], "private_route": r["seat_private_route"]}
                 for r in rows if r["seat_id"] is not None]
        return GameRows(game, seats)

    async def game_access(self, game_id: int, user_id: int) -> GameAccess | None:
        """The guild, channel and status of a game and whether ``user_id`` is seated in it, or
        None if there is no such game. Reads no JSON, so it works for damaged games too."""
        if not 0 < game_id <= MAX_ROW_ID:
            return None
        rows = await self._fetch(
            "SELECT g.guild_id, g.channel_id, g.status, "
            "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?), "
            "EXISTS (SELECT 1 FROM damaged_games d WHERE d.game_id = g.id) "
            "FROM games g WHERE g.id = ?", (user_id, game_id))
        if not rows:
            return None
        guild_id, channel_id, status, seated, damaged = tuple(rows[0])
        return GameAccess(guild_id, channel_id, status, bool(seated), bool(damaged))

    # -- damaged games ----------------------------------------------------------------------
    async def mark_damaged(self, game_id: int, reason: str) -> bool:
        """Set a game aside because its saved data cannot be used. Logged at ERROR once (the
        first time); ``on_damaged`` is called then. Returns True if it was newly marked."""
        try:
            async with self._transaction():
                rowcount, _ = await self._run(
                    "INSERT INTO damaged_games (game_id, reason, found_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    (game_id, reason[:500], self._clock()))
                # It can't go on, so it must not hold its channel: end it (its data stays for
                # the admins to look at) and drop its timers.
                await self._run("UPDATE games SET status = 'abandoned' WHERE id = ? AND status IN ('lobby', 'active')",
                                (game_id,))
                await self._run("DELETE FROM timers WHERE game_id = ?", (game_id,))
        except StorageError as exc:
            log.error("game %s is damaged (%s) and could not be marked so: %s", game_id, reason, exc)
            return False
        finally:
            self._rows.forget(game_id)
        if rowcount != 1:
            return False
        log.error("game %s is damaged and set aside: %s", game_id, reason)
        if self.on_damaged is not None:
            self.on_damaged(game_id)
        return True

    async def damaged_games(self) -> dict[int, str]:
        rows = await self._fetch("SELECT game_id, reason FROM damaged_games ORDER BY game_id")
        return {r[0]: r[1] for r in rows}

    async def unannounced_damaged(self) -> list[tuple[int, int]]:
        """(game id, channel id) of damaged games whose channel was not told yet."""
        rows = await self._fetch(
            "SELECT d.game_id, g.channel_id FROM damaged_games d JOIN games g ON g.id = d.game_id "
            "WHERE d.announced_at IS NULL ORDER BY d.game_id")
        return [(r[0], r[1]) for r in rows]

    async def claim_damage_announcement(self, game_id: int) -> bool:
        """Mark a damaged game as announced; True only for the one caller that should post."""
        rowcount, _ = await self._run(
            "UPDATE damaged_games SET announced_at = ? WHERE game_id = ? AND announced_at IS NULL",
            (self._clock(), game_id))
        return rowcount == 1

    async def active_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The lobby or running game played in a channel or thread: the one game of a game's
        thread, or the one game a channel holds itself (not the lobbies waiting for a thread)."""
        rows = await self._fetch(
            "SELECT id FROM games WHERE status IN ('lobby', 'active') "
            "AND (thread_id = ? OR (channel_id = ? AND in_thread = 0)) ORDER BY id DESC LIMIT 1",
            (channel_id, channel_id),
        )
        return await self.load_game(rows[0][0]) if rows else None

    async def thread_lobbies_in_channel(self, channel_id: int) -> list[GameRecord]:
        """The open lobbies of a channel whose games will be played in threads, oldest first."""
        rows = await self._fetch(
            "SELECT id FROM games WHERE channel_id = ? AND status = 'lobby' AND in_thread = 1 ORDER BY id",
            (channel_id,),
        )
        return [await self.load_game(r[0]) for r in rows]

    async def open_rematch(self, game_id: int) -> GameRecord | None:
        """The lobby or running game a Rematch of ``game_id`` opened, if one is open."""
        rows = await self._fetch(
            "SELECT id FROM games WHERE rematch_of = ? AND status IN ('lobby', 'active') ORDER BY id DESC LIMIT 1",
            (game_id,),
        )
        return await self.load_game(rows[0][0]) if rows else None

    async def last_ended_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The game that ended last in a channel or thread, among those that started (not a closed
        lobby); a game played in a thread is its thread's, not its channel's."""
        rows = await self._fetch(
            "SELECT id FROM games WHERE status IN ('finished', 'cancelled', 'abandoned') "
            "AND (thread_id = ? OR (channel_id = ? AND thread_id IS NULL)) "
            "AND state IS NOT NULL AND id NOT IN (SELECT game_id FROM damaged_games) "
            "ORDER BY updated_at DESC, id DESC LIMIT 1", (channel_id, channel_id)
        )
        return await self.load_game(rows[0][0]) if rows else None

    async def games(
        self, *, guild_id: int | None = None, statuses: Iterable[str] = ACTIVE_STATUSES,
        user_id: int | None = None,
    ) -> list[GameRecord]:
        """Games by status, in one server or all; with ``user_id``, those the member plays in."""
        statuses = tuple(statuses)
        marks = ",".join("?" * len(statuses))
        sql = (f"SELECT * FROM games WHERE status IN ({marks}) "
               "AND id NOT IN (SELECT game_id FROM damaged_games)")
        params: list[Any] = list(statuses)
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        if user_id is not None:
            sql += " AND id IN (SELECT game_id FROM seats WHERE user_id = ?)"
            params.append(user_id)
        rows = await self._fetch(sql + " ORDER BY id", params)
        records = []
        for row in rows:  # one undecodable row is set aside; it never breaks the listing
            try:
                records.append(_game_from_row(row))
            except _DECODE_ERRORS as exc:
                await self.mark_damaged(row["id"], f"saved data cannot be decoded: {exc}")
        if records:
            by_id = {r.id: r for r in records}
            id_marks = ",".join("?" * len(by_id))
            seat_rows = await self._fetch(
                f"SELECT * FROM seats WHERE game_id IN ({id_marks}) ORDER BY position", list(by_id)
            )
            for s in seat_rows:
                by_id[s["game_id"]].seats.append(_seat_from_row(s))
        return records

    async def save_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        state: dict[str, Any] | None = None,
        status: str | None = None,
        result: dict[str, Any] | None = None,
        actions: Sequence[ActionRow] = (),
        seats: Sequence[SeatRecord] | None = None,
        clear_timers: bool = False,
        timers: Mapping[str, float | None] | None = None,
        results: Sequence[ResultRow] = (),
        announce: Sequence[dict[str, Any]] | None = None,
        options: dict[str, Any] | None = None,
        rate: RateGame | None = None,
    ) -> int:
        """Write a new version of a game atomically; return the new version.

        ``rate`` (with ``status="finished"``) updates the ratings from the finished game in the
        same transaction, so a crash can neither lose a result's rating nor count it twice.

        ``announce`` (event dicts, possibly none) queues the change for announcing in the same
        transaction (the outbox), so a crash after the commit cannot lose the announcement.
        ``timers`` sets these timers' deadlines (``None`` removes one) in the same transaction,
        after ``clear_timers`` removed them all.
        Raises VersionConflict (and writes nothing) if the stored version is not
        ``expected_version``.

        Each statement through aiosqlite is a round trip to its thread (~0.15 ms here, more
        than SQLite's own work), so a save without ratings goes in one trip: BEGIN IMMEDIATE,
        every write and COMMIT (see the backends' ``run_steps``).
        """
        now = self._clock()
        # The games columns written, as stored (also what the row cache is patched with).
        columns: dict[str, Any] = {"updated_at": now}
        if state is not None:
            columns["state"] = _encode_json(state)
        if status is not None:
            columns["status"] = status
            if status == "finished":
                columns["finished_at"] = now
        if result is not None:
            columns["result"] = _encode_json(result)
        if options is not None:  # lobby choices kept with the options (e.g. team picks)
            columns["options"] = _encode_json(options)
        sets = ", ".join(f"{column} = ?" for column in columns)
        # The writes, in order; the first is the version check (it returns the game's row only
        # when the stored version is the expected one).
        steps: list[_Step] = [(
            f"UPDATE games SET version = version + 1, {sets} WHERE id = ? AND version = ? RETURNING id",
            [*columns.values(), game_id, expected_version], False,
        )]
        columns["version"] = expected_version + 1
        for a in actions:  # seq continues the log, computed in the INSERT itself
            steps.append((
                "INSERT INTO actions (game_id, seq, version, seat, user_id, source, action, created_at) "
                "SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ? FROM actions WHERE game_id = ?",
                (game_id, expected_version + 1, a.seat, a.user_id, a.source, a.action, now, game_id), False,
            ))
        if seats is not None:
            steps.append(("DELETE FROM seats WHERE game_id = ?", (game_id,), False))
            steps.append((_INSERT_SEAT, [(game_id, *_seat_columns(s).values()) for s in seats], True))
        if clear_timers:
            steps.append(("DELETE FROM timers WHERE game_id = ?", (game_id,), False))
        due = [(purpose, deadline) for purpose, deadline in (timers or {}).items() if deadline is not None]
        gone = [purpose for purpose, deadline in (timers or {}).items() if deadline is None]
        if due:
            steps.append((
                f"INSERT INTO timers (game_id, purpose, deadline) VALUES {', '.join(['(?, ?, ?)'] * len(due))} "
                "ON CONFLICT (game_id, purpose) DO UPDATE SET deadline = excluded.deadline",
                [value for purpose, deadline in due for value in (game_id, purpose, deadline)], False,
            ))
        if gone and not clear_timers:
            steps.append((f"DELETE FROM timers WHERE game_id = ? AND purpose IN ({', '.join('?' * len(gone))})",
                          (game_id, *gone), False))
        if results:
            steps.append((
                "INSERT INTO results (game_id, guild_id, kind, user_id, place, score, outcome, finished_at) "
                "SELECT g.id, g.guild_id, g.kind, ?, ?, ?, ?, ? FROM games g WHERE g.id = ? "
                "ON CONFLICT (game_id, user_id) DO UPDATE SET place = excluded.place, score = excluded.score, "
                "outcome = excluded.outcome, finished_at = excluded.finished_at",
                [(r.user_id, r.place, r.score, r.outcome, now, game_id) for r in results], True,
            ))
        if announce is not None:  # the outbox row, as _queue_announcement writes it
            steps.append(("INSERT INTO outbox (game_id, version, events, created_at) VALUES (?, ?, ?, ?)",
                          (game_id, expected_version + 1, _encode_json(list(announce)), now), False))
        try:
            await self._write_game(game_id, steps, rate if status == "finished" else None)
        except BaseException:
            self._rows.forget(game_id)  # whatever happened, the next load reads the database
            raise
        seat_rows = None if seats is None else [_seat_columns(s) for s in seats]
        self._rows.wrote(game_id, columns, expected_version=expected_version, seats=seat_rows)
        return expected_version + 1

    async def _write_game(self, game_id: int, steps: list[_Step], rate: RateGame | None) -> None:
        """Run a save's steps in one transaction; the first is the version check."""
        if rate is None:
            # The usual save: the whole transaction in one trip (SQLite: one call to its thread).
            if len(await self._backend.run_steps(steps)) != 1:
                raise VersionConflict("The game changed meanwhile; nothing was saved.")
            return
        async with self._transaction():  # a finish that updates ratings: those need reads first
            sql, args, _ = steps[0]
            if len(await self._fetch(sql, args)) != 1:
                raise VersionConflict("The game changed meanwhile; nothing was saved.")
            for sql, args, many in steps[1:]:
                if many:
                    await self._run_many(sql, args)
                else:
                    await self._fetch(sql, args)
            await self._rate_finished_game(game_id, rate)

    # -- the outbox -----------------------------------------------------------------------
    async def queue_announcement(self, game_id: int, events: Sequence[dict[str, Any]]) -> None:
        """Queue events that follow no save of the game (e.g. where private prompts go)."""
        async with self._transaction():
            rows = await self._fetch("SELECT version FROM games WHERE id = ?", (game_id,))
            if not rows:
                raise GameNotFound(f"Game {game_id} does not exist.")
            await self._queue_announcement(game_id, rows[0][0], events, self._clock())

    async def _queue_announcement(
        self, game_id: int, version: int, events: Sequence[dict[str, Any]], now: float
    ) -> None:
        await self._run(
            "INSERT INTO outbox (game_id, version, events, created_at) VALUES (?, ?, ?, ?)",
            (game_id, version, json.dumps(list(events), separators=(",", ":")), now),
        )

    async def pending_announcements(self, game_id: int) -> list[Announcement]:
        rows = await self._fetch(
            "SELECT id, game_id, version, events, progress FROM outbox WHERE game_id = ? ORDER BY id", (game_id,)
        )
        return [Announcement(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4])) for r in rows]

    async def games_with_announcements(self) -> list[int]:
        """Games with changes not yet announced (oldest first): delivered again at start-up."""
        rows = await self._fetch("SELECT game_id FROM outbox GROUP BY game_id ORDER BY MIN(id)")
        return [r[0] for r in rows]

    async def save_progress(
        self, announcements: Sequence[Announcement], *, recent: tuple[Sequence[str], int] | None = None
    ) -> list[str] | None:
        """Store these rows' ``progress`` (the delivery steps done) in one transaction; with
        ``recent=(lines, keep)`` the board's Recent lines are appended in that same transaction,
        so they are written exactly once. A line starting with PROGRESS_MARK replaces a last
        line that starts with it too. Returns the new Recent list if it was changed."""
        if not announcements:
            return None
        new_recent = None
        async with self._transaction():
            await self._run_many("UPDATE outbox SET progress = ? WHERE id = ?",
                                 [(json.dumps(a.progress), a.id) for a in announcements])
            if recent is not None:
                lines, keep = recent
                game_id = announcements[0].game_id
                rows = await self._fetch("SELECT recent FROM games WHERE id = ?", (game_id,))
                old = json.loads(rows[0][0]) if rows else []
                if old and old[-1].startswith(PROGRESS_MARK) and any(x.startswith(PROGRESS_MARK) for x in lines):
                    old = old[:-1]  # a progress line ("✍️ still planning: …") is updated, not repeated
                new_recent = (old + list(lines))[-keep:]
                stored = json.dumps(new_recent)
                await self._run("UPDATE games SET recent = ? WHERE id = ?", (stored, game_id))
            if new_recent is not None:
                self._rows.wrote(game_id, {"recent": stored})
        return new_recent

    async def finish_announcements(self, announcements: Sequence[Announcement]) -> None:
        """Delivered: drop the rows."""
        ids = [a.id for a in announcements]
        if ids:
            await self._run(f"DELETE FROM outbox WHERE id IN ({','.join('?' * len(ids))})", ids)

    async def set_host(self, game_id: int, user_id: int | None) -> None:
        await self._update_game(game_id, "host_user_id", user_id)

    async def set_private_route(self, game_id: int, seat: str, route: str) -> None:
        try:
            await self._run(
                "UPDATE seats SET private_route = ? WHERE game_id = ? AND seat = ?", (route, game_id, seat)
            )
        except BaseException:
            self._rows.forget(game_id)
            raise
        self._rows.wrote_seat(game_id, seat, {"private_route": route})

    async def _update_game(self, game_id: int, column: str, value: Any) -> None:
        """Set one column of a game that no version check guards (not part of its state)."""
        try:
            await self._run(f"UPDATE games SET {column} = ? WHERE id = ?", (value, game_id))
        except BaseException:
            self._rows.forget(game_id)
            raise
        self._rows.wrote(game_id, {column: value})

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        await self._update_game(game_id, "board_message_id", message_id)

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        """Where a started in_thread game is played from now on (its thread, or its channel)."""
        await self._update_game(game_id, "thread_id", thread_id)

    async def actions(self, game_id: int) -> list[LoggedAction]:
        rows = await self._fetch(
            "SELECT seq, seat, user_id, source, action, created_at FROM actions WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [LoggedAction(*tuple(r)) for r in rows]

    async def action_at_version(self, game_id: int, version: int) -> LoggedAction | None:
        """The action whose save produced ``version`` (to recognise a repeated click)."""
        rows = await self._fetch(
            "SELECT seq, seat, user_id, source, action, created_at FROM actions WHERE game_id = ? AND version = ?",
            (game_id, version),
        )
        return LoggedAction(*tuple(rows[0])) if rows else None

    # -- timers ---------------------------------------------------------------------------
    async def set_timer(self, game_id: int, purpose: str, deadline: float) -> None:
        await self._run(
            "INSERT INTO timers (game_id, purpose, deadline) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id, purpose) DO UPDATE SET deadline = excluded.deadline",
            (game_id, purpose, deadline),
        )

    async def set_timers(self, game_id: int, deadlines: dict[str, float]) -> None:
        """Several timers of a game in one statement (one commit), e.g. a turn and its reminder."""
        rows = [(game_id, purpose, deadline) for purpose, deadline in deadlines.items()]
        await self._run(
            f"INSERT INTO timers (game_id, purpose, deadline) VALUES {', '.join(['(?, ?, ?)'] * len(rows))} "
            "ON CONFLICT (game_id, purpose) DO UPDATE SET deadline = excluded.deadline",
            [value for row in rows for value in row],
        )

    async def clear_timers(self, game_id: int, purposes: Sequence[str]) -> None:
        await self._run(f"DELETE FROM timers WHERE game_id = ? AND purpose IN ({','.join('?' * len(purposes))})",
                        (game_id, *purposes))

    async def clear_timer(self, game_id: int, purpose: str) -> None:
        await self._run("DELETE FROM timers WHERE game_id = ? AND purpose = ?", (game_id, purpose))

    async def timers(
        self, *, due_by: float | None = None, game_id: int | None = None
    ) -> list[tuple[int, str, float]]:
        """Pending timers (game id, purpose, deadline) by deadline, except those of damaged
        games; only those due by ``due_by`` and / or of ``game_id`` when given."""
        where, params = ["game_id NOT IN (SELECT game_id FROM damaged_games)"], []
        if due_by is not None:
            where.append("deadline <= ?")
            params.append(due_by)
        if game_id is not None:
            where.append("game_id = ?")
            params.append(game_id)
        rows = await self._fetch(
            f"SELECT game_id, purpose, deadline FROM timers WHERE {' AND '.join(where)} ORDER BY deadline", params)
        return [(r[0], r[1], r[2]) for r in rows]

    async def timer(self, game_id: int, purpose: str) -> float | None:
        rows = await self._fetch(
            "SELECT deadline FROM timers WHERE game_id = ? AND purpose = ? "
            "AND game_id NOT IN (SELECT game_id FROM damaged_games)", (game_id, purpose)
        )
        return rows[0][0] if rows else None

    # -- telling players (migration 005) ---------------------------------------------------
    async def notify_pref(self, user_id: int) -> str:
        """How the member wants to be told they must act: 'channel' (the default), 'dm' or 'off'."""
        rows = await self._fetch("SELECT notify FROM member_prefs WHERE user_id = ?", (user_id,))
        return str(rows[0][0]) if rows else "channel"

    async def set_notify_pref(self, user_id: int, notify: str) -> None:
        await self._run(
            "INSERT INTO member_prefs (user_id, notify) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify", (user_id, notify))

    async def pings(self, game_id: int) -> list[tuple[int, int]]:
        """The game's turn pings still standing, as (channel id, message id), oldest first
        (Discord's message ids grow with time)."""
        rows = await self._fetch(
            "SELECT channel_id, message_id FROM pings WHERE game_id = ? ORDER BY message_id", (game_id,))
        return [(r[0], r[1]) for r in rows]

    async def add_ping(self, game_id: int, channel_id: int, message_id: int) -> None:
        await self._run("INSERT INTO pings (game_id, channel_id, message_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                        (game_id, channel_id, message_id))

    async def drop_ping(self, game_id: int, message_id: int) -> None:
        await self._run("DELETE FROM pings WHERE game_id = ? AND message_id = ?", (game_id, message_id))

    async def hand(self, game_id: int, seat: str) -> HandMessage | None:
        rows = await self._fetch(
            "SELECT channel_id, message_id, prompt_key, asked FROM hands WHERE game_id = ? AND seat = ?",
            (game_id, seat))
        return HandMessage(rows[0][0], rows[0][1], rows[0][2], bool(rows[0][3])) if rows else None

    async def set_hand(self, game_id: int, seat: str, hand: HandMessage) -> None:
        await self._run(
            "INSERT INTO hands (game_id, seat, channel_id, message_id, prompt_key, asked) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (game_id, seat) DO UPDATE SET channel_id = excluded.channel_id, "
            "message_id = excluded.message_id, prompt_key = excluded.prompt_key, asked = excluded.asked",
            (game_id, seat, hand.channel_id, hand.message_id, hand.prompt_key, int(hand.asked)))

    # -- stats ----------------------------------------------------------------------------
    async def user_stats(self, guild_id: int, user_id: int) -> dict[str, dict[str, int]]:
        rows = await self._fetch(
            "SELECT kind, outcome, COUNT(*) FROM results WHERE guild_id = ? AND user_id = ? GROUP BY kind, outcome",
            (guild_id, user_id),
        )
        stats: dict[str, dict[str, int]] = {}
        for kind, outcome, count in rows:
            stats.setdefault(kind, {})[outcome] = count
        return stats

    # -- internals ----
    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await self._backend.fetch(sql, params)

    async def _run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._backend.run_many(sql, rows)

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, None]:
        """Execute one statement; return (rowcount, None). The second place once held SQLite's
        lastrowid; an INSERT that needs its new id says ``RETURNING id`` through ``_fetch``.
        Operational failures (locked, disk full, server gone) become DatabaseUnavailable,
        which the bot explains to the user."""
        return await self._backend.run(sql, params), None

    def _transaction(self) -> contextlib.AbstractAsyncContextManager[None]:
        return self._backend.transaction()

    def _seat_record(self, row: Any) -> SeatRecord:
        return _seat_from_row(row)

    async def _seats(self, game_id: int) -> list[SeatRecord]:
        rows = await self._fetch(
            "SELECT * FROM seats WHERE game_id = ? ORDER BY position", (game_id,)
        )
        return [_seat_from_row(r) for r in rows]

    async def _write_seats(self, game_id: int, seats: Sequence[SeatRecord]) -> None:
        await self._run_many(_INSERT_SEAT, [(game_id, *_seat_columns(s).values()) for s in seats])


# A write in a transaction: (sql, parameters, many): ``many`` runs the statement once per row.
_Step = tuple[str, Any, bool]


DAMAGED_MESSAGE = ("This game's saved data is damaged, so it cannot be played or shown. "
                   "The server's admins were told; every other game works.")
# What decoding a corrupt row raises (JSONDecodeError is a ValueError; a non-text column or a
# JSON value of the wrong shape is a TypeError).
_DECODE_ERRORS = (ValueError, TypeError)


def _encode_json(value: Any) -> str:
    """Compact JSON text for a column. orjson is several times faster than the standard
    library on game states; the standard library takes what orjson refuses (integers past 64
    bits), so anything that saved before still saves."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))


def _decode_json(raw: str | bytes) -> Any:
    """The value of a JSON column. Rows written by the standard library may hold what orjson
    refuses to read (NaN, integers past 64 bits): those are read the standard way."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return json.loads(raw)


def _json_field(r: Any, column: str, kind: type, *, nullable: bool = True) -> Any:
    raw = r[column]
    if raw is None and nullable:
        return None
    value = _decode_json(raw)
    if not isinstance(value, kind):
        raise TypeError(f"{column} is {type(value).__name__}, not {kind.__name__}")
    return value


def _game_from_row(r: Any) -> GameRecord:
    return GameRecord(
        id=r["id"],
        kind=r["kind"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        host_user_id=r["host_user_id"],
        status=r["status"],
        options=_json_field(r, "options", dict, nullable=False),
        seed=r["seed"],
        state=_json_field(r, "state", dict),
        version=r["version"],
        board_message_id=r["board_message_id"],
        result=_json_field(r, "result", dict),
        created_at=r["created_at"],
        updated_at=r["updated_at"],
        recent=_json_field(r, "recent", list, nullable=False),
        in_thread=bool(r["in_thread"]),
        thread_id=r["thread_id"],
        rematch_of=r["rematch_of"],
    )


_INSERT_SEAT = ("INSERT INTO seats (game_id, seat, position, user_id, ai_level, display_name, timeouts_in_a_row, "
                "private_route) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")


def _seat_columns(s: SeatRecord) -> dict[str, Any]:
    """A seat's columns as stored, in _INSERT_SEAT's order (after game_id)."""
    return {"seat": s.seat, "position": s.position, "user_id": s.user_id, "ai_level": s.ai_level,
            "display_name": s.display_name, "timeouts_in_a_row": s.timeouts_in_a_row,
            "private_route": s.private_route}


def _seat_from_row(r: Any) -> SeatRecord:
    return SeatRecord(
        seat=r["seat"],
        position=r["position"],
        user_id=r["user_id"],
        ai_level=r["ai_level"],
        display_name=r["display_name"],
        timeouts_in_a_row=r["timeouts_in_a_row"],
        private_route=r["private_route"],
    )
