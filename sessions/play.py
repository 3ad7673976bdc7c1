"""Playing a running game: a player's move (checked against the board it was made on) and resigning."""

from __future__ import annotations

from dataclasses import replace

from engine import Event, IllegalAction
from sessions.ai import AiSeats
from sessions.core import LOBBY_TIMER, Actor, Outcome, dicts
from sessions.errors import NotAllowed, StaleAction
from storage import ActionRow


class Play(AiSeats):
    """Moves of a running game: a player's action, and resigning."""

    async def apply(
        self, game_id: int, actor: Actor, action: str, *, expected_version: int | None = None
    ) -> Outcome:
        """Apply ``action`` for the actor's seat. ``expected_version`` comes from the board the
        click was made on: an old board is refused, and a repeated click is recognised."""
        async with self.lock(game_id):
            rec = await self._running(game_id)
            seat = rec.seat_of_user(actor.user_id)
            if seat is None:
                raise NotAllowed("You are not playing in this game.")
            if expected_version is not None and expected_version != rec.version:
                # Only an older board can have been played already; a later version is forged.
                done = (
                    await self.db.log.at_version(rec.id, expected_version + 1)
                    if 0 <= expected_version < rec.version
                    else None
                )
                if done and done.seat == seat.seat and done.action == action:
                    return Outcome(rec, notice="Already done.", changed=False)
                raise StaleAction("That board is out of date: the game has moved on. Use the latest board.")
            game = await self._game_at(rec)
            if seat.seat not in game.to_act():
                raise IllegalAction("It is not your turn.")
            previous = game.to_act()
            secret = game.is_private_action(seat.seat, action)
            events = game.play(seat.seat, action)
            seats = None
            if seat.timeouts_in_a_row:
                seats = [replace(s, timeouts_in_a_row=0) if s.seat == seat.seat else s for s in rec.seats]
            row = ActionRow(seat.seat, action, "player", actor.user_id)
            if game.is_over or self._ai_to_act(rec.seats if seats is None else seats, game) is not None:
                rec = await self._save_action(rec, game, row, seats, events, previous)
                outcome = await self._after_change(rec, game, events, previous_to_act=previous, secret=secret)
            else:
                # The usual click: a human moves next. Its turn timer is saved with the action
                # (one transaction, one commit), and nothing else follows the save.
                timers = await self._turn_timers(rec, game, previous, secret)
                rec = await self._save_action(rec, game, row, seats, events, previous, timers=timers)
                # A running game has no lobby timer: with its turn timers, these are all of them.
                known = None if timers is None else {LOBBY_TIMER: None, **timers}
                outcome = Outcome(rec, game, events, timers=known)
            self._live.keep(outcome.record.id, outcome.record.version, game)
            return outcome

    async def resign(self, game_id: int, actor: Actor) -> Outcome:
        async with self.lock(game_id):
            rec = await self._running(game_id)
            seat = rec.seat_of_user(actor.user_id)
            if seat is None:
                raise NotAllowed("You are not playing in this game.")
            game = await self._game_at(rec)
            event = Event("resign", f"{{{seat.seat}}} resigned.")
            humans_left = [s for s in rec.seats if not s.is_ai and s.seat != seat.seat]
            if len(rec.seats) == 2 or not humans_left:
                winners = [s.seat for s in rec.seats if s.seat != seat.seat]
                result = {
                    "scores": {},
                    "ranking": [winners, [seat.seat]] if winners else [[seat.seat]],
                    "reason": f"{{{seat.seat}}} resigned.",
                }
                rec = await self._finish(
                    rec,
                    game,
                    result,
                    resigned={seat.seat},
                    action=ActionRow(seat.seat, "resign", "system", actor.user_id),
                    events=[event],
                )
                return Outcome(rec, game, [event])
            # Several players: an AI takes the seat so the others can play on.
            seats = [replace(s, ai_level="easy") if s.seat == seat.seat else s for s in rec.seats]
            event = Event("resign", f"{{{seat.seat}}} resigned; an AI plays their seat from here.")
            await self.db.games.save(
                rec.id,
                rec.version,
                actions=[ActionRow(seat.seat, "resign", "system", actor.user_id)],
                seats=seats,
                announce=dicts([event]),
            )
            rec = await self.db.games.load(rec.id)
            return await self._after_change(rec, game, [event], previous_to_act=game.to_act())
