"""/config show|set|reset: per-server settings, for members with Manage Server."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs import threads
from engine import registry
from render import text
from sessions import SETTINGS, SessionError
from sessions.cardfiles import list_card_files

if TYPE_CHECKING:
    from bot import DragonTavern


class Config(commands.Cog):
    config = app_commands.Group(
        name="config",
        description="Dragon Tavern settings for this server",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: DragonTavern) -> None:
        self.bot = bot

    @config.command(name="show", description="Show every setting and its value")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def show(self, interaction: discord.Interaction) -> None:
        settings = await self.bot.service.settings(interaction.guild_id or 0)
        embed = discord.Embed(title="Dragon Tavern settings", colour=discord.Colour.gold())
        for key, shown, help_text in settings.describe():
            embed.add_field(name=key, value=f"**{shown}**\n{help_text}", inline=False)
        await interaction.response.send_message(embed=text.fit_embed(embed), ephemeral=True)

    @config.command(name="set", description="Change a setting")
    @app_commands.describe(setting="The setting's name", value="The new value (see /config show)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def set(self, interaction: discord.Interaction, setting: str, value: str) -> None:
        parsed = await self.bot.service.setting_value(setting, value)  # SessionError if refused
        await self.bot.service.change_setting(interaction.guild_id or 0, setting, parsed)
        shown = SETTINGS[setting].show(parsed)
        note = ""
        if (
            setting == "game_threads"
            and parsed
            and not threads.can_make_threads(self.bot, interaction.channel_id or 0)
        ):
            note = (
                "\n⚠️ Here I can't make threads (I need Create Public Threads and Send Messages in Threads), "
                "so games in this channel are still played in it, one at a time."
            )
        await interaction.response.send_message(
            text.fit(f"✅ `{setting}` is now **{shown}**.{note}"), ephemeral=True
        )

    @config.command(name="reset", description="Put a setting back to its default")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def reset(self, interaction: discord.Interaction, setting: str) -> None:
        if setting not in SETTINGS:
            raise SessionError(f"Unknown setting `{text.echo(setting)}`. Settings: {', '.join(SETTINGS)}.")
        await self.bot.service.change_setting(interaction.guild_id or 0, setting, None)
        shown = SETTINGS[setting].show(SETTINGS[setting].default)
        await interaction.response.send_message(f"✅ `{setting}` is back to **{shown}**.", ephemeral=True)

    @set.autocomplete("setting")
    @reset.autocomplete("setting")
    async def _setting_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=k, value=k) for k in SETTINGS if current.lower() in k][
            : text.CHOICES
        ]

    @set.autocomplete("value")
    async def _value_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """A game setting's suggested values (e.g. `house`), then, for one that takes a file, the
        files in the operator's card folder (listed off the event loop)."""
        declared = registry.setting_of(str(interaction.namespace.setting))
        if declared is None:
            return []
        setting = declared[1]
        folder = self.bot.service.cards_dir
        files = await asyncio.to_thread(list_card_files, folder) if folder and setting.read_file else []
        return [
            app_commands.Choice(name=text.fit(n, text.CHOICE), value=n[: text.CHOICE])
            for n in [*setting.suggestions, *files]
            if current.lower() in n.lower()
        ][: text.CHOICES]


async def setup(bot: DragonTavern) -> None:
    await bot.add_cog(Config(bot))
