"""DATABASE_URL in the bot's settings (DATABASE_PATH keeps working)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessions.environment import ConfigError, load_settings


def test_database_path_alone_still_names_the_sqlite_file():
    settings = load_settings({"DISCORD_TOKEN": "x", "DATABASE_PATH": "games.sqlite3"})
    assert settings.database == Path("games.sqlite3") and settings.database_url is None


def test_a_sqlite_url_names_the_file_and_a_postgres_url_the_server():
    settings = load_settings({"DISCORD_TOKEN": "x", "DATABASE_URL": "sqlite:///srv/dt/games.sqlite3"})
    assert settings.database == settings.database_path == Path("/srv/dt/games.sqlite3")
    url = "postgresql://tavern:secret@db.internal:5432/tavern"
    settings = load_settings({"DISCORD_TOKEN": "x", "DATABASE_URL": url, "DATABASE_PATH": "ignored.sqlite3"})
    assert settings.database == url


def test_another_kind_of_url_is_refused():
    with pytest.raises(ConfigError, match="DATABASE_URL must be"):
        load_settings({"DISCORD_TOKEN": "x", "DATABASE_URL": "mysql://x/y"})
