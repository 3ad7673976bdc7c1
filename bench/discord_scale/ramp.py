"""The ramp: N servers with one game each, members at human pace, N raised step by step until
a goal fails. Each step adds servers (their games opened a few per second), lets them warm up,
then measures a window."""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import random
import signal
import time
from dataclasses import dataclass, field

from bench.discord_scale.harness import Fleet, cpu_seconds, running_bot, summarise
from bench.discord_scale.table import PostgresReader, SqliteReader, Stats, Table
from sessions.environment import DISCORD_GLOBAL_LIMIT
from tests.wire.fake_discord import FakeDiscord
from tests.wire.ratelimits import BOT, GLOBAL_LIMIT, classify_template

MIX = ("ninesons", "farkle+ai", "flagon")  # one game per server, in turn
OPEN_PER_SECOND = 4.0  # new servers' games opened per second (the lobby costs requests too)


@dataclass
class StepResult:
    games: int
    seconds: float
    moves_per_second: float
    outside_per_second: float
    outside_peak_second: int
    interaction_requests_per_second: float
    rate_limited: int
    rate_limited_by: dict[str, int]
    peak_routes: dict[str, int]  # the busiest second's bot-token requests by route
    invalid: int
    acked: int
    interactions: int
    board_p50: float
    board_p99: float
    stale_boards: int
    bot_cpu: float  # share of one core (all the bot's processes together)
    bench_cpu: float
    failures: int  # tables failed from the step's start (its new games' opening included)
    bot_cpus: list[float] = field(default_factory=list)  # each bot process's, when several
    database_cpu: float = 0.0  # the PostgreSQL server's (several processes); SQLite is in bot_cpu
    ack_p99: float = float("nan")  # seconds from the interaction to its callback (goal: all < 3)
    ack_max: float = float("nan")
    # the bench's own event loop's longest late wake-up (the fake's clock lags by as much)
    bench_lag_max: float = 0.0
    outside_routes: dict[str, int] = field(default_factory=dict)  # the window's bot-token requests by route

    @property
    def database_ms_per_move(self) -> float:
        return 1000 * self.database_cpu / self.moves_per_second if self.moves_per_second else float("nan")

    @property
    def bot_ms_per_move(self) -> float:
        """The bot's CPU per member move, everything included (AI moves, new games' lobbies)."""
        return 1000 * self.bot_cpu / self.moves_per_second if self.moves_per_second else float("nan")

    @property
    def acked_share(self) -> float:
        return self.acked / self.interactions if self.interactions else 1.0

    def reasons(self) -> list[str]:
        """The goals this step misses (empty: it holds)."""
        out = []
        if self.outside_per_second >= GLOBAL_LIMIT:
            out.append(f"{self.outside_per_second:.0f} requests/s outside interactions (global bucket)")
        if self.rate_limited:
            where = ", ".join(f"{n} {route}" for route, n in sorted(self.rate_limited_by.items()))
            out.append(f"{self.rate_limited} × 429 ({where})")
        if self.acked < self.interactions:
            out.append(f"{self.interactions - self.acked} interactions not acknowledged within 3 s")
        if self.failures:
            out.append(f"{self.failures} tables failed (a lobby or a board not shown, a click unanswered)")
        if any(cpu >= 0.95 for cpu in self.bot_cpus or [self.bot_cpu]):
            out.append(f"bot CPU {max(self.bot_cpus or [self.bot_cpu]):.0%} of a core")
        return out

    def detail_line(self) -> str:
        """How close the acknowledgements came to 3 s, the bench's own lag, and what the global
        bucket was spent on (requests per member move, by route)."""
        moves = self.moves_per_second * self.seconds or 1.0
        spent = ", ".join(
            f"{n / moves:.3f} {route}"
            for route, n in sorted(self.outside_routes.items(), key=lambda x: -x[1])[:5]
        )
        return (
            f"acked in p99 {self.ack_p99:.2f} s, max {self.ack_max:.2f} s; bench loop late by up to "
            f"{self.bench_lag_max:.2f} s; outside interactions per move: {spent or 'none'}"
        )

    def line(self) -> str:
        return (
            f"{self.games:>6} {self.moves_per_second:>7.2f} {self.outside_per_second:>8.1f} "
            f"{self.outside_peak_second:>5} {self.interaction_requests_per_second:>8.1f} {self.rate_limited:>5} "
            f"{self.invalid:>7} {self.acked_share:>7.1%} {self.board_p50:>7.2f} {self.board_p99:>7.2f} "
            f"{self.bot_cpu:>7.0%} {self.bot_ms_per_move:>7.1f} {self.bench_cpu:>7.0%}  {'holds' if not self.reasons() else '; '.join(self.reasons())}"
        )


