"""/game replay: a game that is over, ply by ply, with every seat's secrets shown.

``/game replay <id>`` answers the asker alone, with **📣 Show to the channel** (cogs.share) to post
it for everyone (anyone may step through a posted one): the board at a ply
(picture and text, as the game shows its boards), who did what and the texts it caused, and
under it what each seat held in secret then (``Game.private_summary``). ⏮ ◀ ▶ ⏭ edit that
message in place; 🎞 GIF and 📜 Export send the presser the animated game or its notation as a
file. The final board's **🎞 Replay** button opens the same replay for the presser alone.

Every control is ``dt:<game id>:<verb>[:args]`` (cogs.router's VERBS: ``rp`` steps to a ply,
``rpo`` opens, ``rpg`` draws the GIF, ``rpt`` writes the export), and the ply is in the
custom_id, so the buttons work after a restart and for anyone in the server; nothing is kept
in memory. States are rebuilt from seed + options + log (sessions.replay) off the event loop.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any, NamedTuple

import discord
from discord import app_commands

import render
from cogs import components, results, routing, share
from cogs.gifs import ReplayGifs, as_file
from cogs.group import AppCommand, GameGroupCog
from cogs.ui import ui_for
from engine import Event, registry
from render import text
from render.text import fill_names
from sessions.replay import Replay, Snapshot, export_text, load_replay

if TYPE_CHECKING:
    from bot import DragonTavern

log = logging.getLogger("dragon_tavern.cogs.replay")

STEP_VERB = "rp"  # dt:<id>:rp:<ply>:<which button>
OPEN_VERB = results.REPLAY_VERB  # the final board's button: the replay, privately, at the start
GIF_VERB = "rpg"
EXPORT_VERB = "rpt"
SHOW_VERB = "rps"  # dt:<id>:rps:<ply>: post the replay at that ply in the channel
REPLAY_LABEL = "🎞 Replay"


class ReplayStep(NamedTuple):
    ply: int
    which: str  # first / prev / next / last: keeps ⏮ and ◀ distinct at ply 1


class ReplayPly(NamedTuple):
    ply: int


STEP = routing.Spec(STEP_VERB, ReplayStep, "{ply}:{which}")
SHOW = routing.Spec(SHOW_VERB, ReplayPly, "{ply}")
OPEN = routing.Spec(OPEN_VERB, routing.NoFields)  # made by cogs.results on the final board
GIF = routing.Spec(GIF_VERB, routing.NoFields)
EXPORT = routing.Spec(EXPORT_VERB, routing.NoFields)
EVENT_LINES = 12  # a ply's texts shown under the board (the export has them all)


# -- the message --------------------------------------------------------------------------------


def replay_message(replay: Replay, snapshot: Snapshot, *, images: bool = True) -> dict[str, Any]:
    """The replay at ``snapshot``: board text (and picture), the ply, the secrets, the controls.
    Plain CPU work (the picture): call it off the event loop."""
    rec = replay.record
    info = registry.get(rec.kind)
    game = snapshot.game
    last = snapshot.ply == replay.plies
    public = game.view(None)
    if last:  # a resign, cancel or abandonment: no turn markers on the last board either
        public = results.final_view(rec, game, public)
    board = render.render_text(rec.kind, public, text.seat_names(rec.seats, "code"))
    embed = discord.Embed(
        title=f"🎞 {info.emoji} {info.title} — replay of game #{rec.id}",
        description=board,
        colour=discord.Colour.dark_teal(),
    )
    embed.add_field(
        name=f"Ply {snapshot.ply} / {replay.plies}", value=_ply_text(replay, snapshot), inline=False
    )
    # At the last ply of a natural end the Result's "Revealed at the end" already lists them.
    held = "" if last and public.get("revealed") else _secrets_text(replay, snapshot)
    if held:
        embed.add_field(name="🔓 Held in secret at this ply", value=held, inline=False)
    if last:
        result = results.result_text(rec, game, public)
        if game.to_dict() != rec.state:  # the log does not rebuild the saved game: say so
            result += "\n⚠️ The rebuilt game differs from the saved one: this replay may be incomplete."
            log.warning("game %s: the replay's last state differs from the saved state", rec.id)
        embed.add_field(name="Result", value=result, inline=False)
    embed.set_footer(text=f"Replays show everything: the game is over · /game replay {rec.id}")
    files: list[discord.File] = []
    if images:
        names = text.seat_names(rec.seats, "plain")
        png = render.render_png(rec.kind, ui_for(rec.kind).image_view(public), names)
        if png:
            files.append(
                discord.File(io.BytesIO(png), filename="replay.png", description=f"{info.title} board")
            )
            embed.set_image(url="attachment://replay.png")
    return text.fit_message(
        {"content": None, "embed": embed, "view": replay_controls(replay, snapshot.ply), "attachments": files}
    )


def replay_controls(replay: Replay, ply: int) -> components.Layout:
    gid, end = replay.record.id, replay.plies
    view = components.Layout()
    steps = (
        ("⏮", 0, "first", ply == 0),
        ("◀", max(0, ply - 1), "prev", ply == 0),  # disabled at 0: no ply -1
        ("▶", ply + 1, "next", ply >= end),
        ("⏭", end, "last", ply >= end),
    )
    for label, target, which, disabled in steps:  # `which` keeps the ids distinct (⏮ and ◀ at ply 1)
        view.add_item(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                row=0,
                disabled=disabled,
                custom_id=STEP.make(gid, ReplayStep(target, which)),
            )
        )
    view.add_item(
        discord.ui.Button(
            label="🎞 GIF", style=discord.ButtonStyle.primary, row=1, custom_id=GIF.make(gid, routing.NoFields())
        )
    )
    view.add_item(
        discord.ui.Button(
            label="📜 Export",
            style=discord.ButtonStyle.primary,
            row=1,
            custom_id=EXPORT.make(gid, routing.NoFields()),
        )
    )
    return view


def _ply_text(replay: Replay, snapshot: Snapshot) -> str:
    ply = snapshot.last
    if ply is None:
        return f"The start: {replay.plies} plies follow. Press ▶ to step, ⏭ for the end."
    names = text.shown_names(replay.names(ply.events))
    label = fill_names(ply.label, names)
    how = "" if ply.source == "player" else f" ({'AI' if ply.source == 'ai' else 'timed out: the AI'})"
    lines = [
        f"**{names.get(ply.seat, ply.seat)}**{how}: `{text.echo(ply.action)}`"
        + (f" — {label}" if label != ply.action else "")
    ]
    lines += [_event_line(e, names) for e in ply.events if e.text][:EVENT_LINES]
    return "\n".join(lines)


def _event_line(event: Event, names: dict[str, str]) -> str:
    line = fill_names(event.text, names)
    return line if event.to is None else f"🔒 {names.get(event.to, event.to)} only: {line}"


def _secrets_text(replay: Replay, snapshot: Snapshot) -> str:
    names = text.seat_names(replay.record.seats)
    lines = []
    for seat in sorted(replay.record.seats, key=lambda s: s.position):
        held = snapshot.game.private_summary(seat.seat)
        if held:  # card names may come from an operator's card file: escaped
            lines.append(f"{names[seat.seat]}: {text.escape_markdown('; '.join(held))}")
    return "\n".join(lines)


async def _message_at(replay: Replay, ply: int) -> dict[str, Any]:
    """The replay message at ``ply``, rebuilt and drawn off the event loop."""
    return await asyncio.to_thread(lambda: replay_message(replay, replay.at(ply)))


# -- the controls (routed by cogs.router) ---------------------------------------------------------


async def _replay_for(bot: DragonTavern, interaction: discord.Interaction, game_id: int) -> Replay:
    return await load_replay(bot.service, game_id, interaction.guild_id or 0)


def _private(message: dict[str, Any], game_id: int, ply: int) -> dict[str, Any]:
    """A replay message for one member: with the button that posts it in the channel."""
    view = message.get("view") or components.Layout()
    view.add_item(share.show_button(SHOW.make(game_id, ReplayPly(ply)), row=1))
    return {**message, "view": view}


async def on_step_replay(router: Any, interaction: discord.Interaction, route: routing.Route) -> None:
    """``dt:<id>:rp:<ply>:<button>``: the same message, at that ply."""
    ply = STEP.read(route).ply
    replay = await _replay_for(router.bot, interaction, route.game_id)
    await interaction.response.defer()  # edits the clicked message when done
    message = await _message_at(replay, ply)
    if share.is_private(interaction):
        message = _private(message, route.game_id, ply)
    await interaction.edit_original_response(**message)


async def on_open_replay(router: Any, interaction: discord.Interaction, route: routing.Route) -> None:
    """``dt:<id>:rpo``, the final board's button: the replay for the presser alone."""
    replay = await _replay_for(router.bot, interaction, route.game_id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    message = _private(await _message_at(replay, 0), route.game_id, 0)
    await interaction.followup.send(**_as_new(message), ephemeral=True)


async def on_show_replay(router: Any, interaction: discord.Interaction, route: routing.Route) -> None:
    """``dt:<id>:rps:<ply>``: the replay at that ply, posted in the channel for everyone."""
    ply = SHOW.read(route).ply
    replay = await _replay_for(router.bot, interaction, route.game_id)
    await interaction.response.defer(thinking=True)
    await interaction.followup.send(**_as_new(await _message_at(replay, ply)))


async def on_send_gif(router: Any, interaction: discord.Interaction, route: routing.Route) -> None:
    """``dt:<id>:rpg``: the animated game, for the presser (cogs.gifs: drawn once per game, in
    a lane of its own; a member who is waiting or was just sent one is answered at once)."""
    replay = await _replay_for(router.bot, interaction, route.game_id)
    gifs: ReplayGifs = router.bot.gifs
    refusal = gifs.refusal(interaction.user.id)
    if refusal is not None:
        await interaction.response.send_message(refusal, ephemeral=True)
        return
    gif = await gifs.draw_for(
        interaction.user.id, replay, lambda: interaction.response.defer(ephemeral=True, thinking=True)
    )
    await interaction.followup.send(gif.note, file=as_file(gif), ephemeral=True)


async def on_send_export(router: Any, interaction: discord.Interaction, route: routing.Route) -> None:
    """``dt:<id>:rpt``: the game in its notation, as a text file, for the presser."""
    replay = await _replay_for(router.bot, interaction, route.game_id)
    rec = replay.record
    # Optional work: the side lane (not the pool games need); a finished game's text is kept.
    pending = router.bot.side_work.submit(("export", rec.id, rec.version), export_text, replay, keep=len)
    await interaction.response.defer(ephemeral=True, thinking=True)
    body = await pending
    await interaction.followup.send(
        f"📜 Game #{replay.record.id}, every move in {replay.title}'s notation.",
        file=discord.File(io.BytesIO(body.encode()), filename=f"game-{replay.record.id}.txt"),
        ephemeral=True,
    )


def _as_new(message: dict[str, Any]) -> dict[str, Any]:
    """An edit's keywords as a new message's: files instead of attachments, no None values."""
    out = {k: v for k, v in message.items() if v is not None and k != "attachments"}
    out["files"] = message.get("attachments") or []
    return out


# -- /game replay ---------------------------------------------------------------------------------


class Replays(GameGroupCog):
    """Adds /game replay to the /game group (owned by cogs.games)."""

    def __init__(self, bot: DragonTavern) -> None:
        self.bot = bot
        replay: AppCommand = app_commands.Command(
            name="replay",
            description="Step through a game that is over, move by move (with a GIF and an export)",
            callback=self.replay,
        )
        self.group_commands = (replay,)

    @app_commands.describe(game="The game's number (its board and /game list show it)")
    async def replay(self, interaction: discord.Interaction, game: int) -> None:
        # Private to the asker (a channel keeps only its games' messages); the button shares it.
        replay = await _replay_for(self.bot, interaction, game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        message = _private(await _message_at(replay, 0), game, 0)
        await interaction.followup.send(**_as_new(message), ephemeral=True)


async def setup(bot: DragonTavern) -> None:
    await bot.add_cog(Replays(bot))


__all__ = [
    "REPLAY_LABEL",
    "on_open_replay",
    "on_send_export",
    "on_send_gif",
    "on_show_replay",
    "on_step_replay",
    "replay_message",
]
