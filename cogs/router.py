"""Routes every component click by its custom_id (see cogs.routing), after a restart too."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from cogs import errors, routing
from cogs.announcer import actor_of
from cogs.menu_clicks import on_choose_in_menu, on_open_menu, on_turn_menu_page
from cogs.presenter import fill_names
from cogs.prompts import private_actions, prompt_key, prompt_token
from cogs.rematch import everyone_in, on_open_rematch_lobby
from cogs.replay import (
    EXPORT_VERB,
    GIF_VERB,
    OPEN_VERB,
    SHOW_VERB,
    STEP_VERB,
    on_open_replay,
    on_send_export,
    on_send_gif,
    on_show_replay,
    on_step_replay,
)
from cogs.results import REMATCH_VERB
from cogs.ui import ui_for
from render import text
from sessions import SessionError
from storage import SeatMessage
from storage.damage import DAMAGED_MESSAGE

if TYPE_CHECKING:
    from bot import DragonTavern
    from storage import GameRecord

log = logging.getLogger("dragon_tavern.cogs.router")

LOBBY_VERBS = frozenset({"join", "leave", "ai", "start", "cancel"})
PRIVATE_VERBS = frozenset({"hand", "pnav", "p"})  # they answer with the private prompt themselves


class Router(commands.Cog):
    def __init__(self, bot: DragonTavern) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = routing.component_data(interaction).get("custom_id", "")
        route = routing.parse(str(custom_id))
        if route is None:
            if str(custom_id).startswith(f"{routing.PREFIX}:"):
                await errors.reply_privately(interaction, "⚠️ That control is broken or from an old version.")
            return
        try:
            refusal = await self.refusal(interaction, route)
            if refusal is not None:
                await errors.reply_privately(interaction, refusal)
                return
            await self.dispatch(interaction, route)
            await self.offer_private_prompt(interaction, route)
        except Exception as exc:  # the one handler: never a traceback to the user
            await errors.report(interaction, exc)
        finally:
            # A board left stale by a failed announcement is drawn from the saved state now.
            await self.bot.outbox.catch_up(route.game_id)

    async def refusal(self, interaction: discord.Interaction, route: routing.Route) -> str | None:
        """Why this click may not reach its game, or None. The custom_id is client data: the
        game it names must exist and belong to this server, or, in a DM, be one the clicking
        user is seated in. Every handler (the game UIs' handlers too) runs only after this check."""
        access = await self.bot.db.games.access(route.game_id, interaction.user.id)
        gone = f"⚠️ {errors.GAME_GONE}"
        if access is None:  # unknown, or an id out of SQLite's range
            return gone
        if interaction.guild_id is not None:
            if access.guild_id != interaction.guild_id:
                return gone  # another server's game: say no more than for a missing one
        elif not access.seated:
            return gone
        elif route.verb in LOBBY_VERBS:
            return "⚠️ Lobby buttons work only on the lobby message in the server channel."
        if access.damaged:
            return f"⚠️ {DAMAGED_MESSAGE}"
        return None

    async def dispatch(self, interaction: discord.Interaction, route: routing.Route) -> None:
        handler = VERBS.get(route.verb)
        if handler is None:
            await errors.reply_privately(interaction, "⚠️ That control is from an old version of the bot.")
            return
        await handler(self, interaction, route)

    # -- lobby ----------------------------------------------------------------------------
    async def on_join_lobby(self, interaction: discord.Interaction, route: routing.Route) -> None:
        await interaction.response.defer()
        outcome = await self.bot.service.join(route.game_id, actor_of(interaction))
        await self.bot.announcer.after_change(outcome, interaction)
        await everyone_in(self.bot, outcome.record, interaction.user.id)  # a rematch lobby: call its host

    async def on_leave_lobby(self, interaction: discord.Interaction, route: routing.Route) -> None:
        await interaction.response.defer()
        await self.bot.announcer.after_change(await self.bot.service.leave(route.game_id, actor_of(interaction)),
                                              interaction)

    async def on_add_ai(self, interaction: discord.Interaction, route: routing.Route) -> None:
        values = routing.component_data(interaction).get("values") or []
        await interaction.response.defer()
        outcome = await self.bot.service.add_ai(route.game_id, actor_of(interaction), str(values[0]) if values
                                                else None)
        await self.bot.announcer.after_change(outcome, interaction)

    async def on_cancel_lobby(self, interaction: discord.Interaction, route: routing.Route) -> None:
        await interaction.response.defer()
        outcome = await self.bot.service.cancel(route.game_id, actor_of(interaction))
        await self.bot.announcer.after_change(outcome, interaction)

    async def on_start_game(self, interaction: discord.Interaction, route: routing.Route) -> None:
        await interaction.response.defer()
        await self.bot.announcer.start_game(route.game_id, actor_of(interaction), interaction)

    # -- public moves ---------------------------------------------------------------------
    async def on_play_action(self, interaction: discord.Interaction, route: routing.Route) -> None:
        move = routing.PLAY.read(route)
        await interaction.response.defer()
        outcome = await self.bot.service.apply(route.game_id, actor_of(interaction), move.action,
                                               expected_version=move.version)
        if outcome.changed:
            await self.bot.announcer.after_change(outcome, interaction)
        elif outcome.notice:
            await errors.reply_privately(interaction, outcome.notice)

    async def on_open_picker(self, interaction: discord.Interaction, route: routing.Route) -> None:
        await self._send_picker(interaction, route.game_id, routing.OPEN_PICKER.read(route).page, edit=False)

    async def on_turn_picker_page(self, interaction: discord.Interaction, route: routing.Route) -> None:
        await self._send_picker(interaction, route.game_id, routing.PICKER_PAGE.read(route).page, edit=True)

    async def seated(self, interaction: discord.Interaction, game_id: int, *, my_turn: bool = True,
                      not_seated: str = "You are not playing in this game.") -> tuple[Any, Any, Any]:
        """(record, game, seat) of the clicking player in a running game, or a private refusal."""
        rec, game = await self.bot.service.load(game_id)
        seat = rec.seat_of_user(interaction.user.id)
        if seat is None:
            raise SessionError(not_seated)
        if game is None or rec.status != "active":
            raise SessionError("This game is not running.")
        if my_turn and seat.seat not in game.to_act():
            raise SessionError("It is not your turn.")
        return rec, game, seat

    async def _send_picker(self, interaction: discord.Interaction, game_id: int, page: int, *, edit: bool) -> None:
        rec, game, seat = await self.seated(interaction, game_id)
        message = self.bot.presenter.public_picker(rec, game, seat.seat, page)
        if edit:
            await interaction.response.edit_message(**message)
        else:
            await interaction.response.send_message(**message, ephemeral=True)

    async def on_pick_from_picker(self, interaction: discord.Interaction, route: routing.Route) -> None:
        values = routing.component_data(interaction).get("values") or []
        if not values:
            raise SessionError("Pick one option.")
        version = routing.PICK.read(route).version
        await interaction.response.defer()
        outcome = await self.bot.service.apply(route.game_id, actor_of(interaction), str(values[0]),
                                               expected_version=version)
        await interaction.edit_original_response(content=f"✅ Played `{text.echo(str(values[0]))}`.", view=None)
        if outcome.changed:
            await self.bot.announcer.after_change(outcome, interaction)

    async def on_game_control(self, interaction: discord.Interaction, route: routing.Route) -> None:
        """Game-specific verbs: dt:<id>:x:<verb>... handled by the game's UI plug-in (its ``handlers``)."""
        rec = await self.bot.db.games.load(route.game_id)
        handler = ui_for(rec.kind).handlers.get(route.arg(0))
        if handler is None:
            await errors.reply_privately(interaction, "⚠️ That control is from an old version of the bot.")
            return
        await handler(self.bot, interaction, route)

    # -- private prompts ------------------------------------------------------------------
    async def on_show_hand(self, interaction: discord.Interaction, route: routing.Route) -> None:
        await self._send_private(interaction, route.game_id, page=0, edit=False)

    async def on_turn_hand_page(self, interaction: discord.Interaction, route: routing.Route) -> None:
        page = routing.PRIVATE_PAGE.read(route).page
        await self._send_private(interaction, route.game_id, page=page, edit=True)

    async def _send_private(self, interaction: discord.Interaction, game_id: int, *, page: int, edit: bool) -> None:
        rec, game, seat = await self.seated(
            interaction, game_id, my_turn=False,
            not_seated="You are not playing in this game, so you have no hand to see.")
        settings = await self.bot.service.settings(rec.guild_id)
        if not edit and settings["hidden_pick_mode"] == "dm" and seat.private_route == "dm":
            # This server wants secrets in DMs; the button is only the fallback for closed DMs.
            raise SessionError("Your hand and secret choices are in your DMs with the bot.")
        message = self.bot.presenter.private_message(rec, game, seat.seat, [], page=page)
        if edit:
            await interaction.response.edit_message(**message)
        else:
            if message.get("view") is None:  # nothing to choose now: send_message refuses view=None
                message = {k: v for k, v in message.items() if k != "view"}
            await interaction.response.send_message(**message, ephemeral=True)
        if seat.private_route != "dm" or settings["hidden_pick_mode"] == "ephemeral":
            # Seen: the next click need not offer this prompt again (offer_private_prompt).
            seen = SeatMessage(0, 0, prompt_key(game, seat.seat), True)
            await self.bot.db.seat_messages.set(rec.id, seat.seat, seen)

    async def on_play_private(self, interaction: discord.Interaction, route: routing.Route) -> None:
        values = routing.component_data(interaction).get("values") or []
        if not values:
            raise SessionError("Pick one option.")
        action = str(values[0])
        token = routing.PRIVATE_PICK.read(route).token
        rec, game, seat = await self.seated(interaction, route.game_id, my_turn=False)
        if token != prompt_token(game, seat.seat):
            # An old prompt (an earlier roll or phase): it must not act on the game as it is now.
            await self._show_current_prompt(interaction, rec, game, seat.seat)
            return
        await interaction.response.defer()
        outcome = await self.bot.service.apply(route.game_id, actor_of(interaction), action)
        rec, new_game = outcome.record, outcome.game
        label = fill_names(game.describe_action(seat.seat, action), text.seat_names(rec.seats))
        message: dict[str, Any] = {"content": f"✅ {label}", "embed": None, "view": None}
        in_dm = interaction.guild_id is None
        if new_game is not None and (in_dm or private_actions(new_game, seat.seat)):
            # The same message becomes the next prompt (ephemeral) or the seat message as it is
            # now (the DM: cogs.seat_messages then finds it already showing this and sends no second edit).
            own = [e for e in outcome.events if e.to == seat.seat]
            prompt = self.bot.presenter.private_message(rec, new_game, seat.seat, own, page=0)
            message = {**prompt, "content": f"✅ {label}"}
            if in_dm and interaction.message is not None:
                self.bot.outbox.seat_messages.shown(interaction.message.id, prompt)
        await interaction.edit_original_response(**message)
        await self.bot.announcer.after_change(outcome, interaction)

    async def _show_current_prompt(self, interaction: discord.Interaction, rec: GameRecord, game: Any,
                                   seat_id: str) -> None:
        """Answer a click on an out-of-date private prompt: nothing is played, and the clicked
        message becomes the current prompt."""
        message = self.bot.presenter.private_message(rec, game, seat_id, [], page=0)
        note = "⚠️ That prompt was out of date, so nothing was played. Here is the current one."
        await interaction.response.edit_message(**{**message, "content": note})

    async def offer_private_prompt(self, interaction: discord.Interaction, route: routing.Route) -> None:
        """After a click in the channel by a player who reads secrets through the board's
        button (DMs closed, or the server keeps them ephemeral): if a private choice is open
        that they have not been shown, show it to them now, privately. Never raises."""
        if interaction.guild_id is None or route.verb in PRIVATE_VERBS or not interaction.response.is_done():
            return
        try:
            # The game as this click's delivery drew it, else (nothing was delivered) as saved.
            snap = self.bot.outbox.delivered_for.pop(interaction.id, None)
            if snap is not None:
                rec, game = snap.record, snap.game
            else:
                rec, game = await self.bot.service.load(route.game_id)
            seat = rec.seat_of_user(interaction.user.id)
            if game is None or seat is None or rec.status != "active" or not private_actions(game, seat.seat):
                return
            settings = await self.bot.service.settings(rec.guild_id)
            if seat.private_route == "dm" and settings["hidden_pick_mode"] != "ephemeral":
                return  # their DM carries it
            key = prompt_key(game, seat.seat)
            seen = await self.bot.db.seat_messages.get(rec.id, seat.seat)
            if seen is not None and seen.prompt_key == key:
                return
            clicked = interaction.message
            if clicked is not None and clicked.flags.ephemeral:
                # A click inside their private prompt: the game edits that prompt into what
                # comes next, so it is seen already; a second copy would be noise.
                await self.bot.db.seat_messages.set(rec.id, seat.seat, SeatMessage(0, 0, key, True))
                return
            message = self.bot.presenter.private_message(rec, game, seat.seat, [], page=0)
            note = "🔒 You have a private choice now (only you see this):"
            await interaction.followup.send(**{k: v for k, v in message.items() if v is not None}, content=note,
                                            ephemeral=True)
            await self.bot.db.seat_messages.set(rec.id, seat.seat, SeatMessage(0, 0, key, True))
        except Exception:
            log.warning("game %s: offering the private prompt failed", route.game_id, exc_info=True)


RouterHandler = Callable[[Router, discord.Interaction, routing.Route], Awaitable[None]]

# The one table from the short verbs in custom_ids (``dt:<id>:<verb>:...``) to what they do.
# The verbs are on buttons already posted (boards, DMs), so they never change; only add.
VERBS: dict[str, RouterHandler] = {
    # the lobby
    "join": Router.on_join_lobby,
    "leave": Router.on_leave_lobby,
    "ai": Router.on_add_ai,
    "cancel": Router.on_cancel_lobby,
    "start": Router.on_start_game,
    # public moves: board buttons, and the private picker when several players act at once
    "a": Router.on_play_action,
    "pick": Router.on_open_picker,
    "psnav": Router.on_turn_picker_page,
    "ps": Router.on_pick_from_picker,
    # the move menu (cogs.menu)
    "t": on_open_menu,
    "tn": on_turn_menu_page,
    "ts": on_choose_in_menu,
    # the game's own controls (its UI plug-in's handlers)
    "x": Router.on_game_control,
    # private prompts
    "hand": Router.on_show_hand,
    "pnav": Router.on_turn_hand_page,
    "p": Router.on_play_private,
    # the final board (cogs.rematch)
    REMATCH_VERB: on_open_rematch_lobby,
    # replays of games that are over (cogs.replay): anyone in the server may press them
    OPEN_VERB: on_open_replay,
    STEP_VERB: on_step_replay,
    GIF_VERB: on_send_gif,
    EXPORT_VERB: on_send_export,
    SHOW_VERB: on_show_replay,
}


async def setup(bot: DragonTavern) -> None:
    await bot.add_cog(Router(bot))


__all__ = ["VERBS", "Router"]
