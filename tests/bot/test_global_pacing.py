"""A burst of the bot's own requests never crosses Discord's global limit (issue 25, cogs.pacing).

Over a loopback aiohttp server, the real discord.py HTTPClient with the bot's trace: 150 requests
fired at once to 150 channels (150 route buckets, so discord.py's per-route waits do not spread
them) arrive at most 50 in any one second, and all succeed. Interaction endpoints are not paced.
"""

from __future__ import annotations

import asyncio

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
