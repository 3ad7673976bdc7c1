"""The Discord-free session layer: lobbies, seats, actions, AI turns, timers, results.

Every public method loads the game from the database, checks who may do what, applies the
change through the engine, saves it in one transaction, and only then returns an
:class:`Outcome` for the caller to announce. A per-game ``asyncio.Lock`` serialises changes to
one game; different games run concurrently.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from engine import TABLE_OPTIONS, Event, Game, IllegalAction, InvalidSetup, game_options, registry
from engine.registry import GameInfo
from render.text import echo
from sessions import cardfiles
from sessions.access import StoreAccess
from sessions.errors import NotAllowed, SessionError, StaleAction
from sessions.live import LiveGames
from sessions.ratings import is_rated, placings, rate_game
from sessions.settings import GuildSettings, duration_text, parse_setting
from storage import ActionRow, ChannelBusy, Database, GameDamaged, GameRecord, ResultRow, SeatRecord
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
CHANNEL_BUSY = "This channel already has a game. Finish it, `/game cancel` it, or use another channel."
# A runaway engine or AI must never spin the bot forever.
_MAX_AUTOMATIC_ACTIONS = 5000
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

    @property
    def names(self) -> dict[str, str]:
        """Raw names for the placeholders of this outcome's texts (see :func:`event_names`)."""
        return event_names(self.record, self.events)


@dataclass
class Hint:
    """The AI's suggestion for a player's move (``action`` None: confirmation needed first)."""

    record: GameRecord
    seat: str
    action: str | None
    description: str
    level: str = ""
    needs_confirmation: bool = False
    unrated_now: bool = False  # this hint made the game unrated for the asker


