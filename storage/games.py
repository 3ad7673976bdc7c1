"""Games and their seats (``games``, ``seats``): creating a lobby, loading a game, the
lookups by channel, and saving a new version of a game.

A save is one transaction holding the new state, its action-log rows, seat changes, timers,
results and outbox row, guarded by an optimistic version check, so a failed save leaves the
game exactly as it was. Each concern's module writes its own rows' statements (storage.log,
storage.timers, storage.outbox, storage.ratings); this module puts them in order.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from storage.backend import Backend, Step, Table, marks
from storage.damage import DAMAGED_MESSAGE, DamagedGames
from storage.errors import ChannelBusy, ConstraintViolation, GameDamaged, GameNotFound, VersionConflict
from storage.log import ActionRow, append_steps
from storage.outbox import insert_step as outbox_step
from storage.ratings import RateGame, RatingTables, ResultRow, result_steps
from storage.records import (
    DECODE_ERRORS,
    INSERT_SEAT,
    GameAccess,
    GameRecord,
    SeatRecord,
    encode_json,
    game_from_row,
    seat_columns,
    seat_from_row,
)
from storage.rowcache import GameRowCache, GameRows
from storage.timers import save_steps as timer_steps

ACTIVE_STATUSES = ("lobby", "active")
MAX_ROW_ID = 2**63 - 1  # SQLite's INTEGER range (and PostgreSQL's BIGINT): a larger id names no row


class GameTable(Table):
    def __init__(
        self,
        backend: Backend,
        clock: Callable[[], float],
        rows: GameRowCache,
        damage: DamagedGames,
        ratings: RatingTables,
    ) -> None:
        super().__init__(backend, clock)
        self._rows = rows
        self._damage = damage  # a game that cannot be decoded is set aside there
        self._ratings = ratings  # a finish with ratings updates them in its save

    # -- creating and loading --------------------------------------------------------------
    async def create(
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
        """Insert a lobby; with ``announce``, also queue its announcement (see :meth:`save`).
        ChannelBusy if the channel already has a game played in it (``in_thread`` lobbies never are)."""
        now = self._clock()
        async with self._transaction():
            try:
                [(game_id,)] = await self._fetch(
                    "INSERT INTO games (kind, guild_id, channel_id, host_user_id, status, options, seed, "
                    "created_at, updated_at, in_thread, rematch_of) "
                    "VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?) RETURNING id",
                    (
                        kind,
                        guild_id,
                        channel_id,
                        host_user_id,
                        json.dumps(options),
                        seed,
                        now,
                        now,
                        int(in_thread),
                        rematch_of,
                    ),
                )
            except ConstraintViolation as exc:
                raise ChannelBusy("This channel already has a game. Finish or cancel it first.") from exc
            assert game_id is not None
            await self._run_many(INSERT_SEAT, [(game_id, *seat_columns(s).values()) for s in seats])
            if announce is not None:
                sql, params, _ = outbox_step(game_id, 0, announce, now)
                await self._run(sql, params)
        return await self.load(game_id)

    async def load(self, game_id: int) -> GameRecord:
        """One game with its seats. GameNotFound if there is no such game (or the id is out of
        SQLite's range); GameDamaged if its saved data cannot be decoded. When this process
        owns the database, the rows come from what it last read or wrote (storage.rowcache)."""
        if not 0 < game_id <= MAX_ROW_ID:
            raise GameNotFound(f"Game {game_id} does not exist.")
        rows = self._rows.get(game_id)
        if rows is None:
            self._rows.start_read(game_id)
            try:
                rows = await self._read_rows(game_id)
            finally:
                self._rows.finish_read(game_id, rows)
        try:
            record = game_from_row(rows.game)
        except DECODE_ERRORS as exc:
            await self._damage.mark(game_id, f"saved data cannot be decoded: {exc}")
            raise GameDamaged(DAMAGED_MESSAGE) from exc
        record.seats = [seat_from_row(seat) for seat in rows.seats]
        return record

    async def _read_rows(self, game_id: int) -> GameRows:
        # The game and its seats in one statement (one row per seat, the game's columns repeated):
        # every statement is a round trip to the database thread, and a click loads a game.
        rows = await self._fetch(
            "SELECT g.*, d.game_id IS NOT NULL AS damaged, s.seat AS seat_id, s.position AS seat_position, "
            "s.user_id AS seat_user_id, s.ai_level AS seat_ai_level, s.display_name AS seat_display_name, "
            "s.timeouts_in_a_row AS seat_timeouts, s.private_route AS seat_private_route "
            "FROM games g LEFT JOIN damaged_games d ON d.game_id = g.id "
            "LEFT JOIN seats s ON s.game_id = g.id WHERE g.id = ? ORDER BY s.position",
            (game_id,),
        )
        if not rows:
            raise GameNotFound(f"Game {game_id} does not exist.")
        if rows[0]["damaged"]:
            raise GameDamaged(DAMAGED_MESSAGE)
        game = {
            column: rows[0][column]
            for column in rows[0].keys()  # noqa: SIM118 (a Row iterates values)
            if column != "damaged" and not column.startswith("seat_")
        }
        seats = [
            {
                "seat": r["seat_id"],
                "position": r["seat_position"],
                "user_id": r["seat_user_id"],
                "ai_level": r["seat_ai_level"],
                "display_name": r["seat_display_name"],
                "timeouts_in_a_row": r["seat_timeouts"],
                "private_route": r["seat_private_route"],
            }
            for r in rows
            if r["seat_id"] is not None
        ]
        return GameRows(game, seats)

    async def access(self, game_id: int, user_id: int) -> GameAccess | None:
        """The guild, channel and status of a game and whether ``user_id`` is seated in it, or
        None if there is no such game. Reads no JSON, so it works for damaged games too."""
        if not 0 < game_id <= MAX_ROW_ID:
            return None
        kept = self._rows.get(game_id)
        if kept is not None:  # every click asks this first: no trip when the game is kept (a damaged one never is)
            seated = any(seat["user_id"] == user_id for seat in kept.seats)
            game = kept.game
            return GameAccess(game["guild_id"], game["channel_id"], game["status"], seated, False)
        rows = await self._fetch(
            "SELECT g.guild_id, g.channel_id, g.status, "
            "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?), "
            "EXISTS (SELECT 1 FROM damaged_games d WHERE d.game_id = g.id) "
            "FROM games g WHERE g.id = ?",
            (user_id, game_id),
        )
        if not rows:
            return None
        guild_id, channel_id, status, seated, damaged = tuple(rows[0])
        return GameAccess(guild_id, channel_id, status, bool(seated), bool(damaged))

    # -- finding games -----------------------------------------------------------------------
    async def active_in_channel(self, channel_id: int) -> GameRecord | None:
        """The lobby or running game played in a channel or thread: the one game of a game's
        thread, or the one game a channel holds itself (not the lobbies waiting for a thread)."""
        return await self._load_first(
            "SELECT id FROM games WHERE status IN ('lobby', 'active') "
            "AND (thread_id = ? OR (channel_id = ? AND in_thread = 0)) ORDER BY id DESC LIMIT 1",
            (channel_id, channel_id),
        )

    async def thread_lobbies_in_channel(self, channel_id: int) -> list[GameRecord]:
        """The open lobbies of a channel whose games will be played in threads, oldest first."""
        rows = await self._fetch(
            "SELECT id FROM games WHERE channel_id = ? AND status = 'lobby' AND in_thread = 1 ORDER BY id",
            (channel_id,),
        )
        return [await self.load(r[0]) for r in rows]

    async def open_rematch(self, game_id: int) -> GameRecord | None:
        """The lobby or running game a Rematch of ``game_id`` opened, if one is open."""
        return await self._load_first(
            "SELECT id FROM games WHERE rematch_of = ? AND status IN ('lobby', 'active') ORDER BY id DESC LIMIT 1",
            (game_id,),
        )

    async def last_ended_in_channel(self, channel_id: int) -> GameRecord | None:
        """The game that ended last in a channel or thread, among those that started (not a closed
        lobby); a game played in a thread is its thread's, not its channel's."""
        return await self._load_first(
            "SELECT id FROM games WHERE status IN ('finished', 'cancelled', 'abandoned') "
            "AND (thread_id = ? OR (channel_id = ? AND thread_id IS NULL)) "
            "AND state IS NOT NULL AND id NOT IN (SELECT game_id FROM damaged_games) "
            "ORDER BY updated_at DESC, id DESC LIMIT 1",
            (channel_id, channel_id),
        )

    async def _load_first(self, sql: str, params: Sequence[Any]) -> GameRecord | None:
        rows = await self._fetch(sql, params)
        return await self.load(rows[0][0]) if rows else None

    async def find(
        self,
        *,
        guild_id: int | None = None,
        statuses: Iterable[str] = ACTIVE_STATUSES,
        user_id: int | None = None,
    ) -> list[GameRecord]:
        """Games by status, in one server or all; with ``user_id``, those the member plays in."""
        statuses = tuple(statuses)
        sql = (
            f"SELECT * FROM games WHERE status IN ({marks(len(statuses))}) "
            "AND id NOT IN (SELECT game_id FROM damaged_games)"
        )
        params: list[Any] = list(statuses)
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        if user_id is not None:
            sql += " AND id IN (SELECT game_id FROM seats WHERE user_id = ?)"
            params.append(user_id)
        records = []
        for row in await self._fetch(sql + " ORDER BY id", params):
            try:  # one undecodable row is set aside; it never breaks the listing
                records.append(game_from_row(row))
            except DECODE_ERRORS as exc:
                await self._damage.mark(row["id"], f"saved data cannot be decoded: {exc}")
        if records:
            by_id = {r.id: r for r in records}
            seat_rows = await self._fetch(
                f"SELECT * FROM seats WHERE game_id IN ({marks(len(by_id))}) ORDER BY position", list(by_id)
            )
            for s in seat_rows:
                by_id[s["game_id"]].seats.append(seat_from_row(s))
        return records

    # -- columns outside the version check ----------------------------------------------------
    async def set_host(self, game_id: int, user_id: int | None) -> None:
        await self._update(game_id, "host_user_id", user_id)

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        await self._update(game_id, "board_message_id", message_id)

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        """Where a started in_thread game is played from now on (its thread, or its channel)."""
        await self._update(game_id, "thread_id", thread_id)

    async def set_private_route(self, game_id: int, seat: str, route: str) -> None:
        try:
            await self._run(
                "UPDATE seats SET private_route = ? WHERE game_id = ? AND seat = ?", (route, game_id, seat)
            )
        except BaseException:
            self._rows.forget(game_id)
            raise
        self._rows.wrote_seat(game_id, seat, {"private_route": route})

    async def _update(self, game_id: int, column: str, value: Any) -> None:
        """Set one column of a game that no version check guards (not part of its state)."""
        try:
            await self._run(f"UPDATE games SET {column} = ? WHERE id = ?", (value, game_id))
        except BaseException:
            self._rows.forget(game_id)
            raise
        self._rows.wrote(game_id, {column: value})

    # -- saving --------------------------------------------------------------------------------
    async def save(
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
        now, version = self._clock(), expected_version + 1
        # The games columns written, as stored (also what the row cache is patched with).
        columns = _saved_columns(now, state=state, status=status, result=result, options=options)
        steps = [
            _version_check(game_id, expected_version, columns),
            *append_steps(game_id, version, actions, now),
            *_seat_steps(game_id, seats),
            *timer_steps(game_id, clear_timers, timers),
            *result_steps(game_id, results, now),
        ]
        if announce is not None:
            steps.append(outbox_step(game_id, version, announce, now))
        try:
            await self._write(game_id, steps, rate if status == "finished" else None)
        except BaseException:
            self._rows.forget(game_id)  # whatever happened, the next load reads the database
            raise
        seat_rows = None if seats is None else [seat_columns(s) for s in seats]
        self._rows.wrote(
            game_id, {**columns, "version": version}, expected_version=expected_version, seats=seat_rows
        )
        return version

    async def _write(self, game_id: int, steps: list[Step], rate: RateGame | None) -> None:
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
            await self._ratings.rate_finished_game(game_id, rate)


def _saved_columns(
    now: float,
    *,
    state: dict[str, Any] | None,
    status: str | None,
    result: dict[str, Any] | None,
    options: dict[str, Any] | None,
) -> dict[str, Any]:
    """The ``games`` columns a save writes besides its version, as stored."""
    columns: dict[str, Any] = {"updated_at": now}
    if state is not None:
        columns["state"] = encode_json(state)
    if status is not None:
        columns["status"] = status
        if status == "finished":
            columns["finished_at"] = now
    if result is not None:
        columns["result"] = encode_json(result)
    if options is not None:  # lobby choices kept with the options (e.g. team picks)
        columns["options"] = encode_json(options)
    return columns


def _version_check(game_id: int, expected_version: int, columns: Mapping[str, Any]) -> Step:
    """The save's first write: the new columns, only if the stored version is the expected one
    (it then returns the game's id, else no row)."""
    sets = ", ".join(f"{column} = ?" for column in columns)
    return (
        f"UPDATE games SET version = version + 1, {sets} WHERE id = ? AND version = ? RETURNING id",
        [*columns.values(), game_id, expected_version],
        False,
    )


def _seat_steps(game_id: int, seats: Sequence[SeatRecord] | None) -> list[Step]:
    """A save's new seats (None: the seats stay as they are)."""
    if seats is None:
        return []
    return [
        ("DELETE FROM seats WHERE game_id = ?", (game_id,), False),
        (INSERT_SEAT, [(game_id, *seat_columns(s).values()) for s in seats], True),
    ]
