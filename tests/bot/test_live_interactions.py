"""cogs.carrier.LiveInteractions: which click may edit a message later (issue 25)."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import discord

from cogs.carrier import Carrier, LiveInteractions

BOARD, HAND, CHANNEL = 101, 202, 7


def click(message_id: int, answered: discord.InteractionResponseType, minutes_ago: float = 0.0) -> Carrier:
    """A component click on ``message_id``, answered by ``answered``."""
    interaction = SimpleNamespace(
        type=discord.InteractionType.component,
        message=SimpleNamespace(id=message_id),
        channel_id=CHANNEL,
        created_at=discord.utils.utcnow() - timedelta(minutes=minutes_ago),
        response=SimpleNamespace(type=answered, is_done=lambda: True),
    )
    return Carrier(interaction)  # type: ignore[arg-type]


UPDATE = discord.InteractionResponseType.deferred_message_update
REPLY = discord.InteractionResponseType.channel_message


def test_the_newest_update_click_on_a_message_edits_it_later_and_carries_the_games_ping():
    live = LiveInteractions()
    first, second = click(BOARD, UPDATE), click(BOARD, UPDATE)
    live.note(first)
    live.note(second)
    assert live.on(BOARD) is second
    assert live.on(HAND) is None
    assert live.ping(CHANNEL, BOARD) is second
    assert live.ping(CHANNEL + 1, BOARD) is None  # a followup would land in another channel


def test_a_click_answered_by_a_reply_of_its_own_never_edits_the_message_it_was_on():
    # Its original is the (ephemeral) reply: editing it would not edit the board.
    live = LiveInteractions()
    live.note(click(BOARD, REPLY))
    assert live.on(BOARD) is None
    assert not click(BOARD, REPLY).carries_board(BOARD)


def test_an_old_or_refused_token_is_not_used_and_expired_ones_are_dropped():
    live = LiveInteractions()
    old = click(HAND, UPDATE, minutes_ago=14.5)
    live.note(old)
    assert live.on(HAND) is None
    refused = click(BOARD, UPDATE)
    live.note(refused)
    refused.broken = True
    assert live.on(BOARD) is None
    live.note(click(HAND, UPDATE, minutes_ago=15))  # an expired one is never kept
    live.note(click(BOARD + 1, UPDATE))
    assert len(live._on) == 1  # the map holds the clicks of the last 14 minutes only


def test_the_click_being_delivered_comes_before_an_older_one():
    live = LiveInteractions()
    kept = click(BOARD, UPDATE)
    live.note(kept)
    own = click(BOARD, UPDATE)
    assert live.on(BOARD, own) is own
    assert live.on(BOARD, click(HAND, UPDATE)) is kept  # a DM click cannot edit the board
