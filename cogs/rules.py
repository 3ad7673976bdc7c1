"""/game rules, /game card and /game help: the rules of each game and its cards, read privately.

The rules are paged with ◀ ▶ buttons and a section select whose custom_ids carry everything
needed to draw the next page (``dtr:<game>:<verb>:<page>``), so the buttons work after a
restart: this cog's listener parses them, nothing is kept in memory. The commands join the
``/game`` group of cogs.games when this cog loads.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import render
from cogs import errors, routing
from cogs.components import Layout
from cogs.group import AppCommand, GameGroupCog
from engine import handbook, registry
from render import text
from render.rules_pages import first_page_of, game_pages, game_sections
from sessions import SessionError, unknown_game

if TYPE_CHECKING:
    from bot import DragonTavern

log = logging.getLogger("dragon_tavern.cogs.rules")

PREFIX = "dtr"
BROKEN = "⚠️ That rules control is broken or from an old version. Open the rules again with `/game rules`."
SECTION_LABEL = 100  # a select option's label

HELP_TEXT = (
    "**Starting a game.** In a server channel, `/game new` opens a lobby (pick the game; options are "
    "optional). Others press **Join**; add AI opponents with the lobby's AI select; the host presses "
    "**Start**.\n\n"
    "**Playing.** The board is one message in the channel, kept up to date. Press its buttons to act; "
    "choices only you may see (your hand, your secret plans, your Magic Items) open privately, through "
    "the board's 🔒 button or in a direct message. `/play` takes a move in text notation and "
    "autocompletes the legal ones.\n\n"
    "**Following along.** `/game status` shows the board again at the bottom of the channel; "
    "`/game list` shows the games in this server; `/game mine` the games waiting for your move, in every "
    "server; `/game stats` shows wins and losses; `/game replay` steps through a game that is over, move by "
    "move.\n\n"
    "**Ratings.** Finished games are rated (openskill; lobby option `rated=off` for a friendly game): "
    "`/game leaderboard`, `/game profile` (with a chart) and `/game history`. `/game hint` shows the AI's "
    "suggestion privately (unrated games; a rated game stops counting for you if the server allows it).\n\n"
    "**Leaving.** `/game resign` leaves the game you are in; the host (or someone with Manage Server) "
    "can `/game cancel` it.\n\n"
    "**Learning.** `/game rules` pages through the full rules of a game (jump to a section with the "
    "select); `/game card` shows any card's full text."
)


def game_choices(current: str) -> list[app_commands.Choice[str]]:
    typed = current.lower()
    return [
        app_commands.Choice(name=info.title, value=info.name)
        for info in registry.all_games()
        if typed in info.title.lower() or typed in info.name
    ]


def rules_game(typed: str) -> str:
    """The registered game a user means (its name or title); SessionError otherwise."""
    wanted = typed.strip().lower()
    for info in registry.all_games():
        if wanted in (info.name, info.title.lower()):
            return info.name
    raise SessionError(unknown_game(typed))


def custom_id(game: str, verb: str, page: int | str = "") -> str:
    return f"{PREFIX}:{game}:{verb}:{page}"


def rules_message(game: str, page_index: int) -> dict[str, Any]:
    """The embed and controls of one rules page (``page_index`` already in range)."""
    info = registry.get(game)
    pages = game_pages(game)
    page = pages[page_index]
    part = f" ({page.part}/{page.parts})" if page.parts > 1 else ""
    embed = discord.Embed(
        title=f"{info.emoji} {info.title} — {page.title}{part}",
        description=page.text,
        colour=discord.Colour.gold(),
    )
    embed.set_footer(text=f"Page {page_index + 1} of {len(pages)} · only you see this")
    view = Layout()
    view.add_item(
        discord.ui.Button(
            label="◀",
            style=discord.ButtonStyle.secondary,
            row=0,
            disabled=page_index == 0,
            custom_id=custom_id(game, "prev", page_index - 1),
        )
    )
    view.add_item(
        discord.ui.Button(
            label="▶",
            style=discord.ButtonStyle.secondary,
            row=0,
            disabled=page_index == len(pages) - 1,
            custom_id=custom_id(game, "next", page_index + 1),
        )
    )
    options = [
        discord.SelectOption(
            label=text.fit(section.title, SECTION_LABEL), value=str(index), default=index == page.section
        )
        for index, section in enumerate(game_sections(game))
    ][: text.SELECT_OPTIONS]
    view.add_item(
        discord.ui.Select(
            placeholder="Jump to a section…", options=options, row=1, custom_id=custom_id(game, "section")
        )
    )
    return text.fit_message({"embed": embed, "view": view})


def section_index(game: str, typed: str) -> int:
    """The section a user typed (its title or its number from autocomplete); SessionError if none."""
    sections = game_sections(game)
    wanted = " ".join(typed.split()).casefold()
    for index, section in enumerate(sections):
        if wanted in (section.title.casefold(), str(index)):
            return index
    titles = ", ".join(s.title for s in sections)
    raise SessionError(
        text.fit(
            f"{registry.get(game).title} has no section called `{text.echo(typed, 60)}`. Sections: {titles}.",
            1900,
        )
    )


def card_embed(card: handbook.CardEntry) -> discord.Embed:
    title = registry.get(card.game).title
    embed = discord.Embed(title=card.name, description=card.text or "(no text)", colour=discord.Colour.gold())
    embed.add_field(name="Game", value=title, inline=True)
    embed.add_field(name="Kind", value=card.kind, inline=True)
    if card.details:
        embed.add_field(name="Details", value="\n".join(card.details), inline=False)
    if card.squares:
        embed.add_field(
            name="Squares (▲ you, facing up; ■ affected; ▣ your own square; arrows: a throw's lines)",
            value="```\n" + "\n".join(card.squares) + "\n```",
            inline=False,
        )
    embed.add_field(name="Where this comes from", value=card.status, inline=False)
    return text.fit_embed(embed)


def card_message(card: handbook.CardEntry) -> dict[str, Any]:
    """The private /game card reply: the embed, and the card's picture when it has a printed face."""
    embed = card_embed(card)
    picture = render.render_card(card)
    if picture is None:
        return {"embed": embed}
    embed.set_image(url="attachment://card.png")
    return {"embed": embed, "file": discord.File(io.BytesIO(picture), filename="card.png")}


