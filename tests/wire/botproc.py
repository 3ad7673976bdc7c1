"""The real bot as a separate process against an in-test FakeDiscord (shared by the wire
tests that kill the real bot with SIGKILL and start it again).

The process is ``python -m tests.wire.launch_bot``: it points discord.py at the fake named by
``DT_FAKE_DISCORD_URL`` (tests/wire/patch_client) and then runs ``bot.main()``. It keeps its
SQLite file in the test's tmp_path (or uses ``database_url``, a PostgreSQL database several
processes share), so a restarted process sees exactly what the killed one committed. Everything
it logs (INFO) goes to one file per process name, appended across restarts.

Shards: ``shards=(ids, count)`` runs the process on those shards (SHARD_IDS / SHARD_COUNT); the
fake delivers each guild's events to its shard and DMs to shard 0, as Discord does.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import re
import signal
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.wire.fake_discord import FakeDiscord, FakeInteraction

ROOT = Path(__file__).resolve().parents[2]
# bot.py's setup_hook logs this once per start, after re-arming the stored turn timers.
PROCESS_SETTINGS = ("DATABASE_URL", "DATABASE_PATH", "SHARD_COUNT", "SHARD_IDS", "TIMER_POLL_SECONDS",
                    "GLOBAL_REQUESTS_PER_SECOND")
READY_LINE = re.compile(r"ready to serve: (\d+) games known, (\d+) timers re-armed")


class BotProcess:
    """One bot process (``bot.main()`` via tests/wire/launch_bot) that can be started, SIGKILLed
    and started again."""

    def __init__(self, fake: FakeDiscord, guild_id: int, workdir: Path, *, name: str = "bot",
                 shards: tuple[Sequence[int], int] | None = None, database_url: str | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.fake = fake
        self.name = name
        self.database_path = workdir / "bot.sqlite3"
        self.database_url = database_url
        self.log_path = workdir / f"{name}.log"
        # The gateway sessions this process opens: (shard_id, shard_count); (0, 1) unsharded.
        self.shards = [(i, shards[1]) for i in shards[0]] if shards else [(0, 1)]
        # Nothing from the test runner's environment chooses the database or the shards.
        inherited = {k: v for k, v in os.environ.items() if k not in PROCESS_SETTINGS}
        self.env = {
            **inherited,
            "PYTHONPATH": str(ROOT),
            "DT_FAKE_DISCORD_URL": fake.base_url,
            "DISCORD_TOKEN": "fake-token",
            "DEV_GUILD_ID": str(guild_id),
            "DATABASE_PATH": str(self.database_path),
            "LOG_LEVEL": "INFO",
        }
        if shards:
            self.env.update(SHARD_IDS=",".join(map(str, shards[0])), SHARD_COUNT=str(shards[1]))
        if database_url:
            self.env["DATABASE_URL"] = database_url
            self.env.pop("DATABASE_PATH")
        self.env.update(env or {})
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0
        self.kills = 0

    async def start(self, timeout: float = 20.0) -> None:
        """Spawn the process and wait until it has IDENTIFIED (READY and GUILD_CREATE follow on
        the same socket, so interactions injected afterwards reach a ready client)."""
        assert not self.connected_shards(), f"{self.name}'s shards are already connected"
        with self.log_path.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.wire.launch_bot", cwd=ROOT, env=self.env, stdout=log, stderr=log
            )
        process = self.process
        await self.fake.wait_until(
            lambda: self.connected_shards() == set(self.shards) or process.returncode is not None,
            timeout=timeout,
            what=f"the bot process {self.name} to IDENTIFY on shards {self.shards}",
        )
        assert process.returncode is None, self.log_tail()
        self.starts += 1

    async def kill(self) -> None:
        """SIGKILL: no close frame, no cleanup, no flush; wait until the fake saw the socket die."""
        assert self.process is not None and self.process.returncode is None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        self.kills += 1
        await self.fake.wait_until(lambda: not self.open_sessions(), timeout=5, what="the dead socket to close")

    def connected_shards(self) -> set[tuple[int, int]]:
        return self.fake.identified_shards() & set(self.shards)

    def open_sessions(self) -> list[Any]:
        """The fake's gateway sessions on this process's shards (identified or not: a socket
        that has not identified yet is one that no other process opened)."""
        if self.shards == [(0, 1)]:
            return list(self.fake.sessions)
        return [s for s in self.fake.sessions if s.shard in self.shards]

    async def stop(self) -> None:
        """End the process if it still runs (SIGTERM, then SIGKILL after 10 s)."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), 10)
        except TimeoutError:
            process.kill()
            await process.wait()

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def log_tail(self, chars: int = 3000) -> str:
        return self.log_text()[-chars:]

    def error_lines(self) -> list[str]:
        """ERROR / CRITICAL log lines and tracebacks (a swallowed failure shows up here)."""
        return [line for line in self.log_text().splitlines()
                if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")]

    def timers_rearmed(self) -> list[int]:
        """The "timers re-armed" count of every start so far, in order."""
        return [int(m.group(2)) for m in READY_LINE.finditer(self.log_text())]

    # -- the database the process writes (read-only from the test) ------------------------------
    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Rows of ``sql`` (``?`` placeholders) from the process's database (SQLite or PostgreSQL)."""
        if self.database_url:
            return pg_query(self.database_url, sql, *params)
        connection = sqlite3.connect(f"file:{self.database_path}?mode=ro", uri=True, timeout=5)
        try:
            return connection.execute(sql, params).fetchall()
        finally:
            connection.close()

    def execute(self, sql: str, *params: Any) -> None:
        """Write to the database: PostgreSQL at any time (a server serialises writers); a SQLite
        file only while the process is down (it owns the file otherwise)."""
        if self.database_url:
            pg_query(self.database_url, sql, *params)
            return
        assert self.process is None or self.process.returncode is not None, "the bot is running"
        connection = sqlite3.connect(self.database_path, timeout=5)
        try:
            with connection:
                connection.execute(sql, params)
        finally:
            connection.close()


def pg_query(url: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """A blocking read from PostgreSQL for test predicates (which are plain functions): asyncpg
    on a thread with its own event loop, ``?`` placeholders turned into ``$1..$n``."""
    import asyncpg  # only the PostgreSQL wire tests need it

    from storage.postgres import numbered_placeholders

    numbered = numbered_placeholders(sql)

    async def fetch() -> list[tuple[Any, ...]]:
        connection = await asyncpg.connect(url)
        try:
            return [tuple(row) for row in await connection.fetch(numbered, *params)]
        finally:
            await connection.close()

    # A short-lived thread per read: a pooled one would outlive the test session.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="wire-pg-query") as thread:
        return thread.submit(asyncio.run, fetch()).result(timeout=30)


async def wait_done(fake: FakeDiscord, interaction: FakeInteraction, *, followups: int = 0,
                    timeout: float = 10.0) -> FakeInteraction:
    """Until the bot answered ``interaction`` (its callback, plus ``followups`` followups)."""
    await interaction.wait_callback(timeout=timeout)
    if followups:
        await interaction.wait_followup(followups, timeout=timeout)
    return interaction


def custom_ids(message: dict[str, Any]) -> list[str]:
    return [item.get("custom_id", "") for row in message.get("components") or []
            for item in row.get("components", [])]


def components(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [item for row in message.get("components") or [] for item in row.get("components", [])]


def message_text(message: dict[str, Any]) -> str:
    """Content, embed titles, descriptions, fields and footers of a stored message, as one string."""
    parts = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f.get('name')}: {f.get('value')}" for f in embed.get("fields") or []]
        parts.append((embed.get("footer") or {}).get("text") or "")
    return "\n".join(p for p in parts if p)
