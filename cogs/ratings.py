"""/game leaderboard, /game profile, /game history and /game hint.

Each answers the asker alone (ephemeral), with a **📣 Show to the channel** button (cogs.share)
that posts it for everyone: the channel keeps only what its games need.

Ratings are openskill ratings per game per server (sessions.ratings says who is rated and
how). The leaderboard and history are paged with ◀ ▶ buttons whose custom_ids carry the page
and whose view they are (``dtl:<verb>:...``), so they work after a restart. The member who ran
the command turns the pages in place; anyone else who presses gets their own private copy of
that page (with their own row on the leaderboard), so nobody flips a page under someone else.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import errors, routing, share
from cogs.announcer import actor_of
from cogs.errors import AnnouncementDelayed
from cogs.group import AppCommand, GameGroupCog
from cogs.ratings_text import history_line, profile_line
from cogs.rules import game_choices
from engine import registry
from render import text
from render.ratings import rating_chart
from sessions import SessionError
from sessions.heavywork import TooBusy
from sessions.ratings import ai_name
from storage import StoredRating

if TYPE_CHECKING:
    from bot import DragonTavern

log = logging.getLogger("dragon_tavern.cogs.ratings")

PREFIX = "dtl"
PAGE_SIZE = 10
CHART_POINTS = 300  # rated games drawn per line of the profile chart (the latest ones)
CHART_SKIPPED = "📈 No chart this time: the bot is busy drawing for others. Run /game profile again in a minute."
BROKEN = "⚠️ That button is broken or from an old version. Run the command again."
RATING_NOTE = (
    "A rating is a careful guess at your skill: everyone starts at 1,000, a win moves you up (more "
    "against stronger players), and it rises as the bot grows sure of how well you play."
)


def game_title(kind: str) -> str:
    try:
        return registry.get(kind).title
    except KeyError:
        return kind


def known_game(raw: str) -> str:
    name = raw.strip().lower()
    if name not in {info.name for info in registry.all_games()}:
        known = ", ".join(f"`{info.name}`" for info in registry.all_games())
        raise SessionError(f"Unknown game `{text.echo(raw, 40)}`. Known games: {known}.")
    return name


class Ratings(GameGroupCog):
    """Adds leaderboard, profile, history and hint to the /game group and routes ``dtl:`` clicks."""

    def __init__(self, bot: DragonTavern) -> None:
        self.bot = bot
        leaderboard: AppCommand = app_commands.Command(
            name="leaderboard", description="The server's top rated players of a game", callback=self.leaderboard
        )
        leaderboard.autocomplete("game")(self._game_autocomplete)
        profile: AppCommand = app_commands.Command(
            name="profile", description="A member's ratings, ranks and streaks, with a chart", callback=self.profile
        )
        history: AppCommand = app_commands.Command(
            name="history", description="A member's recent finished games", callback=self.history
        )
        history.autocomplete("game")(self._game_autocomplete)
        hint: AppCommand = app_commands.Command(
            name="hint", description="The AI's suggestion for your move, shown only to you", callback=self.hint
        )
        self.group_commands = (leaderboard, profile, history, hint)

    # -- /game leaderboard ------------------------------------------------------------------
    @app_commands.describe(game="Which game")
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        kind = known_game(game)
        message = await self.leaderboard_page(interaction, kind, 0, owner=interaction.user.id, private=True)
        await interaction.response.send_message(**message, ephemeral=True)

    async def leaderboard_page(
        self, interaction: discord.Interaction, kind: str, page: int, *, owner: int, private: bool
    ) -> dict[str, Any]:
        guild_id = interaction.guild_id or 0
        service = self.bot.service
        total = await service.db.ratings.rated_players(guild_id, kind)
        pages = max(1, -(-total // PAGE_SIZE))
        page = min(max(0, page), pages - 1)
        rows = await service.db.ratings.leaderboard(guild_id, kind, page * PAGE_SIZE, PAGE_SIZE)
        embed = discord.Embed(title=f"🏆 {game_title(kind)} — leaderboard", colour=discord.Colour.gold())
        if not rows:
            embed.description = (
                f"Nobody has a {game_title(kind)} rating in this server yet: finish a rated game "
                f"(`/game new game:{kind}`) to be the first."
            )
        else:
            embed.description = "\n".join(
                self._row(interaction, r, page * PAGE_SIZE + i + 1) for i, r in enumerate(rows)
            )
        mine = await service.db.ratings.rating_and_rank(guild_id, kind, f"u:{interaction.user.id}")
        if mine is None:
            embed.add_field(name="You", value=f"No {game_title(kind)} rating yet: finish a rated game.", inline=False)
        elif not any(r.player == mine[0].player for r in rows):
            embed.add_field(name="You", value=self._row(interaction, mine[0], mine[1]), inline=False)
        embed.set_footer(text=f"Page {page + 1}/{pages} · {total} rated · {RATING_NOTE}")
        return {"embed": text.fit_embed(embed), "view": self._pager("lb", kind, page, pages, owner, private)}

    def _row(self, interaction: discord.Interaction, r: StoredRating, rank: int) -> str:
        share = round(100 * r.wins / r.games) if r.games else 0
        you = " ← you" if r.user_id == interaction.user.id else ""
        return (
            f"`#{rank:>2}` **{self._player_name(interaction, r)}** — {r.rating:,.0f} · "
            f"{r.games} game{'s' if r.games != 1 else ''} · {share}% won{you}"
        )

    @staticmethod
    def _player_name(interaction: discord.Interaction, r: StoredRating) -> str:
        if r.user_id is None:
            return ai_name(r.player)
        member = interaction.guild.get_member(r.user_id) if interaction.guild else None
        # Without the members intent few members are cached: the name of their latest game.
        return text.shown_name(member.display_name if member else r.name)

    # -- /game profile ----------------------------------------------------------------------
    @app_commands.describe(member="Whose profile (default: yours)")
    async def profile(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        target = member or interaction.user
        await interaction.response.defer(ephemeral=True, thinking=True)
        message = await self.profile_message(interaction, target.id, target.display_name, private=True)
        await interaction.followup.send(**message, ephemeral=True)

    async def profile_message(
        self, interaction: discord.Interaction, user_id: int, shown: str, *, private: bool
    ) -> dict[str, Any]:
        """The profile as a new message's keywords (``files``); ``private``: with the Show button.
        ``shown`` "": a member not cached, named as at their latest rated game."""
        guild_id = interaction.guild_id or 0
        service = self.bot.service
        player = f"u:{user_id}"
        kinds = await service.db.ratings.player_kinds(guild_id, player)
        if not shown:
            latest = await service.db.ratings.rating_and_rank(guild_id, kinds[0], player) if kinds else None
            shown = latest[0].name if latest else "Member"
        name = text.shown_name(shown)
        embed = discord.Embed(title=f"📈 {name} — ratings", colour=discord.Colour.blurple())
        # followup.send takes no view=None: a public copy has no "view" key at all
        view = {"view": share.with_show_button(None, f"{PREFIX}:show:pr:{user_id}")} if private else {}
        if not kinds:
            embed.description = (
                f"{name} has no rated games in this server yet. Ratings start with the first finished "
                "rated game (lobby option `rated`, on by default)."
            )
            return {"embed": text.fit_embed(embed), **view, "files": []}
        series: dict[str, list[tuple[float, float]]] = {}
        for kind in kinds:
            found = await service.db.ratings.rating_and_rank(guild_id, kind, player)
            if found is None:
                continue
            rating, rank = found
            total = await service.db.ratings.rated_players(guild_id, kind)
            embed.add_field(name=f"{registry.get(kind).emoji if kind in _games() else ''} {game_title(kind)}",
                            value=profile_line(rating, rank, total), inline=False)
            series[_short_title(kind)] = await service.db.ratings.series(guild_id, player, kind, CHART_POINTS)
        title = f"{shown} — rating over time"
        # Optional work: the side lane, never the pool games need (sessions.heavywork). The same
        # chart (until a rated game ends) is drawn once: asking again re-sends it.
        drawn = hashlib.sha1(json.dumps([title, series]).encode(), usedforsecurity=False).hexdigest()
        try:
            png = await self.bot.side_work.submit(("chart", drawn), rating_chart, title, series, keep=len)
        except TooBusy:
            embed.set_footer(text=f"{CHART_SKIPPED}\n{RATING_NOTE}")
            return {"embed": text.fit_embed(embed), **view, "files": []}
        embed.set_image(url="attachment://rating.png")
        embed.set_footer(text=RATING_NOTE)
        return {"embed": text.fit_embed(embed), **view,
                "files": [discord.File(io.BytesIO(png), filename="rating.png")]}

    # -- /game history ----------------------------------------------------------------------
    @app_commands.describe(member="Whose games (default: yours)", game="Only this game (optional)")
    async def history(
        self, interaction: discord.Interaction, member: discord.Member | None = None, game: str = ""
    ) -> None:
        target = member or interaction.user
        kind = known_game(game) if game.strip() else None
        message = await self.history_page(interaction, target.id, target.display_name, kind, 0,
                                          owner=interaction.user.id, private=True)
        await interaction.response.send_message(**message, ephemeral=True)

    async def history_page(
        self, interaction: discord.Interaction, user_id: int, name: str, kind: str | None, page: int, *, owner: int,
        private: bool,
    ) -> dict[str, Any]:
        guild_id = interaction.guild_id or 0
        total = await self.bot.db.ratings.member_games_count(guild_id, user_id, kind)
        pages = max(1, -(-total // PAGE_SIZE))
        page = min(max(0, page), pages - 1)
        games = await self.bot.db.ratings.member_games(guild_id, user_id, kind, page * PAGE_SIZE, PAGE_SIZE)
        name = name or next((s.display_name for g in games for s in g.seats if s.user_id == user_id), "Member")
        where = f" — {game_title(kind)}" if kind else ""
        embed = discord.Embed(title=f"📜 {text.shown_name(name)}'s games{where}", colour=discord.Colour.dark_teal())
        embed.description = "\n".join(history_line(g, user_id, game_title(g.kind)) for g in games) if games else (
            "No finished games here yet." if page == 0 else "No more games.")
        embed.set_footer(text=f"Page {page + 1}/{pages} · {total} finished game{'s' if total != 1 else ''}")
        label = f"{user_id}:{kind or '*'}"
        return {"embed": text.fit_embed(embed), "view": self._pager("hi", label, page, pages, owner, private)}

    # -- /game hint -------------------------------------------------------------------------
    async def hint(self, interaction: discord.Interaction) -> None:
        rec = await self.bot.service.channel_game(interaction.channel_id or 0, interaction.user.id)
        if rec is None:
            raise SessionError("There is no game running in this channel. Ask for a hint in your game's channel.")
        await self._show_hint(interaction, rec.id, confirmed=False)

    async def _show_hint(self, interaction: discord.Interaction, game_id: int, *, confirmed: bool) -> None:
        await interaction.response.defer(ephemeral=True, thinking=not confirmed)
        found = await self.bot.service.hint(game_id, actor_of(interaction), confirmed=confirmed)
        if found.needs_confirmation:
            view = discord.ui.View(timeout=None)
            view.add_item(discord.ui.Button(label="Show the hint (unrated for me)", emoji="💡",
                                            style=discord.ButtonStyle.danger,
                                            custom_id=f"{PREFIX}:hint:{game_id}:{interaction.user.id}"))
            await interaction.followup.send(
                "This game is rated. If you take a hint, it no longer counts for your rating (the others' "
                "ratings still do), and the table is told you took one. Show the hint?",
                view=view, ephemeral=True)
            return
        assert found.action is not None
        if found.unrated_now:  # the table's notice was queued with the mark: post it now
            with contextlib.suppress(AnnouncementDelayed):
                await self.bot.outbox.deliver_now(game_id)
        lines = [f"💡 The {found.level} AI would play: **{text.echo(found.description, 200)}**",
                 f"In text: `/play {text.echo(found.action, 80)}`."]
        if found.unrated_now:
            lines.append("This game no longer counts for your rating.")
        if confirmed:
            await interaction.edit_original_response(content="\n".join(lines), view=None)
        else:
            await interaction.followup.send("\n".join(lines), ephemeral=True)

    # -- buttons ----------------------------------------------------------------------------
    def _pager(self, verb: str, subject: str, page: int, pages: int, owner: int, private: bool) -> discord.ui.View:
        """◀ ▶ and, on a private answer, 📣 Show to the channel (``dtl:show:<verb>:<subject>:<page>``)."""
        view = discord.ui.View(timeout=None)
        for label, target, disabled in (("◀", page - 1, page == 0), ("▶", page + 1, page >= pages - 1)):
            view.add_item(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                            custom_id=f"{PREFIX}:{verb}:{subject}:{target}:{owner}"))
        if private:
            share.with_show_button(view, f"{PREFIX}:show:{verb}:{subject}:{page}")
        return view

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        raw = str(dict(interaction.data or {}).get("custom_id", ""))
        if not raw.startswith(f"{PREFIX}:"):
            return
        try:
            await self._on_click(interaction, raw.split(":"))
        except Exception as exc:  # never a traceback to the user
            await errors.report(interaction, exc)

    async def _on_click(self, interaction: discord.Interaction, parts: list[str]) -> None:
        """Client data: every part is checked, never trusted (numbers by cogs.routing.number)."""
        verb = parts[1] if len(parts) > 1 else ""
        if verb == "hint" and len(parts) == 4 and (ids := _numbers(parts[2:])):
            game_id, user_id = ids
            if user_id != interaction.user.id:
                await errors.reply_privately(interaction, "That hint was offered to someone else: run `/game hint`.")
                return
            await self._show_hint(interaction, game_id, confirmed=True)
            return
        if verb == "show" and await self._show_to_channel(interaction, parts[2:]):
            return
        if verb == "lb" and len(parts) == 5 and parts[2] in _games() and (ids := _numbers(parts[3:])):
            page, owner = ids
            mine = owner == interaction.user.id
            private = not mine or share.is_private(interaction)  # a copy for someone else is private
            message = await self.leaderboard_page(interaction, parts[2], page, owner=interaction.user.id,
                                                  private=private)
            await self._answer_page(interaction, message, in_place=mine)
            return
        if verb == "hi" and len(parts) == 6 and (ids := _numbers([parts[2], parts[4], parts[5]])) and _kind_or_all(
                parts[3]):
            user_id, page, owner = ids
            mine = owner == interaction.user.id
            message = await self._history_of(interaction, user_id, parts[3], page,
                                             private=not mine or share.is_private(interaction))
            await self._answer_page(interaction, message, in_place=mine)
            return
        await errors.reply_privately(interaction, BROKEN)

    async def _history_of(self, interaction: discord.Interaction, user_id: int, kind: str, page: int, *,
                          private: bool) -> dict[str, Any]:
        only: str | None = None if kind == "*" else kind
        member = interaction.guild.get_member(user_id) if interaction.guild else None
        name = member.display_name if member else ""  # then the name of their latest game
        return await self.history_page(interaction, user_id, name, only, page, owner=interaction.user.id,
                                       private=private)

    async def _show_to_channel(self, interaction: discord.Interaction, parts: list[str]) -> bool:
        """``dtl:show:lb:<game>:<page>``, ``dtl:show:hi:<user>:<game or *>:<page>``, ``dtl:show:pr:<user>``:
        post that answer in the channel, for everyone (its pages then turn for the presser).
        False if the parts are not one of these."""
        owner = interaction.user.id
        if len(parts) == 3 and parts[0] == "lb" and parts[1] in _games() and (ids := _numbers(parts[2:])):
            message = await self.leaderboard_page(interaction, parts[1], ids[0], owner=owner, private=False)
        elif len(parts) == 4 and parts[0] == "hi" and (ids := _numbers([parts[1], parts[3]])) and _kind_or_all(
                parts[2]):
            message = await self._history_of(interaction, ids[0], parts[2], ids[1], private=False)
        elif len(parts) == 2 and parts[0] == "pr" and (ids := _numbers(parts[1:])):
            user_id = ids[0]
            member = interaction.guild.get_member(user_id) if interaction.guild else None
            await interaction.response.defer(thinking=True)
            message = await self.profile_message(interaction, user_id, member.display_name if member else "",
                                                 private=False)
            await interaction.followup.send(**message)
            return True
        else:
            return False
        await interaction.response.send_message(**message)
        return True

    @staticmethod
    async def _answer_page(interaction: discord.Interaction, message: dict[str, Any], *, in_place: bool) -> None:
        if in_place:
            await interaction.response.edit_message(**message)
        else:
            await interaction.response.send_message(**message, ephemeral=True)

    async def _game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current)


def _short_title(kind: str) -> str:
    """A game's title for the chart legend: "Nine Sons", "Dragon & Flagon"."""
    return game_title(kind).removeprefix("The ").replace(" of the Dragon", "")


def _games() -> set[str]:
    return {info.name for info in registry.all_games()}


def _kind_or_all(part: str) -> bool:
    return part == "*" or part in _games()


def _numbers(fields: list[str]) -> list[int] | None:
    """The numbers in ``fields``, or None if any is not one the bot writes."""
    values = [routing.number(field) for field in fields]
    return None if None in values else [v for v in values if v is not None]


async def setup(bot: DragonTavern) -> None:
    await bot.add_cog(Ratings(bot))
