"""The Dragon & Flagon's action log: the finished board's "📜 Action log" button sends the game
replayed from its seed, each action with its label and the public events it caused, as a file."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord

from cogs import routing
from engine import Game
from render import flagon as flagon_render
from sessions import SessionError
from storage import GameRecord

if TYPE_CHECKING:
    from bot import DragonTavern

ACTION_LOG = routing.Spec("x", routing.NoFields, control="log")


def final_rows(rec: GameRecord, game: Game) -> list[discord.ui.Item]:
    return [
        discord.ui.Button(
            label="📜 Action log",
            style=discord.ButtonStyle.secondary,
            row=0,
            custom_id=ACTION_LOG.make(rec.id, routing.NoFields()),
        )
    ]


def action_log_text(rec: GameRecord, game: Game, logged: list[Any]) -> str:
    """The game replayed from its seed and stored actions: each action in notation with its
    label, followed by the public events it caused. ``game`` is the game as it started
    (GameService.new_game_for: seat order and setup exactly as at the start). Only offered once
    the game is over, when no plan is secret any more."""
    names = {s.seat: s.display_name for s in rec.seats}
    players = [s.seat for s in sorted(rec.seats, key=lambda s: s.position)]
    lines = [
        f"The Dragon & Flagon — game #{rec.id}",
        f"Seed {rec.seed}; options {rec.options or 'default'}",
        "Players: " + ", ".join(f"{names.get(p, p)} ({p})" for p in players),
        "",
    ]
    for row in logged:
        if row.source == "system":
            lines.append(f"[{row.seq}] {names.get(row.seat, row.seat)}: {row.action} (system)")
            continue
        label = flagon_render._fill(game.describe_action(row.seat, row.action), names)
        by = "" if row.source == "player" else f" [{row.source}]"
        lines.append(f"[{row.seq}] {names.get(row.seat, row.seat)}{by}: {label}  `{row.action}`")
        for event in game.play(row.seat, row.action):
            if event.to is None:
                lines.append(f"      {flagon_render._fill(event.text, names)}")
    return "\n".join(lines) + "\n"


async def on_send_action_log(
    bot: DragonTavern, interaction: discord.Interaction, route: routing.Route
) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    rec = await bot.db.games.load(route.game_id)
    if rec.status != "finished":
        raise SessionError("The action log is available once the game is over.")
    logged = await bot.db.log.of_game(rec.id)
    started = await bot.service.new_game_for(rec)
    # Optional work: the side lane, not the pool games need (sessions.heavywork); kept per game.
    text = await bot.side_work.submit(
        ("flagon-log", rec.id, rec.version), action_log_text, rec, started, logged, keep=len
    )
    file = discord.File(io.BytesIO(text.encode()), filename=f"flagon-game-{rec.id}.txt")
    await interaction.followup.send(
        f"📜 Action log of game #{rec.id} ({len(logged)} actions).", file=file, ephemeral=True
    )
