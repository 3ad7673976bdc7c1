"""Errors a session raises; each message is shown privately to the person who caused it."""

from __future__ import annotations


class SessionError(Exception):
    """A request that cannot be done; ``str(err)`` is readable by the user."""


class NotAllowed(SessionError):
    """The user may not do this (not seated, not the host, missing permission)."""


class StaleAction(SessionError):
    """A click on an old board: the game has moved on since that message was drawn."""
