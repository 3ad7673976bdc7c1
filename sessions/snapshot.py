"""One value per delivery: everything the Discord layer draws a saved change from.

A click used to have each step of its announcement pull its own inputs (the outbox loaded the
game, the presenter read the turn deadline and the action log, the pings the deadline again,
each hand the record again). The outbox now takes one :class:`Snapshot` under the game's
delivery lock and hands it to the presenter, the pings and the hands, which read nothing else
from storage about the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Game
from sessions.settings import GuildSettings
from storage import Announcement, Database, GameRecord, LoggedAction

TURN_TIMER = "turn"
LOBBY_TIMER = "lobby"


@dataclass
class Snapshot:
    """A game as saved, with what drawing it needs.

    ``deadline``: when the running turn times out, or when the open lobby closes (None
    without one). ``moves_played``: the public moves logged so far, for a running game's
    board (None once it ended or before it started). ``pending``: the announcements this
    delivery works through (empty when the snapshot only draws a board)."""

    record: GameRecord
    game: Game | None
    settings: GuildSettings
    deadline: float | None = None
    moves_played: int | None = None
    pending: list[Announcement] = field(default_factory=list)
    superseded: bool | None = None  # a newer version was saved meanwhile (checked once, when asked)

    @property
    def running(self) -> bool:
        """Started, not ended: the board shows whose move it is and its controls."""
        return self.record.status == "active" and self.game is not None and not self.game.is_over


async def deadline_of(db: Database, rec: GameRecord, game: Game | None) -> float | None:
    if rec.status == "lobby":
        return await db.timer(rec.id, LOBBY_TIMER)
    if rec.status == "active" and game is not None and not game.is_over:
        return await db.timer(rec.id, TURN_TIMER)
    return None


def moves_played(game: Game, logged: list[LoggedAction]) -> int:
    """The public moves logged so far. Private choices (a planned card, a Magic Item used in
    secret) are left out, so the count says nothing about them; so are the system's entries
    (a resignation). The built-in engines tell a private action by its notation alone."""
    return sum(1 for a in logged if a.source != "system" and not game.is_private_action(a.seat, a.action))
