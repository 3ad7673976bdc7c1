"""Server settings as stored (``guild_settings``: one JSON value per server and key). What
the settings are, their defaults and checks, is sessions.settings's."""

from __future__ import annotations

import json
from typing import Any

from storage.backend import Table


class SettingsTable(Table):
    async def of_guild(self, guild_id: int) -> dict[str, Any]:
        """The server's stored settings (key -> value); guild 0 holds the bot-wide ones."""
        rows = await self._fetch("SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return {r["key"]: json.loads(r["value"]) for r in rows}

    async def set(self, guild_id: int, key: str, value: Any) -> None:
        await self._run(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
            (guild_id, key, json.dumps(value)),
        )

    async def reset(self, guild_id: int, key: str) -> None:
        """Back to the default: the stored value is dropped."""
        await self._run("DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))
