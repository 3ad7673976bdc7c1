from __future__ import annotations

import pytest

from bot import create_bot


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "fuzz.sqlite3"


@pytest.fixture
def simcord_bot(db_path):
    return create_bot(database_path=db_path)
