from __future__ import annotations

import pytest

from bot import create_bot
from cogs import threads
from tests.doubles import tally


@pytest.fixture(autouse=True)
def games_in_the_channel(request, monkeypatch):
    """Most bot tests follow a game played in its channel: they run as on a server where the bot
    may not make threads (the behaviour without that permission). Tests marked ``threads`` get
    the real check, so their games go to threads (the default where the bot may make them)."""
    if request.node.get_closest_marker("threads") is None:
        monkeypatch.setattr(threads, "can_make_threads", lambda bot, channel_id: False)


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "bot.sqlite3"


@pytest.fixture
def simcord_bot(db_path):
    tally.install()
    return create_bot(database_path=db_path)
