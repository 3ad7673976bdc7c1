"""A throw-away PostgreSQL server for the tests, and one fresh database per test.

The server starts once per test run, on first use: initdb into a temporary folder, pg_ctl start
on a free loopback port with its socket in that folder, durability off (the data is thrown
away). PostgreSQL refuses to run as root, so as root (CI) the commands run as the `postgres`
system user. DT_TEST_POSTGRES_URL=postgresql://... uses a running server instead. Each test gets
a database copied from a migrated template (CREATE DATABASE ... TEMPLATE), so tests never see
each other's rows. The server is stopped when the test process exits.

When no server can be started, PostgreSQL cases skip with the reason; under CI (the CI
environment variable set) they fail instead, so a CI run never passes without them.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

TEMPLATE = "dt_template"
_BIN_FOLDERS = ["/usr/local/bin", *sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]


@dataclass
class PostgresServer:
    base_url: str  # without a database name: postgresql://user@host:port
    template_ready: bool = False

    def url(self, database: str) -> str:
        return f"{self.base_url}/{database}"


_server: PostgresServer | None = None
_failure: str | None = None
_names = itertools.count(1)


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    for folder in _BIN_FOLDERS:
        candidate = Path(folder) / name
        if candidate.is_file():
            return str(candidate)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start() -> PostgresServer:
    external = os.environ.get("DT_TEST_POSTGRES_URL", "").strip()
    if external:
        return PostgresServer(external.rstrip("/"))
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if initdb is None or pg_ctl is None:
        raise RuntimeError(
            "PostgreSQL's initdb/pg_ctl were not found (install PostgreSQL 15 or set DT_TEST_POSTGRES_URL)"
        )
    as_user: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="dt-pg-"))
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: run it as the postgres user
        runuser = shutil.which("runuser")
        if runuser is None:
            raise RuntimeError("running as root and `runuser` is missing to start PostgreSQL as `postgres`")
        as_user = [runuser, "-u", "postgres", "--"]
        shutil.chown(folder, "postgres")
    data, port = folder / "data", _free_port()

    def run(*command: str) -> None:
        done = subprocess.run([*as_user, *command], capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise RuntimeError(
                f"{Path(command[0]).name} failed: {(done.stderr or done.stdout).strip()[-500:]}"
            )

    run(initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
    options = (
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off "
        "-c full_page_writes=off -c max_connections=300"
    )
    run(pg_ctl, "-D", str(data), "-o", options, "-l", str(folder / "server.log"), "-w", "start")

    def stop() -> None:
        subprocess.run(
            [*as_user, pg_ctl, "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
            timeout=60,
            check=False,
        )
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(stop)
    return PostgresServer(f"postgresql://postgres@127.0.0.1:{port}")


def start_server() -> PostgresServer:
    """The run's server, started on first call (stopped when the process exits); RuntimeError
    saying why when none can be started (the scale bench's several bot processes need one)."""
    global _server, _failure
    if _server is None and _failure is None:
        try:
            _server = _start()
        except (OSError, RuntimeError, subprocess.SubprocessError, KeyError, LookupError) as exc:
            _failure = str(exc)
    if _server is None:
        raise RuntimeError(f"no PostgreSQL server: {_failure}")
    return _server


def server() -> PostgresServer:
    """The test run's server (started on first call), or skip (locally) / fail (CI) saying why."""
    with contextlib.suppress(RuntimeError):
        start_server()
    if _server is None:
        reason = f"no PostgreSQL server for the tests: {_failure}"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return _server


async def fresh_database_url() -> str:
    """A new, migrated, empty database on the test server; returns its URL."""
    import asyncpg

    from storage import Database

    pg = server()
    if not pg.template_ready:
        admin = await asyncpg.connect(pg.url("postgres"))
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {TEMPLATE} WITH (FORCE)")
            await admin.execute(f"CREATE DATABASE {TEMPLATE}")
        finally:
            await admin.close()
        async with await Database.open(pg.url(TEMPLATE)):
            pass  # migrated once; every test's database is a copy
        pg.template_ready = True
    name = f"dt_{os.getpid()}_{next(_names)}"
    admin = await asyncpg.connect(pg.url("postgres"))
    try:
        await admin.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
    finally:
        await admin.close()
    return pg.url(name)


async def drop_database(url: str) -> None:
    import asyncpg

    pg = server()
    name = url.rsplit("/", 1)[-1]
    with contextlib.suppress(OSError, asyncpg.PostgresError):
        admin = await asyncpg.connect(pg.url("postgres"))
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await admin.close()
