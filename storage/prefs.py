"""Members' own choices (``member_prefs``, migration 005): how each wants to be told to act."""

from __future__ import annotations

from collections.abc import Callable

from storage.backend import Backend, Table
from storage.kept import KeptRows

# Members whose choice is kept when this process alone writes the database (storage.kept): a
# delivery asks it for every member it pings.
KEPT = 16384


class MemberPrefs(Table):
    def __init__(self, backend: Backend, clock: Callable[[], float]) -> None:
        super().__init__(backend, clock)
        self._notify: KeptRows[int, str] = KeptRows(KEPT if backend.exclusive else 0)

    async def notify(self, user_id: int) -> str:
        """How the member wants to be told they must act: 'channel' (the default), 'dm' or 'off'."""
        return await self._notify.get(user_id, lambda: self._read_notify(user_id))

    async def set_notify(self, user_id: int, notify: str) -> None:
        await self._notify.put(user_id, notify, lambda: self._write_notify(user_id, notify))

    async def _read_notify(self, user_id: int) -> str:
        rows = await self._fetch("SELECT notify FROM member_prefs WHERE user_id = ?", (user_id,))
        return str(rows[0][0]) if rows else "channel"

    async def _write_notify(self, user_id: int, notify: str) -> None:
        await self._run(
            "INSERT INTO member_prefs (user_id, notify) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify",
            (user_id, notify),
        )
