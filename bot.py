"""Dragon Tavern: a Discord bot hosting Dragon Farkle, The Nine Sons of the Dragon and The
Dragon & Flagon. Run ``python bot.py`` (settings from the environment or a .env file), or
``python bot.py --sandbox`` to try it without a token in a simulated server (cogs/sandbox.py)."""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from cogs import errors
from cogs.announcer import Announcer
from cogs.dms import DirectMessages
from cogs.gifs import ReplayGifs
from cogs.outbox import Outbox
from cogs.pacing import DOCUMENTED_GLOBAL_LIMIT, HEADROOM, GlobalPacer
from cogs.plugins import load_plugins
from cogs.presenter import Presenter
from cogs.requests import RequestLedger
from engine import registry
from sessions import GameService
from sessions.collector import freeze_startup_objects, tune_collector
from sessions.environment import (
    DEFAULT_DATABASE,
    LOG_LEVELS,
    ConfigError,
    ShardPlan,
    database_target,
    is_shared_database,
    load_settings,
)
from sessions.heavywork import HeavyWork
from sessions.timers import TimerScheduler
from storage import Database, StorageError

log = logging.getLogger("dragon_tavern.bot")

# rules, ratings and replay join games' /game group
EXTENSIONS = ("cogs.router", "cogs.games", "cogs.rules", "cogs.ratings", "cogs.replay", "cogs.config")
# How often a process sharing its database looks for due timers it did not arm (another
# process armed them and died); TIMER_POLL_SECONDS overrides it.
TIMER_POLL_SECONDS = 5.0


def _clock() -> float:
    # discord.utils.utcnow follows a test harness's virtual time, so timers can be tested.
    return discord.utils.utcnow().timestamp()