HEADER = (
    f"{'games':>6} {'moves/s':>7} {'out req/s':>8} {'peak':>5} {'ix req/s':>8} {'429s':>5} "
    f"{'invalid':>7} {'acked':>7} {'c2b p50':>7} {'c2b p99':>7} {'bot CPU':>7} {'ms/move':>7} {'bench':>7}  verdict"
)


async def _keep_playing(table: Table, delay: float, think: tuple[float, float]) -> None:
    """Open a game after ``delay`` and play game after game at human pace."""
    await asyncio.sleep(delay)
    while True:
        try:
            await table.open_game()
            await table.play_whole_game(think=think, max_idle=60)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a broken table is counted, the others go on
            table.stats.failures.append(f"{table.kind} in {table.guild.name}: {exc!r}"[:300])
            await asyncio.sleep(think[1] or 1.0)


class LoopLag:
    """The longest a short sleep of this process overslept: while the bench's loop lags, the fake
    Discord takes requests late and in clumps (its global bucket then sees a burst the bot never sent)."""

    TICK = 0.05

    def __init__(self) -> None:
        self.worst = 0.0
        self._task = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        while True:
            start = time.monotonic()
            await asyncio.sleep(self.TICK)
            self.worst = max(self.worst, time.monotonic() - start - self.TICK)

    def stop(self) -> float:
        self._task.cancel()
        return self.worst


async def _measure(
    fake: FakeDiscord, stats: Stats, fleet: Fleet, games: int, seconds: float, failures_before: int
) -> StepResult:
    """One step's window. ``failures_before``: the tables failed before this step began, so that
    a new table whose lobby never showed while the step opened its games counts against it."""
    lag = LoopLag()
    rl0, t0 = fake.ratelimits.snapshot(), time.monotonic()
    cpu_bots0, cpu_me0, cpu_db0 = fleet.cpu_seconds(), cpu_seconds(), fleet.database_cpu_seconds()
    marks = (
        stats.interactions,
        stats.acked,
        len(stats.click_to_board),
        stats.moves,
        stats.stale_boards,
        len(stats.ack_seconds),
    )
    await asyncio.sleep(seconds)
    bench_lag = lag.stop()
    acks = stats.ack_seconds[marks[5] :]
    elapsed = time.monotonic() - t0
    window = fake.ratelimits.snapshot() - rl0
    boards = stats.click_to_board[marks[2] :]
    bot_cpus = [(now - before) / elapsed for now, before in zip(fleet.cpu_seconds(), cpu_bots0, strict=True)]
    return StepResult(
        games=games,
        seconds=elapsed,
        moves_per_second=(stats.moves - marks[3]) / elapsed,
        outside_per_second=window.by_kind[BOT] / elapsed,
        outside_peak_second=fake.ratelimits.peak_outside_per_second(since=math.ceil(t0)),
        interaction_requests_per_second=(window.total - window.by_kind[BOT]) / elapsed,
        rate_limited=window.rate_limited,
        rate_limited_by=dict(window.rate_limited_by),
        peak_routes=dict(fake.ratelimits.peak_second_routes(since=math.ceil(t0))),
        invalid=window.invalid,
        acked=stats.acked - marks[1],
        interactions=stats.interactions - marks[0],
        board_p50=summarise(boards, 0.5),
        board_p99=summarise(boards, 0.99),
        stale_boards=stats.stale_boards - marks[4],
        bot_cpu=sum(bot_cpus),
        bench_cpu=(cpu_seconds() - cpu_me0) / elapsed,
        failures=len(stats.failures) - failures_before,
        bot_cpus=bot_cpus if len(bot_cpus) > 1 else [],
        database_cpu=(fleet.database_cpu_seconds() - cpu_db0) / elapsed,
        ack_p99=summarise(acks, 0.99),
        ack_max=max(acks, default=float("nan")),
        bench_lag_max=bench_lag,
        outside_routes={r: n for r, n in window.by_route.items() if not classify_template(r).interaction},
    )


