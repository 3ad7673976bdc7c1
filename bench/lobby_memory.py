"""Memory per open lobby and per game lock: lobbies opened and closed through the whole bot.

    python -m bench.lobby_memory [--lobbies 10000] [--quick]

Members of one server open lobbies through simcord's in-memory Discord and close them the
ways lobbies close: the host cancels, a guest joins and leaves first, the lobby times out, a
game is started and resigned. Resident memory (RSS) is read after a warm-up and at the end,
and every map the bot keeps (dicts, sets, lists and deques reachable from the bot object, its
cogs and its services) is measured at both points: a map that only grows is a leak. Prints a
table; merges its figures into bench/results.json under "lobby_memory".

Measured on a 2-core machine shared with other work (10,000 lobbies, ~18 minutes): RSS 75.7 ->
133.3 MiB, 2.7 KB a lobby over the second half, no map without a bound (before the board-image
cache was bounded: 75.9 -> 170.6 MiB, 7.9 KB a lobby, ``presenter._images`` 1,275 PNGs). What
still grows is the live-game cache filling towards its 4,096 games and simcord's own records of
virtual timers (the harness: asyncio in production drops a cancelled sleep's handle).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import logging
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import merge_results, print_rows, rss_kib  # noqa: E402

WARM_UP = 200  # lobbies before the first reading: imports, caches and pools fill up first
CHANNELS = 20
MEMBERS = 40
KEEP_MESSAGES = 5  # per channel: the open lobby or board and its pings stay reachable
SIZED = (dict, set, list, collections.deque, collections.OrderedDict)


def trim_harness(backend: Any) -> None:
    """Forget what simcord's in-memory Discord keeps for tests to read (its logs, finished
    interactions, old messages and their attachments), so RSS measures the bot, not the harness."""
    backend.http_requests.clear()
    backend.transcript.clear()
    backend.interactions.clear()
    backend.interaction_tokens.clear()
    backend.cdn._blobs.clear()
    for messages in backend.messages.values():
        for message_id in sorted(messages)[:-KEEP_MESSAGES]:
            del messages[message_id]


def maps_of(root: object, caps: dict[str, int], depth: int = 3) -> dict[str, int]:
    """The size of every container reachable from ``root`` through attributes, ``depth`` levels
    deep (name -> len). Objects are visited once; discord.py's own caches are included. The
    bound of a bounded one (a deque's maxlen, a cache's ``capacity``) goes in ``caps``."""
    sizes: dict[str, int] = {}
    seen: set[int] = set()

    def visit(obj: object, name: str, level: int) -> None:
        if id(obj) in seen or level > depth:
            return
        seen.add(id(obj))
        if isinstance(obj, SIZED):
            sizes[name] = len(obj)  # type: ignore[arg-type]
            if isinstance(obj, collections.deque) and obj.maxlen is not None:
                caps[name] = obj.maxlen
            return
        cap = getattr(obj, "capacity", None)  # a bounded cache (storage.rowcache, sessions.live)
        if isinstance(cap, int):
            caps.update({f"{name}.{k}": cap for k, v in vars(obj).items() if isinstance(v, SIZED)})
        attributes = getattr(obj, "__dict__", None)
        if not isinstance(attributes, dict) or type(obj).__module__.startswith(("asyncio", "logging")):
            return
        for key, value in list(attributes.items()):
            visit(value, f"{name}.{key}", level + 1)

    # simcord's in-memory Discord (reached through the gateway and the HTTP client) is the
    # harness, not the bot.
    seen.update({id(getattr(root, "ws", None)), id(getattr(getattr(root, "http", None), "backend", None))})
    visit(root, "bot", 0)
    for cog_name, cog in getattr(root, "cogs", {}).items():
        visit(cog, f"cog[{cog_name}]", 1)
    return sizes


async def churn(lobbies: int) -> dict[str, Any]:
    import discord
    import simcord

    from bot import create_bot
    from cogs.presenter import IMAGES_KEPT

    logging.disable(logging.WARNING)  # a timed-out lobby logs at INFO; keep the table readable
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(database_path=Path(tmp) / "lobbies.sqlite3")
        try:
            async with simcord.run(bot) as env:
                guild = env.create_guild()
                admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
                admin = guild.add_member(env.create_user("admin"), roles=[admins])
                members = [guild.add_member(env.create_user(f"m{i}")) for i in range(MEMBERS)]
                channels = [guild.create_text_channel(f"games-{i}") for i in range(CHANNELS)]
                await admin.slash(channels[0], "config set", setting="lobby_timeout", value="60")
                await admin.slash(channels[0], "config set", setting="max_lobbies_per_member", value="20")

                async def one(i: int) -> None:
                    channel = channels[i % CHANNELS]
                    host, guest = members[i % MEMBERS], members[(i + 1) % MEMBERS]
                    await host.slash(channel, "game new", game="ninesons")
                    lobby = channel.last_message
                    assert lobby is not None, "the lobby was just posted"
                    way = i % 8
                    if way == 0:  # the lobby times out
                        await env.advance_time(61)
                    elif way == 1:  # a game is started, then resigned
                        await guest.click(lobby, label="Join")
                        await host.click(lobby, label="Start")
                        await guest.slash(channel, "game resign")
                    elif way == 2:  # a guest joins and leaves, the host cancels
                        await guest.click(lobby, label="Join")
                        await guest.click(lobby, label="Leave")
                        await host.click(lobby, label="Cancel")
                    else:
                        await host.click(lobby, label="Cancel")

                for i in range(WARM_UP):
                    await one(i)
                    trim_harness(env.backend)
                gc.collect()
                caps: dict[str, int] = {"bot.presenter._images": IMAGES_KEPT}  # bounds kept as constants
                rss_before, maps_before = rss_kib(), maps_of(bot, caps)
                started = time.perf_counter()
                rss_half = 0
                for i in range(WARM_UP, WARM_UP + lobbies):
                    await one(i)
                    trim_harness(env.backend)
                    if i == WARM_UP + lobbies // 2:
                        gc.collect()
                        rss_half = rss_kib()
                seconds = time.perf_counter() - started
                await env.advance_time(3600)  # every timer due has fired
                trim_harness(env.backend)
                gc.collect()
                rss_after, maps_after = rss_kib(), maps_of(bot, caps)
                open_now = len(await bot.service.db.games.find(statuses=("lobby", "active")))
        finally:
            await bot.close()  # simcord detaches the bot without closing it (its database thread)
    grown = {
        name: (maps_before.get(name, 0), size, caps.get(name))
        for name, size in maps_after.items()
        if size > maps_before.get(name, 0) + 2
    }
    return {
        "lobbies": lobbies,
        "seconds": seconds,
        "rss_kib_before": rss_before,
        "rss_kib_half": rss_half,
        "rss_kib_after": rss_after,
        "rss_bytes_per_lobby": (rss_after - rss_before) * 1024 / lobbies,
        "rss_bytes_per_lobby_second_half": (rss_after - rss_half) * 1024 / (lobbies - lobbies // 2),
        "open_games_left": open_now,
        "maps_watched": len(maps_after),
        "grown": grown,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lobbies", type=int, default=10_000)
    ap.add_argument("--quick", action="store_true", help="1,000 lobbies (smoke run)")
    ap.add_argument("--no-json", action="store_true")
    args = ap.parse_args(argv)
    r = asyncio.run(churn(1000 if args.quick else args.lobbies))
    rows = [
        ("lobbies opened and closed (after warm-up)", f"{r['lobbies']:,} in {r['seconds']:.0f} s"),
        (
            "RSS before / halfway / after",
            f"{r['rss_kib_before'] / 1024:.1f} / {r['rss_kib_half'] / 1024:.1f} / "
            f"{r['rss_kib_after'] / 1024:.1f} MiB",
        ),
        (
            "RSS growth per lobby: overall / second half",
            f"{r['rss_bytes_per_lobby']:.0f} / {r['rss_bytes_per_lobby_second_half']:.0f} bytes",
        ),
        ("lobbies or games still open", f"{r['open_games_left']}"),
        ("maps watched", f"{r['maps_watched']}"),
    ]
    for name, (before, after, cap) in sorted(r["grown"].items()):
        bound = f"bounded: at most {cap:,}" if cap else "NO BOUND: a leak"
        rows.append((f"grew: {name}", f"{before:,} -> {after:,} ({bound})"))
    leaks = [name for name, (_, _, cap) in r["grown"].items() if not cap]
    rows.append(("maps that only grow (leaks)", ", ".join(leaks) or "none"))
    print_rows("Lobby churn: memory and maps", rows)
    if not args.no_json:
        merge_results("lobby_memory", {k: v for k, v in r.items() if k != "grown"} | {"leaks": leaks})
    return r


if __name__ == "__main__":
    main()