class GameService(StoreAccess):
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
        self._live = LiveGames()  # the games this process last saved, copied instead of restored
        self._host_locks: KeyedLocks[tuple[int, int]] = KeyedLocks()  # (guild, member): one /game new at a time

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
        ``farkle_cards`` reads and checks the operator's file here (off the event loop), once."""
        try:
            if key == "farkle_cards":
                return await cardfiles.choose_cards(self.cards_dir, raw)
            return parse_setting(key, raw)
        except ValueError as exc:
            raise SessionError(str(exc)) from None

    async def change_setting(self, guild_id: int, key: str, value: Any | None) -> None:
        """Store a setting (``None`` resets it to the default)."""
        if value is None:
            await self.db.settings.reset(guild_id, key)
        else:
            await self.db.settings.set(guild_id, key, value)
        self._settings.pop(guild_id, None)

    # -- lobby ----------------------------------------------------------------------------
    async def create(
        self, kind: str, guild_id: int, channel_id: int, host: Actor, options_text: str = "", *,
        threads_possible: bool = False, rematch_of: int | None = None,
    ) -> GameRecord:
        """Open a lobby. ``threads_possible``: the bot may make threads in this channel (the caller
        knows Discord); then, with the server's ``game_threads`` on, the game will be played in a
        thread of its own and the channel stays free for other tables (one open lobby per host
        here). Otherwise the channel holds this one game. ``rematch_of``: the ended game repeated."""
        try:
            info = registry.get(kind)
        except KeyError:
            raise SessionError(unknown_game(kind)) from None
        settings = await self.settings(guild_id)
        if not settings.game_enabled(kind):
            raise NotAllowed(f"{info.title} is turned off in this server (`/config set enabled_games`).")
        if not settings.channel_allowed(channel_id):
            raise NotAllowed("Games can't be started in this channel. An admin can change `allowed_channels`.")
        options = parse_options(info, options_text)
        in_thread = threads_possible and bool(settings["game_threads"])
        host_seat = SeatRecord(seat="p1", position=0, user_id=host.user_id, ai_level=None, display_name=host.name)
        async with self._host_locks.hold((guild_id, host.user_id)):
            await self._check_lobby_limit(guild_id, host, settings)
            await self._check_table_free(channel_id, host, in_thread)
            try:
                rec = await self.db.games.create(
                    kind=kind,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_user_id=host.user_id,
                    options=options,
                    seed=self._seed_source(),
                    seats=[host_seat],
                    announce=[],  # the lobby message itself
                    in_thread=in_thread,
                    rematch_of=rematch_of,
                )
            except ChannelBusy:
                raise SessionError(CHANNEL_BUSY) from None
            # If the process dies before this, arm_lobby_timers() sets it at the next start-up.
            await self.db.timers.set(rec.id, LOBBY_TIMER, rec.created_at + settings["lobby_timeout"])
            log.info("game %s created: %s lobby in guild %s, channel %s%s", rec.id, kind, guild_id, channel_id,
                     " (to be played in a thread)" if in_thread else "")
            return rec

    async def _check_table_free(self, channel_id: int, host: Actor, in_thread: bool) -> None:
        """A game's own thread holds that game only; a channel whose games go to threads holds
        one open lobby per host (so Join, Start and /game cancel there mean one lobby)."""
        if in_thread:
            held = [g for g in await self.db.games.thread_lobbies_in_channel(channel_id) if g.host_user_id == host.user_id]
            if held:
                raise SessionError(f"You already have an open lobby in this channel (#{held[0].id}, "
                                   f"{_title(held[0].kind)}): press **Start** or **Cancel** on it first.")
        elif await self.db.games.active_in_channel(channel_id) is not None:  # e.g. /game new in a game's thread
            raise SessionError(CHANNEL_BUSY)

    async def _check_lobby_limit(self, guild_id: int, host: Actor, settings: GuildSettings) -> None:
        """Refuse a new lobby to a member who already hosts the most open lobbies allowed."""
        limit = settings["max_lobbies_per_member"]
        held = [g for g in await self.db.games.find(guild_id=guild_id, statuses=("lobby",))
                if g.host_user_id == host.user_id]
        if len(held) < limit:
            return
        which = ", ".join(f"#{g.id} {_title(g.kind)} in <#{g.channel_id}>" for g in held)
        raise NotAllowed(
            f"You already host {len(held)} open {'lobby' if len(held) == 1 else 'lobbies'} in this server, "
            f"the most one member may hold: {which}. Start one, or close it with its **Cancel** button "
            "(or `/game cancel` in its channel), before opening another."
        )

    async def lobby_deadline(self, game_id: int) -> float | None:
        """When an open lobby closes unless its host starts it (None once it is not open)."""
        return await self.db.timers.deadline(game_id, LOBBY_TIMER)

    async def arm_lobby_timers(self) -> int:
        """Give every open lobby without a closing time one (lobbies from before lobby timeouts
        existed, or a crash between creating a lobby and setting its timer). Returns how many."""
        armed = 0
        for rec in await self.db.games.find(statuses=("lobby",)):
            if await self.db.timers.deadline(rec.id, LOBBY_TIMER) is None:
                settings = await self.settings(rec.guild_id)
                await self.db.timers.set(rec.id, LOBBY_TIMER, rec.created_at + settings["lobby_timeout"])
                armed += 1
        return armed

    async def join(self, game_id: int, actor: Actor) -> Outcome:
        async with self.lock(game_id):
            rec = await self._lobby(game_id)
            if rec.seat_of_user(actor.user_id):
                raise SessionError("You are already in this lobby.")
            info = registry.get(rec.kind)
            if len(rec.seats) >= info.game_class.MAX_PLAYERS:
                raise SessionError(f"The lobby is full ({info.game_class.MAX_PLAYERS} seats).")
            seat = self._new_seat(rec, user_id=actor.user_id, name=actor.name)
            # Names go into texts as placeholders, filled once when shown (never raw here).
            return await self._save_lobby(rec, [*rec.seats, seat], f"{{{seat.seat}}} joined.")

    async def leave(self, game_id: int, actor: Actor) -> Outcome:
        async with self.lock(game_id):
            rec = await self._lobby(game_id)
            seat = rec.seat_of_user(actor.user_id)
            if seat is None:
                raise SessionError("You are not in this lobby.")
            seats = _renumber([s for s in rec.seats if s is not seat])
            humans = [s for s in seats if not s.is_ai]
            if not humans:
                closed = Event("lobby", "{actor} left; the lobby was closed: nobody is left.",
                               data={"names": {"actor": actor.name}})
                await self.db.games.save(rec.id, rec.version, status="cancelled", seats=seats, clear_timers=True,
                                        announce=_dicts([closed]))
                log.info("game %s: the lobby closed, its last human left", rec.id)
                return Outcome(await self.db.games.load(rec.id), events=[closed],
                               notice="The lobby was closed: nobody is left.")
            if rec.host_user_id == actor.user_id:
                # The host left: the longest-seated human takes over, so the lobby still has an owner.
                await self._set_host(rec.id, humans[0].user_id)
            picks = rec.options.get("teams")
            options = None
            if isinstance(picks, dict) and seat.seat in picks:  # a newcomer may get this seat id: no pick
                options = {**rec.options, "teams": {s: t for s, t in picks.items() if s != seat.seat}}
            return await self._save_lobby(rec, seats, "{actor} left.", {"actor": actor.name}, options=options)

    async def choose_team(self, game_id: int, actor: Actor, team: str) -> Outcome:
        """A seated player picks a team in a team-game lobby (kept as options["teams"], by seat);
        whether the teams can start is the engine's call at Start."""
        async with self.lock(game_id):
            rec = await self._lobby(game_id)
            seat = rec.seat_of_user(actor.user_id)
            if seat is None:
                raise SessionError("Only seated players pick a team: press Join first.")
            if team not in ("A", "B"):
                raise SessionError("There are two teams, A and B.")
            seated = {s.seat for s in rec.seats}  # a pick of a seat that left is dropped
            picks = {s: t for s, t in (rec.options.get("teams") or {}).items() if s in seated}
            if picks.get(seat.seat) == team:
                raise SessionError(f"You are already on team {team}.")
            options = {**rec.options, "teams": {**picks, seat.seat: team}}
            event = Event("lobby", f"{{{seat.seat}}} joined team {team}.", data={"names": {}})
            await self.db.games.save(rec.id, rec.version, options=options, announce=_dicts([event]))
            return Outcome(await self.db.games.load(rec.id), events=[event])

    async def add_ai(self, game_id: int, actor: Actor, level: str | None = None) -> Outcome:
        async with self.lock(game_id):
            rec = await self._lobby(game_id)
            self._require_host(rec, actor, "add AI seats")
            settings = await self.settings(rec.guild_id)
            if not settings["ai_seats"]:
                raise NotAllowed("AI seats are turned off in this server.")
            info = registry.get(rec.kind)
            level = level or info.ai_levels[min(1, len(info.ai_levels) - 1)]
            if level not in info.ai_levels:
                raise SessionError(f"AI level must be one of: {', '.join(info.ai_levels)}.")
            if len(rec.seats) >= info.game_class.MAX_PLAYERS:
                raise SessionError(f"The lobby is full ({info.game_class.MAX_PLAYERS} seats).")
            number = sum(1 for s in rec.seats if s.is_ai) + 1
            seat = self._new_seat(rec, user_id=None, name=f"{level.capitalize()} AI {number}", ai_level=level)
            return await self._save_lobby(rec, [*rec.seats, seat], f"An AI seat ({level}) was added.")

    async def start(self, game_id: int, actor: Actor) -> Outcome:
        async with self.lock(game_id):
            rec = await self._lobby(game_id)
            self._require_host(rec, actor, "start the game")
            info = registry.get(rec.kind)
            cls = info.game_class
            if len(rec.seats) < cls.MIN_PLAYERS:
                raise SessionError(
                    f"{info.title} needs at least {cls.MIN_PLAYERS} players; {len(rec.seats)} seated. "
                    "Ask others to Join, or Add AI."
                )
            extra = (await self.settings(rec.guild_id)).start_arguments(rec.kind)
            try:
                game = await self.new_game_for(rec, extra)
            except InvalidSetup as exc:  # options x seats the rules cannot start: nothing is saved
                raise SessionError(f"{info.title} can't start like this: {exc}") from None
            events = [Event("start", f"{info.title} begins!"), *_turn_events(rec.seats, [], game)]
            version = await self.db.games.save(rec.id, rec.version, state=game.to_dict(), status="active",
                                              announce=_dicts(events), clear_timers=True)  # the lobby's closing time
            rec = replace(rec, version=version, status="active", state=game.to_dict())
            log.info("game %s started: %s, %d seats (%d AI)", rec.id, rec.kind, len(rec.seats),
                     sum(1 for s in rec.seats if s.is_ai))
            outcome = await self._after_change(rec, game, events, previous_to_act=[])
            self._live.keep(outcome.record.id, outcome.record.version, game)
            return outcome

    async def cancel(self, game_id: int, actor: Actor) -> Outcome:
        async with self.lock(game_id):
            rec = await self.db.games.load(game_id)
            if rec.status not in ("lobby", "active"):
                raise SessionError("This game has already ended.")
            if actor.user_id != rec.host_user_id and not actor.is_admin:
                raise NotAllowed("Only the host or someone with Manage Server can cancel this game.")
            event = Event("cancel", "The game was cancelled by {actor}.", data={"names": {"actor": actor.name}})
            # A started game keeps why it ended, for its final board (the placeholders like events').
            result = _unfinished("Cancelled by {actor}.", {"actor": actor.name}) if rec.status == "active" else None
            await self.db.games.save(rec.id, rec.version, status="cancelled", clear_timers=True, result=result,
                                    announce=_dicts([event]))
            log.info("game %s cancelled by the host or an admin (it was %s)", rec.id, rec.status)
            rec = await self.db.games.load(rec.id)
            return Outcome(rec, events=[event])

    # -- playing --------------------------------------------------------------------------
    async def apply(
        self, game_id: int, actor: Actor, action: str, *, expected_version: int | None = None
    ) -> Outcome:
        """Apply ``action`` for the actor's seat. ``expected_version`` comes from the board the
        click was made on: an old board is refused, and a repeated click is recognised."""
        async with self.lock(game_id):
            rec = await self._running(game_id)
            seat = rec.seat_of_user(actor.user_id)
            if seat is None:
                raise NotAllowed("You are not playing in this game.")
            if expected_version is not None and expected_version != rec.version:
                # Only an older board can have been played already; a later version is forged.
                done = (await self.db.log.at_version(rec.id, expected_version + 1)
                        if 0 <= expected_version < rec.version else None)
                if done and done.seat == seat.seat and done.action == action:
                    return Outcome(rec, notice="Already done.", changed=False)
                raise StaleAction("That board is out of date: the game has moved on. Use the latest board.")
            game = await self._game_at(rec)
            if seat.seat not in game.to_act():
                raise IllegalAction("It is not your turn.")
            previous = game.to_act()
            secret = game.is_private_action(seat.seat, action)
            events = game.play(seat.seat, action)
            seats = None
            if seat.timeouts_in_a_row:
                seats = [replace(s, timeouts_in_a_row=0) if s.seat == seat.seat else s for s in rec.seats]
            row = ActionRow(seat.seat, action, "player", actor.user_id)
            if game.is_over or self._ai_to_act(rec.seats if seats is None else seats, game) is not None:
                rec = await self._save_action(rec, game, row, seats, events, previous)
                outcome = await self._after_change(rec, game, events, previous_to_act=previous, secret=secret)
            else:
                # The usual click: a human moves next. Its turn timer is saved with the action
                # (one transaction, one commit), and nothing else follows the save.
                timers = await self._turn_timers(rec, game, previous, secret)
                rec = await self._save_action(rec, game, row, seats, events, previous, timers=timers)
                outcome = Outcome(rec, game, events)
            self._live.keep(outcome.record.id, outcome.record.version, game)
            return outcome

    async def resign(self, game_id: int, actor: Actor) -> Outcome:
        async with self.lock(game_id):
            rec = await self._running(game_id)
            seat = rec.seat_of_user(actor.user_id)
            if seat is None:
                raise NotAllowed("You are not playing in this game.")
            game = await self._game_at(rec)
            event = Event("resign", f"{{{seat.seat}}} resigned.")
            humans_left = [s for s in rec.seats if not s.is_ai and s.seat != seat.seat]
            if len(rec.seats) == 2 or not humans_left:
                winners = [s.seat for s in rec.seats if s.seat != seat.seat]
                result = {
                    "scores": {},
                    "ranking": [winners, [seat.seat]] if winners else [[seat.seat]],
                    "reason": f"{{{seat.seat}}} resigned.",
                }
                rec = await self._finish(rec, game, result, resigned={seat.seat}, action=ActionRow(
                    seat.seat, "resign", "system", actor.user_id), events=[event])
                return Outcome(rec, game, [event])
            # Several players: an AI takes the seat so the others can play on.
            seats = [replace(s, ai_level="easy") if s.seat == seat.seat else s for s in rec.seats]
            event = Event("resign", f"{{{seat.seat}}} resigned; an AI plays their seat from here.")
            await self.db.games.save(rec.id, rec.version, actions=[ActionRow(seat.seat, "resign", "system",
                                                                            actor.user_id)], seats=seats,
                                    announce=_dicts([event]))
            rec = await self.db.games.load(rec.id)
            return await self._after_change(rec, game, [event], previous_to_act=game.to_act())

    async def hint(self, game_id: int, actor: Actor, *, confirmed: bool = False) -> Hint:
        """The strongest AI's suggestion for the actor's own move, for them alone. In a rated
        game (server setting ``hints=all``) it makes the game unrated for them: unless
        ``confirmed``, nothing is computed and the Hint only asks for that confirmation."""
        async with self.lock(game_id):
            rec = await self._running(game_id)
            seat = rec.seat_of_user(actor.user_id)
            if seat is None:
                raise NotAllowed("Hints are for the players of this game.")
            mode = (await self.settings(rec.guild_id))["hints"]
            rated = is_rated(rec.options)
            if mode == "off":
                raise NotAllowed(
                    "Hints are turned off in this server (an admin can change `hints` in /config)."
                )
            if mode == "casual" and rated:
                raise NotAllowed(
                    "Hints are for unrated games in this server, and this game is rated. "
                    "Start a game with `options: rated=off` to use them."
                )
            game = await self._game_at(rec)
            if seat.seat not in game.to_act():
                raise SessionError("It isn't your move: a hint is for a move you have to make now.")
            already = seat.seat in await self.db.ratings.unrated_seats(rec.id)
            costs_rating = rated and not already
            if costs_rating and not confirmed:
                return Hint(rec, seat.seat, None, "", needs_confirmation=True)
            info = registry.get(rec.kind)
            level = info.ai_levels[-1]
            action = await asyncio.to_thread(
                info.choose_ai_action, game, seat.seat, level, (rec.seed + rec.version + 1) & (2**62 - 1)
            )
            if costs_rating and await self.db.ratings.mark_unrated(rec.id, seat.seat, "hint"):
                # Everyone at the table sees that the game stopped counting for this player.
                event = Event(
                    "hint", f"💡 {{{seat.seat}}} took a hint: this game no longer counts for their rating."
                )
                await self.db.outbox.queue(rec.id, _dicts([event]))
                log.info("game %s: seat %s took a hint (unrated for them)", rec.id, seat.seat)
            return Hint(
                rec,
                seat.seat,
                action,
                game.describe_action(seat.seat, action),
                level=level,
                unrated_now=costs_rating,
            )

    async def on_timer(self, game_id: int, purpose: str) -> Outcome | None:
        """A timer ran out: a lobby closes, or a turn's AFK policy applies. Returns None if
        nothing was due."""
        if purpose == LOBBY_TIMER:
            return await self._close_unstarted_lobby(game_id)
        if purpose == REMIND_TIMER:
            return await self._remind(game_id)
        async with self.lock(game_id):
            rec = await self.db.games.load(game_id)
            if rec.status != "active":
                return None
            # Take the timer: its row goes only if it is due, for one caller whichever process
            # asks. Not due: re-armed meanwhile (the scheduler comes back); gone: already fired.
            if not await self.db.timers.claim(game_id, purpose, self._clock() + 0.001):
                return None
            game = await self._game_at(rec)
            settings = await self.settings(rec.guild_id)
            previous = game.to_act()
            late = [s for s in rec.seats if s.seat in previous and not s.is_ai]
            events: list[Event] = []
            seats = list(rec.seats)
            for seat in late:
                strikes = seat.timeouts_in_a_row + 1
                if strikes >= settings["afk_strikes"] and settings["afk_action"] == "abandon":
                    times = "once" if strikes == 1 else f"{strikes} times in a row"
                    abandoned = Event("abandon", f"{{{seat.seat}}} timed out {times}: the game is abandoned.")
                    why = _unfinished(f"Abandoned: {{{seat.seat}}} timed out {times}.")
                    await self.db.games.save(rec.id, rec.version, status="abandoned", clear_timers=True, result=why,
                                            announce=_dicts([abandoned]))
                    log.info("game %s abandoned: seat %s timed out %d times in a row", rec.id, seat.seat, strikes)
                    rec = await self.db.games.load(rec.id)
                    return Outcome(rec, game, [abandoned])
                if strikes >= settings["afk_strikes"]:
                    seats = [replace(s, ai_level="easy", timeouts_in_a_row=strikes) if s.seat == seat.seat else s
                             for s in seats]
                    events.append(Event("afk", f"{{{seat.seat}}} timed out {strikes} times in a row: "
                                               "an AI plays their seat from here."))
                else:
                    seats = [replace(s, timeouts_in_a_row=strikes) if s.seat == seat.seat else s for s in seats]
                    events.append(Event("timeout", f"{{{seat.seat}}} ran out of time; the AI acted for them."))
            if not any(not s.is_ai for s in seats):
                return await self._abandon_unplayed(rec, game, late, settings["afk_strikes"])
            rec.seats = seats
            # Act for the late seats (easy AI) until they have nothing left to do now.
            info = registry.get(rec.kind)
            unsaved = list(events)  # the strike lines go out with the first save
            unsaved_seats: list[SeatRecord] | None = seats
            for seat in late:
                guard = 0
                while not game.is_over and seat.seat in game.to_act() and guard < _MAX_AUTOMATIC_ACTIONS:
                    guard += 1
                    action = await asyncio.to_thread(
                        info.choose_ai_action, game, seat.seat, "easy", rec.seed ^ rec.version
                    )
                    before = game.to_act()
                    played = game.play(seat.seat, action)
                    events += played
                    rec = await self._save_action(rec, game, ActionRow(seat.seat, action, "timeout"),
                                                  unsaved_seats, unsaved + played, before)
                    unsaved_seats, unsaved = None, []  # saved with the first action
            if unsaved_seats is not None:
                await self.db.games.save(rec.id, rec.version, seats=unsaved_seats, announce=_dicts(unsaved))
                rec = await self.db.games.load(rec.id)
            return await self._after_change(rec, game, events, previous_to_act=previous)

    async def _abandon_unplayed(self, rec: GameRecord, game: Game, late: list[SeatRecord],
                                strikes: int) -> Outcome:
        """The last human seat timed out for good: AIs playing each other to a "winner" would be
        a result nobody earned, so the game is abandoned (no winner, never rated)."""
        who = " and ".join(f"{{{s.seat}}}" for s in late)
        times = "once" if strikes == 1 else f"{strikes} times in a row"
        event = Event("abandon", f"{who} timed out {times} and no player is left at the table: "
                                 "the game is abandoned (nobody wins, nothing is rated).")
        why = _unfinished(f"Abandoned: {who} timed out {times} and no player was left.")
        await self.db.games.save(rec.id, rec.version, status="abandoned", clear_timers=True, result=why,
                                announce=_dicts([event]))
        log.info("game %s abandoned: no human seat left after timeouts", rec.id)
        return Outcome(await self.db.games.load(rec.id), game, [event])

    async def _remind(self, game_id: int) -> Outcome | None:
        """Half the turn time is gone (or, in a long turn, all but its last eighth): queue a
        reminder for the humans who still owe a move."""
        async with self.lock(game_id):
            rec = await self.db.games.load(game_id)
            deadline = await self.db.timers.deadline(game_id, REMIND_TIMER)
            if deadline is None or deadline > self._clock() + 0.001:
                return None
            await self.db.timers.clear(game_id, REMIND_TIMER)
            if rec.status != "active":
                return None
            game = await self._game_at(rec)
            humans = {s.seat for s in rec.seats if not s.is_ai}
            owing = [p for p in game.to_act() if p in humans]
            if game.is_over or not owing:
                return None
            reminder = Event(TURN_EVENT, "", data={"seats": owing, "reminder": True})
            await self.db.outbox.queue(rec.id, _dicts([reminder]))
            last = last_reminder(await self.db.timers.deadline(game_id, TURN_TIMER),
                                 (await self.settings(rec.guild_id)).turn_timeout(rec.kind))
            if last is not None and last > deadline + 1:  # this was the half-way one: one more near the end
                await self.db.timers.set(game_id, REMIND_TIMER, last)
            return Outcome(rec, game, [reminder])

    async def _close_unstarted_lobby(self, game_id: int) -> Outcome | None:
        async with self.lock(game_id):
            rec = await self.db.games.load(game_id)
            deadline = await self.db.timers.deadline(game_id, LOBBY_TIMER)
            if deadline is None:
                return None
            if rec.status != "lobby":  # started or closed meanwhile: the timer is left over
                await self.db.timers.clear(game_id, LOBBY_TIMER)
                return None
            if deadline > self._clock() + 0.001:
                return None  # not due yet; the scheduler will come back
            text = (f"⌛ This lobby closed because nobody started it within {duration_text(deadline - rec.created_at)}. "
                    "Open a new one with `/game new`.")
            closed = Event("lobby_timeout", text)
            await self.db.games.save(rec.id, rec.version, status="cancelled", clear_timers=True,
                                    announce=_dicts([closed]))
            log.info("game %s: the lobby closed, nobody started it in time", rec.id)
            return Outcome(await self.db.games.load(rec.id), events=[closed])

    async def set_private_route(self, game_id: int, seat_id: str, route: str) -> None:
        """Remember how a seat receives private prompts ('dm' or 'ephemeral')."""
        await self.db.games.set_private_route(game_id, seat_id, route)

    # -- reading --------------------------------------------------------------------------
    async def load(self, game_id: int) -> tuple[GameRecord, Game | None]:
        rec = await self.db.games.load(game_id)
        game = await self._game_at(rec) if rec.state is not None else None
        return rec, game

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

    # -- internals ------------------------------------------------------------------------
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

    def _new_seat(
        self, rec: GameRecord, *, user_id: int | None, name: str, ai_level: str | None = None
    ) -> SeatRecord:
        taken = {s.seat for s in rec.seats}
        number = next(n for n in range(1, 100) if f"p{n}" not in taken)
        return SeatRecord(seat=f"p{number}", position=len(rec.seats), user_id=user_id, ai_level=ai_level,
                          display_name=name)

    async def _set_host(self, game_id: int, user_id: int | None) -> None:
        await self.db.games.set_host(game_id, user_id)

    async def _save_lobby(self, rec: GameRecord, seats: list[SeatRecord], text: str,
                          names: dict[str, str] | None = None, *, options: dict[str, Any] | None = None
                          ) -> Outcome:
        event = Event("lobby", text, data={"names": names or {}})
        await self.db.games.save(rec.id, rec.version, seats=_renumber(seats), announce=_dicts([event]),
                                options=options)
        return Outcome(await self.db.games.load(rec.id), events=[event])

    async def _save_action(
        self, rec: GameRecord, game: Game, row: ActionRow, seats: list[SeatRecord] | None, events: list[Event],
        to_act_before: list[str], *, timers: dict[str, float | None] | None = None,
    ) -> GameRecord:
        """Save one action with the events it caused (queued for announcing in the same
        transaction), and the humans it hands the move to (``to_act_before``: who had to act
        just before it), so they are pinged even if the bot stops right after the commit.
        ``timers``: deadlines to set (None: remove) in the same transaction."""
        announce = events + _turn_events(seats if seats is not None else rec.seats, to_act_before, game, row)
        version = await self.db.games.save(rec.id, rec.version, state=game.to_dict(), actions=[row], seats=seats,
                                          announce=_dicts(announce), timers=timers)
        return replace(rec, version=version, state=None, seats=seats if seats is not None else rec.seats)

    async def _after_change(
        self, rec: GameRecord, game: Game, events: list[Event], *, previous_to_act: list[str],
        secret: bool = False,
    ) -> Outcome:
        """Let AI seats act, finish the game if it ended, and re-arm the turn timer. ``events``
        were queued for announcing with the save that caused them; so are the AI seats'."""
        info = registry.get(rec.kind)
        guard = 0
        while not game.is_over and guard < _MAX_AUTOMATIC_ACTIONS:
            ai_seat = self._ai_to_act(rec.seats, game)
            if ai_seat is None:
                break
            guard += 1
            assert ai_seat.ai_level is not None
            action = await asyncio.to_thread(
                info.choose_ai_action, game, ai_seat.seat, ai_seat.ai_level, (rec.seed + rec.version) & (2**62 - 1)
            )
            before = game.to_act()
            played = game.play(ai_seat.seat, action)
            events = events + played
            rec = await self._save_action(rec, game, ActionRow(ai_seat.seat, action, "ai"), None, played, before)
        if guard >= _MAX_AUTOMATIC_ACTIONS:
            log.error("game %s: AI seats acted %s times in a row; stopping", rec.id, guard)
        if game.is_over and game.result is not None:
            rec = await self._finish(rec, game, game.result.to_dict())
        else:
            await self._arm_turn_timer(rec, game, previous_to_act, secret)
        return Outcome(rec, game, events)

    @staticmethod
    def _ai_to_act(seats: list[SeatRecord], game: Game) -> SeatRecord | None:
        """The first AI seat that must act now, if any."""
        to_act = game.to_act()
        return next((s for s in seats if s.is_ai and s.seat in to_act), None)

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
            rec.id, rec.version, status="finished", result=result, results=rows, clear_timers=True,
            actions=[action] if action else (), announce=_dicts(events or []), rate=rate_game,
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


