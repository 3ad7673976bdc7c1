"""When a timer runs out: a turn's AFK policy (the AI acts for the late seat, strikes, an
abandoned game), the reminder half-way through a turn, and an open lobby closing.

sessions.timers runs the timers; this module says what each one does.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from engine import Event, Game
from sessions.ai import AiSeats
from sessions.core import LOBBY_TIMER, REMIND_TIMER, TURN_EVENT, TURN_TIMER, Outcome, dicts, unfinished
from sessions.settings import duration_text
from storage import GameRecord, SeatRecord

log = logging.getLogger("dragon_tavern.sessions.service")


class Timeouts(AiSeats):
    """What a timer does when it runs out: a turn's AFK policy, a reminder, a lobby closing."""

    async def on_timer(self, game_id: int, purpose: str) -> Outcome | None:
        """A timer ran out: a lobby closes, or a turn's AFK policy applies. Returns None if
        nothing was due."""
        if purpose == LOBBY_TIMER:
            return await self._close_unstarted_lobby(game_id)
        if purpose == REMIND_TIMER:
            return await self._remind(game_id)
        async with self.lock(game_id):
            rec = await self.db.games.load(game_id)
            if rec.status != "active":
                return None
            # Take the timer: its row goes only if it is due, for one caller whichever process
            # asks. Not due: re-armed meanwhile (the scheduler comes back); gone: already fired.
            if not await self.db.timers.claim(game_id, purpose, self._clock() + 0.001):
                return None
            game = await self._game_at(rec)
            settings = await self.settings(rec.guild_id)
            previous = game.to_act()
            late = [s for s in rec.seats if s.seat in previous and not s.is_ai]
            events: list[Event] = []
            seats = list(rec.seats)
            for seat in late:
                strikes = seat.timeouts_in_a_row + 1
                if strikes >= settings["afk_strikes"] and settings["afk_action"] == "abandon":
                    times = "once" if strikes == 1 else f"{strikes} times in a row"
                    abandoned = Event("abandon", f"{{{seat.seat}}} timed out {times}: the game is abandoned.")
                    why = unfinished(f"Abandoned: {{{seat.seat}}} timed out {times}.")
                    await self.db.games.save(
                        rec.id,
                        rec.version,
                        status="abandoned",
                        clear_timers=True,
                        result=why,
                        announce=dicts([abandoned]),
                    )
                    log.info(
                        "game %s abandoned: seat %s timed out %d times in a row", rec.id, seat.seat, strikes
                    )
                    rec = await self.db.games.load(rec.id)
                    return Outcome(rec, game, [abandoned])
                if strikes >= settings["afk_strikes"]:
                    seats = [
                        replace(s, ai_level="easy", timeouts_in_a_row=strikes) if s.seat == seat.seat else s
                        for s in seats
                    ]
                    events.append(
                        Event(
                            "afk",
                            f"{{{seat.seat}}} timed out {strikes} times in a row: "
                            "an AI plays their seat from here.",
                        )
                    )
                else:
                    seats = [
                        replace(s, timeouts_in_a_row=strikes) if s.seat == seat.seat else s for s in seats
                    ]
                    events.append(
                        Event("timeout", f"{{{seat.seat}}} ran out of time; the AI acted for them.")
                    )
            if not any(not s.is_ai for s in seats):
                return await self._abandon_unplayed(rec, game, late, settings["afk_strikes"])
            rec.seats = seats
            # The easy AI acts for the late seats; the strike lines go out with its first save.
            rec = await self._act_for_late(rec, game, late, events, seats)
            return await self._after_change(rec, game, events, previous_to_act=previous)

    async def _abandon_unplayed(
        self, rec: GameRecord, game: Game, late: list[SeatRecord], strikes: int
    ) -> Outcome:
        """The last human seat timed out for good: AIs playing each other to a "winner" would be
        a result nobody earned, so the game is abandoned (no winner, never rated)."""
        who = " and ".join(f"{{{s.seat}}}" for s in late)
        times = "once" if strikes == 1 else f"{strikes} times in a row"
        event = Event(
            "abandon",
            f"{who} timed out {times} and no player is left at the table: "
            "the game is abandoned (nobody wins, nothing is rated).",
        )
        why = unfinished(f"Abandoned: {who} timed out {times} and no player was left.")
        await self.db.games.save(
            rec.id, rec.version, status="abandoned", clear_timers=True, result=why, announce=dicts([event])
        )
        log.info("game %s abandoned: no human seat left after timeouts", rec.id)
        return Outcome(await self.db.games.load(rec.id), game, [event])

    async def _remind(self, game_id: int) -> Outcome | None:
        """Half the turn time is gone (or, in a long turn, all but its last eighth): queue a
        reminder for the humans who still owe a move."""
        async with self.lock(game_id):
            rec = await self.db.games.load(game_id)
            deadline = await self.db.timers.deadline(game_id, REMIND_TIMER)
            if deadline is None or deadline > self._clock() + 0.001:
                return None
            await self.db.timers.clear(game_id, REMIND_TIMER)
            if rec.status != "active":
                return None
            game = await self._game_at(rec)
            humans = {s.seat for s in rec.seats if not s.is_ai}
            owing = [p for p in game.to_act() if p in humans]
            if game.is_over or not owing:
                return None
            reminder = Event(TURN_EVENT, "", data={"seats": owing, "reminder": True})
            await self.db.outbox.queue(rec.id, dicts([reminder]))
            last = last_reminder(
                await self.db.timers.deadline(game_id, TURN_TIMER),
                (await self.settings(rec.guild_id)).turn_timeout(rec.kind),
            )
            if last is not None and last > deadline + 1:  # this was the half-way one: one more near the end
                await self.db.timers.set(game_id, REMIND_TIMER, last)
            return Outcome(rec, game, [reminder])

    async def _close_unstarted_lobby(self, game_id: int) -> Outcome | None:
        async with self.lock(game_id):
            rec = await self.db.games.load(game_id)
            deadline = await self.db.timers.deadline(game_id, LOBBY_TIMER)
            if deadline is None:
                return None
            if rec.status != "lobby":  # started or closed meanwhile: the timer is left over
                await self.db.timers.clear(game_id, LOBBY_TIMER)
                return None
            if deadline > self._clock() + 0.001:
                return None  # not due yet; the scheduler will come back
            text = (
                f"⌛ This lobby closed because nobody started it within {duration_text(deadline - rec.created_at)}. "
                "Open a new one with `/game new`."
            )
            closed = Event("lobby_timeout", text)
            await self.db.games.save(
                rec.id, rec.version, status="cancelled", clear_timers=True, announce=dicts([closed])
            )
            log.info("game %s: the lobby closed, nobody started it in time", rec.id)
            return Outcome(await self.db.games.load(rec.id), events=[closed])


# A turn at least this long (a correspondence game) gets a second reminder near its end.
LONG_TURN = 4 * 3600


def last_reminder(turn_deadline: float | None, timeout: float) -> float | None:
    """When a long turn's last reminder is due: with an eighth of the time left (3 hours of a
    day, 21 hours of a week). None for a short turn: its half-way reminder is enough."""
    if turn_deadline is None or timeout < LONG_TURN:
        return None
    return turn_deadline - timeout / 8
