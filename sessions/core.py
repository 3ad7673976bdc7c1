"""The parts of the game service share this core: storage, the per-game lock, the server
settings, loading a game, and saving an action or a game's end.

Every public method of the service loads the game from the database, checks who may do what,
applies the change through the engine, saves it in one transaction, and only then returns an
:class:`Outcome` for the caller to announce. A per-game lock serialises changes to one game;
different games run concurrently.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from engine import Event, Game, game_options, registry
from sessions.errors import NotAllowed, SessionError
from sessions.live import LiveGames
from sessions.ratings import placings, rate_game
from sessions.settings import GuildSettings, setting_value
from sessions.snapshot import SavedFacts, Snapshot
from storage import ActionRow, Announcement, Database, GameDamaged, GameRecord, ResultRow, SeatRecord
from storage.damage import DAMAGED_MESSAGE
from storage.keyed_locks import KeyedLocks

log = logging.getLogger("dragon_tavern.sessions.service")

TURN_TIMER = "turn"
LOBBY_TIMER = "lobby"  # an open lobby closes when it runs out (the guild's lobby_timeout)
REMIND_TIMER = "remind"  # half-way through a turn: remind those who still owe a move
TIMER_PURPOSES = (TURN_TIMER, REMIND_TIMER, LOBBY_TIMER)
# A platform event queued with a save: these human seats must act now and were not asked
# before it (data: {"seats": [...], "reminder": bool}). The bot pings them (cogs.pings); it
# has no text, so the board's Recent lines skip it.
TURN_EVENT = "to_act"
# A runaway engine or AI must never spin the bot forever.
MAX_AUTOMATIC_ACTIONS = 5000
# How long a process keeps a server's settings when other processes share the database (and
# may run that server's /config): a change reaches every process within this time.
SHARED_SETTINGS_SECONDS = 10.0


@dataclass(frozen=True)
class Actor:
    """Who is asking: a Discord user, with whether they hold Manage Guild."""

    user_id: int
    name: str
    is_admin: bool = False


@dataclass
class Outcome:
    """What a request changed, for the caller to announce (after it was saved)."""

    record: GameRecord
    game: Game | None = None
    events: list[Event] = field(default_factory=list)
    notice: str | None = None  # a short private acknowledgement for the actor
    changed: bool = True
    # Every timer of the game as this change saved it (None: removed), when the change set
    # them all; then the scheduler follows them without reading them back (sessions.timers).
    timers: dict[str, float | None] | None = None

    @property
    def names(self) -> dict[str, str]:
        """Raw names for the placeholders of this outcome's texts (see :func:`event_names`)."""
        return event_names(self.record, self.events)


NOTIFY_CHOICES = ("channel", "dm", "off")  # how a member is told they must act (/game notify)


