"""A delivery keys every seat's private prompt against one public view (sessions.snapshot's
``public_view``): the key is the one the earlier formula gave (each seat building its own
public view, its choices taken from the labelled private actions), at every step of whole
seeded games, so a key stored before an upgrade, or carried by a private button, stays valid."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable

import pytest

import engine.farkle as farkle
import engine.flagon as flagon
import engine.ninesons as ninesons
from cogs.prompts import private_actions, prompt_key
from engine import Game

SEATS = {"flagon": ["p1", "p2", "p3"], "farkle": ["p1", "p2", "p3"], "ninesons": ["p1", "p2"]}
NEW_GAME: dict[str, Callable[..., Game]] = {
    "flagon": flagon.new_game,
    "farkle": farkle.new_game,
    "ninesons": ninesons.new_game,
}


def earlier_prompt_key(game, seat: str) -> str:
    mine, public = game.view(seat), game.view(None)
    private = {k: v for k, v in mine.items() if public.get(k) != v}
    choices = [a for a, _ in private_actions(game, seat)]
    blob = json.dumps([private, choices], sort_keys=True, default=str)
    return hashlib.sha1(blob.encode(), usedforsecurity=False).hexdigest()


@pytest.mark.parametrize("kind", list(SEATS))
def test_a_shared_public_view_gives_the_keys_of_the_earlier_formula(kind):
    game = NEW_GAME[kind](SEATS[kind], 11)
    rng = random.Random(5)
    keys = set()
    for _ in range(150):
        if game.is_over:
            break
        public = game.view(None)
        for seat in SEATS[kind]:
            key = prompt_key(game, seat, public)
            assert key == earlier_prompt_key(game, seat) == prompt_key(game, seat)
            keys.add(key)
        player = rng.choice(game.to_act())
        game.play(player, rng.choice(game.legal_actions(player)))
    if kind != "ninesons":  # no secrets there: one key per seat all game
        assert len(keys) > 10  # the keys moved with the game: the comparison saw many states
