"""The **Rematch** button of an ended board: a new lobby in the same channel, for the same game
with the same options, its presser the host (seated at once), the same AI seats, and the other
human players invited by one message that pings exactly them; each joins with **Join**.

Everything goes through the session layer (``GameService.create`` and ``add_ai``), with its
checks: a channel with an open game or lobby, and the host's lobby limit, refuse the rematch.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import discord

from cogs import routing
from cogs.flow import actor_of
from cogs.results import ENDED_STATUSES
from engine import registry
from render import text
from sessions import NotAllowed, SessionError
from storage import GameRecord

if TYPE_CHECKING:
    from bot import DragonTavern


def options_text(options: dict[str, Any]) -> str:
    """A lobby's parsed options written back as ``/game new`` would take them (``k=v``). Lobby
    choices kept with them (a mapping, e.g. the team picks) are not options: a rematch starts fresh."""
    return " ".join(f"{name}={_option_value(value)}" for name, value in options.items()
                    if not isinstance(value, dict))


def _option_value(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def invitees(old: GameRecord, host_id: int) -> list[int]:
    """The other people who played the old game, in seat order (a seat an AI took over after a
    resignation or time-outs still belongs to its person)."""
    seen: list[int] = []
    for seat in sorted(old.seats, key=lambda s: s.position):
        if seat.user_id is not None and seat.user_id != host_id and seat.user_id not in seen:
            seen.append(seat.user_id)
    return seen


async def _refusal(bot: DragonTavern, old: GameRecord, user_id: int) -> str | None:
    if old.status not in ENDED_STATUSES or old.state is None:
        return "This game has not ended: a rematch can be asked for from its final board."
    if all(seat.user_id != user_id for seat in old.seats):
        return f"Only the players of game #{old.id} can ask for a rematch."
    busy = await bot.service.channel_game(old.channel_id)
    if busy is not None:
        title = _title(busy.kind)
        if busy.status == "lobby":
            return (
                f"This channel already has an open lobby (#{busy.id}, {title}): press **Join** on it, "
                "or wait until it closes."
            )
        return f"This channel already has a game running (#{busy.id}, {title}). Finish or cancel it first."
    return None


def _title(kind: str) -> str:
    try:
        return registry.get(kind).title
    except KeyError:  # a game no longer installed
        return kind


async def on_open_rematch_lobby(router: Any, interaction: discord.Interaction, route: routing.Route) -> None:
    """``dt:<id>:rematch`` (cogs.router's VERBS): the presser opens the new lobby."""
    bot: DragonTavern = router.bot
    if interaction.guild_id is None:
        raise SessionError("Ask for a rematch on the game's board in its server channel.")
    await interaction.response.defer(ephemeral=True, thinking=True)
    old = await bot.service.record(route.game_id)
    refusal = await _refusal(bot, old, interaction.user.id)
    if refusal is not None:
        raise SessionError(refusal)
    host = actor_of(interaction)
    # create() checks the server's rules again (game enabled, channel allowed, the lobby limit)
    # and, in one transaction, that the channel is still free.
    rec = await bot.service.create(old.kind, old.guild_id, old.channel_id, host, options_text(old.options))
    for seat in sorted(old.seats, key=lambda s: s.position):
        if seat.user_id is None and seat.ai_level is not None:  # the old game's AI seats come back
            with contextlib.suppress(NotAllowed, SessionError):  # AI seats turned off since: humans only
                await bot.service.add_ai(rec.id, host, seat.ai_level)
    await bot.timers.refresh(rec.id)  # the lobby's closing time
    await bot.outbox.deliver_now(rec.id)  # the lobby message
    invited = invitees(old, host.user_id)
    if invited:
        mentions = ", ".join(f"<@{user_id}>" for user_id in invited)
        # Only the invited players are pinged (the bot's default pings nobody).
        await bot.get_partial_messageable(old.channel_id).send(
            text.fit(
                f"🔁 {mentions}: {text.shown_name(host.name)} asks for a rematch of {_title(old.kind)} "
                f"(game #{old.id}). Press **Join** on lobby #{rec.id} above."
            ),
            allowed_mentions=discord.AllowedMentions(
                everyone=False,
                roles=False,
                replied_user=False,
                users=[discord.Object(user_id) for user_id in invited],
            ),
        )
    await interaction.followup.send(
        f"Lobby #{rec.id} is open for the rematch"
        + (f"; {len(invited)} player{'s were' if len(invited) != 1 else ' was'} invited." if invited else ".")
        + " Press **Start** when everyone is in.",
        ephemeral=True,
    )


__all__ = ["invitees", "on_open_rematch_lobby", "options_text"]
