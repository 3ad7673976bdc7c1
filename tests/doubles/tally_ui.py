"""Tally on Discord as a complete plug-in: what a new game adds besides its engine, written
only against the public contract (cogs.ui.GameUI, cogs.ui.register, render.register, the
session service and cogs.announcer), with no edit to a shared module.

- a renderer (``render_text``): the board text from the public view;
- a move menu: the board shows one "➕ Add points" button; its private select offers Add 1 / 2;
- a lobby field saying the target;
- a game-specific control ``dt:<id>:x:score``: "📊 My score" answers privately;
- the secret picks (``secret=on``) use the platform's generic private prompt (no override).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import discord

import render
from cogs import routing, ui
from engine import Game
from render import text
from sessions import SessionError
from tests.doubles.tally import INFO

if TYPE_CHECKING:
    from bot import DragonTavern
    from storage import GameRecord

ADD = "➕ Add points"


def render_text(view: dict[str, Any], names: dict[str, str]) -> str:
    scores = " · ".join(f"{names.get(p, p)} {n}" for p, n in view["scores"].items())
    return f"🧮 Tally — {scores}" + (" (secret picks)" if view["phase"] == "pick" else "")


async def on_show_my_score(bot: DragonTavern, interaction: discord.Interaction, route: routing.Route) -> None:
    rec, game = await bot.service.load(route.game_id)
    seat = rec.seat_of_user(interaction.user.id)
    if seat is None or game is None:
        raise SessionError("You are not playing in this game.")
    score = game.view(seat.seat)["scores"][seat.seat]
    await interaction.response.send_message(f"📊 Your score: {score}.", ephemeral=True)


class TallyUI(ui.GameUI):
    menu = True
    handlers = MappingProxyType({"score": on_show_my_score})

    def menu_path(self, game: Game, seat: str, action: str) -> list[str]:
        return [ADD, game.describe_action(seat, action)]

    def board_rows(self, rec: GameRecord, game: Game, seat: str, version: int) -> list[discord.ui.Item[Any]]:
        return [discord.ui.Button(label="📊 My score", style=discord.ButtonStyle.secondary, row=0,
                                  custom_id=routing.make(rec.id, "x", "score"))]

    def lobby_fields(self, rec: GameRecord) -> list[tuple[str, str]]:
        target = rec.options.get("target", 6)
        return [("Target", f"First to {text.echo(str(target))} points wins.")]


def install() -> None:
    """Register Tally's renderer and UI (its engine is registered by tests.doubles.tally)."""
    render.register(INFO.name, render_text)
    ui.register(INFO.name, TallyUI())
