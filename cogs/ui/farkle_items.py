"""Dragon Farkle's private prompt (DM or the board's "Show my hand"): the owner's Magic Items
with a Use button per item play allowed right now; plays that need a choice (a die face, a
target) go in one select. Every item action is private in the engine, so only this prompt
offers them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, cast

import discord

import render
from cogs import components, routing
from cogs.announcer import actor_of
from cogs.components import Layout
from cogs.presenter import fill_names
from cogs.prompts import private_actions, prompt_token
from engine import Event
from render import text

if TYPE_CHECKING:
    from bot import DragonTavern
    from engine.farkle import FarkleGame
    from storage import GameRecord


class UseItem(NamedTuple):
    version: int
    action: str


USE = routing.Spec("x", UseItem, "{version}:{action}", control="use", refusal="That prompt is out of date.")
MAX_USE_BUTTONS = 15  # rows 1-3; row 0 holds the select of the rest (Loaded Die faces, targets)


def _names(rec: GameRecord) -> dict[str, str]:
    """Names for markdown (message content, embed fields)."""
    return text.seat_names(rec.seats)


def private_message(
    rec: GameRecord, game: FarkleGame, seat: str, own_events: list[Event], *, page: int
) -> dict[str, Any]:
    """The owner's hand (names and texts of their Magic Items) and a Use button per item play
    allowed right now; plays that need a choice (a die face, a target) go in one select."""
    names = _names(rec)
    hand = game.typed_view(seat)  # read once: the board text and the items below
    embed = discord.Embed(
        title=f"🔒 Dragon Farkle — game #{rec.id} (only you see this)",
        description=render.render_text(
            "farkle", cast("dict[str, Any]", hand), text.seat_names(rec.seats, "code")
        ),
        colour=discord.Colour.blurple(),
    )
    cards = [*hand.get("my_items", []), *hand.get("my_pending", [])]
    if cards:
        embed.add_field(
            name="Your Magic Items",
            value="\n".join(f"**{c['name']}**: {c['text']}" for c in cards),
            inline=False,
        )
    if own_events:
        embed.add_field(
            name="For you", value="\n".join(fill_names(e.text, names) for e in own_events), inline=False
        )
    choices = private_actions(game, seat, text.seat_names(rec.seats, "plain"))  # labels: no markdown
    if not choices:
        return text.fit_message({"embed": embed, "view": None})
    embed.set_footer(text="Only you see your items; using one shows it face up to everyone.")
    simple = [(a, label) for a, label in choices if a.count(":") <= 1][:MAX_USE_BUTTONS]
    rest = [(a, label) for a, label in choices if (a, label) not in simple]
    view = (
        components.action_picker(
            rec.id,
            "p",
            rest,
            page=page,
            token=prompt_token(game, seat),
            placeholder="Use an item with a choice…",
        )
        if rest
        else Layout()
    )
    for index, (action, label) in enumerate(simple):
        use = UseItem(rec.version, action)
        if not USE.fits(rec.id, use):
            continue
        view.add_item(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.primary,
                row=2 + index // 5,
                custom_id=USE.make(rec.id, use),
            )
        )
    return text.fit_message({"embed": embed, "view": view})


async def on_use_item(bot: DragonTavern, interaction: discord.Interaction, route: routing.Route) -> None:
    """A Use button of the private prompt (DM or ephemeral); version-checked like the board."""
    version, action = USE.read(route)
    await interaction.response.defer()
    outcome = await bot.service.apply(route.game_id, actor_of(interaction), action, expected_version=version)
    rec, game = outcome.record, outcome.game
    seat = rec.seat_of_user(interaction.user.id)
    if game is None or seat is None:
        return
    label = fill_names(game.describe_action(seat.seat, action), _names(rec))
    message: dict[str, Any] = {"content": f"✅ {label}", "embed": None, "view": None}
    if not outcome.changed:
        message["content"] = outcome.notice or "Already done."
    elif interaction.guild_id is not None and private_actions(game, seat.seat):
        # Ephemeral route: the same message becomes the next prompt (a DM gets a new one).
        own = [e for e in outcome.events if e.to == seat.seat]
        message = {
            "content": f"✅ {label}",
            **private_message(rec, cast("FarkleGame", game), seat.seat, own, page=0),
        }
    await interaction.edit_original_response(**message)
    if outcome.changed:
        await bot.announcer.after_change(outcome, interaction)
