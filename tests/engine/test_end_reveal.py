"""Once a game is over its public view reveals what was still hidden (``revealed``: player ->
lines): Farkle's Magic Items still held, Flagon's cards planned but never turned face up.
While the game runs the public view has no such key."""

from __future__ import annotations

import random

import pytest

from cogs.plugins import load_plugins
from engine import registry


def play_to_the_end(kind: str, seed: int, **options):
    load_plugins(ui=False)
    game = registry.get(kind).new_game(["p1", "p2"], seed, **options)
    rnd = random.Random(seed)
    for _ in range(5000):
        if game.is_over:
            return game
        assert "revealed" not in game.view(None)
        player = game.to_act()[0]
        game.play(player, rnd.choice(game.legal_actions(player)))
    raise AssertionError("the random game did not end")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_farkle_reveals_the_items_still_held(seed):
    game = play_to_the_end("farkle", seed, max_rounds=2)
    revealed = game.view(None)["revealed"]
    for player in ("p1", "p2"):
        mine = game.view(player)
        held = [i["name"] for i in mine["my_items"]] + [f"{i['name']} (new)" for i in mine["my_pending"]]
        if held or game.s["stuck"][player]:
            [line] = revealed[player]
            assert line.startswith("Magic Items: ") and all(name in line for name in held)
        else:
            assert revealed[player] == ["no Magic Item"]


@pytest.mark.parametrize("seed", [1, 5, 9])
def test_flagon_reveals_the_plans_still_face_down(seed):
    game = play_to_the_end("flagon", seed)
    public = game.view(None)
    names = public["card_names"]
    for player in ("p1", "p2"):
        planned = {
            cid: [names[card] for card in mine["slots"]]
            for cid, mine in game.view(player)["me"]["characters"].items()
            if mine["slots"]
        }
        lines = public["revealed"][player]
        if not planned:
            assert lines == ["no card left face down"]
        for cards in planned.values():
            assert any(line.endswith(f" planned {', '.join(cards)}") for line in lines), (planned, lines)
