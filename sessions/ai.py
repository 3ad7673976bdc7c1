"""AI seats: after a change they act until a human must act or the game ends (then it is
finished, else the turn timer is re-armed); a late player's seat is played by the easy AI.
"""

from __future__ import annotations

import asyncio
import logging

from engine import Event, Game, registry
from sessions.core import MAX_AUTOMATIC_ACTIONS, Outcome, ServiceCore, dicts
from storage import ActionRow, GameRecord, SeatRecord

log = logging.getLogger("dragon_tavern.sessions.service")


class AiSeats(ServiceCore):
    """AI seats act after every change, until a human must act or the game ends; the seats of
    late players are played by the easy AI when their turn times out."""

    async def _after_change(
        self,
        rec: GameRecord,
        game: Game,
        events: list[Event],
        *,
        previous_to_act: list[str],
        secret: bool = False,
    ) -> Outcome:
        """Let AI seats act, finish the game if it ended, and re-arm the turn timer. ``events``
        were queued for announcing with the save that caused them; so are the AI seats'."""
        info = registry.get(rec.kind)
        guard = 0
        while not game.is_over and guard < MAX_AUTOMATIC_ACTIONS:
            ai_seat = self._ai_to_act(rec.seats, game)
            if ai_seat is None:
                break
            guard += 1
            assert ai_seat.ai_level is not None
            action = await asyncio.to_thread(
                info.choose_ai_action,
                game,
                ai_seat.seat,
                ai_seat.ai_level,
                (rec.seed + rec.version) & (2**62 - 1),
            )
            before = game.to_act()
            played = game.play(ai_seat.seat, action)
            events = events + played
            rec = await self._save_action(
                rec, game, ActionRow(ai_seat.seat, action, "ai"), None, played, before
            )
        if guard >= MAX_AUTOMATIC_ACTIONS:
            log.error("game %s: AI seats acted %s times in a row; stopping", rec.id, guard)
        if game.is_over and game.result is not None:
            rec = await self._finish(rec, game, game.result.to_dict())
        else:
            await self._arm_turn_timer(rec, game, previous_to_act, secret)
        return Outcome(rec, game, events)

    @staticmethod
    def _ai_to_act(seats: list[SeatRecord], game: Game) -> SeatRecord | None:
        """The first AI seat that must act now, if any."""
        to_act = game.to_act()
        return next((s for s in seats if s.is_ai and s.seat in to_act), None)

    async def _act_for_late(
        self,
        rec: GameRecord,
        game: Game,
        late: list[SeatRecord],
        events: list[Event],
        seats: list[SeatRecord],
    ) -> GameRecord:
        """Act for the late seats (easy AI) until they have nothing left to do now; the strike
        lines in ``events`` and the new ``seats`` are saved with the first action."""
        info = registry.get(rec.kind)
        unsaved = list(events)
        unsaved_seats: list[SeatRecord] | None = seats
        for seat in late:
            guard = 0
            while not game.is_over and seat.seat in game.to_act() and guard < MAX_AUTOMATIC_ACTIONS:
                guard += 1
                action = await asyncio.to_thread(
                    info.choose_ai_action, game, seat.seat, "easy", rec.seed ^ rec.version
                )
                before = game.to_act()
                played = game.play(seat.seat, action)
                events += played
                rec = await self._save_action(
                    rec,
                    game,
                    ActionRow(seat.seat, action, "timeout"),
                    unsaved_seats,
                    unsaved + played,
                    before,
                )
                unsaved_seats, unsaved = None, []  # saved with the first action
        if unsaved_seats is not None:
            await self.db.games.save(rec.id, rec.version, seats=unsaved_seats, announce=dicts(unsaved))
            rec = await self.db.games.load(rec.id)
        return rec
