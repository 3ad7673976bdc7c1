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
