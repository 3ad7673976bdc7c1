"""Games played in threads: one channel hosts many tables (issue 27; the server setting
``game_threads``, on by default).

A lobby opens in the channel as before. When its game starts, a public thread is made from
the lobby message, so that message stays in the channel as the game's sign and Discord shows
its thread under it; the sign says the game is played there. The board, the turn pings and the
Recent lines live in the thread; the game's end notice goes to the channel, the sign says it
ended, and the thread is archived. The thread's id is saved with the game (migration 008), so
commands typed in the thread and a restart keep finding it.

A thread made from a message has that message's id (Discord documents it), so the sign is
found by the thread id. Without the permissions (Create Public Threads and Send Messages in
Threads), in a thread itself, or when the thread cannot be made, the game is played in the
channel as before.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord

from engine import registry
from render import text
from storage import GameRecord

if TYPE_CHECKING:
    from bot import DragonTavern

log = logging.getLogger("dragon_tavern.cogs.threads")

ARCHIVE_AFTER_MINUTES: Literal[10080] = (
    10080  # Discord's longest: a slow game's thread is not archived under it
)
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")


def can_make_threads(bot: DragonTavern, channel_id: int) -> bool:
    """The bot may play games in threads of this channel: a server text channel (not a thread,
    a forum or a DM) where it holds THREAD_PERMISSIONS. A channel this process does not know
    (another shard's) answers no: the game is then played in the channel, as before threads."""
    channel = bot.get_channel(channel_id)
    if not isinstance(channel, discord.TextChannel):
        return False
    allowed = channel.permissions_for(channel.guild.me)
    return all(getattr(allowed, name) for name in THREAD_PERMISSIONS)


def played_in_thread(rec: GameRecord) -> bool:
    return rec.thread_id is not None and rec.thread_id != rec.channel_id


class Tables:
    """Opens a starting game's thread and closes it at the end (called by cogs.outbox)."""

    def __init__(self, bot: DragonTavern) -> None:
        self.bot = bot

    async def open_thread(self, rec: GameRecord) -> GameRecord:
        """If the game has just started and is to be played in a thread: make its thread from the
        lobby message and play there (or in the channel when that fails). Saved before anything
        is posted for the game, so it is done once; the record as it is then."""
        if not rec.in_thread or rec.thread_id is not None or rec.state is None:
            return rec
        channel = self.bot.get_partial_messageable(rec.channel_id)
        title = registry.get(rec.kind).title
        thread_id = rec.channel_id
        if rec.board_message_id is not None:
            try:
                # By ids (the HTTP call behind Message.create_thread): this process may not have the
                # game's server cached (a DM click reaches shard 0's process).
                thread = await self.bot.http.start_thread_with_message(
                    rec.channel_id,
                    rec.board_message_id,
                    name=text.fit(f"{title} #{rec.id}", 100),
                    auto_archive_duration=ARCHIVE_AFTER_MINUTES,
                )
                thread_id = int(thread["id"])
            except discord.HTTPException as exc:  # permissions changed since the lobby opened, etc.
                log.warning("game %s: no thread could be made (%s); it is played in its channel", rec.id, exc)
        await self.bot.db.games.set_thread(rec.id, thread_id)
        rec.thread_id = thread_id
        if played_in_thread(rec):
            assert rec.board_message_id is not None
            with contextlib.suppress(discord.HTTPException):  # the sign is a courtesy; the thread is made
                await channel.get_partial_message(rec.board_message_id).edit(**self.sign(rec, ended=False))
            await self.bot.db.games.set_board_message(rec.id, None)  # the board is posted in the thread
            rec.board_message_id = None
            log.info("game %s is played in thread %s", rec.id, thread_id)
        return rec

    async def close_thread(self, rec: GameRecord) -> None:
        """The game ended: its sign in the channel says so, and its thread is archived."""
        if not played_in_thread(rec):
            return
        assert rec.thread_id is not None
        channel = self.bot.get_partial_messageable(rec.channel_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(rec.thread_id).edit(**self.sign(rec, ended=True))
        try:
            await self.bot.http.edit_channel(rec.thread_id, archived=True)  # by id, like the making
        except discord.HTTPException as exc:  # Discord archives it after ARCHIVE_AFTER_MINUTES anyway
            log.info("game %s: its thread could not be archived (%s)", rec.id, exc)

    @staticmethod
    def sign(rec: GameRecord, *, ended: bool) -> dict[str, Any]:
        """The lobby message once its game is played in a thread: who plays, and where."""
        info = registry.get(rec.kind)
        players = ", ".join(text.seat_names(rec.seats).values())
        if ended:
            what = (
                f"This game has ended: the result is below, and its final board (with 🔁 Rematch "
                f"and 🎞 Replay) is in <#{rec.thread_id}>."
            )
        else:
            what = f"▶ Played in its thread <#{rec.thread_id}>: the board, the turns and the moves are there."
        embed = discord.Embed(
            title=f"{info.emoji} {info.title} — game #{rec.id}",
            colour=discord.Colour.dark_grey() if ended else discord.Colour.dark_green(),
            description=f"{what}\nPlayers: {players}",
        )
        return text.fit_message({"content": None, "embed": embed, "view": None, "attachments": []})


__all__ = ["THREAD_PERMISSIONS", "Tables", "can_make_threads", "played_in_thread"]
