from __future__ import annotations

import pytest

from bot import create_bot
from tests.doubles import tally


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "bot.sqlite3"


@pytest.fixture
def simcord_bot(db_path):
    tally.install()
    return create_bot(database_path=db_path)
