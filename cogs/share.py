"""Answers that are private by default, with a **📣 Show to the channel** button.

/game leaderboard, profile, history and replay answer only the member who asked (an ephemeral
message), so a channel keeps only what its tables need; the button posts the same answer in the
channel for everyone, drawn again from the database (its custom_id says what to draw, so it
works after a restart). The public copy has no such button.
"""

from __future__ import annotations

from typing import Any

import discord

SHOW_LABEL = "📣 Show to the channel"


def show_button(custom_id: str, *, row: int | None = None) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=SHOW_LABEL, style=discord.ButtonStyle.secondary, custom_id=custom_id, row=row
    )


def with_show_button(
    view: discord.ui.View | None, custom_id: str, *, row: int | None = None
) -> discord.ui.View:
    """``view`` (or a new one) with the Show button added."""
    view = view or discord.ui.View(timeout=None)
    view.add_item(show_button(custom_id, row=row))
    return view


def is_private(interaction: discord.Interaction) -> bool:
    """The clicked message is an ephemeral one (only the clicker sees it)."""
    message = interaction.message
    return bool(message is not None and message.flags.ephemeral)


__all__ = ["SHOW_LABEL", "is_private", "show_button", "with_show_button"]
