"""Helpers for the Dragon Farkle tests: scripted dice and state setup (a support module, not tests)."""

from __future__ import annotations

from typing import Any

from engine.farkle import FarkleGame, new_game
from engine.farkle.rules import EVENT_FACES

FACE_INDEX = {
    "blank": EVENT_FACES.index("blank"),
    "dragon": EVENT_FACES.index("dragon"),
    "rally": EVENT_FACES.index("rally"),
}


class ScriptedRng:
    """Stands in for engine.rng.Rng: soldier dice and Event faces come from scripts.

    ``rolls`` is a list of (dice, face) pairs consumed one per roll; extra die() calls (rerolls)
    take values from ``spare``. Shuffles are no-ops so deck order is what the test set.
    """

    def __init__(self, rolls: list[tuple[list[int], str]], spare: list[int] | None = None) -> None:
        self.dice: list[int] = []
        self.faces: list[int] = []
        for dice, face in rolls:
            self.dice += dice
            self.faces.append(FACE_INDEX[face])
        self.dice += spare or []
        self.state = 0

    def die(self, sides: int = 6) -> int:
        return self.dice.pop(0)

    def below(self, n: int) -> int:
        return self.faces.pop(0)

    def shuffle(self, seq: Any) -> None:
        pass

    def to_dict(self) -> int:
        return self.state


def setup(
    rolls: list[tuple[list[int], str]] | None = None,
    players: tuple[str, ...] = ("p1", "p2"),
    armies: dict[str, int] | None = None,
    hands: dict[str, list[str]] | None = None,
    companions: dict[str, str] | None = None,
    spare: list[int] | None = None,
    **options: Any,
) -> FarkleGame:
    """A game where p1 is to act, with the given armies, items and companions.

    By default every player holds no item and a Companion without an active ability
    (Peddler: it only acts before choosing an action), so rolls resolve without pauses."""
    options.setdefault("first_player", "lobby")
    g = new_game(list(players), seed=1, **options)
    s = g.s
    for p in players:
        s["hands"][p] = []
        s["companions"][p] = "peddler"
    if armies:
        s["armies"].update(armies)
    if hands:
        s["hands"].update({p: list(v) for p, v in hands.items()})
    if companions:
        s["companions"].update(companions)
    g._start_turn()
    g.rng = ScriptedRng(rolls or [], spare)  # type: ignore[assignment]
    return g


def script(g: FarkleGame, rolls: list[tuple[list[int], str]], spare: list[int] | None = None) -> None:
    g.rng = ScriptedRng(rolls, spare)  # type: ignore[assignment]


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]
