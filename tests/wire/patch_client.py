"""Point the unmodified discord.py client at a loopback fake Discord.

discord.py builds every REST URL from ``discord.http.Route.BASE`` (read when each Route is
created) and opens the gateway at ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (read
at connect time), so setting those two class attributes before ``bot.start()`` is enough.

The product never imports this module: the wire harness starts the real bot through
``python -m tests.wire.launch_bot``, which calls::

    point_discord_from_env()          # no-op unless DT_FAKE_DISCORD_URL is set

and then ``bot.main()``; the minibot (``python -m tests.wire.minibot``) does the same.

Loopback only: a URL naming any other host is refused, so a stray environment variable can
never send the bot token somewhere else.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import discord.gateway
import discord.http
import yarl

ENV_VAR = "DT_FAKE_DISCORD_URL"
_LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})


def point_discord_at(base_url: str) -> None:
    """Send all REST and gateway traffic to the fake at ``base_url`` (``http://127.0.0.1:PORT``)."""
    url = yarl.URL(base_url)
    if url.scheme != "http" or url.host not in _LOOPBACK_HOSTS or url.explicit_port is None:
        raise ValueError(f"{ENV_VAR} must be http://127.0.0.1:<port> (loopback only), got {base_url!r}")
    root = f"http://{url.host}:{url.port}" if url.host != "::1" else f"http://[::1]:{url.port}"
    discord.http.Route.BASE = f"{root}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        root.replace("http://", "ws://", 1) + "/gateway"
    )


def point_discord_from_env(environ: Mapping[str, str] | None = None) -> str | None:
    """Call :func:`point_discord_at` with ``$DT_FAKE_DISCORD_URL`` if it is set; return the URL."""
    base_url = (os.environ if environ is None else environ).get(ENV_VAR, "").strip()
    if not base_url:
        return None
    point_discord_at(base_url)
    return base_url


def restore_real_discord() -> None:
    """Undo :func:`point_discord_at` (tests call it on teardown so nothing leaks between tests)."""
    discord.http.Route.BASE = "https://discord.com/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("wss://gateway.discord.gg/")
