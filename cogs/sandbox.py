"""The sandbox: the real bot, unchanged, in a simulated Discord server shown in a browser.

``python bot.py --sandbox`` builds the world here (simcord's in-memory Discord: a "Dragon Tavern"
server, two game channels, three members and a server admin), hands the bot bot.py made to it
and serves simcord's Preview: a page on 127.0.0.1 where one picks whom to act as ("Viewing as")
and plays with the real slash commands, buttons, selects and ephemeral replies.

This module knows nothing of the bot but its slash commands: it imports no other module of this
project (an import contract holds it to that), and nothing in the bot knows it runs here.

- Secret choices: a Preview presents one channel, and a DM is another channel, so the sandbox
  server uses the real setting ``hidden_pick_mode ephemeral`` (set by its admin with
  ``/config set`` at every start): every private prompt is an ephemeral reply in the game
  channel, seen only by the member it belongs to (docs/decisions/sandbox.md).
- Time: simcord's clock is virtual; the sandbox moves it with the wall clock, so turn timers,
  lobby timeouts and ``<t:…:R>`` run on real time, and the saved deadlines mean the same after
  a restart.
- Restarts: the games live in the bot's database (``sandbox.sqlite3``); the simulated server
  is built again, with the same ids, at every start (Discord's messages are not kept, so
  ``/game status`` posts a running game's board again).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import discord

log = logging.getLogger("dragon_tavern.sandbox")

SANDBOX_DATABASE = "sandbox.sqlite3"
SERVER_NAME = "Dragon Tavern"
SERVER_ID = 1_180_000_000_000_000_026  # pinned: the saved games name this server
MEMBER_NAMES = ("alice", "bob", "carol")
ADMIN_NAME = "innkeeper"
# The first game channel is the one the page presents.
GAME_CHANNELS = {
    "tavern": "Games are played here: /game new to open a lobby, /game help for the basics.",
    "back-room": "A second table (/game list shows the games of the whole server).",
}
HIDDEN_PICK_MODE = "ephemeral"
# The admin's real /config settings at every start. The page presents one channel, so secret
# choices are ephemeral replies there and games stay in that channel instead of threads of their own.
SERVER_SETTINGS = {"hidden_pick_mode": HIDDEN_PICK_MODE, "game_threads": "off"}
CLOCK_TICK_SECONDS = 0.5
# Bot work one click may take before the page gives up on it (a replay GIF renders 200 frames).
SETTLE_SECONDS = 60.0


class SandboxUnavailable(Exception):
    """simcord's Preview is not installed; the message says how to install it."""


def _simcord() -> Any:
    try:
        import simcord
        from simcord.preview import _require_preview_runtime
    except ImportError as exc:
        raise SandboxUnavailable(_INSTALL_HINT) from exc
    try:
        _require_preview_runtime()
    except simcord.SetupError as exc:
        raise SandboxUnavailable(_INSTALL_HINT) from exc
    return simcord


_INSTALL_HINT = (
    'the sandbox needs simcord\'s Preview: .venv/bin/pip install -e ".[sandbox]" '
    '(or run the README\'s "Try it" command).'
)


@dataclass
class SandboxWorld:
    """The simulated server, its channels and the members one can act as."""

    env: Any  # simcord.Env
    guild: Any  # simcord.GuildHandle
    channels: dict[str, Any]  # name -> simcord.ChannelHandle
    members: dict[str, Any]  # name -> simcord.MemberActor; the admin last
    preview: Any = None  # simcord.preview.Preview, while served

    @property
    def table(self) -> Any:
        """The game channel the page presents."""
        return self.channels[next(iter(GAME_CHANNELS))]

    @property
    def admin(self) -> Any:
        return self.members[ADMIN_NAME]

    @property
    def url(self) -> str:
        assert self.preview is not None, "the page is not served"
        return str(self.preview.url)


def build_world(env: Any) -> SandboxWorld:
    """The server, created in the same order at every start so that every id is the same (simcord
    numbers its objects from its clock, which still reads its fixed epoch here)."""
    env.backend.bot_user.name = SERVER_NAME
    guild = env.create_guild(SERVER_NAME, id=SERVER_ID, description="The Dragon Tavern sandbox")
    channels = {name: guild.create_text_channel(name, topic=topic) for name, topic in GAME_CHANNELS.items()}
    members = {name: guild.add_member(env.create_user(name)) for name in MEMBER_NAMES}
    admins = guild.create_role("Tavern keeper", permissions=discord.Permissions(manage_guild=True))
    members[ADMIN_NAME] = guild.add_member(env.create_user(ADMIN_NAME), roles=[admins])
    return SandboxWorld(env, guild, channels, members)


def _wall_clock() -> datetime:
    return datetime.now(UTC)


def _catch_up(env: Any, now: Callable[[], datetime]) -> None:
    """Move the simulated clock up to the wall clock (never back). Timers the bot armed fire on
    their own at their real time; this keeps "now" right between them."""
    lag = (now() - env.now()).total_seconds()
    if lag > 0:
        env.backend.advance_clock(lag)


