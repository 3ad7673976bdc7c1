"""The interaction a delivery may answer through (issue 25): Discord's interaction endpoints
(the response, its edits, the followups, created, edited and deleted through the
interaction's webhook) are outside the bot's global limit of 50 requests per second, channel
requests are not.

A click hands its live interaction down (cogs.router -> cogs.announcer -> cogs.outbox ->
cogs.presenter / cogs.pings). The board is edited through it when the click was made on the
board message itself (its "original" is that message); the turn ping is sent as its followup
when the interaction happened in the game's channel (or thread). Anything else, an expired
token, or a failed interaction request, falls back to the channel: a timer, a DM prompt or a
``/play`` whose response is not the board have no carrier for the board, since an
interaction's webhook can edit only the messages it created.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import discord

# An interaction token lives 15 minutes; a request started near the end must still arrive.
TOKEN_LIFETIME = timedelta(minutes=14)


def token_alive(interaction: discord.Interaction) -> bool:
    return discord.utils.utcnow() - interaction.created_at < TOKEN_LIFETIME


@dataclass(frozen=True)
class Carrier:
    """A live interaction whose original response is complete, so that its webhook may edit
    that original and send followups (a thinking defer must be answered first, or the first
    followup would become that answer)."""

    interaction: discord.Interaction

    def alive(self) -> bool:
        return token_alive(self.interaction)

    def carries_board(self, board_message_id: int | None) -> bool:
        """Whether the board message is this click's own message (a component interaction on
        it, answered by a deferred update): then editing the original edits the board."""
        message = self.interaction.message
        return (
            board_message_id is not None
            and self.interaction.type is discord.InteractionType.component
            and message is not None
            and message.id == board_message_id
            and self.interaction.response.is_done()
            and self.alive()
        )

    def carries_ping(self, channel_id: int) -> bool:
        """Whether a followup lands where the game's ping belongs (its channel, or its thread)."""
        return (
            self.interaction.channel_id == channel_id and self.interaction.response.is_done() and self.alive()
        )
