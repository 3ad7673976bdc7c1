from __future__ import annotations

import pytest

from sessions import Actor, GameService
from storage import Database
from tests.storage.postgres_server import drop_database, fresh_database_url


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def database(request, tmp_path, clock):
    """An open, empty database on each backend: a SQLite file, then a fresh PostgreSQL database."""
    if request.param == "sqlite":
        async with await Database.open(tmp_path / "s.sqlite3", clock=clock) as db:
            yield db
        return
    url = await fresh_database_url()
    try:
        async with await Database.open(url, clock=clock) as db:
            yield db
    finally:
        await drop_database(url)


@pytest.fixture
async def service(database, clock):
    return GameService(database, clock=clock, seed_source=lambda: 7)


ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
CAROL = Actor(3, "carol")
ADMIN = Actor(9, "admin", is_admin=True)