def _member_acting(env: Any) -> bool:
    """A member's action (or a page's refresh) is running; simcord 3.2.1 (pinned) keeps it here."""
    return env._operation_task is not None


async def _follow_the_bot(world: SandboxWorld, now: Callable[[], datetime]) -> None:
    """Keep the clock on the wall clock, and republish the page when the bot did something on its
    own (a turn timer, a lobby closing), so that every viewer sees it without pressing Refresh.

    Only then: what a member's action caused, the page publishes itself when the action ends,
    and every publish makes a click sent from the page as it was before refused as stale."""
    backend = world.env.backend
    seen_changes, seen_interaction, acting = (
        len(backend.transcript),
        max(backend.interactions, default=0),
        False,
    )
    while True:
        await asyncio.sleep(CLOCK_TICK_SECONDS)
        _catch_up(world.env, now)
        changes, interaction = len(backend.transcript), max(backend.interactions, default=0)
        if interaction != seen_interaction or _member_acting(world.env):
            seen_interaction, acting = interaction, True
            continue
        if acting:  # the action has ended, and its page showed all it did
            seen_changes, acting = changes, False
            continue
        if changes == seen_changes or world.preview is None:
            continue
        try:
            await world.preview.refresh()
        except Exception as exc:  # a member's action began meanwhile: look again at the next tick
            log.debug("page not refreshed yet (%s)", exc)
            continue
        seen_changes = len(backend.transcript)


async def _sync_commands(world: SandboxWorld, bot: discord.Client) -> None:
    """Discord keeps an application's commands between runs, the simulated one does not: sync
    them again when the bot skipped it (it syncs only when its commands changed)."""
    if not world.env.backend.visible_commands(user_id=world.admin.id, channel_id=world.table.id):
        tree = getattr(bot, "tree", None)
        if tree is not None:
            await tree.sync()


@contextlib.asynccontextmanager
async def open_sandbox(
    bot: discord.Client, *, port: int = 0, now: Callable[[], datetime] = _wall_clock
) -> AsyncIterator[SandboxWorld]:
    """Start ``bot`` in a new sandbox world and serve its page on 127.0.0.1:``port`` (0: any free
    port); the world is yours inside the ``async with``."""
    simcord = _simcord()
    env = simcord.Env(bot, check_errors=False, settle_timeout=SETTLE_SECONDS)
    world = build_world(env)
    _catch_up(env, now)  # after the ids are made: only messages carry the time in their ids
    await env.start()
    follower: asyncio.Task[None] | None = None
    try:
        with env.time_context():
            await _sync_commands(world, bot)
            await env.settle()
            for setting, value in SERVER_SETTINGS.items():
                result = await world.admin.slash(world.table, "config set", setting=setting, value=value)
                log.info("sandbox: %s", result.response.content if result.response else f"{setting} set")
            viewers = [world.members[name] for name in (*MEMBER_NAMES, ADMIN_NAME)]
            async with env.preview(world.table, viewers=viewers, layout="channel", port=port) as preview:
                world.preview = preview
                follower = asyncio.create_task(_follow_the_bot(world, now), name="sandbox-clock")
                yield world
    finally:
        if follower is not None:
            follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await follower
        world.preview = None
        try:
            await env.shutdown()
        finally:  # simcord detaches the bot without closing it; bot.run would close it
            await bot.close()


def banner(world: SandboxWorld, database: str) -> str:
    names = ", ".join(MEMBER_NAMES)
    return (
        f"Dragon Tavern sandbox: a simulated Discord server, no token needed.\n"
        f"  Open {world.url}\n"
        f"  (only on this machine: it listens on 127.0.0.1, and the part after # is the page's key:\n"
        f"   anyone with the whole address can act as the members; it changes at every start)\n"
        f'  Act as {names} or {ADMIN_NAME} (the server admin) with "Viewing as" at the top;\n'
        f"  in #{next(iter(GAME_CHANNELS))} type /game new, or /game help. Private prompts are\n"
        f"  ephemeral replies here (hidden_pick_mode {HIDDEN_PICK_MODE}).\n"
        f"  Games are saved in {database}. Ctrl-C (or More -> End preview session) stops it."
    )


class _SimcordNoise(logging.Filter):
    """simcord builds a client state of its own without the guilds intent, and discord.py warns
    about it: a line about the simulation, not the bot, that would only puzzle a newcomer."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "Guilds intent seems to be disabled" not in record.getMessage()


async def serve(bot: discord.Client, *, database: str, port: int = 0) -> None:
    """Run the sandbox until Ctrl-C, SIGTERM or the page's "End preview session"."""
    logging.getLogger("discord.state").addFilter(_SimcordNoise())
    async with open_sandbox(bot, port=port) as world:
        print(banner(world, database), flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        ended = asyncio.create_task(world.preview.wait_closed())
        stopped = asyncio.create_task(stop.wait())
        await asyncio.wait((ended, stopped), return_when=asyncio.FIRST_COMPLETED)
        for task in (ended, stopped):
            task.cancel()
    print("Dragon Tavern sandbox stopped.", flush=True)
