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

from bench.discord_scale.table import KINDS, Stats, Table, turn_changes
from engine import registry
from tests.wire.botproc import BotProcess
from tests.wire.fake_discord import FakeDiscord
from tests.wire.patch_client import point_discord_at, restore_real_discord
from tests.wire.ratelimits import RateLimitCounts

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int | None = None) -> float:
    """User + system CPU seconds of a process (this one when ``pid`` is None)."""
    if pid is None:
        times = os.times()
        return times.user + times.system
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


@contextlib.asynccontextmanager
async def running_bot(
    *, enforce: bool, workdir: Path | None = None
) -> AsyncIterator[tuple[FakeDiscord, BotProcess]]:
    """A fake Discord with one guild for command sync, and the real bot connected to it."""
    registry.load_builtin_games()
    with tempfile.TemporaryDirectory(prefix="dt-scale-") as tmp:
        where = workdir or Path(tmp)
        async with FakeDiscord(enforce_rate_limits=enforce) as fake:
            point_discord_at(fake.base_url)
            home = fake.create_guild("Bench home")
            home.create_text_channel("games")
            bot = BotProcess(fake, home.id, where, name="scale-bot", env={"LOG_LEVEL": "WARNING"})
            try:
                await bot.start(timeout=60)
                await fake.wait_until(
                    lambda: bool(fake.guild_commands.get(home.id) or fake.global_commands),
                    timeout=30,
                    what="the command sync",
                )
                yield fake, bot
            finally:
                await bot.stop()
                restore_real_discord()


@dataclass
class GameCost:
    kind: str
    moves: int
    turn_changes: int
    window: RateLimitCounts


def game_moves(table: Table) -> tuple[int, int]:
    """(moves, turn changes) of the table's current game, from the bot's action log."""
    assert table.bot is not None
    [(kind, seed, options)] = table.bot.query("SELECT kind, seed, options FROM games WHERE id = ?", table.gid)
    seats = [
        s for (s,) in table.bot.query("SELECT seat FROM seats WHERE game_id = ? ORDER BY position", table.gid)
    ]
    played = [
        (seat, action)
        for seat, source, action in table.bot.query(
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


async def per_move(games_per_kind: int, seed: int, kinds: list[str], via: str) -> list[GameCost]:
    """Whole games, one at a time, every request counted from the Start click to the last
    request after the end (the lobby is not counted)."""
    costs: list[GameCost] = []
    async with running_bot(enforce=False) as (fake, bot):
        stats = Stats()
        for index, kind in enumerate(k for k in kinds for _ in range(games_per_kind)):
            table = Table(fake, bot, kind, index, random.Random(seed + index), stats, via=via)
            await fake.announce_guild(table.guild)
            await table.open_lobby_only()
            await settle(fake)
            before = fake.ratelimits.snapshot()
            await table.start_game()
            if not await table.play_whole_game(max_idle=20):
                raise RuntimeError(f"{kind} game did not finish: {stats.failures[-3:]}")
            await settle(fake)
            moves, changes = game_moves(table)
            costs.append(GameCost(kind, moves, changes, fake.ratelimits.snapshot() - before))
        if stats.failures:
            raise RuntimeError(f"failures: {stats.failures[:5]}")
    return costs


def per_move_table(costs: list[GameCost], via: str) -> list[str]:
    """The issue's table: requests per turn change (and per move), total and outside interactions."""
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


__all__ = ["KINDS", "cpu_seconds", "per_move", "per_move_table", "running_bot", "settle", "summarise"]
