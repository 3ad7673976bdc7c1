"""The running games that wait for one member, in every server (``/game mine``): a member of a
few slow games (a move a day) needs one place that says where it is their move."""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine import Game
from sessions.service import GameService
from storage import GameDamaged, GameRecord


@dataclass(frozen=True)
class Waiting:
    """A game in which ``seat`` (the member's) must act now; ``deadline``: when the turn times
    out (epoch seconds), None without a turn timer."""

    record: GameRecord
    game: Game
    seat: str
    deadline: float | None


async def games_of(service: GameService, user_id: int) -> tuple[list[Waiting], list[GameRecord]]:
    """The running games that wait for the member (the soonest deadline first), and the other
    running games they play in (waiting for someone else). A seat an AI took over is not theirs
    any more; a damaged game is left out (its channel was told)."""
    waiting: list[Waiting] = []
    others: list[GameRecord] = []
    for listed in await service.db.games.find(statuses=("active",), user_id=user_id):
        seat = listed.seat_of_user(user_id)
        if seat is None or seat.is_ai:
            continue
        try:
            rec, game = await service.load(listed.id)
        except GameDamaged:
            continue
        if game is None or rec.status != "active":
            continue
        if seat.seat in game.to_act():
            waiting.append(Waiting(rec, game, seat.seat, await service.db.timers.deadline(rec.id, "turn")))
        else:
            others.append(rec)
    waiting.sort(key=lambda w: (math.inf if w.deadline is None else w.deadline, w.record.id))
    return waiting, others
