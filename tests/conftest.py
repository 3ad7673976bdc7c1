from __future__ import annotations

import pytest

from tests.doubles import tally
from tests.storage.postgres_server import drop_database, fresh_database_url


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        # Tests on a PostgreSQL-only database carry the `postgres` marker too (-m postgres).
        if "pg_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)


@pytest.fixture(autouse=True, scope="session")
def _register_test_double() -> None:
    tally.install()



@pytest.fixture(autouse=True)
def _stop_started_bots(monkeypatch):
    """simcord detaches a bot without calling ``bot.close()``, so each bot started in a test is
    stopped here: an open aiosqlite worker thread would keep pytest from ever exiting."""
    from bot import DragonTavern

    started: list[DragonTavern] = []
    original = DragonTavern.setup_hook

    async def recording_setup_hook(self: DragonTavern) -> None:
        started.append(self)
        await original(self)

    monkeypatch.setattr(DragonTavern, "setup_hook", recording_setup_hook)
    yield
    for bot in started:
        bot.stop_background_work()


@pytest.fixture
async def pg_url():
    """A fresh PostgreSQL database, for tests of PostgreSQL only."""
    url = await fresh_database_url()
    yield url
    await drop_database(url)


def pytest_sessionfinish(session, exitstatus):
    """Fail loudly instead of hanging if something still holds a non-daemon thread."""
    import threading

    others = [t for t in threading.enumerate() if not t.daemon and t is not threading.main_thread()]
    for thread in others:
        thread.join(timeout=2)
    alive = [t.name for t in others if t.is_alive()]
    if alive:
        print(f"\nthreads still running at the end of the session: {alive}")
