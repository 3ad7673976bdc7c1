"""Issue 29: every game that starts can end. Over every built-in game's lobby options and seat
counts, a game is either refused at the start with a sentence saying why, or a bounded random
playout reaches a result. And a search over the Dragon Farkle options that decide whether the
dragon can be slain: every combination in which nobody can win is refused."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogs.plugins import load_plugins
from engine import registry
from engine.base import InvalidSetup, OptionSpec
from engine.farkle import FarkleGame
from tests.engine.farkle_support import setup

load_plugins(ui=False)
GAMES = ("farkle", "ninesons", "flagon")
PLY_LIMIT = 20_000  # far above the longest random game seen (about 2,500 plies of Farkle)
EXAMPLES = {"farkle": 25, "ninesons": 25, "flagon": 15}  # about 15 s in all on a busy machine


def option_values(spec: OptionSpec) -> st.SearchStrategy[Any]:
    """The values the lobby accepts for one option, its boundaries drawn often."""
    if isinstance(spec.default, bool):
        return st.booleans()
    if spec.choices:
        return st.sampled_from(list(spec.choices))
    if spec.minimum is not None and spec.maximum is not None:
        edges = sorted({spec.minimum, spec.default, spec.maximum})
        return st.one_of(st.sampled_from(edges), st.integers(spec.minimum, spec.maximum))
    return st.just(spec.default)


@st.composite
def lobbies(draw: st.DrawFn, game: str) -> tuple[list[str], dict[str, Any]]:
    cls = registry.get(game).game_class
    players = [f"p{i}" for i in range(1, draw(st.integers(cls.MIN_PLAYERS, cls.MAX_PLAYERS)) + 1)]
    options = {spec.name: draw(option_values(spec)) for spec in cls.OPTIONS}
    if game == "flagon" and options["team"]:  # the lobby's team picks ride along with the options
        options["teams"] = draw(st.dictionaries(st.sampled_from(players), st.sampled_from("AB")))
    return players, options


def is_a_sentence(message: str) -> bool:
    return len(message) > 20 and message[0].isupper() and message.rstrip().endswith((".", ")"))


def playout(game: str, players: list[str], options: dict[str, Any], seed: int) -> int | None:
    """Plies a random playout took to reach a result, or None when the game was refused (the
    refusal's sentence is checked here)."""
    try:
        g = registry.get(game).new_game(players, seed, **options)
    except InvalidSetup as refused:
        assert is_a_sentence(str(refused)), (game, options, str(refused))
        return None
    pick = random.Random(seed)
    plies = 0
    # a Farkle table may ask for up to 1,000 rounds with a dragon nobody can hurt: allow for them
    limit = PLY_LIMIT + 40 * int(options.get("max_rounds", 0)) * len(players)
    while not g.is_over:
        assert plies < limit, f"{game} {len(players)} players {options}: no result after {plies} plies"
        who = g.to_act()[0]
        g.play(who, pick.choice(g.legal_actions(who)))
        plies += 1
    assert g.result is not None
    return plies


@pytest.mark.parametrize("game", GAMES)
def test_every_game_that_starts_can_end_or_is_refused_with_a_sentence(game):
    @settings(
        max_examples=EXAMPLES[game], deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
    )
    @given(lobby=lobbies(game), seed=st.integers(0, 2**16))
    def check(lobby: tuple[list[str], dict[str, Any]], seed: int) -> None:
        players, options = lobby
        playout(game, players, dict(options), seed)

    check()


# -------------------------------------------------------------- Dragon Farkle: can anyone win?

# The options that decide whether a Final Battle can deal the dragon's 3 damage.
BATTLE_OPTIONS = {
    "battle_dragon_damage": (0, 1, 2, 3),
    "battle_rally_damage": (0, 1, 2, 3),
    "battle_score_all": (True, False),
    "battle_rally_item": (True, False),
    "dragon_eats": ("roll", "turn"),
    "max_rounds": (0, 1),
}
NO_SCORE = [2, 2, 3, 3, 4, 6]  # a roll without scoring dice: in the Keep only the Event die counts


def slays_the_dragon(options: dict[str, Any]) -> bool:
    """The best case: a 5,000 army enters the Keep and rolls only one Event face, four times over
    (Dragon, or Rally), never a scoring die. Does any of the two slay the dragon?"""
    for face in ("dragon", "rally"):
        g: FarkleGame = setup([(NO_SCORE, face)] * 4, armies={"p1": 5000}, **options)
        g.play("p1", "battle")
        for _ in range(12):  # roll on; a drawn Magic Item is accepted, never used
            legal = g.legal_actions("p1") if g.to_act() == ["p1"] else []
            move = next((a for a in ("roll", "accept") if a in legal), None)
            if g.is_over or move is None:
                break
            g.play("p1", move)
        if g.is_over and g.s["winner"] == "p1":
            return True
    return False


def test_every_farkle_option_set_in_which_nobody_can_win_is_refused():
    refused = []
    for values in itertools.product(*BATTLE_OPTIONS.values()):
        options = dict(zip(BATTLE_OPTIONS, values, strict=True))
        try:
            registry.get("farkle").new_game(["p1", "p2"], 1, **options)
        except InvalidSetup as why:
            assert is_a_sentence(str(why)) and "max_rounds" in str(why)
            refused.append(options)
            continue
        assert options["max_rounds"] or slays_the_dragon(options), f"nobody can win with {options}"
    # what was refused is exactly what cannot be won: no damage at all and no round limit
    assert refused and all(
        not o["battle_dragon_damage"] and not o["battle_rally_damage"] and not o["max_rounds"]
        for o in refused
    )
    assert len(refused) == 2 * 2 * 2  # every such set, whatever the other battle options
