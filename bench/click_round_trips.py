"""Database round trips and latency of one board click, on SQLite and PostgreSQL.

    python -m bench.click_round_trips [--clicks N] [--postgres URL] [--sqlite-only]

A real bot runs against simcord's in-memory Discord; two members play Dragon Farkle and The
Nine Sons of the Dragon through their boards' action buttons (``dt:<game>:a:...``, or a game control ``x``), each click
answered in full: access check, load, play, save, then the outbox's delivery (Recent lines,
board edit, ping, seat messages) and the timer refresh. A *round trip* is one call of a storage
primitive (``fetch``, ``run``, ``run_many``, ``run_steps``: one trip to aiosqlite's thread or
to the PostgreSQL server) plus, on PostgreSQL, where every statement travels to the server: BEGIN and COMMIT of
each transaction, each statement of ``run_steps`` (one trip to aiosqlite's thread on SQLite),
and each advisory lock (the game lock, the delivery lock: its lock and its unlock). Without ``--postgres`` a throw-away
PostgreSQL server is started the way the tests start one (tests/storage/postgres_server.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import median  # noqa: E402

PRIMITIVES = ("fetch", "run", "run_many", "run_steps")
LOCKS = ("game_lock", "delivery_lock")


Waiter = Callable[[Awaitable[Any]], Awaitable[Any]]


async def _plain(awaitable: Awaitable[Any]) -> Any:
    return await awaitable


class TripCounter:
    """Counts the storage backend's primitive calls (and PostgreSQL's advisory locks).
    ``wait``: how each call is awaited (simcord must be told that a PostgreSQL socket is an
    input from outside, or it never sees the bot settle)."""

    def __init__(self, backend: Any, *, locks_are_trips: bool, wait: Waiter = _plain) -> None:
        self.calls: Counter[str] = Counter()
        self.counting = False
        self.in_flight = 0
        self._wait = wait
        for name in PRIMITIVES:
            setattr(backend, name, self._counted(name, getattr(backend, name), server=locks_are_trips))
        if locks_are_trips:  # a server: each statement, BEGIN and COMMIT is a trip of its own
            for name in LOCKS:
                setattr(backend, name, self._counted_lock(name, getattr(backend, name)))
            backend.transaction = self._counted_transaction(backend.transaction)

    def _counted(self, name: str, method: Any, *, server: bool) -> Any:
        async def call(*args: Any, **kwargs: Any) -> Any:
            if self.counting:
                # run_steps is one trip to aiosqlite's thread; on a server BEGIN, each statement, COMMIT
                self.calls[name] += len(args[0]) + 2 if server and name == "run_steps" else 1
            self.in_flight += 1
            try:
                return await self._wait(method(*args, **kwargs))
            finally:
                self.in_flight -= 1

        return call

    def _counted_transaction(self, method: Any) -> Any:
        def transaction() -> contextlib.AbstractAsyncContextManager[None]:
            @contextlib.asynccontextmanager
            async def held() -> AsyncIterator[None]:
                if self.counting:
                    self.calls["BEGIN/COMMIT"] += 2
                inner = method()
                self.in_flight += 1
                try:
                    await self._wait(inner.__aenter__())
                    try:
                        yield
                    except BaseException as exc:
                        await self._wait(inner.__aexit__(type(exc), exc, exc.__traceback__))
                        raise
                    await self._wait(inner.__aexit__(None, None, None))
                finally:
                    self.in_flight -= 1

            return held()

        return transaction

    def _counted_lock(self, name: str, method: Any) -> Any:
        def lock(*args: Any, **kwargs: Any) -> contextlib.AbstractAsyncContextManager[None]:
            @contextlib.asynccontextmanager
            async def held() -> AsyncIterator[None]:
                if self.counting:
                    self.calls[name] += 2  # pg_advisory_lock, and pg_advisory_unlock_all when given back
                inner = method(*args, **kwargs)
                self.in_flight += 1
                try:
                    await self._wait(inner.__aenter__())
                    try:
                        yield
                    finally:
                        await self._wait(inner.__aexit__(None, None, None))
                finally:
                    self.in_flight -= 1

            return held()

        return lock

    @contextlib.contextmanager
    def measuring(self) -> Iterator[Counter[str]]:
        self.calls = Counter()
        self.counting = True
        try:
            yield self.calls
        finally:
            self.counting = False


def _action_button(message: Any, game_id: int) -> str | None:
    """The custom_id of the board's first plain action button (``dt:<game>:a:...``, or a game control ``x``)."""
    from tests.bot.helpers import _children

    for child in _children(message):
        custom_id = str(child.get("custom_id") or "")
        if (
            child.get("type") == 2
            and custom_id.startswith((f"dt:{game_id}:a:", f"dt:{game_id}:x:"))
            and not child.get("disabled")
        ):
            return custom_id
    return None


