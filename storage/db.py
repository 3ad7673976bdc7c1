"""SQLite storage (aiosqlite): games, seats, the action log, timers, settings and results.

One file, WAL mode. Every save of a game is one transaction holding the new state, its
action-log rows and any seat changes, guarded by an optimistic version check, so a failed
save leaves the game exactly as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite
import orjson

from storage.ratings import RateGame, RatingTables

log = logging.getLogger("dragon_tavern.storage.db")

ACTIVE_STATUSES = ("lobby", "active")
MAX_ROW_ID = 2**63 - 1  # SQLite's INTEGER range: a larger id can name no row
_IN_TRANSACTION: contextvars.ContextVar[bool] = contextvars.ContextVar("in_transaction", default=False)
_SQLITE_HEADER = b"SQLite format 3\x00"


class StorageError(Exception):
    """The database cannot be used; the message says why and what to do."""


class ChannelBusy(StorageError):
    """The channel already has a lobby or a running game."""


class VersionConflict(StorageError):
    """The game changed since it was loaded (another click got there first)."""


class GameNotFound(StorageError):
    pass


class DatabaseUnavailable(StorageError):
    """SQLite could not write now (locked by another process, disk full, I/O error)."""


class DatabaseGone(StorageError):
    """The database file was deleted or replaced under the running bot: writing on would go
    into an unlinked file and be lost at restart, so every write is refused until a restart."""


class GameDamaged(StorageError):
    """A game's saved data cannot be decoded; the game is set aside, every other game works."""


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
    folder = resources.files("storage") / "migrations"
    found = []
    for entry in folder.iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:3].isdigit():
            found.append((int(name[:3]), entry.read_text(encoding="utf-8")))
    return sorted(found)


def latest_schema_version() -> int:
    return _migrations()[-1][0]


