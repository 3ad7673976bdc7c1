"""The announcer: what follows a saved change on Discord (announce it from the outbox, follow
its timer), starting a game (the private-prompt routes of hidden-information games), damaged-game
notices, and delivering at start-up what a crash left queued.

The Discord-free rules (who may start, what is saved) live in :mod:`sessions`; this cog only
adds what needs Discord. Other cogs and the game UIs reach it as ``bot.announcer`` (a typed
property of the bot), and announce every saved change through :meth:`Announcer.after_change`.
(Not to be confused with an engine's turn flow, e.g. Farkle's ``TurnFlow``: the order of play.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from cogs.carrier import Carrier
from cogs.errors import AnnouncementDelayed
from engine import Event, registry
from sessions import Actor, Outcome
from storage import StorageError

if TYPE_CHECKING:
    from bot import DragonTavern

log = logging.getLogger(__name__)


def actor_of(interaction: discord.Interaction) -> Actor:
    """The clicking or typing member as a session actor."""
    user = interaction.user
    perms = getattr(user, "guild_permissions", None)
    is_admin = bool(perms and perms.manage_guild)
    # The name stays raw (as Discord gives it); render.text makes its safe display form
    # wherever it is shown, because markdown, code blocks and labels each need another one.
    return Actor(user_id=user.id, name=user.display_name, is_admin=is_admin)


class Announcer(commands.Cog):
    def __init__(self, bot: DragonTavern) -> None:
        self.bot = bot
        self._redelivery: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()

    async def cog_load(self) -> None:
        self.bot.db.damage.on_damaged = self._damage_found  # storage calls it when it sets a game aside

    async def start(self) -> int:
        """Once the bot is wired: re-arm the stored timers, announce damage found before a
        restart, and deliver in the background what a crash left queued (start-up is not held
        up). Returns how many timers were re-armed."""
        armed = await self.bot.timers.start()
        await self.announce_damaged()  # found before a restart but not announced yet
        self._redelivery = asyncio.create_task(self._deliver_pending(), name="outbox-start-up")
        return armed

    def stop(self) -> None:
        if self._redelivery is not None:
            self._redelivery.cancel()

    async def _deliver_pending(self) -> None:
        try:
            count = await self.bot.outbox.deliver_all_pending()
        except Exception:
            log.exception("delivering the announcements left from before the restart failed")
            return
        if count:
            log.info("announced what %d games had queued before the restart", count)

    # -- after a change ----------------------------------------------------------------------
    async def after_change(self, outcome: Outcome, interaction: discord.Interaction | None = None) -> None:
        """Announce a saved outcome (from the outbox) and follow its timer. ``interaction``:
        the click or command that caused it, answered already (a deferred click, or a command
        whose own reply was sent): the board edit and the ping go through it when they can
        (cogs.carrier). Raises AnnouncementDelayed if Discord did not take the announcement:
        it was saved all the same."""
        carrier = Carrier(interaction) if interaction is not None else None
        try:
            await self.bot.outbox.deliver_now(outcome.record.id, carrier)
        finally:
            await self.bot.timers.refresh(outcome.record.id, outcome.timers)

    async def after_timer(self, outcome: Outcome) -> None:
        # A failed announcement is already logged and queued for a retry; nobody to tell here.
        with contextlib.suppress(AnnouncementDelayed):
            await self.after_change(outcome)

    # -- starting a game ---------------------------------------------------------------------
    async def start_game(self, game_id: int, actor: Actor, interaction: discord.Interaction | None = None) -> None:
        service = self.bot.service
        outcome = await service.start(game_id, actor)
        # Its thread first (if it gets one): the DMs below and the board name where it is played.
        # Under the delivery lock, read again: a delivery running meanwhile may have made it.
        async with service.db.delivery_lock(game_id):
            outcome.record = await self.bot.outbox.tables.open_thread(await service.db.games.load(game_id))
        info = registry.get(outcome.record.kind)
        if info.game_class.HIDDEN_INFORMATION:
            # The start is saved and queued; the route lines follow it on the board.
            notices = await self._check_private_routes(outcome)
            if notices:
                await service.db.outbox.queue(game_id, [e.to_dict() for e in notices])
        await self.after_change(outcome, interaction)

    async def _check_private_routes(self, outcome: Outcome) -> list[Event]:
        """DM every human once at the start: who can get private prompts by DM, who can't."""
        rec = outcome.record
        settings = await self.bot.service.settings(rec.guild_id)
        info = registry.get(rec.kind)
        by_dm: list[str] = []
        by_button: list[str] = []
        for seat in rec.seats:
            if seat.is_ai or seat.user_id is None:
                continue
            route = "ephemeral"
            if settings["hidden_pick_mode"] != "ephemeral":
                try:
                    sent = await self.bot.dms.send(
                        seat.user_id, content=f"🎲 You are playing **{info.title}** (game #{rec.id}) in "
                        f"<#{rec.table_channel_id}>. This message becomes your hand: it shows your secrets and "
                        "your secret choices, kept up to date for the whole game. Your turn ping tells you when "
                        "to choose here.")
                    await self.bot.outbox.seat_messages.adopt(rec, seat.seat, sent)
                    route = "dm"
                except discord.Forbidden:
                    route = "ephemeral"
            await self.bot.db.games.set_private_route(rec.id, seat.seat, route)
            (by_dm if route == "dm" else by_button).append(seat.seat)
        return route_notice(by_dm, by_button, by_setting=settings["hidden_pick_mode"] == "ephemeral")

    # -- damaged games -----------------------------------------------------------------------
    def _damage_found(self, game_id: int) -> None:
        """Storage set a game aside as damaged: tell its channel (once, see announce_damaged)."""
        task = asyncio.get_running_loop().create_task(self.announce_damaged(), name=f"damaged-{game_id}")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def announce_damaged(self) -> None:
        """Post one line in the channel of each damaged game not announced yet. The database
        remembers the announcement (claimed before posting), so it is made once only."""
        service = self.bot.service
        try:
            for game_id, channel_id in await service.db.damage.unannounced():
                if not await service.db.damage.claim_announcement(game_id):
                    continue
                text = (f"⚠️ Game #{game_id}'s saved data is damaged, so it can't go on. Admins: the bot's log "
                        f"names game {game_id} and what is wrong; the other games are not affected, and a new game "
                        "can be started in this channel.")
                await self.bot.get_partial_messageable(channel_id).send(text)
        except (discord.HTTPException, StorageError):
            log.warning("could not announce a damaged game", exc_info=True)


def route_notice(seats_dm: list[str], seats_ephemeral: list[str], *, by_setting: bool = False) -> list[Event]:
    """Public lines saying which path private prompts take (never what they contain); seats
    are named by {p1} placeholders, which the presenter fills once with safe names.
    ``by_setting``: the server keeps private prompts out of DMs (hidden_pick_mode ephemeral),
    so nobody's DMs are said to be closed."""
    events = []
    if seats_dm:
        events.append(Event("route", f"🔒 Private prompts by DM: {_seat_list(seats_dm)}."))
    if seats_ephemeral and by_setting:
        events.append(Event("route", f"🔒 Private prompts for {_seat_list(seats_ephemeral)}: press the "
                                      "“Show my hand / plan” button on this board."))
    elif seats_ephemeral:
        events.append(Event("route", f"🔒 DMs closed for {_seat_list(seats_ephemeral)}: use the "
                                      "“Show my hand / plan” button on this board."))
    return events


def _seat_list(seats: list[str]) -> str:
    return ", ".join(f"{{{seat}}}" for seat in seats)