async def clicks_on(target: str | Path, kind: str, clicks: int, seed: int = 5) -> dict[str, Any]:
    """Play ``kind`` games through board clicks until ``clicks`` clicks were measured."""
    import simcord

    from bot import create_bot
    from cogs import threads
    from cogs.plugins import load_plugins
    from storage import Database
    from tests.bot.helpers import last_board

    load_plugins(ui=False)
    threads.can_make_threads = lambda bot, channel_id: False  # the board in the channel (as tests/bot)
    bot = create_bot(database_path=target, timer_poll_seconds=0.0)
    env = simcord.Env(bot, settle_timeout=30.0)
    counters: list[TripCounter] = []

    async def external(awaitable: Awaitable[Any]) -> Any:
        # Only the bot's own tasks declare it, once (a primitive inside Database.open: no).
        task = asyncio.current_task()
        if task not in env._work.tasks or task in env._work.external_waits:
            return await awaitable
        return await env.external_wait(awaitable, reason="the database server")

    async def quiet() -> None:
        """Until the bot has nothing left to do: simcord's settling does not wait for a
        declared outside input (the PostgreSQL socket), so its work may still be running."""
        while True:
            await env.settle()
            if not counters or counters[0].in_flight == 0:
                await env.settle()
                if not counters or counters[0].in_flight == 0:
                    return
            await asyncio.get_running_loop().run_in_executor(None, time.sleep, 0.0005)

    async def open_counted(cls: Any, target: Any, **options: Any) -> Any:
        db = await external(opened(target, **options))
        counters.append(
            TripCounter(
                db._backend, locks_are_trips=not db.exclusive, wait=_plain if db.exclusive else external
            )
        )
        return db

    opened = Database.open
    Database.open = classmethod(open_counted)  # type: ignore[method-assign, assignment]
    moves: dict[str, list[tuple[int, float]]] = {}
    kinds: Counter[str] = Counter()
    rng = random.Random(seed)
    try:
        await env.start()
        with env.time_context():  # virtual time: the turn timers wait on it
            bot.service._seed_source = lambda: rng.randrange(2**62)
            counter = counters[0]
            guild = env.create_guild()
            channel = guild.create_text_channel("games")
            members = {
                "p1": guild.add_member(env.create_user("alice")),
                "p2": guild.add_member(env.create_user("bob")),
            }
            idle = 0
            while sum(map(len, moves.values())) < clicks and idle < 50:
                rec = await bot.service.db.games.active_in_channel(channel.id)
                if rec is None or rec.status == "lobby":
                    if rec is not None:
                        await bot.service.cancel(rec.id, _host(rec))
                    await members["p1"].slash(channel, "game new", game=kind)
                    await quiet()
                    await members["p2"].click(last_board(channel), label="Join")
                    await quiet()
                    await members["p1"].click(last_board(channel), label="Start")
                    await quiet()
                    continue
                _, game = await bot.service.load(rec.id)
                assert game is not None
                seat = game.to_act()[0]
                board = last_board(channel)
                custom_id = _action_button(board, rec.id) if seat in members else None
                with counter.measuring() as calls:
                    started = time.perf_counter()
                    if custom_id is not None:
                        await members[seat].click(board, custom_id=custom_id)
                    else:
                        await members[seat].slash(
                            channel, "play", action=rng.choice(game.legal_actions(seat))
                        )
                    await quiet()
                    elapsed = time.perf_counter() - started
                if (await bot.service.db.games.load(rec.id)).version == rec.version:
                    idle += 1  # refused (a private choice /play does not take): not a move
                    await bot.service.apply(rec.id, _actor(rec, seat), rng.choice(game.legal_actions(seat)))
                    await _after(bot, rec.id)
                    continue
                idle = 0
                path = "board click" if custom_id is not None else "/play"
                moves.setdefault(path, []).append((sum(calls.values()), elapsed))
                kinds.update(calls)
    finally:
        Database.open = opened  # type: ignore[method-assign]
        await env.shutdown()
        await bot.close()  # simcord detaches the bot without closing it (its database thread)
    total = sum(map(len, moves.values()))
    return {
        path: {
            "clicks": len(done),
            "trips_median": median([float(t) for t, _ in done]),
            "trips_mean": statistics.fmean(t for t, _ in done),
            "ms_median": median([seconds for _, seconds in done]) * 1000,
        }
        for path, done in sorted(moves.items())
    } | {"by_call": {k: v / max(1, total) for k, v in sorted(kinds.items())}}  # type: ignore[dict-item]


async def _after(bot: Any, game_id: int) -> None:
    """Announce a move made without a click (unmeasured), so the next board is current."""
    await bot.outbox.deliver_now(game_id)
    await bot.timers.refresh(game_id)


def _actor(rec: Any, seat: str) -> Any:
    from sessions import Actor

    found = rec.seat(seat)
    return Actor(user_id=found.user_id or 0, name=found.display_name)


def _host(rec: Any) -> Any:
    from sessions import Actor

    return Actor(user_id=rec.host_user_id or 0, name="host", is_admin=True)


def main(argv: list[str] | None = None) -> list[tuple[str, ...]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=60, help="clicks measured per game and backend")
    parser.add_argument("--postgres", default="", help="a PostgreSQL URL (default: a throw-away server)")
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args(argv)
    backends: list[tuple[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        backends.append(("SQLite", lambda kind: Path(tmp) / f"{kind}.sqlite3"))
        if not args.sqlite_only:
            from tests.storage.postgres_server import fresh_database_url

            url = args.postgres
            backends.append(("PostgreSQL", lambda kind: url or asyncio.run(fresh_database_url())))
        rows: list[tuple[str, ...]] = [
            ("game", "backend", "how", "moves", "round trips / move (median, mean)", "click ms (median)")
        ]
        for kind in ("farkle", "ninesons"):
            for name, target in backends:
                r = asyncio.run(clicks_on(target(kind), kind, args.clicks))
                by_call = r.pop("by_call")
                for path, m in r.items():
                    rows.append(
                        (
                            kind,
                            name,
                            path,
                            str(m["clicks"]),
                            f"{m['trips_median']:.0f}, {m['trips_mean']:.1f}",
                            f"{m['ms_median']:.1f}",
                        )
                    )
                print(kind, name, "calls per move:", ", ".join(f"{k} {v:.1f}" for k, v in by_call.items()))
    for row in [rows[0], tuple("---" for _ in rows[0]), *rows[1:]]:
        print("| " + " | ".join(row) + " |")
    return rows


if __name__ == "__main__":
    main()
