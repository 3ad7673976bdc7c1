"""What a seat may do privately right now, and the token that dates a private prompt.

Private components carry :func:`prompt_token`: a digest of what that seat alone sees and may
choose now. A click whose token no longer matches is refused and answered with the current
prompt (an old item prompt must never act on a newer roll); moves of others that change
nothing private keep it valid, so simultaneous planning is not disturbed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from engine import Game
from render.text import fill_names

TOKEN_LENGTH = 8  # hex digits of the prompt key carried in custom_ids


def private_actions(game: Game, seat_id: str, names: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """(action, label) of ``seat_id``'s private choices now; labels name players via ``names``."""
    if game.is_over or seat_id not in game.to_act():
        return []
    return [(a, fill_names(game.describe_action(seat_id, a), names or {})) for a in game.legal_actions(seat_id)
            if game.is_private_action(seat_id, a)]


def must_act_privately(game: Game, seat: str) -> bool:
    """The seat must act now and every choice it has is secret (a plan, a hidden reaction):
    its private prompt, not the board, is where it acts."""
    if game.is_over or seat not in game.to_act():
        return False
    legal = game.legal_actions(seat)
    return bool(legal) and all(game.is_private_action(seat, a) for a in legal)


def prompt_key(game: Game, seat: str, public: Mapping[str, Any] | None = None) -> str:
    """A digest of what only ``seat`` sees and may choose now: the parts of its view that
    differ from the public one, and its secret choices. ``public``: ``game.view(None)`` when
    the caller has it (a delivery keys every seat against the same one)."""
    mine = game.view(seat)
    if public is None:
        public = game.view(None)
    private = {k: v for k, v in mine.items() if public.get(k) != v}
    choices = (
        []
        if game.is_over or seat not in game.to_act()
        else [a for a in game.legal_actions(seat) if game.is_private_action(seat, a)]
    )
    blob = json.dumps([private, choices], sort_keys=True, default=str)
    return hashlib.sha1(blob.encode(), usedforsecurity=False).hexdigest()


def prompt_token(game: Game, seat: str) -> str:
    """The short form of :func:`prompt_key` that private components carry."""
    return prompt_key(game, seat)[:TOKEN_LENGTH]
