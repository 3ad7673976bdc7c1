"""A burst of the bot's own requests never crosses Discord's global limit (issue 25, cogs.pacing).

Over a loopback aiohttp server, the real discord.py HTTPClient with the bot's trace: 150 requests
fired at once to 150 channels (150 route buckets, so discord.py's per-route waits do not spread
them) arrive at most 50 in any one second, and all succeed. Interaction endpoints are not paced.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from aiohttp import web

from cogs.pacing import DOCUMENTED_GLOBAL_LIMIT, HEADROOM, GlobalPacer, is_global_request
from tests.bot.loopback import as_json, loopback_client


def most_in_one_second(times: list[float]) -> int:
    times = sorted(times)
    start, most = 0, 0
    for end, at in enumerate(times):
        while at - times[start] >= 1.0:
            start += 1
        most = max(most, end - start + 1)
    return most


async def test_a_burst_of_channel_requests_arrives_under_the_global_limit(monkeypatch):
    arrived: list[float] = []
    loop = asyncio.get_running_loop()

    async def channel(request: web.Request) -> web.Response:
        arrived.append(loop.time())
        channel_id = request.match_info["id"]
        return as_json({"id": channel_id, "type": 0, "name": "games", "guild_id": "1", "position": 0})

    async with loopback_client({"/channels/{id}": channel}, monkeypatch) as (http, ledger):
        arrived.clear()  # the login's own request
        answers = await asyncio.gather(*(http.get_channel(1000 + i) for i in range(150)))
    assert len(answers) == 150
    assert most_in_one_second(arrived) <= DOCUMENTED_GLOBAL_LIMIT
    assert ledger.figures()["paced"] > 0
    assert max(arrived) - min(arrived) < 8.0  # spread, not starved: ~40 a second (3.7 s here)


async def test_the_pacer_keeps_every_second_under_its_budget_and_a_global_429_lowers_it():
    now = [0.0]

    async def sleep(seconds: float) -> None:
        now[0] += seconds

    pacer = GlobalPacer(clock=lambda: now[0], sleep=sleep)
    sent: list[float] = []
    for _ in range(200):
        await pacer.wait()
        pacer.left()
        sent.append(now[0])
    assert most_in_one_second(sent) == int(DOCUMENTED_GLOBAL_LIMIT * HEADROOM)
    before = pacer.per_second
    pacer.global_limit_hit({"X-RateLimit-Scope": "user"})  # a route's 429: not the global limit
    assert pacer.per_second == before
    pacer.global_limit_hit({"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})
    assert pacer.per_second == pytest.approx(before * 0.9)


def test_interaction_endpoints_and_the_gateway_are_not_paced():
    assert is_global_request("/api/v10/channels/5/messages")
    assert not is_global_request("/api/v10/interactions/1/token/callback")
    assert not is_global_request("/api/v10/webhooks/1/token/messages/@original")
    assert not is_global_request("/?v=10&encoding=json")


@pytest.mark.parametrize(("holders", "hold"), [(3, 0.005), (1, 0.040)])
async def test_a_busy_event_loop_still_gets_the_budget_and_never_more(holders, hold):
    """Under load every wake-up of the loop is late. The pacer used to space each request from
    the previous one's wake-up and hand out one turn per wake-up, losing that lateness every
    time: three tasks holding the loop 5 ms at a go cut it from 40 to ~17 requests a second, one
    holding it 40 ms (a board drawn) to ~25."""

    async def hold_the_loop() -> None:
        while True:
            start = time.perf_counter()
            while time.perf_counter() - start < hold:
                pass
            await asyncio.sleep(0)

    pacer = GlobalPacer()
    sent: list[float] = []

    async def request() -> None:
        await pacer.wait()
        pacer.left()
        sent.append(time.monotonic())

    busy = [asyncio.create_task(hold_the_loop()) for _ in range(holders)]
    start = time.monotonic()
    waiting = [asyncio.create_task(request()) for _ in range(400)]
    await asyncio.sleep(2.0)
    elapsed = time.monotonic() - start
    for task in busy + waiting:
        task.cancel()
    await asyncio.gather(*busy, *waiting, return_exceptions=True)
    assert len(sent) / elapsed >= 0.85 * pacer.per_second
    assert most_in_one_second(sent) <= int(pacer.per_second)