class DragonTavern(commands.Bot):
    """Wiring only: storage, the session service, timers and the cogs. Cogs reach every
    service through the typed properties below (``bot.service``, ``bot.db``, ``bot.timers``,
    ``bot.announcer``) and the attributes set here (``bot.presenter``, ``bot.outbox``,
    ``bot.dms``), never by importing this module at run time. What follows a saved change
    lives in cogs.announcer (Discord-side) and sessions (Discord-free)."""

    def __init__(
        self, database_path: str | Path, dev_guild_id: int | None = None, farkle_cards_dir: Path | None = None,
        *, shards: ShardPlan | None = None, timer_poll_seconds: float | None = None,
        global_requests_per_second: float = DOCUMENTED_GLOBAL_LIMIT,
    ) -> None:
        # A board-game bot joins no voice channel: discord.py's warnings about voice libraries
        # at start-up would only confuse an operator.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.default()  # slash-only: no privileged intents
        # Ping nobody unless a message allows exactly whom (the Brawl defender's ping does): a
        # player named "<@id> @everyone" must never make the bot ping anyone.
        shard_options: dict[str, Any] = {}
        if shards is not None:
            shard_options = {"shard_count": shards.count, "shard_ids": list(shards.ids) if shards.ids else None}
        # Invalid requests to Discord counted, and ones that cannot succeed not repeated (cogs.requests).
        # Paced at this process's share of the bot's global limit (the processes share one bucket).
        self.requests = RequestLedger(pacer=GlobalPacer(global_requests_per_second))
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         allowed_mentions=discord.AllowedMentions.none(), http_trace=self.requests.trace_config(),
                         **shard_options)
        self.database_path = database_target(database_path)
        self.shards_held = shards
        if timer_poll_seconds is None:
            timer_poll_seconds = TIMER_POLL_SECONDS if is_shared_database(self.database_path) else 0.0
        self.timer_poll_seconds = timer_poll_seconds
        self.dev_guild_id = dev_guild_id
        self.farkle_cards_dir = farkle_cards_dir
        # How the bot waits for a deadline (turn and lobby timers, delivery retries). A test
        # harness with virtual time replaces it before the start, as it replaces the clock.
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        self.presenter = Presenter(self)
        self.dms = DirectMessages(self)
        self.outbox = Outbox(self)
        # Heavy optional work never shares the default thread pool, which AI moves, hints and
        # board pictures use (sessions.heavywork): replay GIFs (seconds each) are drawn in a
        # process of their own; rating charts and replay exports (tens of milliseconds, the
        # same one kept) share a thread.
        self.gifs = ReplayGifs()
        self.side_work = HeavyWork("side", workers=1, max_jobs=8, keep_bytes=4 * 1024 * 1024, processes=False)
        self._db: Database | None = None
        self._service: GameService | None = None
        self._timers: TimerScheduler | None = None

    @property
    def service(self) -> GameService:
        assert self._service is not None, "setup_hook has not run"
        return self._service

    @property
    def db(self) -> Database:
        """Storage: what the Discord layer reads and notes (games, outbox progress, pings, seat messages)."""
        assert self._db is not None, "setup_hook has not run"
        return self._db

    @property
    def announcer(self) -> Announcer:
        """What follows a saved change on Discord (the Announcer cog setup_hook adds)."""
        cog = self.get_cog("Announcer")
        assert isinstance(cog, Announcer), "setup_hook has not run"
        return cog

    @property
    def timers(self) -> TimerScheduler:
        assert self._timers is not None, "setup_hook has not run"
        return self._timers

    async def setup_hook(self) -> None:
        self.requests.install(self.http)
        load_plugins()
        self._db = await Database.open(self.database_path, clock=_clock)
        self._service = GameService(self._db, clock=_clock, cards_dir=self.farkle_cards_dir)
        # The announcer is added as a cog (not loaded as an extension, which would import
        # cogs.announcer afresh): the other cogs and the timers call into it.
        announcer = Announcer(self)
        await self.add_cog(announcer)
        self._timers = TimerScheduler(self._service, announcer.after_timer, _clock, poll_seconds=self.timer_poll_seconds,
                                      sleep=self.sleep)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.tree.error(errors.report)
        await self._sync_commands()
        armed = await announcer.start()
        log.info("ready to serve: %d games known, %d timers re-armed", len(registry.all_games()), armed)

    async def _sync_commands(self) -> None:
        """Sync only when the command tree changed since the last sync (Discord rate-limits it),
        and only from the process that holds shard 0 (commands belong to the application, not
        to a shard: one process syncing is enough)."""
        if self.shards_held is not None and not self.shards_held.holds_shard_zero:
            return
        guild = discord.Object(self.dev_guild_id) if self.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [c.to_dict(self.tree) for c in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()
        key = f"command_hash:{self.dev_guild_id or 'global'}:{self.application_id}"
        if (await self.db.settings.of_guild(0)).get(key) == digest:  # bot-wide values: guild 0
            return
        await self.tree.sync(guild=guild)
        await self.db.settings.set(0, key, digest)
        log.info("slash commands synced %s", f"to guild {self.dev_guild_id}" if guild else "globally")

    def _stop_tasks(self) -> None:
        self.outbox.stop()
        self.gifs.close()
        self.side_work.close()
        announcer = self.get_cog("Announcer")
        if isinstance(announcer, Announcer):
            announcer.stop()
        if self._timers is not None:
            self._timers.stop()

    async def close(self) -> None:
        self._stop_tasks()
        try:
            await super().close()
        finally:  # whatever failed above, the database thread must stop or the process never exits
            if self._db is not None:
                db, self._db = self._db, None
                await db.close()

    def stop_background_work(self) -> None:
        """Stop timers and the database thread without an event loop (test harnesses that
        discard a bot without closing it)."""
        self._stop_tasks()
        if self._db is not None:
            self._db.close_now()
            self._db = None


class ShardedDragonTavern(DragonTavern, commands.AutoShardedBot):
    """The same bot on several shards, or on chosen shards of several (discord.py's
    AutoShardedBot: one gateway connection per shard, one cache, one setup_hook)."""


def create_bot(*, database_path: str | Path = DEFAULT_DATABASE, dev_guild_id: int | None = None,
               farkle_cards_dir: str | Path | None = None, shards: ShardPlan | None = None,
               timer_poll_seconds: float | None = None,
               global_requests_per_second: float = DOCUMENTED_GLOBAL_LIMIT) -> DragonTavern:
    """A new, unstarted bot (tests build a fresh one for every start). ``shards`` None: one
    gateway connection (enough below Discord's 2,500 servers per shard)."""
    bot_class = DragonTavern if shards is None else ShardedDragonTavern
    return bot_class(database_path, dev_guild_id, Path(farkle_cards_dir) if farkle_cards_dir else None,
                     shards=shards, timer_poll_seconds=timer_poll_seconds,
                     global_requests_per_second=global_requests_per_second)


async def _check_database(path: str | Path) -> None:
    async with await Database.open(path):
        pass


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bot.py", description="Dragon Tavern, a Discord bot for three board games.")
    parser.add_argument("--sandbox", action="store_true",
                        help="run the bot in a simulated Discord server shown in your browser (no token needed)")
    parser.add_argument("--port", type=int, default=0, help="the sandbox page's port on 127.0.0.1 (default: any free one)")
    return parser.parse_args(argv)


def run_sandbox(port: int) -> int:
    """The real bot in a simulated server (cogs/sandbox.py), with a database of its own."""
    from cogs import sandbox

    level = os.environ.get("LOG_LEVEL", "WARNING").strip().upper()
    logging.basicConfig(level=level if level in LOG_LEVELS else "WARNING",
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(_check_database(sandbox.SANDBOX_DATABASE))
        bot = create_bot(database_path=sandbox.SANDBOX_DATABASE)
        asyncio.run(sandbox.serve(bot, database=sandbox.SANDBOX_DATABASE, port=port))
    except (sandbox.SandboxUnavailable, StorageError) as exc:
        print(f"dragon-tavern: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    if arguments.sandbox:
        return run_sandbox(arguments.port)
    try:
        from dotenv import find_dotenv, load_dotenv

        load_dotenv(find_dotenv(usecwd=True))  # the .env of the folder the bot is started from
        settings = load_settings()
    except ConfigError as exc:
        print(f"dragon-tavern: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        # Check the database before connecting: a corrupt or too-new file is refused at once.
        asyncio.run(_check_database(settings.database))
    except StorageError as exc:
        print(f"dragon-tavern: {exc}", file=sys.stderr)
        return 2
    bot = create_bot(database_path=settings.database, dev_guild_id=settings.dev_guild_id,
                     farkle_cards_dir=settings.farkle_cards_dir, shards=settings.shards,
                     timer_poll_seconds=settings.timer_poll_seconds,
                     global_requests_per_second=settings.global_requests_per_second)
    if settings.shards is not None:
        held = "all" if settings.shards.ids is None else ",".join(map(str, settings.shards.ids))
        log.info("shards: %s of %s; at most %.1f requests per second outside interactions from this process",
                 held, settings.shards.count or "as many as Discord recommends",
                 settings.global_requests_per_second * HEADROOM)
    # Fewer, larger garbage collections, and none that walks what start-up built (sessions.collector).
    tune_collector()
    freeze_startup_objects()
    try:
        bot.run(settings.token, log_handler=None)
    except KeyboardInterrupt:
        pass
    except Exception as exc:
        failure = startup_failure(exc)
        if failure is None:
            raise
        code, text = failure
        print(f"dragon-tavern: {' '.join(text.split())}", file=sys.stderr)  # one line, whatever Discord said
        return code
    return 0


def startup_failure(exc: BaseException) -> tuple[int, str] | None:
    """(exit code, one line: what failed and what to do) for an error that stops the bot
    before it is online, or None for an unexpected error (which keeps its traceback)."""
    if isinstance(exc, discord.LoginFailure):
        return 2, ("Discord refused DISCORD_TOKEN. Copy the token again from the Developer Portal "
                   "(Bot -> Reset Token) into .env.")
    if isinstance(exc, StorageError):
        return 2, str(exc)
    if isinstance(exc, discord.HTTPException):
        text = str(exc.text or exc.status)[:200]
        return 1, (f"Discord answered HTTP {exc.status} while the bot was starting ({text}). Check "
                   "DISCORD_TOKEN and DEV_GUILD_ID (the bot must be in that server); if they are right, "
                   "Discord may be having problems: try again in a few minutes.")
    if isinstance(exc, discord.GatewayNotFound):
        return 1, ("Discord's gateway could not be found (Discord may be down). "
                   "Try again in a few minutes.")
    if isinstance(exc, aiohttp.ClientError | OSError | asyncio.TimeoutError):
        reason = str(exc) or type(exc).__name__
        return 1, (f"could not reach Discord ({reason[:200]}). Check this machine's network connection "
                   "(DNS, firewall, proxy) and start the bot again.")
    return None


if __name__ == "__main__":
    sys.exit(main())