class Database(RatingTables):
    """An open database. Open it with ``async with await Database.open(path) as db:`` (or
    ``await Database.open(path)`` and ``await db.close()`` on every path): an unclosed
    connection's worker thread keeps the process from exiting."""

    def __init__(self, conn: aiosqlite.Connection, path: Path, clock: Callable[[], float]) -> None:
        self._conn = conn
        self.path = path
        self._clock = clock
        # One connection serves every game: a transaction must not interleave with statements
        # from other tasks (they would join it, or fail with "transaction within a transaction").
        self._lock = asyncio.Lock()
        # (st_dev, st_ino) of the file opened; checked before each write (see _check_same_file).
        self._identity: tuple[int, int] | None = None
        self._gone: str | None = None
        # Called with a game id when a game is newly found damaged (the bot announces it).
        self.on_damaged: Callable[[int], None] | None = None
        self._closed = False

    # -- opening --------------------------------------------------------------------------
    @classmethod
    async def open(
        cls, path: str | Path, *, clock: Callable[[], float] = time.time, busy_timeout_ms: int = 5000
    ) -> Database:
        path = Path(path)
        _refuse_foreign_file(path)
        try:
            conn = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StorageError(f"Cannot open the database {path}: {exc}.") from exc
        conn.row_factory = aiosqlite.Row
        db = cls(conn, path, clock)
        try:
            await db._check_readable()
            await db._run("PRAGMA foreign_keys = ON")
            await db._run(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await db._run("PRAGMA journal_mode = WAL")
            await db._run("PRAGMA synchronous = NORMAL")
            await db._migrate()
            db._identity = _file_identity(path)
        except BaseException:
            await conn.close()
            raise
        return db

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, exc_type: object, exc: BaseException | None, tb: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the connection and stop its worker thread (safe to call twice)."""
        if self._closed:
            return
        self._closed = True
        await self._conn.close()

    def close_now(self) -> None:
        """Close without awaiting (no event loop needed): stops the worker thread."""
        if self._closed:
            return
        self._closed = True
        self._conn.stop()

    @property
    def read_only_reason(self) -> str | None:
        """Why writes are refused (the file was deleted or replaced), or None."""
        return self._gone

    def _check_same_file(self) -> None:
        """Refuse to write when the path no longer names the file that was opened (deleted,
        renamed, or replaced by another file): the writes would vanish at restart. One
        ``os.stat`` per write transaction (a few microseconds against a commit's fsync)."""
        if self._gone is not None:
            raise DatabaseGone(self._gone)
        if self._identity is None:  # still opening
            return
        try:
            now = _file_identity(self.path)
        except OSError:
            now = None
        if now == self._identity:
            return
        what = "deleted" if now is None else "replaced by another file"
        self._gone = (f"The database file {self.path} was {what} while the bot was running; "
                      "nothing more is written until the bot is restarted.")
        log.critical("%s Restore or move the file back and restart the bot.", self._gone)
        raise DatabaseGone(self._gone)

    async def _check_readable(self) -> None:
        """Refuse a corrupt file or one written by a newer Dragon Tavern, before writing."""
        try:
            rows = await self._fetch("PRAGMA quick_check")
        except sqlite3.DatabaseError as exc:
            raise StorageError(
                f"The database {self.path} is corrupt or not a SQLite file ({exc}). "
                "Move it away (or set DATABASE_PATH to another file) and start again."
            ) from exc
        if rows and rows[0][0] != "ok":
            raise StorageError(
                f"The database {self.path} failed its integrity check ({rows[0][0]}). "
                "Restore a backup or move it away and start again."
            )
        has_table = await self._fetch(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        )
        if has_table:
            row = await self._fetch("SELECT MAX(version) FROM schema_migrations")
            current = row[0][0] or 0
            if current > latest_schema_version():
                raise StorageError(
                    f"The database {self.path} was written by a newer Dragon Tavern "
                    f"(schema {current}; this version knows up to {latest_schema_version()}). "
                    "Upgrade the bot; the file was not changed."
                )

    async def _migrate(self) -> None:
        await self._run(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)"
        )
        rows = await self._fetch("SELECT version FROM schema_migrations")
        done = {r[0] for r in rows}
        for version, sql in _migrations():
            if version in done:
                continue
            # executescript commits first, so wrap the script in its own transaction.
            await self._conn.executescript(
                f"BEGIN;\n{sql}\nINSERT INTO schema_migrations VALUES ({version}, {self._clock()});\nCOMMIT;"
            )

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
    ) -> GameRecord:
        """Insert a lobby; with ``announce``, also queue its announcement (see :meth:`save_game`)."""
        now = self._clock()
        async with self._transaction():
            try:
                _, game_id = await self._run(
                    "INSERT INTO games (kind, guild_id, channel_id, host_user_id, status, options, seed, "
                    "created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
                    (kind, guild_id, channel_id, host_user_id, json.dumps(options), seed, now, now),
                )
            except sqlite3.IntegrityError as exc:
                raise ChannelBusy("This channel already has a game. Finish or cancel it first.") from exc
            assert game_id is not None
            await self._write_seats(game_id, seats)
            if announce is not None:
                await self._queue_announcement(game_id, 0, announce, now)
        return await self.load_game(game_id)

    async def load_game(self, game_id: int) -> GameRecord:
        """One game with its seats. GameNotFound if there is no such game (or the id is out of
        SQLite's range); GameDamaged if its saved data cannot be decoded."""
        if not 0 < game_id <= MAX_ROW_ID:
            raise GameNotFound(f"Game {game_id} does not exist.")
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
        try:
            record = _game_from_row(rows[0])
        except _DECODE_ERRORS as exc:
            await self.mark_damaged(game_id, f"saved data cannot be decoded: {exc}")
            raise GameDamaged(DAMAGED_MESSAGE) from exc
        record.seats = [
            SeatRecord(seat=r["seat_id"], position=r["seat_position"], user_id=r["seat_user_id"],
                       ai_level=r["seat_ai_level"], display_name=r["seat_display_name"],
                       timeouts_in_a_row=r["seat_timeouts"], private_route=r["seat_private_route"])
            for r in rows if r["seat_id"] is not None
        ]
        return record

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
                    "INSERT OR IGNORE INTO damaged_games (game_id, reason, found_at) VALUES (?, ?, ?)",
                    (game_id, reason[:500], self._clock()))
                # It can't go on, so it must not hold its channel: end it (its data stays for
                # the admins to look at) and drop its timers.
                await self._run("UPDATE games SET status = 'abandoned' WHERE id = ? AND status IN ('lobby', 'active')",
                                (game_id,))
                await self._run("DELETE FROM timers WHERE game_id = ?", (game_id,))
        except StorageError as exc:
            log.error("game %s is damaged (%s) and could not be marked so: %s", game_id, reason, exc)
            return False
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
        rows = await self._fetch(
            "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
        )
        return await self.load_game(rows[0][0]) if rows else None

    async def last_ended_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The channel's game that ended last, among those that started (not a closed lobby)."""
        rows = await self._fetch(
            "SELECT id FROM games WHERE channel_id = ? AND status IN ('finished', 'cancelled', 'abandoned') "
            "AND state IS NOT NULL AND id NOT IN (SELECT game_id FROM damaged_games) "
            "ORDER BY updated_at DESC, id DESC LIMIT 1", (channel_id,)
        )
        return await self.load_game(rows[0][0]) if rows else None

    async def games(
        self, *, guild_id: int | None = None, statuses: Iterable[str] = ACTIVE_STATUSES
    ) -> list[GameRecord]:
        statuses = tuple(statuses)
        marks = ",".join("?" * len(statuses))
        sql = (f"SELECT * FROM games WHERE status IN ({marks}) "
               "AND id NOT IN (SELECT game_id FROM damaged_games)")
        params: list[Any] = list(statuses)
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
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
        every write and COMMIT (see :meth:`_run_in_one_trip`).
        """
        now = self._clock()
        sets = ["version = version + 1", "updated_at = ?"]
        params: list[Any] = [now]
        if state is not None:
            sets.append("state = ?")
            params.append(_encode_json(state))
        if status is not None:
            sets.append("status = ?")
            params.append(status)
            if status == "finished":
                sets.append("finished_at = ?")
                params.append(now)
        if result is not None:
            sets.append("result = ?")
            params.append(_encode_json(result))
        if options is not None:  # lobby choices kept with the options (e.g. team picks)
            sets.append("options = ?")
            params.append(_encode_json(options))
        # The writes, in order; the first is the version check (it returns the game's row only
        # when the stored version is the expected one).
        steps: list[_Step] = [(
            f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ? RETURNING id",
            [*params, game_id, expected_version], False,
        )]
        for a in actions:  # seq continues the log, computed in the INSERT itself
            steps.append((
                "INSERT INTO actions (game_id, seq, version, seat, user_id, source, action, created_at) "
                "SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ? FROM actions WHERE game_id = ?",
                (game_id, expected_version + 1, a.seat, a.user_id, a.source, a.action, now, game_id), False,
            ))
        if seats is not None:
            steps.append(("DELETE FROM seats WHERE game_id = ?", (game_id,), False))
            steps.append((
                "INSERT INTO seats (game_id, seat, position, user_id, ai_level, display_name, timeouts_in_a_row, "
                "private_route) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(game_id, s.seat, s.position, s.user_id, s.ai_level, s.display_name, s.timeouts_in_a_row,
                  s.private_route) for s in seats], True,
            ))
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
                "INSERT OR REPLACE INTO results (game_id, guild_id, kind, user_id, place, score, outcome, "
                "finished_at) SELECT g.id, g.guild_id, g.kind, ?, ?, ?, ?, ? FROM games g WHERE g.id = ?",
                [(r.user_id, r.place, r.score, r.outcome, now, game_id) for r in results], True,
            ))
        if announce is not None:  # the outbox row, as _queue_announcement writes it
            steps.append(("INSERT INTO outbox (game_id, version, events, created_at) VALUES (?, ?, ?, ?)",
                          (game_id, expected_version + 1, _encode_json(list(announce)), now), False))
        if (rate is None or status != "finished") and not _IN_TRANSACTION.get():
            # The usual save: the whole transaction in one trip to the database thread.
            if len(await self._run_in_one_trip(steps)) != 1:
                raise VersionConflict("The game changed meanwhile; nothing was saved.")
            return expected_version + 1
        async with self._transaction():  # a finish that updates ratings: those need reads first
            sql, args, _ = steps[0]
            if len(await self._fetch(sql, args)) != 1:
                raise VersionConflict("The game changed meanwhile; nothing was saved.")
            for sql, args, many in steps[1:]:
                if many:
                    await self._run_many(sql, args)
                else:
                    await self._fetch(sql, args)
            if rate is not None and status == "finished":
                await self._rate_finished_game(game_id, rate)
        return expected_version + 1

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
                await self._run("UPDATE games SET recent = ? WHERE id = ?", (json.dumps(new_recent), game_id))
        return new_recent

    async def finish_announcements(self, announcements: Sequence[Announcement]) -> None:
        """Delivered: drop the rows."""
        ids = [a.id for a in announcements]
        if ids:
            await self._run(f"DELETE FROM outbox WHERE id IN ({','.join('?' * len(ids))})", ids)

    async def set_host(self, game_id: int, user_id: int | None) -> None:
        await self._run("UPDATE games SET host_user_id = ? WHERE id = ?", (user_id, game_id))

    async def set_private_route(self, game_id: int, seat: str, route: str) -> None:
        await self._run(
            "UPDATE seats SET private_route = ? WHERE game_id = ? AND seat = ?", (route, game_id, seat)
        )

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        await self._run("UPDATE games SET board_message_id = ? WHERE id = ?", (message_id, game_id))

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

    async def timers(self) -> list[tuple[int, str, float]]:
        """Pending timers, except those of damaged games."""
        rows = await self._fetch(
            "SELECT game_id, purpose, deadline FROM timers "
            "WHERE game_id NOT IN (SELECT game_id FROM damaged_games) ORDER BY deadline")
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
        """The game's turn pings still standing, as (channel id, message id), oldest first."""
        rows = await self._fetch(
            "SELECT channel_id, message_id FROM pings WHERE game_id = ? ORDER BY rowid", (game_id,))
        return [(r[0], r[1]) for r in rows]

    async def add_ping(self, game_id: int, channel_id: int, message_id: int) -> None:
        await self._run("INSERT OR IGNORE INTO pings (game_id, channel_id, message_id) VALUES (?, ?, ?)",
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
    def _exclusive(self) -> contextlib.AbstractAsyncContextManager[None]:
        """The connection lock, unless this task already holds it for its transaction."""
        return contextlib.nullcontext() if _IN_TRANSACTION.get() else self._lock  # type: ignore[return-value]

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._exclusive():
            try:
                return list(await self._conn.execute_fetchall(sql, params))
            except sqlite3.OperationalError as exc:
                raise DatabaseUnavailable(f"The database could not be read: {exc}.") from exc

    async def _run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        if not _IN_TRANSACTION.get():
            self._check_same_file()
        async with self._exclusive():
            try:
                cursor = await self._conn.executemany(sql, rows)
            except sqlite3.OperationalError as exc:
                raise DatabaseUnavailable(f"The database could not be written: {exc}.") from exc
            await cursor.close()

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, int | None]:
        """Execute one statement and close its cursor (an open cursor blocks COMMIT).
        Returns (rowcount, lastrowid). Operational failures (locked, disk full) become
        DatabaseUnavailable, which the bot explains to the user."""
        if not _IN_TRANSACTION.get():  # a transaction checked at BEGIN
            self._check_same_file()
        async with self._exclusive():
            try:
                cursor = await self._conn.execute(sql, params)
            except sqlite3.OperationalError as exc:
                raise DatabaseUnavailable(f"The database could not be written: {exc}.") from exc
            try:
                return cursor.rowcount, cursor.lastrowid
            finally:
                await cursor.close()

    def _transaction(self) -> _Transaction:
        return _Transaction(self)

    def _seat_record(self, row: Any) -> SeatRecord:
        return _seat_from_row(row)

    async def _seats(self, game_id: int) -> list[SeatRecord]:
        rows = await self._fetch(
            "SELECT * FROM seats WHERE game_id = ? ORDER BY position", (game_id,)
        )
        return [_seat_from_row(r) for r in rows]

    async def _write_seats(self, game_id: int, seats: Sequence[SeatRecord]) -> None:
        await self._run_many(
            "INSERT INTO seats (game_id, seat, position, user_id, ai_level, display_name, timeouts_in_a_row, "
            "private_route) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, s.seat, s.position, s.user_id, s.ai_level, s.display_name, s.timeouts_in_a_row,
                 s.private_route)
                for s in seats
            ],
        )


    async def _run_in_one_trip(self, steps: Sequence[_Step]) -> list[Any]:
        """One write transaction in a single trip to the database thread: BEGIN IMMEDIATE, the
        statements, COMMIT. Returns the first statement's rows; when it returns none (a failed
        version check) or any statement fails, everything is rolled back. Holds the connection
        lock as :class:`_Transaction` does, so no other task's statements interleave."""
        async with self._lock:
            self._check_same_file()
            try:
                rows: list[Any] = await self._conn._execute(_write_transaction, self._conn._conn, steps)
            except sqlite3.OperationalError as exc:
                raise DatabaseUnavailable(f"The database could not be written: {exc}.") from exc
            return rows

