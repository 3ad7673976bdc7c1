"""The long fuzz run: ``python -m tests.fuzz.run --steps 5000 [--game farkle] [--seed N]``.

Prints, per game, a table: steps, interactions by kind, refused privately, impossible
(SetupError), games finished, invariants checked, messages and log lines scanned, leaks found
(must be 0) and time. Exits non-zero on any leak or failure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import discord
import simcord

from bot import DragonTavern, create_bot
from tests.fuzz.fuzzer import Fuzzer, Stats, VirtualDeadlines

GAMES = ("farkle", "ninesons", "flagon")
# simcord's settle window: a replay GIF (up to 200 frames) is drawn in a process of its own at a
# lower priority (sessions.heavywork), which on a busy machine takes well over 30 s. The bot's own
# deadlines wait for the fuzzer's clock (VirtualDeadlines), not for this window, so a wide one
# costs nothing while the bot is idle.
SETTLE_SECONDS = 120.0


def build_world(env: Any) -> tuple[Any, Any, Any, dict[str, Any]]:
    """A guild with the game channel, another channel, two players, a bystander and an admin.
    The players have hostile display names (issue 12): alice a 32-character one full of
    markdown, bob one that mentions the bystander and @everyone, holds a {p1} placeholder and
    opens a code block."""
    guild = env.create_guild()
    # The fuzzer follows the game channel's messages: the bot may not make threads there, so its
    # games are played in it (games in threads: tests/bot/test_threads.py).
    channel = guild.create_text_channel(
        "games", overwrites={guild.me: discord.PermissionOverwrite(create_public_threads=False)})
    other = guild.create_text_channel("chat")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    users = {name: env.create_user(name) for name in ("alice", "bob", "carol")}
    nicks = {"alice": "**__alice__** ~~||#> [a](b)||~~x",
             "bob": f"<@{users['carol'].id}> @everyone {{p1}} ``` **x**"}
    members = {name: guild.add_member(user, nick=nicks.get(name)) for name, user in users.items()}
    members["admin"] = guild.add_member(env.create_user("admin"), roles=[admins])
    return guild, channel, other, members


def fuzz_bot(database: Path, deadlines: VirtualDeadlines) -> DragonTavern:
    """A new bot on the run's database whose timers and retries wait for the fuzzer's clock."""
    bot = create_bot(database_path=database)
    bot.sleep = deadlines
    return bot


async def fuzz_game(kind: str, steps: int, seed: int, database: Path) -> tuple[Stats, bool]:
    deadlines = VirtualDeadlines()
    bot = fuzz_bot(database, deadlines)
    fuzzer: Fuzzer | None = None
    try:
        async with simcord.run(bot, check_errors=False, settle_timeout=SETTLE_SECONDS) as env:
            deadlines.env = env
            guild, channel, other, members = build_world(env)
            fuzzer = Fuzzer(env, bot, guild, channel, other, members, kind=kind, seed=seed,
                            bot_factory=lambda: fuzz_bot(database, deadlines))
            stats = await fuzzer.run(steps)
            finished = await fuzzer.finish_current_game()
            env.errors  # noqa: B018 - inspected: every error was counted as a failure above
    finally:
        # simcord's shutdown leaves the database thread running otherwise, and the process
        # would never exit after a run that stopped on an exception.
        await (fuzzer.bot if fuzzer is not None else bot).close()
    return stats, finished


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=5000)
    parser.add_argument("--game", choices=GAMES, action="append")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    ok = True
    report: dict[str, Any] = {}
    for kind in args.game or GAMES:
        with tempfile.TemporaryDirectory() as tmp:
            stats, finished = asyncio.run(fuzz_game(kind, args.steps, args.seed, Path(tmp) / "fuzz.sqlite3"))
        print(stats.table(kind))
        print(f"{'last game finished by legal moves':26}  {finished}")
        for line in stats.leaks[:20]:
            print("LEAK", line)
        for line in stats.failures[:30]:
            print("FAIL", line)
        print()
        ok = ok and finished and not stats.leaks and not stats.failures
        report[kind] = {"steps": stats.steps, "interactions": stats.interactions, "kinds": dict(stats.kinds),
                        "refused": stats.refused, "impossible": stats.impossible,
                        "games_started": stats.games_started, "games_finished": stats.games_finished,
                        "games_other_end": dict(stats.games_other_end), "invariant_checks": stats.invariant_checks,
                        "messages_scanned": stats.messages_scanned, "log_lines_scanned": stats.log_lines_scanned,
                        "secrets_tracked": len(stats.secrets_seen), "leaks": stats.leaks,
                        "failures": stats.failures, "seconds": round(stats.seconds, 1),
                        "last_game_finished": finished, "seed": args.seed}
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
