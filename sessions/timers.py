"""Runs the timers stored in the database (turn timers, and the closing time of open lobbies):
one asyncio task per pending deadline.

Deadlines live in the database, so a restart loses none: ``start()`` re-arms every stored
timer, and ``refresh(game_id)`` follows the database after each change.

Several processes sharing one database (PostgreSQL, one per group of shards) each arm what
they know, and with ``poll_seconds`` also look every few seconds for due timers they did not
arm: another process armed them and died, or changed a game this one does not follow. Two
processes may then fire the same timer; it acts once, because ``GameService.on_timer`` checks
and clears the stored deadline under the game's lock (a database lock across processes), so
the second finds nothing due and does nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from sessions.service import TIMER_PURPOSES, GameService, Outcome
from storage import DatabaseGone, GameDamaged

log = logging.getLogger("dragon_tavern.sessions.timers")

OutcomeHandler = Callable[[Outcome], Awaitable[None]]
Sleep = Callable[[float], Awaitable[None]]


class TimerScheduler:
    def __init__(self, service: GameService, on_outcome: OutcomeHandler, clock: Callable[[], float],
                 *, poll_seconds: float = 0.0, sleep: Sleep = asyncio.sleep) -> None:
        self._service = service
        self._on_outcome = on_outcome
        # The clock and the wait for a deadline go together: a harness with virtual time
        # replaces both, so its timers fire when it moves its clock, never on the wall clock.
        self._clock = clock
        self._sleep = sleep
        self._poll_seconds = poll_seconds  # 0: never (one process owns the database)
        self._tasks: dict[tuple[int, str], asyncio.Task[None]] = {}
        self._deadlines: dict[tuple[int, str], float] = {}
        # The purposes armed per game: refresh() looks up one game's, not every armed timer
        # (thousands with as many games, at each move).
        self._armed: dict[int, set[str]] = {}
        self._poller: asyncio.Task[None] | None = None

    async def start(self) -> int:
        """Arm every timer in the database (and start polling, if asked); returns how many."""
        await self._service.arm_lobby_timers()
        timers = await self._service.db.timers.pending()
        for game_id, purpose, deadline in timers:
            self._arm(game_id, purpose, deadline)
        if self._poll_seconds > 0 and self._poller is None:
            self._poller = asyncio.create_task(self._poll(), name="timer-poll")
        return len(timers)

    async def pick_up_due(self) -> int:
        """Arm the due timers this process has not armed (their process died, or changed a
        game this one does not follow); returns how many."""
        picked = 0
        for game_id, purpose, deadline in await self._service.db.timers.pending(due_by=self._clock()):
            if self._deadlines.get((game_id, purpose)) != deadline:
                log.info("game %s: picked up a due %s timer armed elsewhere", game_id, purpose)
                self._arm(game_id, purpose, deadline)
                picked += 1
        return picked

    async def _poll(self) -> None:
        while True:
            await self._sleep(self._poll_seconds)
            try:
                await self.pick_up_due()
            except asyncio.CancelledError:
                raise
            except DatabaseGone:
                return
            except Exception:
                log.exception("looking for due timers failed; trying again in %s s", self._poll_seconds)

    async def refresh(self, game_id: int, known: dict[str, float | None] | None = None) -> None:
        """Follow the database for one game: arm its stored timers, drop the ones it no longer
        has. ``known``: every timer of the game as a change just saved it (None: removed), so
        they need not be read back (Outcome.timers)."""
        if known is not None:
            stored = {purpose: deadline for purpose, deadline in known.items() if deadline is not None}
        else:
            stored = {purpose: deadline for _, purpose, deadline in await self._service.db.timers.pending(game_id=game_id)}
        purposes = set(TIMER_PURPOSES) | set(stored) | self._armed.get(game_id, set())
        for purpose in sorted(purposes):
            deadline = stored.get(purpose)
            if deadline is None:
                self._cancel(game_id, purpose)
            else:
                self._arm(game_id, purpose, deadline)

    def stop(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
            self._poller = None
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()
        self._deadlines.clear()
        self._armed.clear()

    @property
    def pending(self) -> int:
        return len(self._tasks)

    def _cancel(self, game_id: int, purpose: str) -> None:
        task = self._tasks.pop((game_id, purpose), None)
        self._deadlines.pop((game_id, purpose), None)
        self._disarmed(game_id, purpose)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def _arm(self, game_id: int, purpose: str, deadline: float) -> None:
        self._cancel(game_id, purpose)
        self._deadlines[(game_id, purpose)] = deadline
        self._armed.setdefault(game_id, set()).add(purpose)
        self._tasks[(game_id, purpose)] = asyncio.create_task(
            self._wait(game_id, purpose, deadline), name=f"timer-{game_id}-{purpose}"
        )

    def _disarmed(self, game_id: int, purpose: str) -> None:
        purposes = self._armed.get(game_id)
        if purposes is not None:
            purposes.discard(purpose)
            if not purposes:
                del self._armed[game_id]

    async def _wait(self, game_id: int, purpose: str, deadline: float) -> None:
        try:
            await self._sleep(max(0.0, deadline - self._clock()))
            if self._tasks.get((game_id, purpose)) is asyncio.current_task():
                del self._tasks[(game_id, purpose)]
                self._deadlines.pop((game_id, purpose), None)
                self._disarmed(game_id, purpose)
            log.info("game %s: %s timer fired", game_id, purpose)
            outcome = await self._service.on_timer(game_id, purpose)
            if outcome is not None:
                await self._on_outcome(outcome)
            await self.refresh(game_id)
        except asyncio.CancelledError:
            raise
        except (GameDamaged, DatabaseGone):
            pass  # storage logged it once; a damaged game's timers are not re-armed
        except Exception:
            log.exception("timer for game %s (%s) failed", game_id, purpose)
