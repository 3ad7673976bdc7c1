from __future__ import annotations

import pytest

from tests.storage.postgres_server import drop_database, fresh_database_url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def database_target(request, tmp_path):
    """Where a test's database lives: a SQLite file, or a fresh PostgreSQL database (its URL)."""
    if request.param == "sqlite":
        yield tmp_path / "db.sqlite3"
        return
    url = await fresh_database_url()
    yield url
    await drop_database(url)


@pytest.fixture
async def pg_url():
    """A fresh PostgreSQL database, for tests of PostgreSQL only."""
    url = await fresh_database_url()
    yield url
    await drop_database(url)


def pytest_collection_modifyitems(items):
    """Tests on a PostgreSQL-only database carry the `postgres` marker too (-m postgres)."""
    for item in items:
        if "pg_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)
