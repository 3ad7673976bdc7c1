"""Opening a member's DM by their id alone: no ``GET /users/{id}`` on the way.

discord.py's ``User.send`` needs a User (the member cache, else a ``GET /users/{id}``) and then
opens the DM channel (``POST /users/@me/channels``) whenever that User has none cached. A DM
channel's id never changes, so it is kept per user: from the seat messages already stored
(cogs.seat_messages notes each one), else opened once per process.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from cogs.recent import RecentMap

if TYPE_CHECKING:
    from bot import DragonTavern


DM_CHANNELS_KEPT = 100_000  # two ints a member: a few MiB at most


class DirectMessages:
    def __init__(self, bot: DragonTavern) -> None:
        self.bot = bot
        # user id -> their DM channel's id, for the most recent members (an older one costs one
        # POST /users/@me/channels again): like every per-member map here, it must not only grow
        self._channels: RecentMap[int, int] = RecentMap(DM_CHANNELS_KEPT)

    def remember(self, user_id: int, channel_id: int) -> None:
        """``channel_id`` is ``user_id``'s DM channel (read from a stored seat message)."""
        self._channels[user_id] = channel_id

    async def channel_id(self, user_id: int) -> int:
        known = self._channels.get(user_id)
        if known is None:
            user = self.bot.get_user(user_id)
            if user is not None and user.dm_channel is not None:
                known = user.dm_channel.id
            else:
                known = int((await self.bot.http.start_private_message(user_id))["id"])
            self._channels[user_id] = known
        return known

    async def send(self, user_id: int, **message: Any) -> discord.Message:
        """Send ``message`` to ``user_id``'s DMs (raises discord.Forbidden when they are closed)."""
        channel = self.bot.get_partial_messageable(
            await self.channel_id(user_id), type=discord.ChannelType.private
        )
        return await channel.send(**message)
