"""The **Rematch** button of an ended board: a new lobby in the same channel, for the same game
with the same options, its presser the host (seated at once), the same AI seats, and the other
human players invited by one message that pings exactly them.

The handshake: another player of the old game who presses **Rematch** too (or **Join** on the
new lobby) joins it; once everyone from the old game is in, the invitation gives way to one line
that pings the host to press **Start**. The lobby knows the game it repeats (``rematch_of``,
migration 008) and its invitation is kept as the lobby's ping, so both survive a restart; the
outbox deletes it when the lobby starts or closes.

Everything goes through the session layer (``GameService.create``, ``join`` and ``add_ai``),
with its checks: a channel with an open game or lobby (where games are not played in threads)
and the host's lobby limit refuse the rematch.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import discord

from cogs import routing, threads
from cogs.announcer import actor_of
from cogs.results import ENDED_STATUSES, REMATCH_VERB
from engine import registry
from render import text
from sessions import NotAllowed, Outcome, SessionError
from storage import GameDamaged, GameNotFound, GameRecord

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


async def _refusal(bot: DragonTavern, old: GameRecord, user_id: int, in_thread: bool) -> str | None:
    if old.status not in ENDED_STATUSES or old.state is None:
        return "This game has not ended: a rematch can be asked for from its final board."
    if all(seat.user_id != user_id for seat in old.seats):
        return f"Only the players of game #{old.id} can ask for a rematch."
    busy = None if in_thread else await bot.service.channel_game(old.channel_id)
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


REMATCH = routing.Spec(REMATCH_VERB, routing.NoFields)  # made by cogs.results on the final board

async def on_open_rematch_lobby(router: Any, interaction: discord.Interaction, route: routing.Route) -> None:
    """``dt:<id>:rematch`` (cogs.router's VERBS): the first presser opens the new lobby; a
    player pressing it while that lobby is open joins it."""
    bot: DragonTavern = router.bot
    if interaction.guild_id is None:
        raise SessionError("Ask for a rematch on the game's board in its server channel.")
    await interaction.response.defer(ephemeral=True, thinking=True)
    old = await bot.db.games.load(route.game_id)
    # One press at a time per ended game: two players pressing together get one lobby (in a
    # channel whose games go to threads nothing else would stop a second one).
    async with bot.service.lock(old.id):
        await _open_or_join(bot, old, interaction)


async def _open_or_join(bot: DragonTavern, old: GameRecord, interaction: discord.Interaction) -> None:
    asked = await bot.db.games.open_rematch(old.id)
    if asked is not None and any(seat.user_id == interaction.user.id for seat in old.seats):
        await interaction.followup.send(await _accept(bot, old, asked, interaction), ephemeral=True)
        return
    in_thread = threads.can_make_threads(bot, old.channel_id)
    refusal = await _refusal(bot, old, interaction.user.id, in_thread)
    if refusal is not None:
        raise SessionError(refusal)
    host = actor_of(interaction)
    # create() checks the server's rules again (game enabled, channel allowed, the lobby limit)
    # and, in one transaction, that the channel is still free.
    rec = await bot.service.create(old.kind, old.guild_id, old.channel_id, host, options_text(old.options),
                                   threads_possible=in_thread, rematch_of=old.id)
    for seat in sorted(old.seats, key=lambda s: s.position):
        if seat.user_id is None and seat.ai_level is not None:  # the old game's AI seats come back
            with contextlib.suppress(NotAllowed, SessionError):  # AI seats turned off since: humans only
                await bot.service.add_ai(rec.id, host, seat.ai_level)
    await bot.announcer.after_change(Outcome(rec))  # the lobby message and its closing time
    invited = invitees(old, host.user_id)
    if invited:
        await _post_lobby_ping(
            bot, rec, invited,
            f"🔁 {_mentions(invited)}: {text.shown_name(host.name)} asks for a rematch of {_title(old.kind)} "
            f"(game #{old.id}). Press **Join** on lobby #{rec.id} above, or **🔁 Rematch** on your final board.",
        )
    await interaction.followup.send(
        f"Lobby #{rec.id} is open for the rematch"
        + (f"; {len(invited)} player{'s were' if len(invited) != 1 else ' was'} invited." if invited else ".")
        + " Press **Start** when everyone is in.",
        ephemeral=True,
    )


async def _accept(bot: DragonTavern, old: GameRecord, asked: GameRecord, interaction: discord.Interaction) -> str:
    """A player of the old game pressed Rematch while its rematch is open: join it. The reply."""
    if asked.status != "lobby":
        raise SessionError(f"The rematch of game #{old.id} is already being played (game #{asked.id}).")
    joined = asked.seat_of_user(interaction.user.id) is None
    if joined:
        await bot.announcer.after_change(await bot.service.join(asked.id, actor_of(interaction)))
        asked = await bot.db.games.load(asked.id)
    ready = await everyone_in(bot, asked, interaction.user.id if joined else None)
    if asked.host_user_id == interaction.user.id:
        return (f"You host lobby #{asked.id}, the rematch: " + ("everyone is in, press **Start**."
                if ready else "press **Start** when everyone is in."))
    if ready:
        return f"You joined lobby #{asked.id}, the rematch: everyone is in, so its host can press **Start**."
    return f"You joined lobby #{asked.id}, the rematch; it starts when its host presses **Start**."


async def everyone_in(bot: DragonTavern, lobby: GameRecord, joined: int | None = None) -> bool:
    """Whether every player of the game a rematch lobby repeats sits in it. When ``joined``, the
    member who just joined, was the last of them, the invitation gives way to one line that
    pings the host to start."""
    if lobby.rematch_of is None or lobby.status != "lobby":
        return False
    try:
        old = await bot.db.games.load(lobby.rematch_of)
    except (GameNotFound, GameDamaged):  # the old game set aside since: the lobby goes on as any other
        return False
    invited = invitees(old, lobby.host_user_id)
    if not invited or any(lobby.seat_of_user(user_id) is None for user_id in invited):
        return False
    if joined in invited:
        await _post_lobby_ping(bot, lobby, [lobby.host_user_id],
                               f"✅ Everyone from game #{old.id} is in lobby #{lobby.id}: <@{lobby.host_user_id}>, "
                               "press **Start** when you are ready.")
    return True


async def _post_lobby_ping(bot: DragonTavern, lobby: GameRecord, user_ids: list[int], content: str) -> None:
    """A message of the lobby that pings exactly ``user_ids``, kept as the lobby's ping (so it
    replaces the one before and goes when the lobby starts or closes, after a restart too)."""
    sent = await bot.get_partial_messageable(lobby.channel_id).send(
        text.fit(content),
        allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in user_ids]
        ),
    )
    await bot.db.pings.add(lobby.id, lobby.channel_id, sent.id)
    await bot.outbox.pings.delete_earlier(lobby, keep={sent.id})


def _mentions(user_ids: list[int]) -> str:
    return ", ".join(f"<@{user_id}>" for user_id in user_ids)


__all__ = ["everyone_in", "invitees", "on_open_rematch_lobby", "options_text"]
