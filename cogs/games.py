"""Slash commands for playing: /game new|status|list|resign|cancel|stats and /play (/game rules,
card and help: cogs.rules)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs import errors, threads
from cogs.announcer import actor_of
from cogs.errors import AnnouncementDelayed
from cogs.pings import board_link
from cogs.presenter import fill_names
from cogs.ui import ui_for
from engine import registry
from render import text
from sessions import Outcome, SessionError
from sessions.service import NOTIFY_CHOICES
from sessions.waiting import Waiting, games_of
from storage import GameNotFound, GameRecord

if TYPE_CHECKING:
    from bot import DragonTavern

MAX_AUTOCOMPLETE = 25
MAX_ACTION = 100  # longer than any move in notation (and than an autocomplete value)


def game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=info.title, value=info.name) for info in registry.all_games()]


class Games(commands.Cog):
    game = app_commands.Group(name="game", description="Start, follow and manage board games", guild_only=True)

    def __init__(self, bot: DragonTavern) -> None:
        self.bot = bot

    async def _channel_game(self, interaction: discord.Interaction) -> GameRecord:
        rec = await self.bot.service.channel_game(interaction.channel_id or 0, interaction.user.id)
        if rec is None:
            raise SessionError("There is no game in this channel. Start one with `/game new`.")
        return rec

    @game.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(game="Which game", options="Options such as `extended=on` (see /game rules)")
    async def new(self, interaction: discord.Interaction, game: str, options: str = "") -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild_id is not None and interaction.channel_id is not None
        rec = await self.bot.service.create(game, interaction.guild_id, interaction.channel_id,
                                            actor_of(interaction), options,
                                            threads_possible=threads.can_make_threads(self.bot, interaction.channel_id))
        await self.bot.announcer.after_change(Outcome(rec))  # the lobby message and its closing time
        where = " The game will be played in a thread of its own." if rec.in_thread else ""
        await interaction.followup.send(f"Lobby #{rec.id} is open in this channel. Others press **Join**; "
                                        f"you press **Start** when everyone is in.{where}", ephemeral=True)

    @new.autocomplete("game")
    async def _new_game_autocomplete(self, interaction: discord.Interaction, current: str
                                     ) -> list[app_commands.Choice[str]]:
        return [c for c in game_choices() if current.lower() in c.name.lower() or current.lower() in c.value]

    @game.command(name="status", description="Show this channel's game board again, at the bottom")
    async def status(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        channel_id = interaction.channel_id or 0
        # Nothing running here: the last game that ended, with its result.
        rec = (await self.bot.service.channel_game(channel_id, interaction.user.id)
               or await self.bot.db.games.last_ended_in_channel(channel_id))
        if rec is None:
            raise SessionError("There is no game in this channel. Start one with `/game new`.")
        await self.bot.outbox.catch_up(rec.id)  # anything a failed announcement left, first
        await self.bot.presenter.repost_board(rec.id)
        ended = rec.status not in ("lobby", "active")
        await interaction.followup.send(f"Game #{rec.id} has ended; its final board is below." if ended
                                        else "The board is below.", ephemeral=True)

    @game.command(name="list", description="Games running in this server")
    async def list_games(self, interaction: discord.Interaction) -> None:
        games = await self.bot.db.games.find(guild_id=interaction.guild_id)
        if not games:
            await interaction.response.send_message("No games are running in this server.", ephemeral=True)
            return
        lines = []
        for rec in games[:30]:
            title = registry.get(rec.kind).title
            players = ", ".join(text.seat_names(rec.seats).values())
            lines.append(f"#{rec.id} **{title}** in <#{rec.table_channel_id}> — {rec.status} — {players}")
        await interaction.response.send_message(text.fit("\n".join(lines)), ephemeral=True)

    @game.command(name="mine", description="Every game, in every server, where it is your move (only you see it)")
    async def mine(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        waiting, others = await games_of(self.bot.service, interaction.user.id)
        await interaction.followup.send(text.fit(self._mine_text(waiting, others)), ephemeral=True,
                                        suppress_embeds=True)

    def _mine_text(self, waiting: list[Waiting], others: list[GameRecord]) -> str:
        if not waiting and not others:
            return "You are not playing in any running game. Start one with `/game new`."
        lines = [f"⏳ **It is your move in {len(waiting)} game{'s' if len(waiting) != 1 else ''}**"
                 if waiting else "✅ No game is waiting for your move."]
        for w in waiting:
            rec = w.record
            due = f" · time runs out <t:{int(w.deadline)}:R>" if w.deadline is not None else ""
            lines.append(f"• {self._where(rec)}: {ui_for(rec.kind).ask(w.game, w.seat)}{due} · "
                         f"[go to the board]({board_link(rec)})")
        if others:
            lines.append("Waiting for the others: " + ", ".join(
                f"[{registry.get(rec.kind).title} #{rec.id}]({board_link(rec)})" for rec in others))
        return "\n".join(lines)

    def _where(self, rec: GameRecord) -> str:
        """"**Dragon Farkle** #12 in #games (Tavern)": a game of another server is named with its server."""
        guild = self.bot.get_guild(rec.guild_id)
        server = f" ({text.shown_name(guild.name)})" if guild is not None else ""
        return f"**{registry.get(rec.kind).title}** #{rec.id} in <#{rec.channel_id}>{server}"

    @game.command(name="resign", description="Resign from this channel's game")
    async def resign(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        rec = await self._channel_game(interaction)
        outcome = await self.bot.service.resign(rec.id, actor_of(interaction))
        await self.bot.announcer.after_change(outcome)
        await interaction.followup.send("You resigned.", ephemeral=True)

    @game.command(name="cancel", description="Cancel this channel's game (host or Manage Server)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        rec = await self._channel_game(interaction)
        outcome = await self.bot.service.cancel(rec.id, actor_of(interaction))
        await self.bot.announcer.after_change(outcome)
        await interaction.followup.send(f"Game #{rec.id} was cancelled.", ephemeral=True)

    @game.command(name="notify", description="How you are told it is your turn: channel ping, DM, or off")
    @app_commands.describe(where="channel: a message in the game's channel that mentions you (default); "
                                 "dm: a direct message; off: nothing (the board still shows ▶)")
    @app_commands.choices(where=[app_commands.Choice(name=n, value=n) for n in NOTIFY_CHOICES])
    async def notify(self, interaction: discord.Interaction, where: str | None = None) -> None:
        if where is None:
            current = await self.bot.db.prefs.notify(interaction.user.id)
            await interaction.response.send_message(
                f"You are told it is your turn by: **{current}**. Change it with `/game notify` "
                "channel, dm or off.", ephemeral=True)
            return
        if where not in NOTIFY_CHOICES:
            raise SessionError(f"`{text.echo(where, 20)}` is not a choice: pick channel, dm or off.")
        await self.bot.service.set_notify_pref(interaction.user.id, where)
        said = {
            "channel": "a message in the game's channel that mentions you",
            "dm": "a direct message (a channel mention while your DMs are closed)",
            "off": "nothing: watch the board's ▶ marker (secret choices still arrive in your DMs)",
        }[where]
        await interaction.response.send_message(f"🔔 When it is your turn you now get {said}. "
                                                "This applies to every server and game.", ephemeral=True)

    @game.command(name="stats", description="Wins, losses and draws in this server")
    async def stats(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        target = member or interaction.user
        stats = await self.bot.db.ratings.member_stats(interaction.guild_id or 0, target.id)
        if not stats:
            await interaction.response.send_message(
                f"{text.shown_name(target.display_name)} has no finished games here yet.", ephemeral=True)
            return
        lines = []
        for kind, counts in sorted(stats.items()):
            title = registry.get(kind).title if kind in {i.name for i in registry.all_games()} else kind
            parts = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
            lines.append(f"**{title}**: {parts}")
        await interaction.response.send_message(text.fit("\n".join(lines)), ephemeral=True)

    # -- /play ----------------------------------------------------------------------------
    @app_commands.command(name="play", description="Make a move in text notation (autocomplete lists the legal ones)")
    @app_commands.describe(action="Your move, e.g. 3@b2", game="Game number (only needed in DMs with several games)")
    async def play(self, interaction: discord.Interaction, action: str, game: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        action = action.strip()
        if not action:
            raise SessionError("Type your move after `/play`: the list that opens as you type shows your legal "
                               "moves (or use the board's buttons).")
        if len(action) > MAX_ACTION:
            raise SessionError(f"`{text.echo(action, 40)}` is not a move: moves are short, like `3@b2` "
                               "(type /play and pick one from the list).")
        rec = await self._play_target(interaction, game)
        outcome = await self.bot.service.apply(rec.id, actor_of(interaction), action)
        # The move is saved: say so first, so that the ping can follow as this command's
        # followup (its webhook cannot edit the board, which it did not create: cogs.carrier).
        await interaction.edit_original_response(content=f"✅ Played `{text.echo(action)}`.")
        try:
            await self.bot.announcer.after_change(outcome, interaction)
        except AnnouncementDelayed as delayed:  # one answer: it was played, and what is late
            await interaction.edit_original_response(content=errors.user_message(delayed))

    async def _play_target(self, interaction: discord.Interaction, game_id: int | None) -> GameRecord:
        service = self.bot.service
        if game_id is not None:
            if not 0 < game_id < 2**63:  # beyond SQLite's integers: no such game, and no 30-digit echo
                raise SessionError("There is no game with that number.")
            try:
                rec = await service.db.games.load(game_id)
            except GameNotFound:  # a number typed by the user, not a storage fault
                raise SessionError(f"There is no game #{game_id}.") from None
            if rec.seat_of_user(interaction.user.id) is None:
                raise SessionError(f"You are not playing in game #{game_id}.")
            return rec
        if interaction.guild_id is not None:
            return await self._channel_game(interaction)
        mine = await service.db.games.find(statuses=("active",), user_id=interaction.user.id)
        if len(mine) == 1:
            return mine[0]
        if not mine:
            raise SessionError("You are not in any running game.")
        raise SessionError("You are in several games: add `game:` with its number ("
                           + ", ".join(f"#{g.id}" for g in mine) + ").")

    @play.autocomplete("action")
    async def _play_autocomplete(self, interaction: discord.Interaction, current: str
                                 ) -> list[app_commands.Choice[str]]:
        try:
            game_id = getattr(interaction.namespace, "game", None)
            rec = await self._play_target(interaction, game_id)
            _, game = await self.bot.service.load(rec.id)
        except Exception:
            return []
        seat = rec.seat_of_user(interaction.user.id)
        if game is None or seat is None or seat.seat not in game.to_act():
            return []
        typed = current.strip().lower()
        choices = []
        for action in _with_shortcuts(game.legal_actions(seat.seat), game.shortcuts(seat.seat)):
            if typed and typed not in action.lower():
                continue
            label = fill_names(game.describe_action(seat.seat, action), text.seat_names(rec.seats, "plain"))
            name = action if label == action else f"{action} — {label}"
            choices.append(app_commands.Choice(name=text.fit(name, text.CHOICE), value=action[: text.CHOICE]))
            if len(choices) >= MAX_AUTOCOMPLETE:
                break
        return choices


def _with_shortcuts(legal: list[str], shortcuts: list[str]) -> list[str]:
    """The legal actions, each followed by the shortcuts that start with it (``keep:1,5`` then
    ``keep:1,5+roll``, ``keep:1,5+stop``), then any other shortcut."""
    ordered: list[str] = []
    for action in legal:
        ordered += [action, *(s for s in shortcuts if s.startswith(action + "+"))]
    return ordered + [s for s in shortcuts if s not in ordered]


async def setup(bot: DragonTavern) -> None:
    await bot.add_cog(Games(bot))