async def ramp(
    steps: list[int],
    window: float,
    think: tuple[float, float],
    seed: int,
    warmup: float,
    profile: str | None = None,
    pin: bool = False,
    processes: int = 1,
    latency: float = 0.0,
) -> list[StepResult]:
    """Run the steps in order, printing one line per step; stop after the first that fails.
    With ``profile`` (a path prefix) the bot runs under cProfile and writes one profile per
    measuring window (``<prefix>.<2k+1>.prof`` for step k; the even ones are the warm-ups)."""
    results: list[StepResult] = []
    stats = Stats()
    tasks: list[asyncio.Task[None]] = []
    async with running_bot(enforce=True, profile=profile, processes=processes) as (fake, fleet):
        fake.response_delay = latency  # once the bot is up: its start-up is not what is measured
        if latency:
            print(f"fake Discord: every REST answer held {latency:.2f} s", flush=True)
        if pin:
            print(pin_cores(fleet.pids()), flush=True)
        if processes > 1:
            print(
                f"bot: {processes} processes (shard i of {processes} each, one PostgreSQL database), "
                f"each pacing at {DISCORD_GLOBAL_LIMIT / processes:.1f} of the global {DISCORD_GLOBAL_LIMIT:.0f} requests/s (less its 20 % margin)",
                flush=True,
            )
        reader: SqliteReader | PostgresReader = (
            PostgresReader(fleet.database_url)
            if fleet.database_url
            else SqliteReader(fleet.first.database_path)
        )
        print(HEADER, flush=True)
        try:
            for games in steps:
                failures_before = len(stats.failures)
                added = 0
                while len(tasks) < games:
                    index = len(tasks)
                    table = Table(
                        fake,
                        fleet.first,
                        MIX[index % len(MIX)],
                        index,
                        random.Random(seed * 100_003 + index),
                        stats,
                        shard=fleet.shard_of(index),
                    )
                    table.db_poll = 0.2
                    table.query = reader
                    await fake.announce_guild(table.guild)
                    tasks.append(asyncio.create_task(_keep_playing(table, added / OPEN_PER_SECOND, think)))
                    added += 1
                # Every new game opened and a first think time passed before measuring.
                await asyncio.sleep(added / OPEN_PER_SECOND + warmup)
                if profile:
                    fleet.send_signal(signal.SIGUSR1)  # the warm-up's profile, then the window's
                result = await _measure(fake, stats, fleet, games, window, failures_before)
                if profile:
                    fleet.send_signal(signal.SIGUSR1)
                results.append(result)
                print(result.line(), flush=True)
                burst = ", ".join(
                    f"{n} {route}" for route, n in sorted(result.peak_routes.items(), key=lambda x: -x[1])
                )
                print(f"{'':>6} busiest second: {burst}", flush=True)
                print(f"{'':>6} {result.detail_line()}", flush=True)
                if result.bot_cpus or result.database_cpu:
                    each = " + ".join(f"{cpu:.0%}" for cpu in result.bot_cpus)
                    print(
                        f"{'':>6} bot processes {each}; PostgreSQL server {result.database_cpu:.0%} "
                        f"({result.database_ms_per_move:.1f} ms/move, not in the bot's)",
                        flush=True,
                    )
                if result.reasons():
                    break
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        reader.close()
        if stats.failures:
            print(f"{len(stats.failures)} table failures, e.g.: {stats.failures[:3]}", flush=True)
    return results


def pin_cores(bot_pids: list[int]) -> str:
    """Keep the simulated members off the bot's CPUs; what was done, as a line to print. One bot
    process: it on the first CPU, this process (fake Discord + members) on the others. Several:
    each on a CPU of its own when the CPUs outnumber them, the bench on the rest; with fewer CPUs
    (2 here) they are spread over every CPU, one each in turn, and the bench is not pinned."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        return f"pin: only CPU {cpus} available, nothing pinned"
    if len(bot_pids) < len(cpus):
        bot_cpus, bench_cpus = cpus[: len(bot_pids)], cpus[len(bot_pids) :]
    else:
        bot_cpus, bench_cpus = cpus, cpus
    for index, pid in enumerate(bot_pids):
        os.sched_setaffinity(pid, {bot_cpus[index % len(bot_cpus)]})
    os.sched_setaffinity(0, set(bench_cpus))
    placed = ", ".join(f"bot {i} on CPU {bot_cpus[i % len(bot_cpus)]}" for i in range(len(bot_pids)))
    return f"pin: {placed}; bench (fake Discord + members) on CPU {','.join(map(str, bench_cpus))}"


def holds(results: list[StepResult]) -> int:
    """The largest N whose step met every goal (0 if none)."""
    return max((r.games for r in results if not r.reasons()), default=0)
