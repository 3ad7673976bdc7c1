"""Turns session outcomes into Discord messages: the one board message per game (edited on
every change), private prompts (DM, or the ephemeral fallback), and the end of the game.

Public messages are drawn only from ``game.view(None)`` and public events; private views and
events go only to their owner. Every outcome reaching here has already been saved.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord

import render
from cogs import components, results
from cogs.board_controls import MenuCache, board_controls
from cogs.board_pictures import BoardPicture, Picture, picture_digest, picture_key
from cogs.carrier import Carrier
from cogs.pings import afk_outcome
from cogs.prompts import private_actions, prompt_token
from cogs.recent import RecentMap
from cogs.ui import ui_for
from engine import Event, Game, registry
from render import text
from render.text import fill_names
from sessions import event_names
from sessions.service import TURN_EVENT
from sessions.snapshot import Snapshot
from storage import GameRecord
from storage.outbox import PROGRESS_MARK

if TYPE_CHECKING:
    from bot import DragonTavern

log = logging.getLogger("dragon_tavern.cogs.presenter")

RECENT_EVENTS = 6
IMAGES_KEPT = 256  # games whose last board image is kept (a board PNG is 15–40 KiB: ~10 MiB at most)
# Board messages whose picture (what it shows, and its attachment) is remembered: a few hundred
# bytes each, so every game of a busy process fits; a board whose picture did not change is then
# neither drawn nor uploaded again, however many games run (issue 25: drawing is ~10 ms of CPU).
PICTURES_KEPT = 20_000


def public_events(events: list[Event]) -> list[Event]:
    return [e for e in events if e.to is None]


class Presenter:
    def __init__(self, bot: DragonTavern) -> None:
        self.bot = bot
        # The last board image per game and what it showed, so an unchanged picture is not
        # drawn again (memory only: after a restart the first board is simply redrawn). Only
        # the most recently drawn games are kept: a long-running bot draws millions of boards.
        self._images: RecentMap[int, tuple[str, bytes]] = RecentMap(IMAGES_KEPT)
        # message id -> (digests of the picture it carries: what it shows, its PNG bytes; those
        # attachments as Discord keeps them): an unchanged picture is neither drawn nor uploaded
        # again (nor one that looks the same although its view changed where it draws nothing).
        self._pictures: RecentMap[int, tuple[Picture, list[discord.Attachment]]] = RecentMap(PICTURES_KEPT)
        self.menus = MenuCache()  # the move menus: the board's, and its clicks' (cogs.menu_clicks)

    # -- public board ---------------------------------------------------------------------
    async def lobby_message(self, snap: Snapshot) -> dict[str, Any]:
        rec = snap.record
        info = registry.get(rec.kind)
        cls = info.game_class
        closes = "" if snap.deadline is None else f"\nIf nobody starts it, this lobby closes <t:{int(snap.deadline)}:R>."
        embed = discord.Embed(
            title=f"{info.emoji} {info.title} — lobby #{rec.id}",
            description=f"{player_count(cls.MIN_PLAYERS, cls.MAX_PLAYERS)}. Press **Join** to take a seat; "
            "the host presses **Start**." + closes,
            colour=discord.Colour.gold(),
        )
        seats = "\n".join(
            f"{i + 1}. {text.shown_name(s.display_name)}{' (host)' if s.user_id == rec.host_user_id else ''}"
            for i, s in enumerate(rec.seats)
        ) or "nobody yet"
        embed.add_field(name=f"Seats ({len(rec.seats)}/{cls.MAX_PLAYERS})", value=seats, inline=False)
        shown_options = {k: v for k, v in rec.options.items() if not isinstance(v, dict)}  # not lobby choices
        if shown_options:
            embed.add_field(name="Options", value=", ".join(f"`{k}={text.echo(_show(v))}`"
                                                            for k, v in shown_options.items()))
        for name, value in ui_for(rec.kind).lobby_fields(rec):  # game-specific lobby lines (e.g. teams)
            embed.add_field(name=name, value=value, inline=False)
        rated = rec.options.get("rated", True) is not False
        embed.set_footer(text=(f"{'Rated' if rated else 'Unrated (rated=off)'} game · "
                               f"/game rules {rec.kind} for the rules"))
        view = components.lobby_components(rec, info.ai_levels, snap.settings["ai_seats"])
        for item in ui_for(rec.kind).lobby_rows(rec):  # game-specific lobby controls (e.g. team picks)
            view.add_item(item)
        return text.fit_message({"content": None, "embed": embed, "view": view, "attachments": []})

    async def board_message(
        self, snap: Snapshot, *, keep_picture_of: int | None = None
    ) -> dict[str, Any]:
        """The board of a started game: its text, players, Recent lines, result or footer,
        picture and controls, all drawn from ``snap`` (nothing more is read from storage).
        When message ``keep_picture_of`` already carries the very picture, the message keeps
        that attachment instead of drawing it again."""
        rec, game = snap.record, snap.game
        assert game is not None, "a started game has a state"
        info = registry.get(rec.kind)
        names = text.seat_names(rec.seats, "plain")  # labels and the picture: no markdown there
        ended = results.has_ended(rec, game)  # the saved record says so too (resign, cancel, abandonment)
        public = results.final_view(rec, game, snap.public_view())
        board = render.render_text(rec.kind, public, text.seat_names(rec.seats, "code"))
        colour = discord.Colour.dark_green() if not ended else discord.Colour.dark_grey()
        embed = discord.Embed(title=f"{info.emoji} {info.title} — game #{rec.id}", description=board, colour=colour)
        to_act = game.to_act() if not ended else []
        embed.add_field(name="Players", value=players_text(snap, to_act), inline=True)
        if rec.recent:
            embed.add_field(name="Recent", value="\n".join(rec.recent[-RECENT_EVENTS:]), inline=False)
        if ended:
            embed.add_field(name="Result", value=results.result_text(rec, game, public), inline=False)
        else:
            embed.set_footer(text=results.running_footer(rec, snap.moves_played or 0))
        files: list[discord.File] = []
        kept: list[discord.Attachment] = []
        if snap.settings["images"]:
            shown = ui_for(rec.kind).image_view(public)
            key = picture_key(shown, names)
            known = self._pictures.get(keep_picture_of) if keep_picture_of is not None else None
            if known is not None and known[0][0] == key and known[1]:
                kept = known[1]  # the message shows this picture already: not drawn again
                embed.set_image(url="attachment://board.png")
            elif png := await self._board_png(rec, public, names, key):
                files.append(BoardPicture(key, png, f"{info.title} board"))
                embed.set_image(url="attachment://board.png")
        view = self._controls(rec, game, ended, to_act, names)
        return text.fit_message({"content": None, "embed": embed, "view": view, "attachments": kept or files})

    def board_view(self, snap: Snapshot) -> discord.ui.View | None:
        """Only the controls of :meth:`board_message` (fitted as it fits them), for a click that
        redraws them below a picker: the board's text, embed and picture are not built."""
        rec, game = snap.record, snap.game
        assert game is not None, "a started game has a state"
        ended = results.has_ended(rec, game)
        to_act = game.to_act() if not ended else []
        view = self._controls(rec, game, ended, to_act, text.seat_names(rec.seats, "plain"))
        return text.fit_view(view) if view is not None else None

    def _controls(
        self, rec: GameRecord, game: Game, ended: bool, to_act: list[str], names: dict[str, str]
    ) -> discord.ui.View | None:
        if rec.status == "active" and not ended:
            return board_controls(rec, game, [p for p in to_act if not _is_ai(rec, p)], names, self.menus)
        if ended:  # controls on the final board (e.g. the action log, Rematch)
            return results.final_components(rec, game)
        return None

    async def _board_png(
        self, rec: GameRecord, public: dict[str, Any], names: dict[str, str], key: str | None = None
    ) -> bytes | None:
        """The board image, redrawn only when what it shows changed. A game's UI module may
        narrow that with its ``image_view(view)`` hook (Flagon leaves out who is still planning, so the
        picture changes once per time step, not once per submitted plan). ``key``: its
        :func:`picture_key`, when the caller has it already."""
        shown = ui_for(rec.kind).image_view(public)
        key = key or picture_key(shown, names)
        cached = self._images.get(rec.id)
        if cached is not None and cached[0] == key:
            self._images.move_to_end(rec.id)
            return cached[1]
        png = await asyncio.to_thread(render.render_png, rec.kind, shown, names)
        if png:
            self._images[rec.id] = (key, png)
        return png

    # -- what cogs.outbox delivers, step by step -------------------------------------------
    def recent_lines(self, rec: GameRecord, events: list[Event], game: Game | None = None) -> list[str]:
        """The board's "Recent" lines for these events (public ones only), and the game's
        progress line if these events moved a phase on (it replaces the previous one)."""
        names = text.shown_names(event_names(rec, events))
        # The game may condense its public lines (the default: one line per event).
        shown = [e for e in public_events(events) if e.kind != TURN_EVENT]  # pings, not board lines
        ui = ui_for(rec.kind)
        lines = ui.event_lines(shown)
        progress = ui.progress_line(game, shown) if game is not None else None
        if progress:  # first: the plans came in before what they set off (the reveals)
            lines.insert(0, f"{PROGRESS_MARK} {progress}")
        return [fill_names(t, names) for t in lines]

    async def draw_board(self, snap: Snapshot, carrier: Carrier | None = None) -> None:
        """Edit the game's one message to show the saved state (harmless to repeat): through
        the click's own response when the click was on the board (cogs.carrier)."""
        await self._put_board(snap, await self.message_of(snap), carrier)

    async def message_of(self, snap: Snapshot) -> dict[str, Any]:
        """The game's one message: its lobby, its board, or the closed lobby. A board keeps
        the picture its message already carries when that picture did not change."""
        if snap.record.status == "lobby":
            return await self.lobby_message(snap)
        if snap.game is None:  # cancelled before starting: close the lobby message
            return await self._closed_lobby(snap.record)
        return await self.board_message(snap, keep_picture_of=snap.record.board_message_id)

    async def repost_board(self, game_id: int) -> None:
        """Post the board again at the bottom of the channel; the old one points to it."""
        snap = await self.bot.service.snapshot(game_id)
        rec = snap.record
        old = rec.board_message_id
        rec.board_message_id = None
        await self._put_board(snap, await self.message_of(snap))
        if old is not None:
            channel = self.bot.get_partial_messageable(rec.table_channel_id)
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).edit(
                    content="⬇️ This board moved further down.", embed=None, view=None, attachments=[])

    async def _closed_lobby(self, rec: GameRecord) -> dict[str, Any]:
        info = registry.get(rec.kind)
        # Every way a lobby is cancelled queues a line saying why (cancelled by the host, nobody
        # left, nobody started it in time); it is the last Recent line.
        why = f"\n{rec.recent[-1][:1500]}" if rec.status == "cancelled" and rec.recent else ""
        embed = discord.Embed(title=f"{info.emoji} {info.title} — lobby #{rec.id}",
                              description=f"This lobby was {rec.status}.{why}", colour=discord.Colour.dark_grey())
        return {"content": None, "embed": embed, "view": None, "attachments": []}

    async def _put_board(self, snap: Snapshot, message: dict[str, Any], carrier: Carrier | None = None) -> None:
        # By id, not from the cache: the game's server may be on another process's shard (a DM
        # click reaches shard 0's process), and posting needs no cached channel. A game played
        # in a thread has its board there (cogs.threads).
        rec = snap.record
        channel = self.bot.get_partial_messageable(rec.table_channel_id)
        kwargs = text.fit_message(message)
        picture = self._picture_of(rec.board_message_id, kwargs.get("attachments") or [])
        if carrier is not None and carrier.carries_board(rec.board_message_id):
            assert rec.board_message_id is not None
            try:  # through the interaction's webhook: an interaction endpoint, outside the global limit
                answered = await carrier.edit(
                    rec.board_message_id, **self.keep_unchanged_picture(rec.board_message_id, kwargs)
                )
                self._pictures[rec.board_message_id] = (picture, list(answered.attachments))
                return
            except discord.HTTPException:
                carrier.broken = True  # its token was refused: not tried again (cogs.carrier)
                log.info("game %s: the click's token could not edit the board; editing it in the channel", rec.id)
        if rec.board_message_id is not None:
            partial = channel.get_partial_message(rec.board_message_id)
            try:
                edited = await partial.edit(**self.keep_unchanged_picture(rec.board_message_id, kwargs))
                self._pictures[rec.board_message_id] = (picture, list(edited.attachments))
                return
            except discord.NotFound:
                log.info("game %s: board message vanished; posting a new one", rec.id)
                if not all(isinstance(f, discord.File) for f in kwargs.get("attachments") or []):
                    # it kept the vanished message's picture: draw it for the new message
                    kwargs, picture = await self.new_board_message(snap)
        files = kwargs.pop("attachments")
        sent = await channel.send(**kwargs, files=files)
        self.posted(sent, picture)
        await self.bot.db.games.set_board_message(rec.id, sent.id)
        rec.board_message_id = sent.id

    async def new_board_message(self, snap: Snapshot) -> tuple[dict[str, Any], Picture]:
        """The board of a started game for a new message (its picture as a file) and what
        its picture shows; :meth:`posted` once it is sent."""
        kwargs = text.fit_message(await self.board_message(snap))
        return kwargs, self._picture_of(None, kwargs.get("attachments") or [])

    def posted(self, sent: discord.Message, picture: Picture) -> None:
        """``sent`` carries the board ``picture``: its next edit need not upload it again."""
        self._pictures[sent.id] = (picture, list(sent.attachments))

    def keep_unchanged_picture(self, message_id: int, message: dict[str, Any]) -> dict[str, Any]:
        """``message`` as an edit of ``message_id``: without its files when the message already
        carries the very same picture: the edit names the attachment it already has, so nothing
        is uploaded and the embed's attachment://board.png still finds it.
        Memory-only: after a restart the first edit uploads once."""
        files = message.get("attachments")
        known = self._pictures.get(message_id)
        if files and known is not None and known[1]:
            new = self._picture_of(message_id, files)
            if known[0][0] == new[0] or known[0][1] == new[1]:
                return {**message, "attachments": known[1]}
        return message

    def _picture_of(self, message_id: int | None, files: list[Any]) -> Picture:
        """The digests of the picture ``files`` show: attachments kept from ``message_id``
        (board_message's ``keep_picture_of``) show what that message is known to show."""
        if files and not all(isinstance(f, discord.File) for f in files):
            known = self._pictures.get(message_id) if message_id is not None else None
            return known[0] if known is not None else ("", "")
        if len(files) == 1 and isinstance(files[0], BoardPicture):
            return files[0].key, picture_digest(files)
        digest = picture_digest(files)
        return digest, digest

    # -- private prompts ------------------------------------------------------------------
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
            view = components.action_picker(rec.id, "p", choices, page=page, token=prompt_token(game, seat_id),
                                            placeholder="Your secret choice…")
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


def players_text(snap: Snapshot, to_act: list[str]) -> str:
    """The Players field: each seat (▶ for those to act, members mentioned, AIs with their
    level), and while the game runs, the turn's deadline and what happens then."""
    rec = snap.record
    shown = text.seat_names(rec.seats)
    lines = []
    for s in rec.seats:
        marker = "▶ " if s.seat in to_act else ""
        who = f"<@{s.user_id}>" if s.user_id and not s.is_ai else shown[s.seat]
        ai = f" 🤖 {s.ai_level}" if s.is_ai else ""
        lines.append(f"{marker}{who}{ai}")
    waiting = [s for s in rec.seats if s.seat in to_act and not s.is_ai]
    if snap.running and snap.deadline is not None and waiting:
        lines.append(f"⏳ <t:{int(snap.deadline)}:R>, {afk_outcome(waiting, snap.settings, rec.seats)}")
    return "\n".join(lines)


def player_count(low: int, high: int) -> str:
    """'2 players', '2–5 players'."""
    return f"{low} players" if low == high else f"{low}–{high} players"


def _is_ai(rec: GameRecord, seat_id: str) -> bool:
    return any(s.seat == seat_id and s.is_ai for s in rec.seats)


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
