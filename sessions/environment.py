"""The operator's settings, read once from the environment (or .env) when the bot starts:
the token, the database, the log level, the card folder, the timer poll, the shard plan and this
process's share of Discord's global request limit.
Every refusal says what to set and where (ConfigError); bot.py turns it into a clear exit."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from sessions.cardfiles import CARDS_DIR_ENV

DEFAULT_DATABASE = "dragon_tavern.sqlite3"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
MAX_SHARDS = 1024
# Discord's global limit: 50 requests per second per bot (its token), outside interaction
# endpoints, however many processes share the token (Discord's rate-limit docs).
DISCORD_GLOBAL_LIMIT = 50.0
MAX_GLOBAL_LIMIT = 100_000.0  # Discord grants large bots more on request; anything above is a typo
SANDBOX_COMMAND = '.venv/bin/pip install -e ".[sandbox]" && .venv/bin/python bot.py --sandbox'


class ConfigError(Exception):
    """A setting is missing or wrong; the message says what to set and where."""


@dataclass(frozen=True)
class ShardPlan:
    """Which of Discord's shards this process runs: ``ids`` out of ``count`` (all of them when
    ``ids`` is None). Discord sends a guild's events to shard ``(guild_id >> 22) % count`` and
    every DM to shard 0."""

    count: int | None  # None: as many as Discord recommends (all in this process)
    ids: tuple[int, ...] | None = None

    @property
    def holds_shard_zero(self) -> bool:
        return self.ids is None or 0 in self.ids


@dataclass(frozen=True)
class BotSettings:
    token: str
    database_path: Path
    dev_guild_id: int | None
    log_level: str
    farkle_cards_dir: Path | None = None
    database_url: str | None = None  # DATABASE_URL as given (sqlite:// or postgresql://), if set
    shards: ShardPlan | None = None  # None: one process, one gateway connection (no sharding)
    timer_poll_seconds: float | None = None  # None: the default for the database (see TimerScheduler)
    # Requests per second outside interactions this process may send: its share of the global limit.
    global_requests_per_second: float = DISCORD_GLOBAL_LIMIT

    @property
    def database(self) -> str | Path:
        """What Database.open takes: the PostgreSQL URL, else the SQLite file."""
        if self.database_url and not self.database_url.startswith("sqlite://"):
            return self.database_url
        return self.database_path



def load_shards(env: dict[str, str]) -> ShardPlan | None:
    """SHARD_COUNT (a number, or ``auto``) and SHARD_IDS (a comma list) as a ShardPlan."""
    count_text = env.get("SHARD_COUNT", "").strip().lower()
    ids_text = env.get("SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT: set SHARD_COUNT to the total number of shards "
                              "across all processes (e.g. SHARD_COUNT=4 with SHARD_IDS=0,1 here and 2,3 elsewhere).")
        return None
    if count_text == "auto":
        if ids_text:
            raise ConfigError("SHARD_IDS needs a fixed SHARD_COUNT (a number), not `auto`: every process must "
                              "agree on the total.")
        return ShardPlan(count=None)
    if not count_text.isdigit() or not 1 <= int(count_text) <= MAX_SHARDS:
        raise ConfigError(f"SHARD_COUNT must be a number from 1 to {MAX_SHARDS} (or `auto`), not `{count_text[:40]}`.")
    count = int(count_text)
    if not ids_text:
        return ShardPlan(count=count)
    parts = [part.strip() for part in ids_text.split(",")]
    if not all(part.isdigit() for part in parts):
        raise ConfigError(f"SHARD_IDS must be shard numbers separated by commas (e.g. `0,1`), not `{ids_text[:80]}`.")
    ids = tuple(int(part) for part in parts)
    if len(set(ids)) != len(ids) or any(i >= count for i in ids):
        raise ConfigError(f"SHARD_IDS must name different shards from 0 to {count - 1} (SHARD_COUNT={count}), "
                          f"not `{ids_text[:80]}`.")
    return ShardPlan(count=count, ids=tuple(sorted(ids)))


def load_settings(env: dict[str, str] | None = None) -> BotSettings:
    env = dict(os.environ) if env is None else env
    token = env.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set. Put DISCORD_TOKEN=<your bot token> in a .env file in this folder "
            "(copy .env.example) or export it, then run again. To try the bot without a token first: "
            f"{SANDBOX_COMMAND}"
        )
    guild = env.get("DEV_GUILD_ID", "").strip()
    if guild and not guild.isdigit():
        raise ConfigError(f"DEV_GUILD_ID must be a server id (digits only), not `{guild}`. Leave it empty to "
                          "sync commands globally.")
    level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not `{level}`.")
    path = Path(env.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE)
    # DATABASE_URL, when set, wins over DATABASE_PATH: sqlite:///path/file.sqlite3 names the
    # file (the same as DATABASE_PATH), postgresql://user:password@host:port/name a server.
    url = env.get("DATABASE_URL", "").strip() or None
    if url is not None:
        if url.startswith("sqlite://"):
            path = Path(url.removeprefix("sqlite://"))
        elif not url.startswith(("postgresql://", "postgres://")):
            raise ConfigError("DATABASE_URL must be sqlite:///path/to/file.sqlite3 or "
                              f"postgresql://user:password@host:port/database, not `{url.split('://')[0][:20]}://…`.")
    cards = env.get(CARDS_DIR_ENV, "").strip()
    if cards and not Path(cards).is_dir():
        raise ConfigError(f"{CARDS_DIR_ENV} must name an existing folder of Dragon Farkle card files; "
                          f"`{cards[:200]}` is not one. Leave it empty to offer only the bundled house cards.")
    poll = env.get("TIMER_POLL_SECONDS", "").strip()
    try:
        poll_seconds = float(poll) if poll else None
    except ValueError:
        poll_seconds = -1.0
    if poll_seconds is not None and not 0 <= poll_seconds <= 3600:
        raise ConfigError(f"TIMER_POLL_SECONDS must be a number of seconds from 0 (never) to 3600, not `{poll[:40]}`.")
    shards = load_shards(env)
    others_run_shards = shards is not None and shards.ids is not None and len(shards.ids) < (shards.count or 0)
    if others_run_shards and (url is None or url.startswith("sqlite://")):
        # The game locks of a SQLite bot live in its process, and its storage keeps what it
        # wrote (storage.rowcache): a second process on the same file would break both.
        raise ConfigError("SHARD_IDS runs some shards here and the others in other processes, and those must share "
                          "one PostgreSQL database (a SQLite file belongs to one process). Set DATABASE_URL="
                          "postgresql://user:password@host:port/database, or leave SHARD_IDS empty to run every "
                          "shard in this process.")
    return BotSettings(token=token, database_path=path, dev_guild_id=int(guild) if guild else None,
                       log_level=level, farkle_cards_dir=Path(cards).resolve() if cards else None,
                       database_url=url, shards=shards, timer_poll_seconds=poll_seconds,
                       global_requests_per_second=load_global_share(env, shards))


def load_global_share(env: dict[str, str], shards: ShardPlan | None) -> float:
    """GLOBAL_REQUESTS_PER_SECOND, or this process's share of Discord's 50 per second by the
    shards it holds (1 of 4 shards: 12.5). Every process of a bot draws on the one global
    bucket of its token, so the shares must add up to at most the bot's limit."""
    text = env.get("GLOBAL_REQUESTS_PER_SECOND", "").strip()
    if text:
        try:
            value = float(text)
        except ValueError:
            value = -1.0
        if not 1 <= value <= MAX_GLOBAL_LIMIT:
            raise ConfigError("GLOBAL_REQUESTS_PER_SECOND must be a number of requests per second from 1 to "
                              f"{MAX_GLOBAL_LIMIT:,.0f} (this process's share of Discord's global limit, "
                              f"{DISCORD_GLOBAL_LIMIT:.0f} per bot unless Discord granted more), not `{text[:40]}`.")
        return value
    if shards is not None and shards.ids is not None and shards.count:
        return DISCORD_GLOBAL_LIMIT * len(shards.ids) / shards.count
    return DISCORD_GLOBAL_LIMIT


def database_target(value: str | Path) -> str | Path:
    """A database URL (``postgresql://...``, ``sqlite:///...``) as given, anything else as a
    path (``Path`` would fold the URL's ``//``)."""
    return value if isinstance(value, str) and "://" in value else Path(value)


def is_shared_database(target: str | Path) -> bool:
    """Several processes can share it (PostgreSQL), so each must look for timers it did not arm."""
    return isinstance(target, str) and target.startswith(("postgres://", "postgresql://"))
