"""One value per delivery: everything the Discord layer draws a saved change from.

A click used to have each step of its announcement pull its own inputs (the outbox loaded the
game, the presenter read the turn deadline and the action log, the pings the deadline again,
each seat message the record again). The outbox now takes one :class:`Snapshot` under the game's
delivery lock and hands it to the presenter, the pings and the seat messages, which read nothing else
from storage about the game.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from engine import Game
from sessions.settings import GuildSettings
from storage import ActionRow, Announcement, Database, GameRecord, LoggedAction

TURN_TIMER = "turn"
LOBBY_TIMER = "lobby"
KEPT = 4096  # games whose last saved facts are kept (the least recently saved leave first)
T = TypeVar("T")


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
    _public: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    def public_view(self) -> dict[str, Any]:
        """``game.view(None)``, built once per snapshot (each seat's prompt key compares its own
        view with it: ~0.3 ms per seat per delivery in Flagon). Read it, never change it."""
        assert self.game is not None, "a started game has a view"
        if self._public is None:
            self._public = self.game.view(None)
        return self._public

    @property
    def running(self) -> bool:
        """Started, not ended: the board shows whose move it is and its controls."""
        return self.record.status == "active" and self.game is not None and not self.game.is_over


class AtVersion(Generic[T]):
    """One fact per game as this process saved it, valid at that saved version only (every
    save raises the version, so a matching version means the same game: sessions.live)."""

    def __init__(self, capacity: int = KEPT) -> None:
        self.capacity = capacity
        self._facts: OrderedDict[int, tuple[int, T]] = OrderedDict()

    def get(self, game_id: int, version: int) -> T | None:
        kept = self._facts.get(game_id)
        return kept[1] if kept is not None and kept[0] == version else None

    def put(self, game_id: int, version: int, fact: T) -> None:
        self._facts[game_id] = (version, fact)
        self._facts.move_to_end(game_id)
        while len(self._facts) > self.capacity:
            self._facts.popitem(last=False)


class SavedFacts:
    """What the service knows of the versions it saved itself, so a snapshot of them need
    not read it back: the turn deadline a move saved with itself, and the public moves played
    (the previous count, plus the move just saved). Anything else is read from storage."""

    def __init__(self) -> None:
        self.deadlines: AtVersion[float] = AtVersion()
        self.moves: AtVersion[int] = AtVersion()

    def saved(
        self,
        game: Game,
        game_id: int,
        before: int,
        after: int,
        row: ActionRow,
        timers: dict[str, float | None] | None,
    ) -> None:
        """An action ``row`` moved the game from version ``before`` to ``after``."""
        moves = self.moves.get(game_id, before)
        if moves is not None:
            public = row.source != "system" and not game.is_private_action(row.seat, row.action)
            self.moves.put(game_id, after, moves + public)
        deadline = (timers or {}).get(TURN_TIMER)
        if deadline is not None:  # set in the save itself, so it is the deadline of this version
            self.deadlines.put(game_id, after, deadline)

    async def deadline(self, db: Database, rec: GameRecord, game: Game | None) -> float | None:
        if rec.status == "lobby":
            return await db.timers.deadline(rec.id, LOBBY_TIMER)
        if rec.status == "active" and game is not None and not game.is_over:
            known = self.deadlines.get(rec.id, rec.version)
            return known if known is not None else await db.timers.deadline(rec.id, TURN_TIMER)
        return None

    async def moves_played(self, db: Database, rec: GameRecord, game: Game) -> int:
        known = self.moves.get(rec.id, rec.version)
        if known is None:
            known = moves_played(game, await db.log.of_game(rec.id))
            self.moves.put(rec.id, rec.version, known)
        return known


def moves_played(game: Game, logged: list[LoggedAction]) -> int:
    """The public moves logged so far. Private choices (a planned card, a Magic Item used in
    secret) are left out, so the count says nothing about them; so are the system's entries
    (a resignation). The built-in engines tell a private action by its notation alone."""
    return sum(1 for a in logged if a.source != "system" and not game.is_private_action(a.seat, a.action))
