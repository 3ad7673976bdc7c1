"""The board moves to a live ``/play`` (issue 25): Discord counts a channel edit of the board
against the bot's global limit of 50 requests/s; an interaction's own webhook is outside it.
A click on the board carries its edits for 14 minutes (cogs.carrier), but a game played by
``/play`` only has no click on the board, and a ``/play``'s webhook can edit only the messages
it created. So when a change must edit the board, no live interaction can, and it was caused by
an interaction in the game's channel (or thread) that can send followups (a ``/play``, a pick in
an ephemeral prompt there), the board is posted again as that interaction's followup instead:

1. the new board is sent as a followup (an interaction endpoint);
2. in one transaction it becomes the game's board, and the old board's id is noted to delete
   (storage.old_boards), before anything is said about it (the ping links the new board);
3. the interaction's webhook edits the new board from now on, whoever causes the change (a
   timer, a plan chosen in a DM), while its token lives (LiveInteractions.adopt);
4. the old board is deleted through its channel: one request, instead of one per change for
   the next 14 minutes. A delete that failed is retried at the game's next delivery, and a
   restart finishes the deletes a crash left.

Never on a click made on the board itself (its response carries the board for free), nor for a
change with no interaction (a timer), nor for the change that ends the game (its one edit costs
what the delete would). A kill between Discord's answer to the followup and step 2 leaves one
extra board (as a ping in the same window): its controls name the game and its version, so
they act on the right game, and are refused as out of date after the next change.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from cogs.carrier import Carrier, LiveInteractions
from sessions.snapshot import Snapshot

if TYPE_CHECKING:
    from bot import DragonTavern

log = logging.getLogger("dragon_tavern.cogs.board_hop")

NOBODY = discord.AllowedMentions.none()  # the board names players; only the ping notifies


def may_move(snap: Snapshot, carrier: Carrier | None, board_carrier: Carrier | None) -> bool:
    """Whether this change's board edit moves the board to ``carrier``'s followup: no live
    interaction can edit the board (``board_carrier`` is None), the game goes on, and
    ``carrier`` is not a click on the board but can send a followup where the board is."""
    rec = snap.record
    return (
        board_carrier is None
        and carrier is not None
        and snap.game is not None
        and rec.status == "active"
        and rec.board_message_id is not None
        and carrier.original_message_id() != rec.board_message_id
        and carrier.carries_ping(rec.table_channel_id)
    )


class BoardHop:
    def __init__(self, bot: DragonTavern, live: LiveInteractions) -> None:
        self.bot = bot
        self.live = live
        # Games whose old board's delete failed: retried at their next delivery (the rows stay,
        # so a restart retries too).
        self.behind: set[int] = set()

    async def move(self, snap: Snapshot, carrier: Carrier) -> bool:
        """Post the board as ``carrier``'s followup, make it the game's board and delete the
        old one. False when the followup could not be sent: the old board is then edited."""
        rec = snap.record
        old = rec.board_message_id
        assert old is not None, "may_move: the game has a board"
        message, picture = await self.bot.presenter.new_board_message(snap)
        files = message.pop("attachments")
        fields = {k: v for k, v in message.items() if v is not None}
        followup = carrier.interaction.followup
        try:
            sent = await followup.send(**fields, files=files, allowed_mentions=NOBODY, wait=True)
        except discord.HTTPException:
            carrier.broken = True  # its token was refused: not tried again (cogs.carrier)
            log.info(
                "game %s: the interaction's token could not post the board; editing it in the channel", rec.id
            )
            return False
        try:
            await self.bot.db.old_boards.move(rec.id, sent.id, (rec.table_channel_id, old))
        except Exception:
            # Not saved as the board: take it back, or the channel would show two boards.
            with contextlib.suppress(discord.HTTPException):
                await followup.delete_message(sent.id)
            raise
        rec.board_message_id = sent.id
        self.bot.presenter.posted(sent, picture)
        self.live.adopt(sent.id, carrier)
        log.debug("game %s: the board moved from message %s to %s", rec.id, old, sent.id)
        await self.delete_old(rec.id)
        return True

    async def catch_up(self, game_id: int) -> None:
        """At a delivery: retry the old boards whose delete failed before (memory only)."""
        if game_id in self.behind:
            self.behind.discard(game_id)
            await self.delete_old(game_id)

    async def delete_old(self, game_id: int) -> None:
        """Delete the game's old boards (noted by storage.old_boards.move)."""
        for channel_id, message_id in await self.bot.db.old_boards.of_game(game_id):
            await self._delete(game_id, channel_id, message_id)

    async def delete_all_old(self) -> int:
        """At start-up: finish the deletes a crash or a failure left. Returns how many were due."""
        try:
            waiting = await self.bot.db.old_boards.waiting()
            for game_id, channel_id, message_id in waiting:
                await self._delete(game_id, channel_id, message_id)
        except Exception:
            log.exception("deleting the old boards left from before the restart failed")
            return 0
        return len(waiting)

    async def _delete(self, game_id: int, channel_id: int, message_id: int) -> None:
        # Through its channel: the old board's own token, if it had one, is dead (may_move).
        # By id: the game's server may be on another shard.
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            with contextlib.suppress(discord.NotFound, discord.Forbidden):  # gone already, or its channel
                await message.delete()
        except discord.HTTPException:
            log.warning("game %s: deleting its old board failed; retried later", game_id, exc_info=True)
            self.behind.add(game_id)
            return
        await self.bot.db.old_boards.drop(game_id, message_id)
