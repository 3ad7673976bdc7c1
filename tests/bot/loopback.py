"""The real discord.py HTTPClient, with the bot's RequestLedger trace, against a loopback aiohttp
server (for what simcord cannot show: the client's own 429 retries, the pacing of its requests)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from aiohttp import web
from discord.http import HTTPClient, Route

from cogs.requests import RequestLedger

Handler = Callable[[web.Request], Awaitable[web.Response]]


def as_json(data: dict, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON as Discord sends it (discord.py reads a body as JSON only for exactly this type)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


async def _me(request: web.Request) -> web.Response:
    return as_json({"id": "9", "username": "bot", "discriminator": "0", "avatar": None, "bot": True})


@contextlib.asynccontextmanager
async def loopback_client(
    get_routes: dict[str, Handler], monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[HTTPClient, RequestLedger]]:
    """A logged-in client whose GETs below /api/v10 reach ``get_routes`` (path -> handler)."""
    app = web.Application()
    for path, handler in get_routes.items():
        app.router.add_get(f"/api/v10{path}", handler)
    app.router.add_get("/api/v10/users/@me", _me)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    ledger = RequestLedger()
    http = HTTPClient(asyncio.get_running_loop(), http_trace=ledger.trace_config())
    ledger.install(http)
    try:
        await http.static_login("t")  # opens the client's aiohttp session, with the trace
        yield http, ledger
    finally:
        await http.close()
        await runner.cleanup()
