"""A lane for heavy, optional work (replay GIFs, exports, rating charts), kept apart from the
work games need to move.

The work games need (AI moves, hints, board pictures, replay steps, card-file reads) runs in
the event loop's default thread pool (``asyncio.to_thread``): nothing there takes long, so a
click never waits behind another server's drawing. Heavy optional work runs here instead, in
a :class:`HeavyWork` lane:

- its own worker (one by default), so at most that many such jobs run at once, in a process of
  its own by default: the drawing holds no lock the bot's event loop and the game work need
  (Python's one interpreter lock, in a thread), and its process runs at a lower priority, so
  when the CPU is short the games' work goes first;
- at most ``max_jobs`` jobs running or waiting; past that a request is refused with
  :class:`TooBusy` (a polite, private answer), so what waits stays bounded;
- one job per key: a request for a key that is being computed awaits that same job;
- results of keys that never change (a finished game's GIF) are kept, least recently used
  first out, within ``keep_bytes``, so the same file is sent again without drawing it again.

Everything is called from the event loop; only the jobs run in the lane's worker. A job and
its arguments are pickled to the worker: a module-level function and plain data (a Replay
and its games pickle).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from sessions.errors import SessionError

log = logging.getLogger("dragon_tavern.sessions.heavywork")

T = TypeVar("T")
WORKER_NICENESS = 10  # the lane's process yields the CPU to the bot's own (0 is normal, 19 the lowest)


def _prepare_worker(load_games: Callable[[], None] | None) -> None:
    """In a lane's new process: a lower priority, and the games and their renderers (a spawned
    process starts with none registered; the lane's owner hands the loader, cogs.plugins')."""
    with contextlib.suppress(OSError, AttributeError):  # AttributeError: no os.nice (Windows)
        os.nice(WORKER_NICENESS)
    if load_games is not None:
        load_games()


class TooBusy(SessionError):
    """The lane has ``max_jobs`` jobs running or waiting: nothing was started."""


class HeavyWork:
    """One lane of heavy optional work: its own threads, a bounded queue, one job per key and
    a size-bounded store of finished results (see the module text)."""

    def __init__(
        self,
        name: str,
        *,
        workers: int = 1,
        max_jobs: int = 4,
        keep_bytes: int = 0,
        busy_text: str = "The bot is busy drawing for others right now. Please try again in a minute.",
        processes: bool = True,
        load_games: Callable[[], None] | None = None,
    ) -> None:
        """``processes`` False: the worker is a thread of this process (tests that hold a job
        with an event; it then shares the interpreter lock with the bot)."""
        self.name = name
        self.workers = workers
        self.processes = processes
        self.load_games = load_games  # run in each new worker process (picklable: a module's function)
        self.max_jobs = max_jobs
        self.keep_bytes = keep_bytes
        self.busy_text = busy_text
        self.jobs_started = 0  # how many jobs ran (a figure for benches and tests)
        self._executor: Executor | None = None  # made at the first job: most bots never draw a GIF
        self._jobs: dict[Hashable, asyncio.Future[Any]] = {}  # running or waiting, by key
        self._kept: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()  # key -> (result, bytes)
        self._kept_bytes = 0

    def _new_executor(self) -> Executor:
        if self.processes:
            # spawn, not fork: a fork of a process with threads (the database's) may inherit a
            # lock held mid-operation; a spawned process starts clean.
            return ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_prepare_worker,
                initargs=(self.load_games,),
            )
        return ThreadPoolExecutor(self.workers, thread_name_prefix=f"heavy-{self.name}")

    @property
    def queued(self) -> int:
        """Jobs running or waiting for the lane's worker."""
        return len(self._jobs)

    def kept(self, key: Hashable) -> Any | None:
        """A kept result (and it becomes the most recently used), or None."""
        found = self._kept.get(key)
        if found is None:
            return None
        self._kept.move_to_end(key)
        return found[0]

    def running(self, key: Hashable) -> bool:
        return key in self._jobs

    def submit(
        self,
        key: Hashable,
        job: Callable[..., T],
        *args: Any,
        keep: Callable[[T], int] | None = None,
    ) -> asyncio.Future[T]:
        """``job(*args)`` in the lane, as a future to await; ``key`` names what it computes
        (None: a job of its own). A kept result or the key's running job is returned instead of
        starting another. ``keep(result)`` gives the result's size in bytes when it may be kept
        (a result that never changes). Raises TooBusy, before starting anything, when full."""
        loop = asyncio.get_running_loop()
        if key is not None:
            found = self.kept(key)
            if found is not None:
                done: asyncio.Future[T] = loop.create_future()
                done.set_result(found)
                return done
            running = self._jobs.get(key)
            if running is not None:
                return asyncio.shield(running)  # one waiter's cancel must not cancel the others'
        if len(self._jobs) >= self.max_jobs:
            raise TooBusy(self.busy_text)
        if self._executor is None:
            self._executor = self._new_executor()
        try:
            future: asyncio.Future[T] = loop.run_in_executor(self._executor, job, *args)
        except BrokenProcessPool:  # the worker process died (killed, out of memory): a new one
            log.warning("the %s lane's worker process stopped; starting a new one", self.name)
            self._executor = self._new_executor()
            future = loop.run_in_executor(self._executor, job, *args)
        self.jobs_started += 1
        slot: Hashable = key if key is not None else object()
        self._jobs[slot] = future
        future.add_done_callback(lambda f: self._finished(slot, f, keep if key is not None else None))
        return asyncio.shield(future)

    def _finished(
        self, slot: Hashable, future: asyncio.Future[Any], keep: Callable[[Any], int] | None
    ) -> None:
        self._jobs.pop(slot, None)
        if keep is None or future.cancelled() or future.exception() is not None:
            return
        result = future.result()
        size = keep(result)
        if size > self.keep_bytes:
            return
        old = self._kept.pop(slot, None)
        if old is not None:
            self._kept_bytes -= old[1]
        self._kept[slot] = (result, size)
        self._kept_bytes += size
        while self._kept_bytes > self.keep_bytes:
            _, (_, dropped) = self._kept.popitem(last=False)
            self._kept_bytes -= dropped

    def close(self) -> None:
        """Stop the lane: waiting jobs are dropped; a running one finishes in its thread."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)


__all__ = ["HeavyWork", "TooBusy"]