class ServiceCore:
    """What every part of the game service shares: storage, the per-game lock, the server
    settings (cached), loading a game (and the snapshot the Discord layer draws from), and
    saving an action or a game's end. The parts (lobby, play, AI seats, timeouts, hints)
    build on it; :class:`sessions.service.GameService` is all of them."""

    def __init__(
        self,
        db: Database,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] = lambda: secrets.randbits(62),
        cards_dir: Path | None = None,
    ) -> None:
        self.db = db
        self.cards_dir = cards_dir  # the operator's folder of Farkle card files (FARKLE_CARDS_DIR)
        self._clock = clock
        self._seed_source = seed_source
        self._settings: dict[int, tuple[float, GuildSettings]] = {}  # guild -> (read at, monotonic; settings)
        self.shared_settings_seconds = SHARED_SETTINGS_SECONDS
        self._saved = SavedFacts()  # the turn deadline and moves played of versions saved here
        self._live = LiveGames()  # the games this process last saved, copied instead of restored
        self._host_locks: KeyedLocks[tuple[int, int]] = (
            KeyedLocks()
        )  # (guild, member): one /game new at a time

    def lock(self, game_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        return self.db.game_lock(game_id)

    async def settings(self, guild_id: int) -> GuildSettings:
        """A guild's settings, cached: every change in this process goes through
        :meth:`change_setting`. When several processes share the database, /config may run in
        another one (the server's shard), so a cached copy is read again after
        ``shared_settings_seconds``."""
        now = time.monotonic()
        cached = self._settings.get(guild_id)
        if cached is not None and (self.db.exclusive or now - cached[0] < self.shared_settings_seconds):
            return cached[1]
        settings = GuildSettings.from_stored(await self.db.settings.of_guild(guild_id))
        self._settings[guild_id] = (now, settings)
        return settings

    async def setting_value(self, key: str, raw: str) -> Any:
        """A /config value as it will be stored; SessionError with the reason if it is refused.
        A game setting that takes a file reads and checks the operator's file (off the event loop), once."""
        try:
            return await setting_value(key, raw, self.cards_dir)
        except ValueError as exc:
            raise SessionError(str(exc)) from None

    async def change_setting(self, guild_id: int, key: str, value: Any | None) -> None:
        """Store a setting (``None`` resets it to the default)."""
        if value is None:
            await self.db.settings.reset(guild_id, key)
        else:
            await self.db.settings.set(guild_id, key, value)
        self._settings.pop(guild_id, None)

    async def set_notify_pref(self, user_id: int, notify: str) -> None:
        """How a member is told they must act: one of NOTIFY_CHOICES."""
        if notify not in NOTIFY_CHOICES:
            raise ValueError(f"notify must be one of {', '.join(NOTIFY_CHOICES)}")
        await self.db.prefs.set_notify(user_id, notify)

    async def rebuild_ratings(self) -> tuple[int, int]:
        """Every rating recomputed from the saved finished games: (games rated, rating rows)."""
        return await self.db.ratings.rebuild(rate_game)

    # -- reading --------------------------------------------------------------------------
    async def load(self, game_id: int) -> tuple[GameRecord, Game | None]:
        rec = await self.db.games.load(game_id)
        game = await self._game_at(rec) if rec.state is not None else None
        return rec, game

    async def snapshot(self, game_id: int, pending: list[Announcement] | None = None) -> Snapshot:
        """The game as saved, loaded once, with what drawing it needs (sessions.snapshot)."""
        rec, game = await self.load(game_id)
        return await self.snapshot_of(rec, game, pending)

    async def snapshot_of(
        self, rec: GameRecord, game: Game | None, pending: list[Announcement] | None = None
    ) -> Snapshot:
        """A snapshot of a game already loaded (``rec`` and ``game`` of one saved version)."""
        snap = Snapshot(
            rec,
            game,
            await self.settings(rec.guild_id),
            await self._saved.deadline(self.db, rec, game),
            pending=pending or [],
        )
        if snap.running:
            assert game is not None
            snap.moves_played = await self._saved.moves_played(self.db, rec, game)
        return snap

    async def superseded(self, snap: Snapshot) -> bool:
        """Whether a newer version of the game was saved since ``snap`` was taken (read once
        per snapshot: its delivery's steps share the answer)."""
        if snap.superseded is None:
            snap.superseded = (await self.db.games.load(snap.record.id)).version != snap.record.version
        return snap.superseded

    async def new_game_for(self, rec: GameRecord, setup: dict[str, Any] | None = None) -> Game:
        """The game exactly as :meth:`start` creates it from a lobby record. :meth:`replay` (and
        anything else that rebuilds a game from its seed) goes through here too, so whatever
        start passes to ``new_game`` is passed the same way on replay.

        Players are the seat ids in seat position order: lobby churn (leave, re-join) hands out
        seat ids out of order, and positions never change after the start (resign and AFK
        hand a seat to an AI in place). ``setup``: the arguments that come from the server's
        settings (start passes them); by default those the saved game started with."""
        if setup is None:
            setup = registry.restore(rec.kind, rec.state).setup_arguments() if rec.state else {}
        info = registry.get(rec.kind)
        players = [s.seat for s in sorted(rec.seats, key=lambda s: s.position)]
        return info.new_game(players, rec.seed, **game_options(rec.options), **setup)

    async def replay(self, game_id: int) -> Game:
        """Rebuild a game from its seed and action log (a check that the log is complete)."""
        rec = await self.db.games.load(game_id)
        game = await self.new_game_for(rec)
        for logged in await self.db.log.of_game(game_id):
            if logged.source != "system":
                game.play(logged.seat, logged.action)
        return game

    # -- shared internals -----------------------------------------------------------------
    async def _game_at(self, rec: GameRecord) -> Game:
        """The engine game of a record: a copy of the one this process kept when it saved that
        version (sessions.live), else restored from the record's state."""
        return self._live.copy_at(rec.id, rec.version) or await self._restore(rec)

    async def _restore(self, rec: GameRecord) -> Game:
        """The engine game of a saved record. A state the engine cannot load sets this one game
        aside as damaged (storage logs it once and the bot tells the channel), never others."""
        try:
            return registry.restore(rec.kind, rec.state or {})
        except Exception as exc:
            # The exception's text may quote the state (a hand's card id in a KeyError): it goes
            # to DEBUG only; the ERROR line and the stored reason name its type.
            log.debug("game %s: the saved state cannot be restored: %r", rec.id, exc)
            await self.db.damage.mark(rec.id, f"saved state cannot be restored ({type(exc).__name__})")
            raise GameDamaged(DAMAGED_MESSAGE) from exc

    async def _lobby(self, game_id: int) -> GameRecord:
        rec = await self.db.games.load(game_id)
        if rec.status != "lobby":
            raise SessionError("This lobby is closed: the game has started or ended.")
        return rec

    async def _running(self, game_id: int) -> GameRecord:
        rec = await self.db.games.load(game_id)
        if rec.status != "active":
            raise SessionError(f"This game is not running (it is {rec.status}).")
        return rec

    @staticmethod
    def _require_host(rec: GameRecord, actor: Actor, what: str) -> None:
        if actor.user_id != rec.host_user_id and not actor.is_admin:
            raise NotAllowed(f"Only the host (or someone with Manage Server) can {what}.")

    async def _save_action(
        self,
        rec: GameRecord,
        game: Game,
        row: ActionRow,
        seats: list[SeatRecord] | None,
        events: list[Event],
        to_act_before: list[str],
        *,
        timers: dict[str, float | None] | None = None,
    ) -> GameRecord:
        """Save one action with the events it caused (queued for announcing in the same
        transaction), and the humans it hands the move to (``to_act_before``: who had to act
        just before it), so they are pinged even if the bot stops right after the commit.
        ``timers``: deadlines to set (None: remove) in the same transaction."""
        announce = events + turn_events(seats if seats is not None else rec.seats, to_act_before, game, row)
        version = await self.db.games.save(
            rec.id,
            rec.version,
            state=game.to_dict(),
            actions=[row],
            seats=seats,
            announce=dicts(announce),
            timers=timers,
        )
        self._saved.saved(game, rec.id, rec.version, version, row, timers)
        return replace(rec, version=version, state=None, seats=seats if seats is not None else rec.seats)

    async def _turn_timers(
        self, rec: GameRecord, game: Game, previous_to_act: list[str], secret: bool = False
    ) -> dict[str, float | None] | None:
        """The turn and reminder deadlines after a change (None for a timer to remove), or
        None when they stay as they are."""
        humans = {s.seat for s in rec.seats if not s.is_ai}
        waiting = [p for p in game.to_act() if p in humans]
        if not waiting:
            return {TURN_TIMER: None, REMIND_TIMER: None}
        # In a simultaneous phase, and while a player makes secret choices, the deadline stays
        # put as choices come in, so nothing about them can be read from the timer (and the
        # last planner does not get a fresh timeout per card).
        same_phase = (len(previous_to_act) > 1 or secret) and set(waiting) <= set(previous_to_act)
        if same_phase and await self.db.timers.deadline(rec.id, TURN_TIMER) is not None:
            return None
        settings = await self.settings(rec.guild_id)
        timeout = settings.turn_timeout(rec.kind)
        now = self._clock()
        return {TURN_TIMER: now + timeout, REMIND_TIMER: now + timeout / 2}

    async def _arm_turn_timer(
        self, rec: GameRecord, game: Game, previous_to_act: list[str], secret: bool = False
    ) -> None:
        timers = await self._turn_timers(rec, game, previous_to_act, secret)
        if timers is None:
            return
        due = {purpose: deadline for purpose, deadline in timers.items() if deadline is not None}
        if due:
            await self.db.timers.set_many(rec.id, due)
        else:
            await self.db.timers.clear_many(rec.id, list(timers))

    async def _finish(
        self,
        rec: GameRecord,
        game: Game,
        result: dict[str, Any],
        *,
        resigned: set[str] = frozenset(),  # type: ignore[assignment]
        action: ActionRow | None = None,
        events: list[Event] | None = None,
    ) -> GameRecord:
        rows = []
        ranking = result["ranking"]
        # A player who resigned earlier (an AI played on for them) is credited as rated: last.
        resigned = set(resigned) | await self.db.log.resigned_seats(rec.id)
        if not result.get("teams"):
            ranking = placings(ranking, resigned)
        tie_at_top = len(ranking[0]) > 1 if ranking else False
        for place, group in enumerate(ranking, start=1):
            for seat_id in group:
                seat = rec.seat(seat_id)
                if seat.user_id is None:
                    continue
                if seat_id in resigned:
                    outcome = "resigned"
                elif place == 1:
                    outcome = "draw" if tie_at_top else "win"
                else:
                    outcome = "loss"
                score = result.get("scores", {}).get(seat_id)
                rows.append(ResultRow(seat.user_id, place, score, outcome))
        await self.db.games.save(
            rec.id,
            rec.version,
            status="finished",
            result=result,
            results=rows,
            clear_timers=True,
            actions=[action] if action else (),
            announce=dicts(events or []),
            rate=rate_game,
        )
        # Seats and the ranking are public once the game is over; the reason text may quote cards.
        log.info("game %s finished: %s, ranking %s", rec.id, rec.kind, ranking)
        return await self.db.games.load(rec.id)


def event_names(rec: GameRecord, events: list[Event]) -> dict[str, str]:
    """Raw names for the placeholders of these events' texts: the seats, plus names an event
    carries for someone no longer (or never) seated, e.g. ``{actor}``."""
    names = {s.seat: s.display_name for s in rec.seats}
    for event in events:
        names.update(event.data.get("names", {}))
    return names


def turn_events(
    seats: list[SeatRecord], to_act_before: list[str], game: Game, mover: ActionRow | None = None
) -> list[Event]:
    """A TURN_EVENT for the human seats that must act now and did not just before; and for the
    ``mover`` when its public move leaves it a secret decision (its last Flagon character
    placed, it must plan now): that decision is in its private prompt, which is edited in
    place and notifies nobody, so the ping tells it."""
    if game.is_over:
        return []
    humans = {s.seat for s in seats if not s.is_ai}
    became = [p for p in game.to_act() if p in humans and p not in to_act_before]
    if (
        mover is not None
        and mover.seat in humans
        and mover.seat not in became
        and mover.seat in game.to_act()
        and not game.is_private_action(mover.seat, mover.action)
    ):
        legal = game.legal_actions(mover.seat)
        if legal and all(game.is_private_action(mover.seat, a) for a in legal):
            became.append(mover.seat)
    return [Event(TURN_EVENT, "", data={"seats": became, "reminder": False})] if became else []


def unfinished(reason: str, names: dict[str, str] | None = None) -> dict[str, Any]:
    """The saved result of a game that stopped before its end (cancelled, abandoned): nobody
    is ranked; ``reason`` names players as {p1} placeholders, others through ``names``."""
    return {"scores": {}, "ranking": [], "reason": reason, "names": names or {}}


def dicts(events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events]


def title(kind: str) -> str:
    try:
        return registry.get(kind).title
    except KeyError:  # a game no longer installed
        return kind


def renumber(seats: list[SeatRecord]) -> list[SeatRecord]:
    return [replace(s, position=i) for i, s in enumerate(seats)]