def _turn_events(seats: list[SeatRecord], to_act_before: list[str], game: Game,
                 mover: ActionRow | None = None) -> list[Event]:
    """A TURN_EVENT for the human seats that must act now and did not just before; and for the
    ``mover`` when its public move leaves it a secret decision (its last Flagon character
    placed, it must plan now): that decision is in its private prompt, which is edited in
    place and notifies nobody, so the ping tells it."""
    if game.is_over:
        return []
    humans = {s.seat for s in seats if not s.is_ai}
    became = [p for p in game.to_act() if p in humans and p not in to_act_before]
    if mover is not None and mover.seat in humans and mover.seat not in became and mover.seat in game.to_act() \
            and not game.is_private_action(mover.seat, mover.action):
        legal = game.legal_actions(mover.seat)
        if legal and all(game.is_private_action(mover.seat, a) for a in legal):
            became.append(mover.seat)
    return [Event(TURN_EVENT, "", data={"seats": became, "reminder": False})] if became else []


# A turn at least this long (a correspondence game) gets a second reminder near its end.
LONG_TURN = 4 * 3600


def last_reminder(turn_deadline: float | None, timeout: float) -> float | None:
    """When a long turn's last reminder is due: with an eighth of the time left (3 hours of a
    day, 21 hours of a week). None for a short turn: its half-way reminder is enough."""
    if turn_deadline is None or timeout < LONG_TURN:
        return None
    return turn_deadline - timeout / 8


