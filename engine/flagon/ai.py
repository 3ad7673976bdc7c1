"""Placeholder AI (replaced below)."""

from __future__ import annotations

import random

from engine.base import Game


def choose_action(game: Game, player: str, level: str, seed: int) -> str:
    acts = game.legal_actions(player)
    return random.Random(seed).choice(acts)
