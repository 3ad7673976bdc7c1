"""Starting the bot: clear messages for missing or bad settings, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sessions.environment import ConfigError, load_settings

ROOT = Path(__file__).resolve().parents[2]


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``python bot.py`` from ``tmp_path``; with DT_FAKE_DISCORD_URL, the wire harness's launcher
    instead (``python -m tests.wire.launch_bot``: the same ``bot.main()``, pointed at the fake)."""
    clean = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DEV_GUILD_ID", "LOG_LEVEL",
                                                              "DATABASE_PATH", "DT_FAKE_DISCORD_URL")}
    clean.update(env)
    if "DT_FAKE_DISCORD_URL" in env:
        clean["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), clean.get("PYTHONPATH", "")) if p)
        command = [sys.executable, "-m", "tests.wire.launch_bot"]
    else:
        command = [sys.executable, str(ROOT / "bot.py")]
    return subprocess.run(command, cwd=tmp_path, env=clean, capture_output=True, text=True, timeout=60)


def test_missing_token_prints_one_clear_line_and_exits_non_zero(tmp_path):
    done = run_bot(tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN is not set" in lines[0] and ".env" in lines[0]
    # the next step for someone who has no token yet: the sandbox, and how to install it
    assert 'pip install -e ".[sandbox]"' in lines[0] and "bot.py --sandbox" in lines[0]
    assert "Traceback" not in done.stderr + done.stdout


def test_bad_settings_are_explained(tmp_path):
    done = run_bot(tmp_path, DISCORD_TOKEN="x", DEV_GUILD_ID="my-server")
    assert done.returncode == 2 and "DEV_GUILD_ID must be a server id" in done.stderr
    assert "Traceback" not in done.stderr
    done = run_bot(tmp_path, DISCORD_TOKEN="x", LOG_LEVEL="loud")
    assert done.returncode == 2 and "LOG_LEVEL must be one of" in done.stderr


def test_token_from_a_dotenv_file_is_read(tmp_path):
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nLOG_LEVEL=verbose\n")
    done = run_bot(tmp_path)
    # The token was found (no "not set"), and the bad LOG_LEVEL in the same file is reported.
    assert "DISCORD_TOKEN is not set" not in done.stderr and "LOG_LEVEL must be one of" in done.stderr


def test_defaults():
    settings = load_settings({"DISCORD_TOKEN": "t"})
    assert settings.database_path == Path("dragon_tavern.sqlite3")
    assert settings.dev_guild_id is None and settings.log_level == "INFO"
    with pytest.raises(ConfigError):
        load_settings({})


def test_a_corrupt_database_is_refused_at_start_with_a_clear_message(tmp_path):
    db = tmp_path / "games.sqlite3"
    db.write_bytes(b"garbage" * 1000)
    done = run_bot(tmp_path, DISCORD_TOKEN="x", DATABASE_PATH=str(db))
    assert done.returncode == 2
    assert "is not a SQLite database" in done.stderr and "Traceback" not in done.stderr
    assert db.read_bytes() == b"garbage" * 1000