def _unfinished(reason: str, names: dict[str, str] | None = None) -> dict[str, Any]:
    """The saved result of a game that stopped before its end (cancelled, abandoned): nobody
    is ranked; ``reason`` names players as {p1} placeholders, others through ``names``."""
    return {"scores": {}, "ranking": [], "reason": reason, "names": names or {}}


def _dicts(events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events]


def _title(kind: str) -> str:
    try:
        return registry.get(kind).title
    except KeyError:  # a game no longer installed
        return kind


def _renumber(seats: list[SeatRecord]) -> list[SeatRecord]:
    return [replace(s, position=i) for i, s in enumerate(seats)]


MAX_OPTION_VALUE = 100


def unknown_game(kind: str) -> str:
    known = ", ".join(f"`{info.name}`" for info in registry.all_games()) or "none"
    return f"Unknown game `{echo(kind, 40)}`. Known games: {known}."


def parse_options(info: GameInfo, text: str) -> dict[str, Any]:
    """``"extended=on team=off"`` -> typed options; ValueError-free: SessionError on bad input."""
    specs = {o.name: o for o in (*info.game_class.OPTIONS, *TABLE_OPTIONS)}
    values: dict[str, Any] = {}
    for token in text.replace(",", " ").split():
        name, sep, raw = token.partition("=")
        name = name.strip().lower()
        if name not in specs:
            known = ", ".join(f"`{n}`" for n in specs) or "none"
            raise SessionError(f"{info.title} has no option `{echo(name, 40)}`. Options: {known}.")
        spec = specs[name]
        if len(raw) > MAX_OPTION_VALUE:  # the engine's refusal would repeat all of it
            raise SessionError(f"The value of `{name}` is too long ({len(raw):,} characters). "
                               f"See `/game rules {info.name}` for what it takes.")
        example = f"{name}={('on' if spec.default else 'off') if isinstance(spec.default, bool) else spec.default}"
        if not sep:
            if isinstance(spec.default, bool):
                raw = "on"
            else:
                raise SessionError(f"Write `{name}=<value>` (for example `{example}`).")
        elif not raw:  # "max_rounds= 20": the value was split off as a word of its own
            raise SessionError(f"`{name}=` has no value: write it right after the `=`, as in `{example}`.")
        try:
            values[name] = spec.parse(raw)
        except ValueError as exc:
            raise SessionError(str(exc)) from None
    return values
