"""Members' own choices (``member_prefs``, migration 005): how each wants to be told to act."""

from __future__ import annotations

from storage.backend import Table


class MemberPrefs(Table):
    async def notify(self, user_id: int) -> str:
        """How the member wants to be told they must act: 'channel' (the default), 'dm' or 'off'."""
        rows = await self._fetch("SELECT notify FROM member_prefs WHERE user_id = ?", (user_id,))
        return str(rows[0][0]) if rows else "channel"

    async def set_notify(self, user_id: int, notify: str) -> None:
        await self._run(
            "INSERT INTO member_prefs (user_id, notify) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify",
            (user_id, notify),
        )
