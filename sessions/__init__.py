"""Discord-free game sessions: the layer between the bot's cogs and engine + storage."""

from sessions.errors import NotAllowed, SessionError, StaleAction
from sessions.service import Actor, GameService, Hint, Outcome, event_names, parse_options, unknown_game
from sessions.settings import SETTINGS, GuildSettings, parse_setting

__all__ = [
    "SETTINGS",
    "Actor",
    "GameService",
    "GuildSettings",
    "Hint",
    "NotAllowed",
    "Outcome",
    "SessionError",
    "StaleAction",
    "event_names",
    "parse_options",
    "parse_setting",
    "unknown_game",
]
