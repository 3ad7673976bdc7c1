"""The cogs that add commands to the ``/game`` group owned by cogs.games (rules, ratings,
replay): one base class joins the group when the cog loads and leaves it when it unloads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from discord import app_commands
from discord.ext import commands

if TYPE_CHECKING:
    from bot import DragonTavern

AppCommand = app_commands.Command[Any, Any, None]


class GameGroupCog(commands.Cog):
    """Set ``self.group_commands`` in ``__init__``; they join /game at load time."""

    bot: DragonTavern
    group_commands: tuple[AppCommand, ...] = ()

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("game")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError(f"{type(self).__module__} needs cogs.games (the /game group) loaded first")
        for command in self.group_commands:
            group.add_command(command, override=True)

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command("game")
        if isinstance(group, app_commands.Group):
            for command in self.group_commands:
                group.remove_command(command.name)
