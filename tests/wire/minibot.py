"""A minimal discord.py bot for wire tests, shaped like the real one, plus a runner.

Used in-process by test_wire_smoke.py and as a separate process (``python -m
tests.wire.minibot``) by test_wire_restart.py, which points it at a fake through
``DT_FAKE_DISCORD_URL`` exactly as tests/wire/launch_bot.py does for the real bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import sys
from collections.abc import AsyncIterator

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.wire.fake_discord import FakeDiscord
from tests.wire.patch_client import point_discord_from_env

JOIN_ID = "wire:join"
PICK_ID = "wire:pick"
COUNT_ID = "wire:count"


def make_png() -> bytes:
    image = Image.new("RGB", (64, 48), (200, 30, 30))
    for x in range(64):
        image.putpixel((x, x * 48 // 64), (255, 255, 255))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


class JoinView(discord.ui.View):
    """Persistent (timeout=None, custom_id on every item): survives restarts."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", style=discord.ButtonStyle.primary, custom_id=JOIN_ID)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[JoinView]) -> None:
        await interaction.response.send_message(f"{interaction.user.name} joined", ephemeral=True)

    @discord.ui.button(label="Count", style=discord.ButtonStyle.secondary, custom_id=COUNT_ID)
    async def count(self, interaction: discord.Interaction, button: discord.ui.Button[JoinView]) -> None:
        # UPDATE_MESSAGE (type 7): edit the message the button is on, as the real board does.
        assert interaction.message is not None
        await interaction.response.edit_message(content=interaction.message.content + " +1")


class PickView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id=PICK_ID,
        placeholder="Pick a card",
        options=[discord.SelectOption(label=name, value=name) for name in ("slash", "parry", "dodge")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[PickView]) -> None:
        # As the real bot answers a private pick: acknowledge (type 6), then replace the prompt
        # (PATCH @original = the message the select is on) and remove the select.
        where = "DM" if interaction.guild is None else "guild"
        await interaction.response.defer()
        await interaction.edit_original_response(
            content=f"{where}: you picked {', '.join(select.values)}", view=None
        )


class MiniBot(commands.Bot):
    late_errors: list[int]  # error codes the `late` command got back from Discord


def make_bot(guild_id: int) -> MiniBot:
    """A fresh minimal bot; commands are synced to ``guild_id`` in setup_hook."""
    # guild_ready_timeout: discord.py waits this long after the last GUILD_CREATE before on_ready
    # (2 s by default); the fake sends them all at once, so a short wait keeps the tests quick.
    bot = MiniBot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.1)
    guild = discord.Object(id=guild_id)

    @bot.tree.command(description="Answer with pong")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    @bot.tree.command(description="Post a lobby with a Join button")
    @app_commands.describe(game="which game")
    async def lobby(interaction: discord.Interaction, game: str, seats: int = 2) -> None:
        await interaction.response.send_message(f"Lobby for {game} ({seats} seats)", view=JoinView())

    @lobby.autocomplete("game")
    async def lobby_game(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        games = {"farkle": "Dragon Farkle", "ninesons": "The Nine Sons", "flagon": "The Dragon & Flagon"}
        return [
            app_commands.Choice(name=t, value=n) for n, t in games.items() if current.lower() in t.lower()
        ]

    @bot.tree.command(description="DM me a select")
    async def plan(interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("Choose your card:", view=PickView())
        except discord.Forbidden as exc:  # DMs closed: the real bot falls back to a button
            await interaction.response.send_message(f"Your DMs are closed ({exc.code}).", ephemeral=True)
            return
        await interaction.response.send_message("Sent you a DM.", ephemeral=True)

    @bot.tree.command(description="Think, then answer privately")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await asyncio.sleep(0.05)  # "slow" work between the defer and the followup
        await interaction.followup.send("only you can see this", ephemeral=True)

    @bot.tree.command(description="Answer too slowly (tests the callback deadline)")
    async def late(interaction: discord.Interaction, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await interaction.response.send_message("finally")
        except discord.NotFound as exc:
            bot.late_errors.append(exc.code)

    bot.late_errors = []

    @bot.tree.command(description="Post the board picture")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        png = await asyncio.to_thread(make_png)
        assert interaction.channel is not None
        await interaction.channel.send("Board:", file=discord.File(io.BytesIO(png), filename="board.png"))  # type: ignore[union-attr]
        await interaction.followup.send("Board posted.")

    async def setup_hook() -> None:
        bot.add_view(JoinView())
        bot.add_view(PickView())
        bot.tree.copy_global_to(guild=guild)
        await bot.tree.sync(guild=guild)

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@contextlib.asynccontextmanager
async def running(bot: discord.Client, fake: FakeDiscord, token: str = "fake-token") -> AsyncIterator[None]:
    """Run ``bot`` against ``fake`` until the block ends, then close it cleanly.

    ``bot.start`` runs as a task in the test's own loop; on exit the bot is closed (which
    closes its aiohttp session and gateway socket) before the fake stops.
    """
    task = asyncio.create_task(bot.start(token), name="bot.start")
    try:
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({ready, task}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            ready.cancel()
            task.result()  # re-raise whatever made the bot stop
            raise AssertionError("bot stopped before READY")
        if ready not in done:
            ready.cancel()
            raise AssertionError("bot did not become ready within 10 s")
        yield
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout=5)


async def _main() -> None:
    """Run the minibot against $DT_FAKE_DISCORD_URL; print READY when on_ready fires."""
    if point_discord_from_env() is None:
        raise SystemExit("DT_FAKE_DISCORD_URL is not set (this bot only talks to the fake)")
    bot = make_bot(int(os.environ["DT_WIRE_GUILD_ID"]))

    @bot.event
    async def on_ready() -> None:
        print("READY", flush=True)

    async with bot:
        await bot.start("fake-token")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_main())
    sys.exit(0)
