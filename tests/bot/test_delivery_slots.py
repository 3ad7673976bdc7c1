"""Under a burst of changes (hundreds of games moving at once) a click is still answered within
Discord's 3 s: at most ``DELIVERIES_AT_ONCE`` deliveries run at a time, the others wait without
taking a turn of the event loop (cogs/outbox.py). Measured at scale by ``bench.discord_scale``."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from types import SimpleNamespace

from cogs.outbox import DELIVERIES_AT_ONCE, Outbox


class Games:
    """Each game's delivery lock, as storage's: one delivery per game at a time."""

    def __init__(self) -> None:
        self.locks: dict[int, asyncio.Lock] = {}

    @contextlib.asynccontextmanager
    async def delivery_lock(self, game_id: int) -> AsyncIterator[None]:
        async with self.locks.setdefault(game_id, asyncio.Lock()):
            yield


async def test_a_burst_of_deliveries_runs_a_bounded_number_at_once_and_all_of_them_finish() -> None:
    outbox = Outbox(SimpleNamespace(db=Games()))  # type: ignore[arg-type]
    running, most, done = 0, 0, []
    release = asyncio.Event()

    async def deliver(game_id: int, carrier: object) -> None:
        nonlocal running, most
        running += 1
        most = max(most, running)
        await release.wait()
        running -= 1
        done.append(game_id)

    outbox._deliver = deliver  # type: ignore[method-assign]
    burst = [asyncio.create_task(outbox.deliver(game_id)) for game_id in range(3 * DELIVERIES_AT_ONCE)]
    for _ in range(5):
        await asyncio.sleep(0)
    assert running == DELIVERIES_AT_ONCE  # the rest wait their turn
    release.set()
    await asyncio.gather(*burst)
    assert most == DELIVERIES_AT_ONCE
    assert sorted(done) == list(range(3 * DELIVERIES_AT_ONCE))  # nothing is dropped


async def test_a_delivery_waiting_for_its_game_holds_no_place() -> None:
    games = Games()
    outbox = Outbox(SimpleNamespace(db=games))  # type: ignore[arg-type]
    started: list[int] = []

    async def deliver(game_id: int, carrier: object) -> None:
        started.append(game_id)

    outbox._deliver = deliver  # type: ignore[method-assign]
    # Game 0 is being delivered elsewhere (another process, a start-up catch-up): many more of
    # its deliveries queue on its lock, and other games' deliveries still run at once.
    async with games.delivery_lock(0):
        waiting = [asyncio.create_task(outbox.deliver(0)) for _ in range(2 * DELIVERIES_AT_ONCE)]
        await asyncio.sleep(0)
        await asyncio.wait_for(outbox.deliver(1), timeout=1)
        assert started == [1]
    await asyncio.gather(*waiting)
    assert started.count(0) == 2 * DELIVERIES_AT_ONCE
