"""Fixtures for loopback wire tests: a running FakeDiscord and a helper to run a bot against it;
for the two-process tests, a throw-away PostgreSQL server and one fresh database per test."""

from __future__ import annotations

import asyncio
import glob
import importlib.util
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.wire.fake_discord import FakeDiscord
from tests.wire.patch_client import point_discord_at, restore_real_discord

# Short heartbeats so the heartbeat test does not wait 41 s; harmless for the others.
HEARTBEAT_MS = 250
# PostgreSQL's binaries (initdb, pg_ctl): PG_BIN, else this image's /usr/local/bin, else Debian's.
PG_BIN = next((Path(folder) for folder in [os.environ.get("PG_BIN", ""), "/usr/local/bin",
                                            *sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]
               if folder and (Path(folder) / "initdb").exists()), Path("/usr/local/bin"))
PG_USER = "postgres"  # PostgreSQL refuses to run as root: as root, the server runs as this user


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(heartbeat_interval_ms=HEARTBEAT_MS) as server:
        point_discord_at(server.base_url)
        try:
            yield server
        finally:
            restore_real_discord()


def _unavailable(reason: str) -> None:
    """Locally a PostgreSQL test skips with the reason; in CI (CI set) it fails instead."""
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL wire tests cannot run in CI: {reason}")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_server_user(*command: str) -> list[str]:
    if os.geteuid() != 0:
        return list(command)
    return ["runuser", "-u", PG_USER, "--", *command]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A throw-away PostgreSQL (initdb in /tmp, trust auth, loopback, fsync off) for the whole
    run; yields its base URL (no database name). Stopped and deleted at the end."""
    if importlib.util.find_spec("asyncpg") is None:
        _unavailable("asyncpg is not installed")
    if importlib.util.find_spec("storage.postgres") is None:
        _unavailable("the storage layer has no PostgreSQL backend (storage/postgres.py) yet")
    if not (PG_BIN / "initdb").exists():
        _unavailable(f"no PostgreSQL binaries in {PG_BIN} (set PG_BIN)")
    root = Path(tempfile.mkdtemp(prefix="dt-wire-pg-", dir="/tmp"))
    data, port = root / "data", _free_port()
    try:
        if os.geteuid() == 0:
            shutil.chown(root, user=PG_USER)
        subprocess.run(_as_server_user(str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres",
                                       "--auth=trust", "-E", "UTF8", "--no-sync"),
                       check=True, capture_output=True, timeout=120)
        options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        subprocess.run(_as_server_user(str(PG_BIN / "pg_ctl"), "-D", str(data), "-o", options, "-l",
                                       str(root / "server.log"), "-w", "-t", "60", "start"),
                       check=True, capture_output=True, timeout=90)
    except (OSError, subprocess.SubprocessError) as exc:
        shutil.rmtree(root, ignore_errors=True)
        detail = getattr(exc, "stderr", b"") or b""
        _unavailable(f"could not start PostgreSQL: {exc} {detail.decode(errors='replace')[:300]}")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run(_as_server_user(str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"),
                       capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def database_url(postgres_server: str) -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test (dropped afterwards)."""
    import asyncpg

    name = f"wire_{secrets.token_hex(6)}"

    async def admin(sql: str) -> None:
        connection = await asyncpg.connect(f"{postgres_server}/postgres")
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    asyncio.run(admin(f"CREATE DATABASE {name}"))
    try:
        yield f"{postgres_server}/{name}"
    finally:
        asyncio.run(admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
