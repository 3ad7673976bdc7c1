"""Out-of-process wire test: a standalone fake Discord, a bot process, ``kill -9``, restart.

This is the path the real bot takes too (tests/wire/launch_bot.py): the bot process finds the fake through
``DT_FAKE_DISCORD_URL`` (tests/wire/patch_client.py), and the test drives the fake through
its JSON control API (``/_fake/...``). A persistent button posted before the crash must still
be answered by the restarted process.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

from tests.wire.minibot import JOIN_ID

ROOT = Path(__file__).resolve().parents[2]


async def _spawn(*args: str, env: dict[str, str], stderr_path: Path) -> asyncio.subprocess.Process:
    with stderr_path.open("ab") as stderr:
        return await asyncio.create_subprocess_exec(
            sys.executable, *args, cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=stderr
        )


async def _readline(process: asyncio.subprocess.Process, timeout: float = 15.0) -> str:
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), timeout)
    if not line:
        raise AssertionError(f"process {process.pid} exited (rc={process.returncode}) before printing")
    return line.decode().strip()


async def _poll(
    http: aiohttp.ClientSession, url: str, done: Callable[[Any], bool], timeout: float = 10.0
) -> Any:
    async with asyncio.timeout(timeout):
        while True:
            async with http.get(url) as response:
                assert response.headers["Content-Type"] == "application/json"
                data = await response.json()
            if done(data):
                return data
            await asyncio.sleep(0.05)


async def _stop(process: asyncio.subprocess.Process | None) -> None:
    if process is not None and process.returncode is None:
        process.kill()
    if process is not None:
        await process.wait()


async def test_bot_process_killed_and_restarted_answers_old_button(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    log = tmp_path / "stderr.log"
    fake = bot = None
    try:
        fake = await _spawn(
            "-m", "tests.wire.fake_discord", "--port", "0", "--member", "alice", env=env, stderr_path=log
        )
        state = json.loads(await _readline(fake))
        base = state["base_url"]
        assert base.startswith("http://127.0.0.1:")
        [(guild_id, guild)] = state["guilds"].items()
        [channel_id] = guild["channels"]
        alice_id = next(uid for uid, name in state["users"].items() if name == "alice")
        bot_env = {**env, "DT_FAKE_DISCORD_URL": base, "DT_WIRE_GUILD_ID": guild_id}

        async with aiohttp.ClientSession() as http:
            bot = await _spawn("-m", "tests.wire.minibot", env=bot_env, stderr_path=log)
            assert await _readline(bot) == "READY"

            async with http.post(
                f"{base}/_fake/interactions",
                json={
                    "kind": "slash",
                    "user_id": alice_id,
                    "channel_id": channel_id,
                    "command": "lobby",
                    "options": {"game": "flagon"},
                },
            ) as response:
                lobby = await response.json()
            lobby = await _poll(http, f"{base}/_fake/interactions/{lobby['id']}", lambda d: d["callbacks"])
            message_id = lobby["original_message"]["id"]
            assert lobby["original_message"]["content"] == "Lobby for flagon (2 seats)"

            # SIGKILL: no close frame, no cleanup; the fake only sees the TCP connection die.
            bot.send_signal(signal.SIGKILL)
            await bot.wait()
            await _poll(http, f"{base}/_fake/state", lambda d: d["connected_sessions"] == 0)

            bot = await _spawn("-m", "tests.wire.minibot", env=bot_env, stderr_path=log)
            assert await _readline(bot) == "READY"
            async with http.post(
                f"{base}/_fake/interactions",
                json={"kind": "button", "user_id": alice_id, "message_id": message_id, "custom_id": JOIN_ID},
            ) as response:
                click = await response.json()
            click = await _poll(http, f"{base}/_fake/interactions/{click['id']}", lambda d: d["callbacks"])
            assert click["callbacks"][0]["json"]["data"]["content"] == "alice joined"

            state = await _poll(http, f"{base}/_fake/state", lambda d: True)
            assert state["identifies"] == 2  # a fresh IDENTIFY, not a RESUME
            assert state["guild_commands"] == {guild_id: ["ping", "lobby", "plan", "secret", "late", "board"]}
    finally:
        await _stop(bot)
        await _stop(fake)
