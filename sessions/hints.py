"""Hints: the strongest AI's suggestion for a player's own move, for them alone (in a rated
game it costs them the rating of that game, once they confirm).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from engine import Event, registry
from sessions.core import Actor, ServiceCore, dicts
from sessions.errors import NotAllowed, SessionError
from sessions.ratings import is_rated
from storage import GameRecord

log = logging.getLogger("dragon_tavern.sessions.service")


@dataclass
class Hint:
    """The AI's suggestion for a player's move (``action`` None: confirmation needed first)."""

    record: GameRecord
    seat: str
    action: str | None
    description: str
    level: str = ""
    needs_confirmation: bool = False
    unrated_now: bool = False  # this hint made the game unrated for the asker


class Hints(ServiceCore):
    """The strongest AI's suggestion for a player's own move."""

    async def hint(self, game_id: int, actor: Actor, *, confirmed: bool = False) -> Hint:
        """The strongest AI's suggestion for the actor's own move, for them alone. In a rated
        game (server setting ``hints=all``) it makes the game unrated for them: unless
        ``confirmed``, nothing is computed and the Hint only asks for that confirmation."""
        async with self.lock(game_id):
            rec = await self._running(game_id)
            seat = rec.seat_of_user(actor.user_id)
            if seat is None:
                raise NotAllowed("Hints are for the players of this game.")
            mode = (await self.settings(rec.guild_id))["hints"]
            rated = is_rated(rec.options)
            if mode == "off":
                raise NotAllowed(
                    "Hints are turned off in this server (an admin can change `hints` in /config)."
                )
            if mode == "casual" and rated:
                raise NotAllowed(
                    "Hints are for unrated games in this server, and this game is rated. "
                    "Start a game with `options: rated=off` to use them."
                )
            game = await self._game_at(rec)
            if seat.seat not in game.to_act():
                raise SessionError("It isn't your move: a hint is for a move you have to make now.")
            already = seat.seat in await self.db.ratings.unrated_seats(rec.id)
            costs_rating = rated and not already
            if costs_rating and not confirmed:
                return Hint(rec, seat.seat, None, "", needs_confirmation=True)
            info = registry.get(rec.kind)
            level = info.ai_levels[-1]
            action = await asyncio.to_thread(
                info.choose_ai_action, game, seat.seat, level, (rec.seed + rec.version + 1) & (2**62 - 1)
            )
            if costs_rating and await self.db.ratings.mark_unrated(rec.id, seat.seat, "hint"):
                # Everyone at the table sees that the game stopped counting for this player.
                event = Event(
                    "hint", f"💡 {{{seat.seat}}} took a hint: this game no longer counts for their rating."
                )
                await self.db.outbox.queue(rec.id, dicts([event]))
                log.info("game %s: seat %s took a hint (unrated for them)", rec.id, seat.seat)
            return Hint(
                rec,
                seat.seat,
                action,
                game.describe_action(seat.seat, action),
                level=level,
                unrated_now=costs_rating,
            )
