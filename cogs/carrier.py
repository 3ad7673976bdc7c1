"""The interaction a delivery may answer through (issue 25): Discord's interaction endpoints
(the response, its edits, the followups, created, edited and deleted through the
interaction's webhook) are outside the bot's global limit of 50 requests per second, channel
requests are not.

A click hands its live interaction down (cogs.router -> cogs.announcer -> cogs.outbox ->
cogs.presenter / cogs.pings). The board is edited through it when the click was made on the
board message itself (its "original" is that message); the turn ping is sent as its followup
when the interaction happened in the game's channel (or thread). Anything else, an expired
token, or a failed interaction request, falls back to the channel: a timer has no carrier of
its own, and a ``/play`` can edit the board only once the board moved to its followup
(cogs.board_hop), since an interaction's webhook can edit only the messages it created.

A token stays valid for 15 minutes, and it may edit its original, and the followups it sent,
as often as it likes, so :class:`LiveInteractions` keeps the newest interaction that can edit
each message the bot edits (a board, a seat message) while its token lives: a change that no
click of its own can carry (a plan chosen in a DM changes the board; a card revealed on the
board changes its owner's seat message) goes through that interaction's webhook instead of the
channel. A click on a message can edit it (its original); a ``/play`` can edit the board it
posted as its followup when the board moved to it (cogs.board_hop). Memory only: after a
restart, or once the token is old, it is the channel again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import discord

from cogs.recent import RecentMap

# An interaction token lives 15 minutes; a request started near the end must still arrive.
TOKEN_LIFETIME = timedelta(minutes=14)
# Responses whose "original" is the message the component is on (its edits edit that message).
UPDATES_ITS_MESSAGE = frozenset(
    {discord.InteractionResponseType.deferred_message_update, discord.InteractionResponseType.message_update}
)
LIVE_KEPT = 8192  # messages whose newest click is kept (a board and a seat message or two per game)


def token_alive(interaction: discord.Interaction) -> bool:
    return discord.utils.utcnow() - interaction.created_at < TOKEN_LIFETIME


@dataclass(eq=False)
class Carrier:
    """A live interaction whose original response is complete, so that its webhook may edit
    that original and send followups (a thinking defer must be answered first, or the first
    followup would become that answer)."""

    interaction: discord.Interaction
    # A request through it failed (the token was refused): the channel from now on.
    broken: bool = field(default=False)
    # Messages its webhook created that it edits too (a board posted as its followup).
    created: set[int] = field(default_factory=set)

    def alive(self) -> bool:
        return not self.broken and token_alive(self.interaction)

    def original_message_id(self) -> int | None:
        """The message that editing this interaction's original edits: the message its
        component is on, when the click was answered by a (deferred) update of that message
        (not by a reply of its own, whose original is that reply)."""
        message = self.interaction.message
        if (
            self.interaction.type is discord.InteractionType.component
            and message is not None
            and self.interaction.response.type in UPDATES_ITS_MESSAGE
        ):
            return message.id
        return None

    def carries_board(self, board_message_id: int | None) -> bool:
        """Whether the board message is this click's own message (a component interaction on
        it, answered by a deferred update): then editing the original edits the board."""
        return board_message_id is not None and self.edits(board_message_id)

    def edits(self, message_id: int) -> bool:
        """Whether this interaction's webhook can edit ``message_id`` (while the token lives):
        its original, or a followup it created that the bot edits (:meth:`LiveInteractions.adopt`)."""
        return (self.original_message_id() == message_id or message_id in self.created) and self.alive()

    async def edit(self, message_id: int, **fields: Any) -> discord.Message:
        """Edit ``message_id`` (one it :meth:`edits`) through this interaction's webhook."""
        if message_id in self.created:
            return await self.interaction.followup.edit_message(message_id, **fields)
        return await self.interaction.edit_original_response(**fields)

    def carries_ping(self, channel_id: int) -> bool:
        """Whether a followup lands where the game's ping belongs (its channel, or its thread)."""
        return (
            self.interaction.channel_id == channel_id and self.interaction.response.is_done() and self.alive()
        )


class LiveInteractions:
    """The newest interaction that can edit each message the bot edits, while its token lives."""

    def __init__(self) -> None:
        self._on: RecentMap[int, Carrier] = RecentMap(LIVE_KEPT)

    def note(self, carrier: Carrier) -> None:
        """``carrier`` was just answered: later edits of its message may go through it."""
        message_id = carrier.original_message_id()
        if message_id is not None and carrier.alive():
            self._on[message_id] = carrier
        # The oldest writes come first: drop the expired ones, so that the map holds the clicks
        # of the last 14 minutes only (each keeps its interaction, message included).
        while self._on:
            oldest = next(iter(self._on.values()))
            if oldest.alive():
                break
            self._on.popitem(last=False)

    def adopt(self, message_id: int, carrier: Carrier) -> None:
        """``carrier``'s webhook created ``message_id`` (the board, moved to its followup):
        later edits of that message go through it while its token lives."""
        carrier.created.add(message_id)
        self._on[message_id] = carrier

    def on(self, message_id: int | None, carrier: Carrier | None = None) -> Carrier | None:
        """What can edit ``message_id`` through an interaction endpoint: ``carrier`` (the
        click being delivered) if it was made on that message, else the newest live click
        that was; None when only the channel can."""
        if message_id is None:
            return None
        if carrier is not None and carrier.edits(message_id):
            return carrier
        kept = self._on.get(message_id)
        if kept is not None and not kept.alive():
            del self._on[message_id]  # expired: what remains of the map is live or recent
            return None
        return kept

    def ping(
        self, channel_id: int, board_message_id: int | None, carrier: Carrier | None = None
    ) -> Carrier | None:
        """What can send the game's ping as a followup in ``channel_id``: the click being
        delivered if it was made there, else the newest live click on the board (in that
        channel too); None when only the channel can."""
        if carrier is not None and carrier.carries_ping(channel_id):
            return carrier
        board = self.on(board_message_id)
        return board if board is not None and board.carries_ping(channel_id) else None
