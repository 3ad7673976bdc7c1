"""One place that turns any error from a command or a click into a private message.

Rule and permission problems are explained; anything unexpected becomes "something went
wrong (ref XXXX)" for the user and a logged traceback carrying the same ref.
"""

from __future__ import annotations

import logging
import secrets

import discord
from discord import app_commands

from engine import IllegalAction
from render import text as text_limits
from sessions import SessionError
from storage import DatabaseGone, GameDamaged, GameNotFound, StorageError, VersionConflict
from storage.damage import DAMAGED_MESSAGE

log = logging.getLogger("dragon_tavern.cogs.errors")

GAME_GONE = "This game no longer exists."
UNKNOWN_INTERACTION = 10062  # Discord: the interaction was not answered within 3 s, its token is gone
READ_ONLY = ("🛑 The bot's database file was removed or replaced while it was running, so the bot is "
             "read-only until it is restarted: nothing was changed. Please tell the bot's operator.")


class AnnouncementDelayed(Exception):
    """A change was saved, but announcing it failed (Discord refused, the network broke); it
    stays queued in the outbox and goes out later. ``ref`` is in the log line about it."""

    def __init__(self, ref: str) -> None:
        super().__init__(ref)
        self.ref = ref


def user_message(error: BaseException) -> str:
    """The text to show the user for ``error`` (logs unexpected ones with a ref)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, AnnouncementDelayed):
        return (f"✅ Done and saved. The board could not be updated just now (ref {error.ref}); it catches up "
                "by itself shortly, or use `/game status` to show it again.")
    if isinstance(error, IllegalAction | SessionError):
        return f"⚠️ {error}"
    if isinstance(error, VersionConflict):
        return "⚠️ Someone acted at the same moment; nothing was changed. Please try again."
    if isinstance(error, app_commands.MissingPermissions):
        return "🔒 You need the **Manage Server** permission for this."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "This command only works in a server channel."
    if isinstance(error, app_commands.CheckFailure):
        return "🔒 You can't use this command here."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} s."
    if isinstance(error, GameDamaged):
        return f"⚠️ {DAMAGED_MESSAGE}"
    if isinstance(error, GameNotFound):
        return f"⚠️ {GAME_GONE}"
    if isinstance(error, DatabaseGone):  # storage logged it at CRITICAL once
        return READ_ONLY
    ref = secrets.token_hex(3).upper()
    if isinstance(error, StorageError):
        log.error("storage error (ref %s): %s", ref, error, exc_info=error)
        return f"⚠️ The game could not be saved right now, so nothing changed (ref {ref}). Please try again."
    log.error("unexpected error (ref %s)", ref, exc_info=error)
    return f"💥 Something went wrong (ref {ref}). Nothing was changed; the bot's admins can look the ref up."


async def reply_privately(interaction: discord.Interaction, text: str) -> None:
    """Send ``text`` ephemerally, whether or not the interaction was already answered. It is
    fitted to Discord's limit first: a refusal that echoes a long input must still arrive."""
    text = text_limits.fit(text)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as exc:
        if answered_too_late(exc):
            log.warning("an interaction was answered after Discord's 3 s (10062); the bot may be overloaded")
            return
        log.warning("could not deliver an error message to the user", exc_info=True)


def answered_too_late(error: BaseException) -> bool:
    """Discord refused the answer to an interaction because its 3 s had passed (10062)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    if answered_too_late(error):
        # No reply can reach the member any more (the token died with the 3 s), so none is
        # tried; and it is a load symptom, not a bug: one line, no traceback. Under overload a
        # traceback and a doomed reply per late click made the bot slower still.
        log.warning("an interaction was answered after Discord's 3 s (10062); the bot may be overloaded")
        return
    await reply_privately(interaction, user_message(error))
