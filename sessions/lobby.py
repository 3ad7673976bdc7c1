"""Open lobbies: who sits where before a game starts, and starting it."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from engine import TABLE_OPTIONS, Event, InvalidSetup, registry
from engine.registry import GameInfo
from render.text import echo
from sessions.ai import AiSeats
from sessions.core import LOBBY_TIMER, Actor, Outcome, dicts, renumber, title, turn_events, unfinished
from sessions.errors import NotAllowed, SessionError
from sessions.settings import GuildSettings
from storage import ChannelBusy, GameRecord, SeatRecord

log = logging.getLogger("dragon_tavern.sessions.service")

CHANNEL_BUSY = "This channel already has a game. Finish it, `/game cancel` it, or use another channel."


class Lobby(AiSeats):
    """Open lobbies: create, join, leave, teams, AI seats, start and cancel."""

    async def create(
        self,
        kind: str,
        guild_id: int,
        channel_id: int,
        host: Actor,
        options_text: str = "",
        *,
        threads_possible: bool = False,
        rematch_of: int | None = None,
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
            raise NotAllowed(
                "Games can't be started in this channel. An admin can change `allowed_channels`."
            )
        options = parse_options(info, options_text)
        in_thread = threads_possible and bool(settings["game_threads"])
        host_seat = SeatRecord(
            seat="p1", position=0, user_id=host.user_id, ai_level=None, display_name=host.name
        )
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
            log.info(
                "game %s created: %s lobby in guild %s, channel %s%s",
                rec.id,
                kind,
                guild_id,
                channel_id,
                " (to be played in a thread)" if in_thread else "",
            )
            return rec

    async def _check_table_free(self, channel_id: int, host: Actor, in_thread: bool) -> None:
        """A game's own thread holds that game only; a channel whose games go to threads holds
        one open lobby per host (so Join, Start and /game cancel there mean one lobby)."""
        if in_thread:
            held = [
                g
                for g in await self.db.games.thread_lobbies_in_channel(channel_id)
                if g.host_user_id == host.user_id
            ]
            if held:
                raise SessionError(
                    f"You already have an open lobby in this channel (#{held[0].id}, "
                    f"{title(held[0].kind)}): press **Start** or **Cancel** on it first."
                )
        elif (
            await self.db.games.active_in_channel(channel_id) is not None
        ):  # e.g. /game new in a game's thread
            raise SessionError(CHANNEL_BUSY)

    async def _check_lobby_limit(self, guild_id: int, host: Actor, settings: GuildSettings) -> None:
        """Refuse a new lobby to a member who already hosts the most open lobbies allowed."""
        limit = settings["max_lobbies_per_member"]
        held = [
            g
            for g in await self.db.games.find(guild_id=guild_id, statuses=("lobby",))
            if g.host_user_id == host.user_id
        ]
        if len(held) < limit:
            return
        which = ", ".join(f"#{g.id} {title(g.kind)} in <#{g.channel_id}>" for g in held)
        raise NotAllowed(
            f"You already host {len(held)} open {'lobby' if len(held) == 1 else 'lobbies'} in this server, "
            f"the most one member may hold: {which}. Start one, or close it with its **Cancel** button "
            "(or `/game cancel` in its channel), before opening another."
        )

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
            seats = renumber([s for s in rec.seats if s is not seat])
            humans = [s for s in seats if not s.is_ai]
            if not humans:
                closed = Event(
                    "lobby",
                    "{actor} left; the lobby was closed: nobody is left.",
                    data={"names": {"actor": actor.name}},
                )
                await self.db.games.save(
                    rec.id,
                    rec.version,
                    status="cancelled",
                    seats=seats,
                    clear_timers=True,
                    announce=dicts([closed]),
                )
                log.info("game %s: the lobby closed, its last human left", rec.id)
                return Outcome(
                    await self.db.games.load(rec.id),
                    events=[closed],
                    notice="The lobby was closed: nobody is left.",
                )
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
            await self.db.games.save(rec.id, rec.version, options=options, announce=dicts([event]))
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
            level = info.ai_level_aliases.get(level, level)  # a removed level (e.g. a rematch's)
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
            events = [Event("start", f"{info.title} begins!"), *turn_events(rec.seats, [], game)]
            version = await self.db.games.save(
                rec.id,
                rec.version,
                state=game.to_dict(),
                status="active",
                announce=dicts(events),
                clear_timers=True,
            )  # the lobby's closing time
            rec = replace(rec, version=version, status="active", state=game.to_dict())
            log.info(
                "game %s started: %s, %d seats (%d AI)",
                rec.id,
                rec.kind,
                len(rec.seats),
                sum(1 for s in rec.seats if s.is_ai),
            )
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
            event = Event(
                "cancel", "The game was cancelled by {actor}.", data={"names": {"actor": actor.name}}
            )
            # A started game keeps why it ended, for its final board (the placeholders like events').
            result = (
                unfinished("Cancelled by {actor}.", {"actor": actor.name}) if rec.status == "active" else None
            )
            await self.db.games.save(
                rec.id,
                rec.version,
                status="cancelled",
                clear_timers=True,
                result=result,
                announce=dicts([event]),
            )
            log.info("game %s cancelled by the host or an admin (it was %s)", rec.id, rec.status)
            rec = await self.db.games.load(rec.id)
            return Outcome(rec, events=[event])

    def _new_seat(
        self, rec: GameRecord, *, user_id: int | None, name: str, ai_level: str | None = None
    ) -> SeatRecord:
        taken = {s.seat for s in rec.seats}
        number = next(n for n in range(1, 100) if f"p{n}" not in taken)
        return SeatRecord(
            seat=f"p{number}", position=len(rec.seats), user_id=user_id, ai_level=ai_level, display_name=name
        )

    async def _set_host(self, game_id: int, user_id: int | None) -> None:
        await self.db.games.set_host(game_id, user_id)

    async def _save_lobby(
        self,
        rec: GameRecord,
        seats: list[SeatRecord],
        text: str,
        names: dict[str, str] | None = None,
        *,
        options: dict[str, Any] | None = None,
    ) -> Outcome:
        event = Event("lobby", text, data={"names": names or {}})
        await self.db.games.save(
            rec.id, rec.version, seats=renumber(seats), announce=dicts([event]), options=options
        )
        return Outcome(await self.db.games.load(rec.id), events=[event])

    async def channel_game(self, channel_id: int, user_id: int | None = None) -> GameRecord | None:
        """The lobby or running game of a channel or game thread, if any. In a channel whose games
        go to threads, the open lobby ``user_id`` hosts (or else sits in; the newest)."""
        played_here = await self.db.games.active_in_channel(channel_id)
        if played_here is not None or user_id is None:
            return played_here
        lobbies = [g for g in await self.db.games.thread_lobbies_in_channel(channel_id) if g.seat_of_user(user_id)]
        hosted = [g for g in lobbies if g.host_user_id == user_id]
        found = hosted or lobbies
        return found[-1] if found else None


def unknown_game(kind: str) -> str:
    known = ", ".join(f"`{info.name}`" for info in registry.all_games()) or "none"
    return f"Unknown game `{echo(kind, 40)}`. Known games: {known}."


MAX_OPTION_VALUE = 100


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
            raise SessionError(
                f"The value of `{name}` is too long ({len(raw):,} characters). "
                f"See `/game rules {info.name}` for what it takes."
            )
        example = (
            f"{name}={('on' if spec.default else 'off') if isinstance(spec.default, bool) else spec.default}"
        )
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
