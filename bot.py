"""Dragon Tavern: a Discord bot hosting Dragon Farkle, The Nine Sons of the Dragon and The
Dragon & Flagon. Run ``python bot.py`` (settings from the environment or a .env file)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import discord
from discord.ext import commands

from cogs.presenter import Presenter
from cogs.router import route_notice
from engine import registry
from sessions import Actor, GameService, Outcome
from sessions.timers import TimerScheduler
from storage import Database, StorageError

log = logging.getLogger("dragon_tavern")

COGS = ("cogs.router", "cogs.games", "cogs.config")
DEFAULT_DATABASE = "dragon_tavern.sqlite3"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(Exception):
    """A setting is missing or wrong; the message says what to set and where."""


@dataclass(frozen=True)
class BotSettings:
    token: str
    database_path: Path
    dev_guild_id: int | None
    log_level: str


def load_settings(env: dict[str, str] | None = None) -> BotSettings:
    env = dict(os.environ) if env is None else env
    token = env.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set. Put DISCORD_TOKEN=<your bot token> in a .env file in this folder "
            "(copy .env.example) or export it, then run again."
        )
    guild = env.get("DEV_GUILD_ID", "").strip()
    if guild and not guild.isdigit():
        raise ConfigError(f"DEV_GUILD_ID must be a server id (digits only), not `{guild}`. Leave it empty to "
                          "sync commands globally.")
    level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not `{level}`.")
    path = Path(env.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE)
    return BotSettings(token=token, database_path=path, dev_guild_id=int(guild) if guild else None,
                       log_level=level)


def _clock() -> float:
    # discord.utils.utcnow follows a test harness's virtual time, so timers can be tested.
    return discord.utils.utcnow().timestamp()


class DragonTavern(commands.Bot):
    def __init__(self, database_path: Path, dev_guild_id: int | None = None) -> None:
        intents = discord.Intents.default()  # slash-only: no privileged intents
        # Ping nobody unless a message allows exactly whom (the Brawl defender's ping does): a
        # player named "<@id> @everyone" must never make the bot ping anyone.
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         allowed_mentions=discord.AllowedMentions.none())
        self.database_path = Path(database_path)
        self.dev_guild_id = dev_guild_id
        self.presenter = Presenter(self)
        self._db: Database | None = None
        self._service: GameService | None = None
        self._timers: TimerScheduler | None = None

    @property
    def service(self) -> GameService:
        assert self._service is not None, "setup_hook has not run"
        return self._service

    @property
    def timers(self) -> TimerScheduler:
        assert self._timers is not None, "setup_hook has not run"
        return self._timers

    async def setup_hook(self) -> None:
        registry.load_builtin_games()
        self._db = await Database.open(self.database_path, clock=_clock)
        self._service = GameService(self._db, clock=_clock)
        self._timers = TimerScheduler(self._service, self.after_change, _clock)
        for cog in COGS:
            await self.load_extension(cog)
        self.tree.on_error = self._on_tree_error
        await self._sync_commands()
        armed = await self._timers.start()
        log.info("ready to serve: %d games known, %d timers re-armed", len(registry.all_games()), armed)

    async def _sync_commands(self) -> None:
        """Sync only when the command tree changed since the last sync (Discord rate-limits it)."""
        guild = discord.Object(self.dev_guild_id) if self.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [c.to_dict(self.tree) for c in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()
        key = f"command_hash:{self.dev_guild_id or 'global'}:{self.application_id}"
        stored = await self.service.db.guild_settings(0)
        if stored.get(key) == digest:
            return
        await self.tree.sync(guild=guild)
        await self.service.db.set_guild_setting(0, key, digest)
        log.info("slash commands synced %s", f"to guild {self.dev_guild_id}" if guild else "globally")

    async def _on_tree_error(self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
                             ) -> None:
        from cogs import errors

        await errors.report(interaction, error)

    async def close(self) -> None:
        if self._timers is not None:
            self._timers.stop()
        await super().close()
        if self._db is not None:
            await self._db.close()
            self._db = None

    def stop_background_work(self) -> None:
        """Stop timers and the database thread without an event loop (test harnesses that
        discard a bot without closing it)."""
        if self._timers is not None:
            self._timers.stop()
        if self._db is not None:
            self._db.close_now()
            self._db = None

    # -- shared by the cogs ----------------------------------------------------------------
    async def after_change(self, outcome: Outcome) -> None:
        """Announce a saved outcome and follow its timer."""
        await self.presenter.show(outcome)
        await self.timers.refresh(outcome.record.id)

    async def start_game(self, game_id: int, actor: Actor) -> None:
        outcome = await self.service.start(game_id, actor)
        info = registry.get(outcome.record.kind)
        if info.game_class.HIDDEN_INFORMATION:
            outcome.events[:0] = await self._check_private_routes(outcome)
            outcome.record = await self.service.db.load_game(game_id)
        await self.after_change(outcome)

    async def _check_private_routes(self, outcome: Outcome) -> list:
        """DM every human once at the start: who can get private prompts by DM, who can't."""
        rec = outcome.record
        settings = await self.service.settings(rec.guild_id)
        info = registry.get(rec.kind)
        by_dm, by_button = [], []
        for seat in rec.seats:
            if seat.is_ai or seat.user_id is None:
                continue
            route = "ephemeral"
            if settings["hidden_pick_mode"] != "ephemeral":
                try:
                    user = self.get_user(seat.user_id) or await self.fetch_user(seat.user_id)
                    await user.send(f"🎲 You are playing **{info.title}** (game #{rec.id}) in <#{rec.channel_id}>. "
                                    "Your secret choices and hand will arrive here.")
                    route = "dm"
                except discord.Forbidden:
                    route = "ephemeral"
            await self.service.set_private_route(rec.id, seat.seat, route)
            (by_dm if route == "dm" else by_button).append(seat.seat)
        return route_notice(by_dm, by_button)


def create_bot(*, database_path: str | Path = DEFAULT_DATABASE, dev_guild_id: int | None = None) -> DragonTavern:
    """A new, unstarted bot (tests build a fresh one for every start)."""
    return DragonTavern(Path(database_path), dev_guild_id)


async def _check_database(path: Path) -> None:
    db = await Database.open(path)
    await db.close()


def main() -> int:
    try:
        from dotenv import find_dotenv, load_dotenv

        load_dotenv(find_dotenv(usecwd=True))  # the .env of the folder the bot is started from
        settings = load_settings()
    except ConfigError as exc:
        print(f"dragon-tavern: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if os.environ.get("DT_FAKE_DISCORD_URL"):
        # Test harness only (tests/wire): talk to a loopback fake Discord instead of the real one.
        from tests.wire.patch_client import point_discord_from_env

        point_discord_from_env()
    try:
        # Check the database before connecting: a corrupt or too-new file is refused at once.
        asyncio.run(_check_database(settings.database_path))
    except StorageError as exc:
        print(f"dragon-tavern: {exc}", file=sys.stderr)
        return 2
    bot = create_bot(database_path=settings.database_path, dev_guild_id=settings.dev_guild_id)
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print("dragon-tavern: Discord refused DISCORD_TOKEN. Copy the token again from the Developer Portal "
              "(Bot -> Reset Token) into .env.", file=sys.stderr)
        return 2
    except StorageError as exc:
        print(f"dragon-tavern: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
