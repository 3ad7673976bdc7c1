"""The loopback fake Discord (in this process) and one real bot process (tests/wire/botproc)
against it; process CPU readings; the per-move table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from bench.discord_scale.table import KINDS, PostgresReader, Stats, Table, turn_changes
from cogs.plugins import load_plugins
from tests.wire.botproc import BotProcess
from tests.wire.fake_discord import FakeDiscord, RecordedRequest
from tests.wire.launch_bot import PROFILE_VAR
from tests.wire.patch_client import point_discord_at, restore_real_discord
from tests.wire.ratelimits import BOT, INTERACTION, RateLimitCounts, classify

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int | None = None) -> float:
    """User + system CPU seconds of a process (this one when ``pid`` is None)."""
    if pid is None:
        times = os.times()
        return times.user + times.system
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


@dataclass
class Fleet:
    """The bot: one process with its own SQLite file, or ``len(bots)`` processes, process i
    running shard i of as many, sharing one PostgreSQL database (a SQLite file belongs to one
    process). Each process paces its requests outside interactions at its share of Discord's
    one global limit (50/s per bot: 50/k each, sessions.environment's default for SHARD_IDS)."""

    bots: list[BotProcess]
    database_url: str | None = None
    postgres_port: int | None = None

    @property
    def first(self) -> BotProcess:
        return self.bots[0]

    def shard_of(self, index: int) -> tuple[int, int] | None:
        """The shard whose process gets the events of the ``index``-th server (None: unsharded)."""
        count = len(self.bots)
        return (index % count, count) if count > 1 else None

    def pids(self) -> list[int]:
        return [bot.process.pid for bot in self.bots if bot.process is not None]

    def cpu_seconds(self) -> list[float]:
        """Each bot process's CPU seconds so far."""
        return [cpu_seconds(pid) for pid in self.pids()]

    def database_cpu_seconds(self) -> float:
        """The PostgreSQL server's CPU seconds so far (0 with SQLite, which runs inside the bot)."""
        return postgres_cpu_seconds(self.postgres_port) if self.postgres_port else 0.0

    def send_signal(self, signum: int) -> None:
        for bot in self.bots:
            if bot.process is not None:
                bot.process.send_signal(signum)


def postgres_cpu_seconds(port: int) -> float:
    """CPU of the PostgreSQL server listening on ``port``: its postmaster (with the children it
    reaped) and its live backends."""
    stats: dict[int, list[str]] = {}
    master = None
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            if "(postgres)" not in stat:
                continue
            stats[int(entry.name)] = stat.rsplit(")", 1)[1].split()
            if master is None and f"-p {port} ".encode() in (entry / "cmdline").read_bytes().replace(
                b"\0", b" "
            ):
                master = int(entry.name)
        except OSError:
            continue
    if master is None:
        return 0.0
    fields = stats[master]
    ticks = sum(int(fields[i]) for i in (11, 12, 13, 14))  # utime, stime, cutime, cstime
    ticks += sum(int(f[11]) + int(f[12]) for f in stats.values() if int(f[1]) == master)
    return ticks / CLOCK_TICKS


async def _postgres_database() -> tuple[str, int]:
    """A new, migrated database on a throw-away PostgreSQL server (tests/storage's), and its port."""
    from tests.storage import postgres_server

    server = postgres_server.start_server()
    url = await postgres_server.fresh_database_url()
    return url, int(server.base_url.rsplit(":", 1)[1])


@contextlib.asynccontextmanager
async def running_bot(
    *, enforce: bool, workdir: Path | None = None, profile: str | None = None, processes: int = 1
) -> AsyncIterator[tuple[FakeDiscord, Fleet]]:
    """A fake Discord with one guild for command sync, and the real bot connected to it: one
    process, or ``processes`` shards in as many processes on PostgreSQL (under cProfile when
    ``profile`` names a path prefix: see tests/wire/launch_bot.py; ``<prefix>.p<i>`` for
    process i of several)."""
    load_plugins(ui=False)
    with tempfile.TemporaryDirectory(prefix="dt-scale-") as tmp:
        where = workdir or Path(tmp)
        async with FakeDiscord(enforce_rate_limits=enforce) as fake:
            point_discord_at(fake.base_url)
            fleet = Fleet([])
            if processes > 1:
                fleet.database_url, fleet.postgres_port = await _postgres_database()
            home = fake.create_guild("Bench home", shard=(0, processes) if processes > 1 else None)
            home.create_text_channel("games")
            for index in range(processes):
                prefix = profile if processes == 1 or not profile else f"{profile}.p{index}"
                env = {"LOG_LEVEL": "WARNING", **({PROFILE_VAR: prefix} if prefix else {})}
                fleet.bots.append(
                    BotProcess(
                        fake,
                        home.id,
                        where,
                        name=f"scale-bot-{index}",
                        env=env,
                        shards=([index], processes) if processes > 1 else None,
                        database_url=fleet.database_url,
                    )
                )
            try:
                for bot in fleet.bots:  # shard 0 first: its process syncs the commands
                    await bot.start(timeout=60)
                await fake.wait_until(
                    lambda: bool(fake.guild_commands.get(home.id) or fake.global_commands),
                    timeout=30,
                    what="the command sync",
                )
                yield fake, fleet
            finally:
                await asyncio.gather(*(bot.stop() for bot in fleet.bots))
                restore_real_discord()


@dataclass
class GameCost:
    kind: str
    moves: int
    turn_changes: int
    window: RateLimitCounts


def game_moves(table: Table) -> tuple[int, int]:
    """(moves, turn changes) of the table's current game, from the bot's action log."""
    [(kind, seed, options)] = table.query("SELECT kind, seed, options FROM games WHERE id = ?", table.gid)
    seats = [
        s for (s,) in table.query("SELECT seat FROM seats WHERE game_id = ? ORDER BY position", table.gid)
    ]
    played = [
        (seat, action)
        for seat, source, action in table.query(
            "SELECT seat, source, action FROM actions WHERE game_id = ? ORDER BY seq", table.gid
        )
        if source != "system"
    ]
    return len(played), turn_changes(kind, seats, seed, json.loads(options), played)


async def settle(fake: FakeDiscord, quiet: float = 0.4, limit: float = 10.0) -> None:
    """Until no request arrived for ``quiet`` seconds (the bot finished what it was sending)."""
    start = time.monotonic()
    last, since = len(fake.requests), time.monotonic()
    while time.monotonic() - start < limit:
        await asyncio.sleep(0.05)
        if len(fake.requests) != last:
            last, since = len(fake.requests), time.monotonic()
        elif time.monotonic() - since >= quiet:
            return


def server_of(fake: FakeDiscord, record: RecordedRequest) -> int | None:
    """The guild a request was made for: its channel's, a DM's recipient's, or that of the
    interaction whose token it carries (None: the bot's own, such as the command sync)."""
    parts = record.path.strip("/").split("/")
    channel_id: int | None = None
    user_id: int | None = None
    if parts[0] == "channels" and parts[1].isdigit():
        channel_id = int(parts[1])
    elif parts[0] == "interactions" and parts[1].isdigit():
        interaction = fake.interactions.get(int(parts[1]))
        channel_id = interaction.channel_id if interaction else None
    elif parts[0] == "webhooks" and len(parts) > 2:
        interaction = fake._interactions_by_token.get(parts[2])
        channel_id = interaction.channel_id if interaction else None
    elif parts[0] == "users" and parts[1].isdigit():
        user_id = int(parts[1])
    elif parts[0] == "users" and parts[1:] == ["@me", "channels"] and isinstance(record.json, dict):
        user_id = int(record.json.get("recipient_id", 0))
    channel = fake.channels.get(channel_id) if channel_id is not None else None
    if channel is not None and channel.guild_id is not None:
        return channel.guild_id
    if channel is not None:
        user_id = channel.recipient.id if channel.recipient else None
    return next((g.id for g in fake.guilds.values() if user_id in g.members), None) if user_id else None


def _is_dm(fake: FakeDiscord, record: RecordedRequest) -> bool:
    parts = record.path.strip("/").split("/")
    channel = fake.channels.get(int(parts[1])) if parts[0] == "channels" and parts[1].isdigit() else None
    return channel is not None and channel.is_dm


def window_of(fake: FakeDiscord, guild_id: int, since: int) -> RateLimitCounts:
    """The requests made for one server from request ``since`` on, counted as the limiter does."""
    counts = RateLimitCounts(at=time.monotonic())
    for record in fake.requests[since:]:
        if server_of(fake, record) != guild_id:
            continue
        route, _ = classify(record.method, record.path)
        counts.by_kind[INTERACTION if route.interaction else BOT] += 1
        counts.by_route[route.template + (" [DM]" if _is_dm(fake, record) else "")] += 1
        counts.rate_limited += record.status == 429
    return counts


async def _one_game(fake: FakeDiscord, table: Table) -> tuple[Table, int]:
    await fake.announce_guild(table.guild)
    await table.open_lobby_only()
    await asyncio.sleep(1.0)  # the last join's edit is the lobby's, not the game's
    since = len(fake.requests)
    await table.start_game()
    if not await table.play_whole_game(max_idle=30):
        raise RuntimeError(f"{table.kind} game did not finish: {table.stats.failures[-3:]}")
    return table, since


async def per_move(
    games_per_kind: int,
    seed: int,
    kinds: list[str],
    via: str,
    profile: str | None = None,
    processes: int = 1,
) -> tuple[list[GameCost], float]:
    """Whole games, all at once in their own servers, every request of a server counted from
    its Start click to the last request after the end (the lobby is not counted), and the
    bot's CPU seconds from the lobbies' end to the last request (its processes together). With
    ``profile`` the bot runs under cProfile (``<profile>.last.prof``: the whole run)."""
    async with running_bot(enforce=False, profile=profile, processes=processes) as (fake, fleet):
        stats = Stats()
        tables = [
            Table(
                fake,
                fleet.first,
                kind,
                index,
                random.Random(seed + index),
                stats,
                via=via,
                shard=fleet.shard_of(index),
            )
            for index, kind in enumerate(k for k in kinds for _ in range(games_per_kind))
        ]
        # PostgreSQL: one shared connection (the bot process's query opens one per look).
        reader = PostgresReader(fleet.database_url) if fleet.database_url else None
        for table in tables:
            table.query = reader or table.query
        try:
            cpu_before = sum(fleet.cpu_seconds())
            played = await asyncio.gather(*(_one_game(fake, table) for table in tables))
            await settle(fake)
            cpu = sum(fleet.cpu_seconds()) - cpu_before
            if stats.failures:
                raise RuntimeError(f"failures: {stats.failures[:5]}")
            costs = [
                GameCost(table.kind, *game_moves(table), window_of(fake, table.guild.id, since))
                for table, since in played
            ]
            return costs, cpu
        finally:
            if reader is not None:
                reader.close()


def per_move_table(costs: list[GameCost], via: str, cpu: float | None = None) -> list[str]:
    """The issue's table: requests per turn change (and per move), total and outside interactions;
    with ``cpu`` (the bot's CPU seconds for these games) its CPU per move, all kinds together."""
    lines = [
        f"played by {via}; whole games, every HTTP request the bot made, counted by kind",
        f"{'game':<11} {'games':>5} {'moves':>6} {'turns':>6} | {'per turn change':>15} {'outside':>8} | "
        f"{'per move':>8} {'outside':>8}",
    ]
    routes: dict[str, Counter[str]] = {}
    for kind in dict.fromkeys(c.kind for c in costs):
        mine = [c for c in costs if c.kind == kind]
        moves = sum(c.moves for c in mine)
        turns = sum(c.turn_changes for c in mine)
        total = sum(c.window.total for c in mine)
        outside = sum(c.window.outside_interactions for c in mine)
        lines.append(
            f"{kind:<11} {len(mine):>5} {moves:>6} {turns:>6} | {total / max(turns, 1):>15.1f} "
            f"{outside / max(turns, 1):>8.1f} | {total / max(moves, 1):>8.1f} {outside / max(moves, 1):>8.1f}"
        )
        routes[kind] = sum((c.window.by_route for c in mine), Counter())
        routes[kind] = Counter({r: n / max(turns, 1) for r, n in routes[kind].items()})
    if cpu is not None:
        moves = sum(c.moves for c in costs)
        lines.append(f"bot CPU: {cpu * 1000 / max(moves, 1):.1f} ms per move ({moves} moves, {cpu:.1f} s; "
                     "games played at once, no think time: compare runs of the same seeds)")
    lines.append("per turn change, by route:")
    for kind, by_route in routes.items():
        shown = ", ".join(f"{route} {n:.2f}" for route, n in by_route.most_common())
        lines.append(f"  {kind}: {shown}")
    return lines


def summarise(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q * 100) - 1]


__all__ = [
    "KINDS",
    "Fleet",
    "cpu_seconds",
    "per_move",
    "per_move_table",
    "running_bot",
    "settle",
    "summarise",
]
