"""Turns session outcomes into Discord messages: the one board message per game (edited on
every change), private prompts (DM, or the ephemeral fallback), and the end of the game.

Public messages are drawn only from ``game.view(None)`` and public events; private views and
events go only to their owner. Every outcome reaching here has already been saved.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import logging
import re
from typing import TYPE_CHECKING, Any

import discord

import render
from cogs import components, menu, results
from cogs.ui import ui_for
from engine import Event, Game, registry
from render import text
from render.text import fill_names
from sessions import event_names
from sessions.settings import GuildSettings
from storage import GameRecord, SeatRecord

if TYPE_CHECKING:
    from bot import DragonTavern

log = logging.getLogger("dragon_tavern.cogs.presenter")

RECENT_EVENTS = 6
DM_CLOSED = 50007


def public_events(events: list[Event]) -> list[Event]:
    return [e for e in events if e.to is None]


class Presenter:
    def __init__(self, bot: DragonTavern) -> None:
        self.bot = bot
        # The last board image per game and what it showed, so an unchanged picture is not
        # drawn again (memory only: after a restart the first board is simply redrawn).
        self._images: dict[int, tuple[str, bytes]] = {}

    # -- public board ---------------------------------------------------------------------
    async def lobby_message(self, rec: GameRecord) -> dict[str, Any]:
        info = registry.get(rec.kind)
        settings = await self.bot.service.settings(rec.guild_id)
        cls = info.game_class
        embed = discord.Embed(
            title=f"{info.emoji} {info.title} — lobby #{rec.id}",
            description=f"{cls.MIN_PLAYERS}–{cls.MAX_PLAYERS} players. Press **Join** to take a seat; "
            "the host presses **Start**." + await self._lobby_closes(rec),
            colour=discord.Colour.gold(),
        )
        seats = "\n".join(
            f"{i + 1}. {text.shown_name(s.display_name)}{' (host)' if s.user_id == rec.host_user_id else ''}"
            for i, s in enumerate(rec.seats)
        ) or "nobody yet"
        embed.add_field(name=f"Seats ({len(rec.seats)}/{cls.MAX_PLAYERS})", value=seats, inline=False)
        if rec.options:
            embed.add_field(name="Options", value=", ".join(f"`{k}={text.echo(_show(v))}`"
                                                            for k, v in rec.options.items()))
        for name, value in ui_for(rec.kind).lobby_fields(rec):  # game-specific lobby lines (e.g. teams)
            embed.add_field(name=name, value=value, inline=False)
        embed.set_footer(text=f"/game rules {rec.kind} for the rules")
        view = components.lobby_components(rec, info.ai_levels, settings["ai_seats"])
        return text.fit_message({"content": None, "embed": embed, "view": view, "attachments": []})

    async def _lobby_closes(self, rec: GameRecord) -> str:
        deadline = await self.bot.service.lobby_deadline(rec.id)
        return "" if deadline is None else f"\nIf nobody starts it, this lobby closes <t:{int(deadline)}:R>."

    async def board_message(self, rec: GameRecord, game: Game) -> dict[str, Any]:
        info = registry.get(rec.kind)
        settings = await self.bot.service.settings(rec.guild_id)
        names = text.seat_names(rec.seats, "plain")  # labels and the picture: no markdown there
        shown = text.seat_names(rec.seats)
        ended = results.has_ended(rec, game)  # the saved record says so too (resign, cancel, abandonment)
        public = results.final_view(rec, game, game.view(None))
        board = render.render_text(rec.kind, public, text.seat_names(rec.seats, "code"))
        colour = discord.Colour.dark_green() if not ended else discord.Colour.dark_grey()
        embed = discord.Embed(title=f"{info.emoji} {info.title} — game #{rec.id}", description=board, colour=colour)
        to_act = game.to_act() if not ended else []
        players = []
        for s in rec.seats:
            marker = "▶ " if s.seat in to_act else ""
            who = f"<@{s.user_id}>" if s.user_id and not s.is_ai else shown[s.seat]
            ai = f" 🤖 {s.ai_level}" if s.is_ai else ""
            players.append(f"{marker}{who}{ai}")
        embed.add_field(name="Players", value="\n".join(players), inline=True)
        recent = rec.recent
        if recent:
            embed.add_field(name="Recent", value="\n".join(recent[-RECENT_EVENTS:]), inline=False)
        if ended:
            embed.add_field(name="Result", value=results.result_text(rec, game, public), inline=False)
        else:
            moves = results.moves_played(game, await self.bot.service.action_log(rec.id))
            embed.set_footer(text=results.running_footer(rec, moves))
        files: list[discord.File] = []
        if settings["images"]:
            png = await self._board_png(rec, public, names)
            if png:
                files.append(discord.File(io.BytesIO(png), filename="board.png", description=f"{info.title} board"))
                embed.set_image(url="attachment://board.png")
        running = rec.status == "active" and not ended
        actions: list[tuple[str, str]] = []
        public_seats = [p for p in to_act if not _is_ai(rec, p)]
        many_actors = len(public_seats) > 1
        if running and len(public_seats) == 1:
            seat = public_seats[0]
            actions = [
                (a, fill_names(game.describe_action(seat, a), names))
                for a in game.legal_actions(seat)
                if not game.is_private_action(seat, a)
            ]
        view = None
        if running:
            ui = ui_for(rec.kind)
            extra = []
            menu_root = None
            if len(public_seats) == 1:
                extra = ui.board_rows(rec, game, public_seats[0], rec.version)
                if ui.menu and actions:
                    menu_root = build_menu(rec.kind, game, public_seats[0], names)
            view = components.board_components(
                rec, actions, version=rec.version,
                show_private_button=type(game).HIDDEN_INFORMATION,
                show_picker=many_actors and any(
                    not game.is_private_action(p, a) for p in public_seats for a in game.legal_actions(p)
                ),
                extra=extra,
                menu=menu_root,
            )
        elif ended:  # controls on the final board (e.g. the action log, Rematch)
            view = results.final_components(rec, game)
        return text.fit_message({"content": None, "embed": embed, "view": view, "attachments": files})

    async def _board_png(self, rec: GameRecord, public: dict[str, Any], names: dict[str, str]) -> bytes | None:
        """The board image, redrawn only when what it shows changed. A game's UI module may
        narrow that with its ``image_view(view)`` hook (Flagon leaves out who is still planning, so the
        picture changes once per time step, not once per submitted plan)."""
        shown = ui_for(rec.kind).image_view(public)
        key = hashlib.sha1(
            json.dumps([shown, names], sort_keys=True, default=str).encode(), usedforsecurity=False
        ).hexdigest()
        cached = self._images.get(rec.id)
        if cached is not None and cached[0] == key:
            return cached[1]
        png = await asyncio.to_thread(render.render_png, rec.kind, shown, names)
        if png:
            self._images[rec.id] = (key, png)
        return png

    # -- what cogs.outbox delivers, step by step -------------------------------------------
    def recent_lines(self, rec: GameRecord, events: list[Event]) -> list[str]:
        """The board's "Recent" lines for these events (public ones only)."""
        names = text.shown_names(event_names(rec, events))
        # The game may condense its public lines (the default: one line per event).
        return [fill_names(t, names) for t in ui_for(rec.kind).event_lines(public_events(events))]

    async def draw_board(self, rec: GameRecord, game: Game | None) -> None:
        """Edit the game's one message to show the saved state (harmless to repeat)."""
        if rec.status == "lobby":
            await self._put_board(rec, await self.lobby_message(rec))
        elif game is None:  # cancelled before starting: close the lobby message
            await self._put_board(rec, await self._closed_lobby(rec))
        else:
            await self._put_board(rec, await self.board_message(rec, game))

    async def announce(self, rec: GameRecord, game: Game, events: list[Event]) -> int | None:
        """A short channel message from the game's UI hook ``announce`` (e.g. a ping for a player
        who must act out of turn): editing the board never notifies anyone, a new message does.
        The hook sees only public events and returns text with {p1} placeholders, or None; it
        pings a seat by writing ``{@p2}``, and only those seats' users are allowed to be pinged
        (the bot-wide default pings nobody, so a name like ``<@id> @everyone`` stays inert).
        Returns the id of the message sent."""
        if rec.status != "active" or game.is_over:
            return None
        template = ui_for(rec.kind).announce(rec, game, public_events(events))
        if not template:
            return None
        content, pinged = fill_mentions(template, rec, text.shown_names(event_names(rec, events)))
        channel = self.bot.get_channel(rec.channel_id) or await self.bot.fetch_channel(rec.channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        sent = await channel.send(text.fit(content), allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(user_id) for user_id in pinged]))
        return sent.id

    async def repost_board(self, rec: GameRecord) -> None:
        """Post the board again at the bottom of the channel; the old one points to it."""
        old = rec.board_message_id
        rec.board_message_id = None
        if rec.status == "lobby":
            await self._put_board(rec, await self.lobby_message(rec))
        else:
            rec, game = await self.bot.service.load(rec.id)
            rec.board_message_id = None
            assert game is not None
            await self._put_board(rec, await self.board_message(rec, game))
        if old is not None:
            channel = self.bot.get_channel(rec.channel_id)
            if isinstance(channel, discord.abc.Messageable):
                with contextlib.suppress(discord.HTTPException):
                    await channel.get_partial_message(old).edit(  # type: ignore[attr-defined]
                        content="⬇️ This board moved further down.", embed=None, view=None, attachments=[])

    async def _closed_lobby(self, rec: GameRecord) -> dict[str, Any]:
        info = registry.get(rec.kind)
        # Every way a lobby is cancelled queues a line saying why (cancelled by the host, nobody
        # left, nobody started it in time); it is the last Recent line.
        why = f"\n{rec.recent[-1][:1500]}" if rec.status == "cancelled" and rec.recent else ""
        embed = discord.Embed(title=f"{info.emoji} {info.title} — lobby #{rec.id}",
                              description=f"This lobby was {rec.status}.{why}", colour=discord.Colour.dark_grey())
        return {"content": None, "embed": embed, "view": None, "attachments": []}

    async def _put_board(self, rec: GameRecord, message: dict[str, Any]) -> None:
        channel = self.bot.get_channel(rec.channel_id) or await self.bot.fetch_channel(rec.channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        kwargs = text.fit_message(message)
        if rec.board_message_id is not None:
            partial = channel.get_partial_message(rec.board_message_id)  # type: ignore[attr-defined]
            try:
                await partial.edit(**kwargs)
                return
            except discord.NotFound:
                log.info("game %s: board message vanished; posting a new one", rec.id)
        files = kwargs.pop("attachments")
        sent = await channel.send(**kwargs, files=files)
        await self.bot.service.set_board_message(rec.id, sent.id)

    # -- private prompts ------------------------------------------------------------------
    async def send_private(self, rec: GameRecord, game: Game, seat: SeatRecord, events: list[Event]) -> bool:
        """DM one human seat its private events among ``events`` and, if it has secret choices
        to make now, its private prompt. Where DMs fail, the board's "Show my hand" button
        takes over. Returns whether a DM went out."""
        if rec.status != "active" or seat.is_ai or seat.user_id is None:
            return False
        own_events = [e for e in events if e.to == seat.seat]
        needs_prompt = bool(private_actions(game, seat.seat))
        if not own_events and not needs_prompt:
            return False
        if not ui_for(rec.kind).private_prompt_due(game, seat.seat, events):
            return False  # the game's open prompt is updated in place; no new DM
        settings = await self.bot.service.settings(rec.guild_id)
        if settings["hidden_pick_mode"] == "ephemeral" or seat.private_route == "ephemeral":
            return False  # they read it through the board's button
        return await self._dm_prompt(rec, game, seat, own_events, settings)

    async def _dm_prompt(
        self, rec: GameRecord, game: Game, seat: SeatRecord, own_events: list[Event], settings: GuildSettings
    ) -> bool:
        assert seat.user_id is not None
        message = self.private_message(rec, game, seat.seat, own_events, page=0)
        try:
            user = self.bot.get_user(seat.user_id) or await self.bot.fetch_user(seat.user_id)
            await user.send(**text.fit_message(message))
            return True
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED and exc.status != 403:
                raise
            await self.bot.service.set_private_route(rec.id, seat.seat, "ephemeral")
            if settings["hidden_pick_mode"] == "dm":
                log.info("game %s: DMs closed for a seat in dm-only mode; the board button remains", rec.id)
            return False

    def private_message(
        self, rec: GameRecord, game: Game, seat_id: str, own_events: list[Event], *, page: int
    ) -> dict[str, Any]:
        custom = ui_for(rec.kind).private_message(rec, game, seat_id, own_events, page=page)
        if custom is not None:  # a game-specific private prompt
            return custom
        info = registry.get(rec.kind)
        names = text.seat_names(rec.seats, "plain")
        board = render.render_text(rec.kind, game.view(seat_id), text.seat_names(rec.seats, "code"))
        embed = discord.Embed(title=f"🔒 {info.title} — game #{rec.id} (only you see this)", description=board,
                              colour=discord.Colour.blurple())
        if own_events:
            shown = text.seat_names(rec.seats)
            embed.add_field(name="For you", value="\n".join(fill_names(e.text, shown) for e in own_events),
                            inline=False)
        choices = private_actions(game, seat_id, names)
        view = None
        if choices:
            embed.set_footer(text="Your choice stays secret until the rules reveal it.")
            view = components.action_picker(rec.id, "p", choices, page=page, placeholder="Your secret choice…")
        return text.fit_message({"embed": embed, "view": view})

    # -- the ephemeral picker for public actions ----------------------------------------
    def public_picker(self, rec: GameRecord, game: Game, seat_id: str, page: int) -> dict[str, Any]:
        names = text.seat_names(rec.seats, "plain")  # select labels show no markdown
        choices = [(a, fill_names(game.describe_action(seat_id, a), names)) for a in game.legal_actions(seat_id)
                   if not game.is_private_action(seat_id, a)]
        if not choices:
            return {"content": "You have no move to make right now.", "view": None}
        view = components.action_picker(rec.id, "ps", choices, page=page, version=rec.version,
                                        placeholder="Your move…")
        return text.fit_message({"content": f"Choose your move ({len(choices)} legal).", "view": view})


_MENTION_OR_NAME = re.compile(r"\{(@?)([A-Za-z_]\w*)\}")  # render.text's placeholders, plus {@p1}


def fill_mentions(template: str, rec: GameRecord, names: dict[str, str]) -> tuple[str, list[int]]:
    """Fill ``{p1}`` with names and ``{@p1}`` with a mention of that seat's user, in one pass
    (a name containing ``{@p2}`` stays text); returns the text and the user ids it pings. An
    AI seat, or a seat without a user, is named instead."""
    users = {s.seat: s.user_id for s in rec.seats if s.user_id and not s.is_ai}
    pinged: list[int] = []

    def one(match: re.Match[str]) -> str:
        seat = match.group(2)
        if match.group(1) and seat in users:
            if users[seat] not in pinged:
                pinged.append(users[seat])
            return f"<@{users[seat]}>"
        return names.get(seat, seat)

    return _MENTION_OR_NAME.sub(one, template), pinged


def private_actions(game: Game, seat_id: str, names: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """(action, label) of ``seat_id``'s private choices now; labels name players via ``names``."""
    if game.is_over or seat_id not in game.to_act():
        return []
    return [(a, fill_names(game.describe_action(seat_id, a), names or {})) for a in game.legal_actions(seat_id)
            if game.is_private_action(seat_id, a)]


def build_menu(kind: str, game: Game, seat_id: str, names: dict[str, str] | None = None) -> menu.Node:
    """The move menu of ``seat_id``'s public actions (games whose UI sets ``menu``).
    Labels may name players as {p1} (like describe_action); ``names`` fills them."""
    ui = ui_for(kind)
    public = [a for a in game.legal_actions(seat_id) if not game.is_private_action(seat_id, a)]
    return menu.build(public, lambda a: [fill_names(label, names or {}) for label in ui.menu_path(game, seat_id, a)])


def _is_ai(rec: GameRecord, seat_id: str) -> bool:
    return any(s.seat == seat_id and s.is_ai for s in rec.seats)


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