class Rules(GameGroupCog):
    """Adds rules, card and help to the /game group (owned by cogs.games) and routes ``dtr:`` clicks."""

    def __init__(self, bot: DragonTavern) -> None:
        self.bot = bot
        rules: AppCommand = app_commands.Command(
            name="rules", description="The full rules of a game, page by page", callback=self.rules
        )
        rules.autocomplete("game")(self._game_autocomplete)
        rules.autocomplete("section")(self._section_autocomplete)
        card: AppCommand = app_commands.Command(
            name="card", description="The full text of any card of any game", callback=self.card
        )
        card.autocomplete("name")(self._card_autocomplete)
        help_command: AppCommand = app_commands.Command(
            name="help", description="How to play on Discord, in short", callback=self.help
        )
        self.group_commands = (rules, card, help_command)

    # -- commands ---------------------------------------------------------------------------
    @app_commands.describe(game="Which game", section="Open at this section (optional)")
    async def rules(self, interaction: discord.Interaction, game: str, section: str = "") -> None:
        name = rules_game(game)
        page = 0
        if section.strip():
            page = first_page_of(name, section_index(name, section))
        await interaction.response.send_message(**rules_message(name, page), ephemeral=True)

    @app_commands.describe(name="The card's name (autocomplete lists every card)")
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        found = handbook.find_card(name)
        if found is None:
            close = handbook.similar_cards(name)
            hint = (" Did you mean " + " or ".join(f"**{c.name}**" for c in close) + "?") if close else ""
            raise SessionError(
                f"There is no card called `{text.echo(name, 60)}`.{hint} "
                "Type a few letters and pick from the list."
            )
        await interaction.response.send_message(**card_message(found), ephemeral=True)

    async def help(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(
            title="🍺 Dragon Tavern — how to play on Discord",
            description=HELP_TEXT,
            colour=discord.Colour.gold(),
        )
        embed.add_field(
            name="Games",
            value="\n".join(
                f"{info.emoji} **{info.title}** (`{info.name}`)" for info in registry.all_games()
            ),
            inline=False,
        )
        await interaction.response.send_message(embed=text.fit_embed(embed), ephemeral=True)

    # -- autocomplete -----------------------------------------------------------------------
    async def _game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current)

    async def _section_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        typed = current.casefold()
        try:
            game = rules_game(str(getattr(interaction.namespace, "game", "") or ""))
        except SessionError:
            return await self._any_section_choices(interaction, typed)
        return [
            app_commands.Choice(name=text.fit(s.title, text.CHOICE), value=str(i))
            for i, s in enumerate(game_sections(game))
            if typed in s.title.casefold()
        ][: text.CHOICES]

    async def _any_section_choices(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        """No game picked yet: the sections of the channel's game first, then of every game,
        each named with its game ("Dragon Farkle › Scoring"); the value is the section's title,
        which /game rules finds in whichever game is then picked."""
        running = await self.bot.service.channel_game(interaction.channel_id or 0)
        games = [info.name for info in registry.all_games()]
        if running is not None and running.kind in games:
            games.remove(running.kind)
            games.insert(0, running.kind)
        choices = []
        for game in games:
            title = registry.get(game).title
            for section in game_sections(game):
                if typed in section.title.casefold() or typed in title.casefold():
                    label = text.fit(f"{title} › {section.title}", text.CHOICE)
                    choices.append(app_commands.Choice(name=label, value=section.title[: text.CHOICE]))
        return choices[: text.CHOICES]

    async def _card_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        typed = current.casefold().strip()
        choices = []
        for card in handbook.all_cards():
            if typed and typed not in card.name.casefold():
                continue
            label = f"{card.name} — {registry.get(card.game).title}"
            choices.append(app_commands.Choice(name=text.fit(label, text.CHOICE), value=card.key))
            if len(choices) >= text.CHOICES:
                break
        return choices

    # -- the page buttons -------------------------------------------------------------------
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})  # a TypedDict union; read as a dict
        raw = str(data.get("custom_id", ""))
        if not raw.startswith(f"{PREFIX}:"):
            return
        try:
            page = self._page_of(raw, data.get("values") or [])
            if page is None:
                await errors.reply_privately(interaction, BROKEN)
                return
            game, index = page
            await interaction.response.edit_message(**rules_message(game, index))
        except Exception as exc:  # never a traceback to the user
            await errors.report(interaction, exc)

    @staticmethod
    def _page_of(raw: str, values: list[Any]) -> tuple[str, int] | None:
        """(game, page index) a rules control asks for, or None if the custom_id or the chosen
        value is not one this cog made (client data: checked, never trusted)."""
        parts = raw.split(":")
        if len(parts) != 4 or parts[1] not in {info.name for info in registry.all_games()}:
            return None
        game, verb, arg = parts[1], parts[2], parts[3]
        pages = game_pages(game)
        if verb in ("prev", "next"):
            page = routing.number(arg, limit=len(pages) - 1)
            return None if page is None else (game, page)
        if verb == "section" and len(values) == 1:
            section = routing.number(str(values[0]), limit=len(game_sections(game)) - 1)
            return None if section is None else (game, first_page_of(game, section))
        return None


async def setup(bot: DragonTavern) -> None:
    await bot.add_cog(Rules(bot))