class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any exception."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._token: contextvars.Token[bool] | None = None

    async def __aenter__(self) -> None:
        await self._db._lock.acquire()
        self._token = _IN_TRANSACTION.set(True)
        try:
            self._db._check_same_file()
            await self._db._run("BEGIN IMMEDIATE")
        except BaseException:
            self._release()
            raise

    async def __aexit__(self, exc_type: object, exc: BaseException | None, tb: object) -> None:
        try:
            if exc is None:
                try:
                    await self._db._run("COMMIT")
                    return
                except BaseException:
                    await self._rollback()
                    raise
            await self._rollback()
        finally:
            self._release()

    def _release(self) -> None:
        if self._token is not None:
            _IN_TRANSACTION.reset(self._token)
            self._token = None
        self._db._lock.release()

    async def _rollback(self) -> None:
        # SQLite may already have rolled back by itself (e.g. after SQLITE_FULL).
        with contextlib.suppress(StorageError, sqlite3.Error):
            await self._db._run("ROLLBACK")


# A write in a transaction: (sql, parameters, many): ``many`` runs the statement once per row.
_Step = tuple[str, Any, bool]


def _write_transaction(conn: sqlite3.Connection, steps: Sequence[_Step]) -> list[Any]:
    """Runs on aiosqlite's thread (see Database._run_in_one_trip)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        sql, args, _ = steps[0]
        first = conn.execute(sql, args).fetchall()
        if len(first) == 1:
            for sql, args, many in steps[1:]:
                if many:
                    conn.executemany(sql, args)
                else:
                    conn.execute(sql, args)
            conn.execute("COMMIT")
            return first
    except BaseException:
        # SQLite may already have rolled back by itself (e.g. after SQLITE_FULL).
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise
    conn.execute("ROLLBACK")
    return first

def _file_identity(path: Path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_dev, st.st_ino


def _refuse_foreign_file(path: Path) -> None:
    if not path.exists():
        if not path.parent.exists():
            raise StorageError(f"The folder for the database, {path.parent}, does not exist. Create it or "
                               "set DATABASE_PATH to a file in an existing folder.")
        return
    if path.is_dir():
        raise StorageError(f"DATABASE_PATH points at a folder ({path}); give a file name.")
    with path.open("rb") as fh:
        head = fh.read(16)
    if head and head != _SQLITE_HEADER:
        raise StorageError(
            f"{path} is not a SQLite database (corrupt or another kind of file); it was not changed. "
            "Move it away or set DATABASE_PATH to another file."
        )


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
    )


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
