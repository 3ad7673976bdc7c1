"""Copies of a game are exact and independent at every step of a game (issue 25, round 8).

Farkle and Flagon copy their state through JSON (engine.base.copy_state) and Nine Sons shares
its log's tuples: a copy must still equal the original (``to_dict()``) and continue on its own,
whichever of the two plays next. copy_state is exact only for JSON data with no tuple, so the
states themselves are checked to be exactly that at every step.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from typing import Any

import orjson
import pytest

from engine import Game
from engine.base import copy_state
from engine.farkle import FarkleGame
from engine.farkle import new_game as new_farkle
from engine.flagon import new_game as new_flagon
from engine.ninesons import new_game as new_ninesons

GAMES: dict[str, tuple[Callable[..., Game], int]] = {
    "farkle": (new_farkle, 3),
    "ninesons": (new_ninesons, 2),
    "flagon": (new_flagon, 4),
}  # players


def _json_exact(x: Any, path: str = "state") -> None:
    """Only what JSON holds as it is: str keys, lists (no tuple), str, int (64 bits), float, bool, None."""
    if isinstance(x, dict):
        for k, v in x.items():
            assert isinstance(k, str), f"{path}: key {k!r} is not a str"
            _json_exact(v, f"{path}.{k}")
    elif isinstance(x, list):
        for i, v in enumerate(x):
            _json_exact(v, f"{path}[{i}]")
    else:
        assert x is None or isinstance(x, str | int | float | bool), f"{path}: {type(x).__name__}"
        assert not isinstance(x, int) or -(2**63) <= x < 2**64, f"{path}: {x} is past 64 bits"


def _random_move(game: Game, rnd: random.Random) -> tuple[str, str]:
    seat = rnd.choice(sorted(game.to_act()))
    return seat, rnd.choice(game.legal_actions(seat))


@pytest.mark.parametrize("kind", list(GAMES))
def test_a_copy_is_equal_and_independent_at_every_step(kind: str) -> None:
    new_game, players = GAMES[kind]
    for seed in range(3):
        rnd = random.Random(seed)
        game = new_game([f"p{i}" for i in range(1, players + 1)], seed)
        for _ in range(400):
            if game.is_over:
                break
            state = game.to_dict()
            _json_exact(state)
            assert orjson.loads(orjson.dumps(state)) == state
            copied = game.copy()
            assert type(copied) is type(game) and copied.to_dict() == state
            # the replay GIF's worker process gets games pickled
            assert pickle.loads(pickle.dumps(copied)).to_dict() == state
            seat, action = _random_move(game, rnd)
            # the copy plays: the original is unchanged ...
            other = game.copy()
            assert [e.to_dict() for e in copied.play(seat, action)] == [
                e.to_dict() for e in other.play(seat, action)
            ]
            assert game.to_dict() == state
            after = copied.to_dict()
            assert other.to_dict() == after
            # ... and the original plays: the copy is unchanged.
            game.play(seat, action)
            assert game.to_dict() == after and copied.to_dict() == after
            for p in game.players:
                assert copied.legal_actions(p) == game.legal_actions(p)
            assert copied.view(None) == game.view(None)


def test_copy_state_falls_back_for_what_json_cannot_hold() -> None:
    for value in ({1: "a", "b": [2]}, {"big": 2**70}, {"neg": -(2**64)}, {"set": {1, 2}}):
        copied = copy_state(value)
        assert copied == value and copied is not value
        assert type(next(iter(copied))) is type(next(iter(value)))  # an int key stays an int


def test_copy_state_is_deep() -> None:
    value: dict[str, Any] = {"a": [1, {"b": [2, 3]}], "c": None, "d": 1.5, "e": 2**64 - 1}
    copied = copy_state(value)
    assert copied == value
    copied["a"][1]["b"].append(4)
    assert value["a"][1]["b"] == [2, 3]


def test_a_farkle_move_refused_halfway_changes_nothing() -> None:
    """``play`` keeps a JSON copy of the state to put back when a joined move fails halfway."""
    rnd = random.Random(7)
    game: FarkleGame = new_farkle(["p1", "p2"], 7)
    checked = 0
    for _ in range(300):
        if game.is_over:
            break
        seat = game.to_act()[0]
        for keep in [a for a in game.legal_actions(seat) if a.startswith("keep:")]:
            after = game.after(seat, keep)
            if after is not None and "roll" not in after.legal_actions(seat):
                before = game.to_dict()
                with pytest.raises(Exception, match="cannot follow"):
                    game.play(seat, f"{keep}+roll")
                assert game.to_dict() == before
                checked += 1
        game.play(*_random_move(game, rnd))
    assert checked, "no joined move was refused halfway in these games"
