"""Each seated player's one private message per game: their "hand" (a DM), edited in place as
things change, replaced by a new DM only when they must act privately (that new message is
what notifies them). One step of the outbox's delivery (cogs.outbox).

A player whose DMs are closed, or a server that keeps secrets in ephemeral replies, reads the
same message through the board's "🔒 Show my hand / plan" button instead; the router then also
offers it unasked after their own clicks when a private choice is open (see cogs.router).

Every private component carries the seat's *prompt token* (:func:`prompt_token`): a digest of
what that seat may see and choose now. A click whose token no longer matches is refused and
answered with the current prompt, so an old prompt never acts on a newer roll or phase; moves
of other players that change nothing private leave the token (and the prompt) valid.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord

from cogs.prompts import must_act_privately, private_actions, prompt_key
from cogs.ui import ui_for
from engine import Event, Game
from render import text
from storage import HandMessage

if TYPE_CHECKING:
    from bot import DragonTavern
    from storage import GameRecord, SeatRecord

log = logging.getLogger("dragon_tavern.cogs.hands")

DM_CLOSED = 50007


class Hands:
    def __init__(self, bot: DragonTavern) -> None:
        self.bot = bot

    async def deliver(self, rec: GameRecord, game: Game, seat: SeatRecord, events: list[Event]) -> bool:
        """Bring the seat's hand message up to date after ``events``: a new DM when it must act
        privately now (a new decision), else an edit when what it shows changed. Returns
        whether a DM was sent or edited."""
        if rec.status != "active" or seat.is_ai or seat.user_id is None:
            return False
        settings = await self.bot.service.settings(rec.guild_id)
        if settings["hidden_pick_mode"] == "ephemeral" or seat.private_route == "ephemeral":
            return False  # they read it through the board's button
        own = [e for e in events if e.to == seat.seat]
        key = prompt_key(game, seat.seat)
        hand = await self.bot.service.hand(rec.id, seat.seat)
        asking = must_act_privately(game, seat.seat) and ui_for(rec.kind).private_prompt_due(game, seat.seat, events)
        if hand is not None and hand.prompt_key == key and not own:
            return False  # nothing new to show
        if hand is None and not own and not private_actions(game, seat.seat):
            return False  # nothing to show yet (and no message to update)
        if (await self.bot.service.record(rec.id)).version != rec.version:
            # A newer change was saved meanwhile (a fast player): its own delivery brings the
            # hand up to date; drawing this older state now would show a prompt already stale.
            return False
        message = self.bot.presenter.private_message(rec, game, seat.seat, own, page=0)
        new_call = asking and (hand is None or not hand.asked or hand.prompt_key != key)
        if hand is not None and not new_call and await self._edit(hand, message):
            await self.bot.service.set_hand(rec.id, seat.seat, HandMessage(
                hand.channel_id, hand.message_id, key, hand.asked))
            return True
        sent = await self._send(rec, seat, message)
        if sent is None:
            return False
        await self.bot.service.set_hand(rec.id, seat.seat, HandMessage(sent.channel.id, sent.id, key, asking))
        if hand is not None and hand.message_id != sent.id:
            await self._retire(hand)
        return True

    async def close(self, rec: GameRecord, game: Game) -> None:
        """The game is over: each hand message shows the final state, with no controls left."""
        for seat in rec.seats:
            hand = await self.bot.service.hand(rec.id, seat.seat)
            if hand is None or not hand.message_id:
                continue
            message = self.bot.presenter.private_message(rec, game, seat.seat, [], page=0)
            with contextlib.suppress(discord.HTTPException):
                await self._edit(hand, {**message, "view": None,
                                        "content": "🏁 The game is over: the final board and result are in the channel."})

    async def adopt(self, rec: GameRecord, seat: str, message: discord.Message) -> None:
        """Make ``message`` (the DM sent at the start of the game) the seat's hand message, so
        it is edited into the hand later instead of a second DM being sent."""
        await self.bot.service.set_hand(rec.id, seat, HandMessage(message.channel.id, message.id, "", False))

    async def _edit(self, hand: HandMessage, message: dict[str, Any]) -> bool:
        partial = self.bot.get_partial_messageable(hand.channel_id).get_partial_message(hand.message_id)
        try:
            # No new text: the message keeps its line (the game's opening words, or the
            # "✅ …" confirmation of the player's last secret choice).
            kept = {k: v for k, v in message.items() if not (k == "content" and v is None)}
            await partial.edit(**text.fit_message(kept))
            return True
        except discord.NotFound:
            return False  # the DM is gone: send a new one
        except discord.Forbidden:
            # The member blocked the bot (or shares no server with it any more) after their hand
            # went out. Sending a new DM fails the same way and routes the seat to the board's
            # button; raising would fail the whole announcement and retry it again and again.
            return False

    async def _send(self, rec: GameRecord, seat: SeatRecord, message: dict[str, Any]) -> discord.Message | None:
        assert seat.user_id is not None
        try:
            user = self.bot.get_user(seat.user_id) or await self.bot.fetch_user(seat.user_id)
            return await user.send(**text.fit_message(message))
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED and exc.status != 403:
                raise
            await self.bot.service.set_private_route(rec.id, seat.seat, "ephemeral")
            log.info("game %s: DMs closed for a seat; its prompts go through the board's button", rec.id)
            return None

    async def _retire(self, hand: HandMessage) -> None:
        """The previous hand message: deleted, so one private message per game remains."""
        partial = self.bot.get_partial_messageable(hand.channel_id).get_partial_message(hand.message_id)
        with contextlib.suppress(discord.HTTPException):
            await partial.delete()
