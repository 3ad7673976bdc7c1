"""The engine contract (docs/engine.md), checked for every registered game.

Parametrised over the registry, so a game is tested by being registered (the built-in games and
the ``tally`` test double). Random playouts with random seats and options check, at every step:
someone acts while the game runs, ``legal_actions`` is sorted, without repeats, non-empty for
the players to act and empty for the others, labels fit a button, and no view shows another
player's secrets. At checkpoints: the JSON round trip and ``copy()`` are exact and independent
and continue like the original, refused moves change nothing. At the end: replay from seed +
action log gives the same state. Game-specific properties (dice, cards, reputation conserved…)
stay in the games' own ``test_*_props.py``.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogs.plugins import load_plugins
from engine import STATE_VERSION_KEY, Game, IllegalAction, InvalidSetup, registry
from engine.registry import GameInfo
from tests.doubles import tally

load_plugins(ui=False)
tally.install()  # parametrisation happens at collection, before the conftest fixture registers it
GAMES = registry.all_games()
NAMES = [info.name for info in GAMES]
SAVED_STATES = Path(__file__).parent / "saved_states"
BUTTON_LABEL_LIMIT = 80  # Discord's limit for a button label

# ---------------------------------------------------------------------------------- playouts
def _random_options(info: GameInfo, rnd: random.Random) -> dict[str, Any]:
    """Each option at its default half the time, else a value it allows."""
    options: dict[str, Any] = {}
    for spec in info.game_class.OPTIONS:
        if rnd.random() < 0.5:
            continue
        if spec.choices is not None:
            options[spec.name] = rnd.choice(spec.choices)
        elif isinstance(spec.default, bool):
            options[spec.name] = not spec.default
        elif isinstance(spec.default, int):
            ends = [v for v in (spec.minimum, spec.maximum) if v is not None]
            options[spec.name] = rnd.choice([spec.default, *ends])
    return options


def _new(info: GameInfo, seed: int) -> tuple[Game, list[str], dict[str, Any]]:
    rnd = random.Random(seed)
    cls = info.game_class
    players = [f"p{i + 1}" for i in range(rnd.randint(cls.MIN_PLAYERS, cls.MAX_PLAYERS))]
    options = _random_options(info, rnd)
    try:
        return info.new_game(players, seed, **options), players, options
    except InvalidSetup:  # e.g. a team game with too few players: the defaults always start
        return info.new_game(players, seed), players, {}


def _dump(game: Game) -> str:
    return json.dumps(game.to_dict(), sort_keys=True)


def _choose(game: Game, actions: list[str], rnd: random.Random) -> str:
    # Farkle: lean towards stopping so random games reach battles and an end.
    for leaning, odds in (("stop", 0.5), ("battle", 0.7)):
        if leaning in actions and rnd.random() < odds:
            return leaning
    return rnd.choice(actions)


def _check_step(game: Game) -> list[str]:
    """The every-step checks; returns the players to act."""
    who = game.to_act()
    assert who, "a running game always has someone to act"
    assert set(who) <= set(game.players)
    for p in game.players:
        actions = game.legal_actions(p)
        assert actions == sorted(actions), f"legal_actions({p}) not sorted"
        assert len(actions) == len(set(actions)), f"legal_actions({p}) repeats an action"
        if p in who:
            assert actions, f"{p} is to act but has no legal action"
        else:
            assert actions == [], f"{p} is not to act but has legal actions"
    _check_views(game)
    return who


def _check_views(game: Game, every_view: bool = False) -> None:
    """No view shows a secret; with ``every_view`` also the views without secrets to look for
    are built (and must be JSON-safe)."""
    # Each game's plug-in record says what a viewer must not see (GameInfo.secrets).
    secrets = registry.get(type(game).NAME).secrets
    for viewer in [None, *game.players]:
        patterns = secrets(game, viewer) if secrets else []
        if not patterns and not every_view:
            continue
        seen = json.dumps(game.view(viewer))  # JSON-safe
        for pattern in patterns:
            assert not pattern.search(seen), f"view({viewer}) shows the secret {pattern.pattern}"


def _check_refused(game: Game, who: list[str]) -> None:
    """Illegal moves raise IllegalAction and change nothing."""
    before = _dump(game)
    actor = who[0]
    attempts = [(actor, "not-an-action"), (actor, ""), ("nobody", game.legal_actions(actor)[0])]
    attempts += [(p, game.legal_actions(actor)[0]) for p in game.players if p not in who][:1]
    for player, action in attempts:
        with pytest.raises(IllegalAction):
            game.play(player, action)
        assert _dump(game) == before, f"refused {action!r} by {player} changed the game"


def _check_restore_and_copy(game: Game, rnd: random.Random) -> tuple[str, str] | None:
    """The JSON round trip and copy() are exact, independent, and continue like the original.
    Returns the move then played on ``game`` (None once the game is over)."""
    d = game.to_dict()
    assert d[STATE_VERSION_KEY] == type(game).STATE_VERSION
    text = json.dumps(d, sort_keys=True)
    restored = type(game).from_dict(json.loads(json.dumps(d)))  # as storage saves it
    assert _dump(restored) == text
    assert restored.view(None) == game.view(None)
    copied = game.copy()
    assert type(copied) is type(game) and copied is not game and _dump(copied) == text
    _assert_nothing_mutable_shared(game, copied)
    if game.is_over:
        return None
    who = game.to_act()
    for p in game.players:
        assert restored.legal_actions(p) == copied.legal_actions(p) == game.legal_actions(p)
    player = rnd.choice(who)
    action = rnd.choice(game.legal_actions(player))
    events = [e.to_dict() for e in copied.play(player, action)]
    assert _dump(game) == text, "playing on the copy changed the original"
    assert [e.to_dict() for e in restored.play(player, action)] == events
    after = _dump(copied)
    assert _dump(restored) == after
    # and the other way round: the original's next move leaves the copy alone
    game_copy = game.copy()
    game.play(player, action)
    assert _dump(game_copy) == text and _dump(game) == after
    return player, action


def _frozen(x: Any) -> bool:
    if not dataclasses.is_dataclass(x):
        return False
    params: Any = x.__dataclass_params__  # type: ignore[union-attr]  # set on every dataclass, not in typeshed
    return bool(params.frozen)


def _assert_nothing_mutable_shared(a: Any, b: Any) -> None:
    """No list, dict, set or non-frozen object is reachable from both games."""
    seen: dict[int, str] = {}

    def walk(x: Any, path: str) -> Iterator[tuple[int, str]]:
        if isinstance(x, dict | list | set | bytearray):
            yield id(x), path
            values = x.values() if isinstance(x, dict) else x
            for i, v in enumerate(values):
                yield from walk(v, f"{path}[{i}]")
        elif isinstance(x, tuple):
            for i, v in enumerate(x):
                yield from walk(v, f"{path}[{i}]")
        elif hasattr(x, "__dict__") and not isinstance(x, type):
            if not _frozen(x):  # read-only data (a card set) may be shared
                yield id(x), path
            for k, v in vars(x).items():
                yield from walk(v, f"{path}.{k}")

    for ident, path in walk(a, "game"):
        seen.setdefault(ident, path)
    for ident, path in walk(b, "copy"):
        assert ident not in seen, f"{path} is shared with {seen[ident]}"


def _playout(info: GameInfo, seed: int, max_steps: int, check_every: int, ai: bool = False) -> Game:
    """A game of random (or, with ``ai``, easy-AI) moves by random players to act, checked
    throughout; returns the game where it stopped."""
    rnd = random.Random(seed ^ 0x5EED)
    game, players, options = _new(info, seed)
    setup = game.setup_arguments()
    log: list[tuple[str, str]] = []
    for step in range(max_steps):
        if game.is_over:
            break
        who = _check_step(game)
        if step % check_every == 0:
            _check_views(game, every_view=True)
            _check_refused(game, who)
            moved = _check_restore_and_copy(game, rnd)
            assert moved is not None
            log.append(moved)
            continue
        player = rnd.choice(who)
        if ai:
            action = info.choose_ai_action(game, player, "easy", seed + step)
            assert action in game.legal_actions(player)
        else:
            action = _choose(game, game.legal_actions(player), rnd)
        assert len(game.describe_action(player, action)) <= BUTTON_LABEL_LIMIT
        game.play(player, action)
        log.append((player, action))
    moved = _check_restore_and_copy(game, rnd)
    if moved is not None:
        log.append(moved)
    if game.is_over:
        assert game.to_act() == []
        assert all(game.legal_actions(p) == [] for p in players)
        before = _dump(game)
        for player, action in [(players[0], "not-an-action"), log[-1]]:
            with pytest.raises(IllegalAction):
                game.play(player, action)
        assert _dump(game) == before, "a move refused after the end changed the game"
        result = game.result
        assert result is not None
        placed = [p for place in result.ranking for p in place]
        assert sorted(placed) == sorted(players), "the ranking places every player once"
        assert all(result.ranking), "no empty place in the ranking"
        _check_views(game, every_view=True)
    else:
        assert game.result is None
    replay = info.new_game(players, seed, **options, **setup)
    for player, action in log:
        replay.play(player, action)
    assert _dump(replay) == _dump(game), "replay from seed + action log differs"
    return game


# ------------------------------------------------------------------------------------ tests
@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playouts_keep_the_contract(name: str, seed: int) -> None:
    _playout(registry.get(name), seed, max_steps=150, check_every=15)


@pytest.mark.parametrize("name", NAMES)
def test_games_played_to_the_end_keep_the_contract(name: str) -> None:
    """Whole games, to the end: no one to act, refused moves, a complete ranking. The easy AI
    finishes every game; random moves may wander (a Farkle game can last long)."""
    info = registry.get(name)
    for seed in range(3):
        assert _playout(info, seed, max_steps=3000, check_every=100, ai=True).is_over
    for seed in range(3, 7):
        _playout(info, seed, max_steps=3000, check_every=200)


@pytest.mark.parametrize("name", NAMES)
def test_every_hidden_information_game_names_its_secrets(name: str) -> None:
    if registry.get(name).game_class.HIDDEN_INFORMATION:
        assert registry.get(name).secrets is not None, "say in GameInfo(secrets=...) what a spectator must not see"


@pytest.mark.parametrize("name", NAMES)
def test_a_state_from_a_newer_engine_or_without_a_version_is_refused(name: str) -> None:
    info = registry.get(name)
    game, _, _ = _new(info, 3)
    d = game.to_dict()
    newer = {**d, STATE_VERSION_KEY: type(game).STATE_VERSION + 1}
    missing = {k: v for k, v in d.items() if k != STATE_VERSION_KEY}
    for bad in (newer, missing):
        with pytest.raises(ValueError):
            info.game_class.from_dict(bad)
    assert type(game).upgrade(d) is d, "a current state needs no upgrade"


SAVED = sorted(SAVED_STATES.glob("*.json"))


@pytest.mark.parametrize("path", SAVED, ids=[p.stem for p in SAVED])
def test_a_game_saved_by_an_earlier_engine_restores_and_plays_on(path: Path) -> None:
    """States as the engine saved them before the common version key (Flagon's said "v")."""
    saved = json.loads(path.read_text())
    info = registry.get(saved["game"])
    old = saved["state"]
    kept = json.dumps(old, sort_keys=True)
    game = info.game_class.from_dict(old)
    assert json.dumps(old, sort_keys=True) == kept, "from_dict changed the saved state"
    assert game.to_dict()[STATE_VERSION_KEY] == info.game_class.STATE_VERSION
    # the same game as one played today from the same start
    today = info.new_game(saved["players"], saved["seed"], **saved["options"])
    for player, action in saved["actions"]:
        today.play(player, action)
    assert _dump(game) == _dump(today)
    rnd = random.Random(0)
    for _ in range(40):
        if game.is_over:
            break
        player = rnd.choice(_check_step(game))
        action = rnd.choice(game.legal_actions(player))
        assert [e.to_dict() for e in game.play(player, action)] == [e.to_dict() for e in today.play(player, action)]
    assert _dump(game) == _dump(today)


def test_every_built_in_game_has_a_saved_state_from_before_the_common_version_key() -> None:
    assert {json.loads(p.read_text())["game"] for p in SAVED} == {"farkle", "flagon", "ninesons"}


def test_upgrade_applies_each_step_in_order_on_a_copy() -> None:
    class Later(tally.Tally):
        STATE_VERSION = 3
        OLD_STATE_VERSION_KEY = "v"
        STATE_UPGRADES = {  # noqa: RUF012
            1: lambda d: {**d, "steps": [*d.get("steps", []), 1]},
            2: lambda d: {**d, "steps": [*d.get("steps", []), 2]},
        }

    old = {"v": 1, "target": 6}
    assert Later.upgrade(old) == {"v": 1, "target": 6, "steps": [1, 2], STATE_VERSION_KEY: 3}
    assert old == {"v": 1, "target": 6}, "upgrade changed the saved state"
    assert Later.upgrade({STATE_VERSION_KEY: 2, "v": 9})["steps"] == [2], "the common key wins"
    Later.STATE_UPGRADES = {2: Later.STATE_UPGRADES[2]}
    with pytest.raises(ValueError, match="no upgrade from state version 1"):
        Later.upgrade(old)
    for bad in ({STATE_VERSION_KEY: "1"}, {STATE_VERSION_KEY: 0}, {STATE_VERSION_KEY: True}, {}):
        with pytest.raises(ValueError):
            Later.upgrade(bad)
