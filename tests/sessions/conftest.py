from __future__ import annotations

import pytest

from sessions import Actor, GameService
from storage import Database


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
async def service(tmp_path, clock):
    async with await Database.open(tmp_path / "s.sqlite3", clock=clock) as db:
        yield GameService(db, clock=clock, seed_source=lambda: 7)


ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
CAROL = Actor(3, "carol")
ADMIN = Actor(9, "admin", is_admin=True)
