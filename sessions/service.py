"""The Discord-free game service: one object the bot holds, made of its parts by concern.

- :mod:`sessions.core`: storage, the per-game lock, server settings, loading a game and the
  snapshot the Discord layer draws from, saving an action or a game's end;
- :mod:`sessions.lobby`: open lobbies (create, join, leave, teams, AI seats, start, cancel);
- :mod:`sessions.play`: a player's move and resigning;
- :mod:`sessions.ai`: AI seats acting after a change, and for late players;
- :mod:`sessions.timeouts`: what a turn, reminder or lobby timer does when it runs out;
- :mod:`sessions.hints`: the AI's suggestion for a player's own move.

The parts log as ``dragon_tavern.sessions.service``, as the one module did (an operator's
log filters keep working). Callers reach storage itself as ``service.db`` (the Discord layer as ``bot.db``): the service
has no methods that only pass a storage call on.
"""

from __future__ import annotations

from sessions.core import (
    LOBBY_TIMER,
    NOTIFY_CHOICES,
    REMIND_TIMER,
    TIMER_PURPOSES,
    TURN_EVENT,
    TURN_TIMER,
    Actor,
    Outcome,
    event_names,
)
from sessions.hints import Hint, Hints
from sessions.lobby import CHANNEL_BUSY, Lobby, parse_options, unknown_game
from sessions.play import Play
from sessions.timeouts import Timeouts


class GameService(Lobby, Play, Timeouts, Hints):
    """Lobbies, moves, AI seats, timeouts and hints of every game, on one storage."""


__all__ = [
    "CHANNEL_BUSY",
    "LOBBY_TIMER",
    "NOTIFY_CHOICES",
    "REMIND_TIMER",
    "TIMER_PURPOSES",
    "TURN_EVENT",
    "TURN_TIMER",
    "Actor",
    "GameService",
    "Hint",
    "Outcome",
    "event_names",
    "parse_options",
    "unknown_game",
]
