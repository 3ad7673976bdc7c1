"""Every game option is declared once (default, help, choices or range), and that declaration is
what a real game plays with and what /game rules shows: no second copy of a default can drift.

Before issue 24 a Farkle option lived in four places (data/rules.toml, the help/choices/ranges
tables of rules.py, the ScoreTable field defaults and a field-by-field copy in score_table()),
and the Nine Sons core repeated two option defaults; editing one copy changed nothing in a game.
"""

from __future__ import annotations

import dataclasses
import inspect
import tomllib
from typing import Any

import pytest

from cogs.plugins import load_plugins
from engine import registry
from engine.farkle import new_game as new_farkle
from engine.farkle import rules as farkle_rules
from engine.farkle import scoring
from engine.ninesons.core import Rules as NineSonsRules
from render.rules_pages import option_line, table_section

load_plugins(ui=False)
GAMES = registry.BUILTIN_GAMES


def _players(name: str) -> list[str]:
    return [f"p{i}" for i in range(1, registry.get(name).game_class.MIN_PLAYERS + 1)]


def test_the_score_table_has_no_values_of_its_own() -> None:
    """A default on the dataclass would be a second copy of rules.toml that no game reads."""
    with_default = [
        f.name
        for f in dataclasses.fields(scoring.ScoreTable)
        if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
    ]
    assert with_default == []


def test_the_nine_sons_core_takes_its_options_without_defaults() -> None:
    params = inspect.signature(NineSonsRules).parameters
    assert params["compare_top"].default is inspect.Parameter.empty
    assert params["win_points"].default is inspect.Parameter.empty


def test_farkle_options_come_from_rules_toml_alone() -> None:
    with farkle_rules._PATH.open("rb") as fh:
        declared = tomllib.load(fh)["options"]
    assert [o.name for o in farkle_rules.OPTIONS] == list(declared)
    for option in farkle_rules.OPTIONS:
        entry = declared[option.name]
        assert option.default == entry["default"] and option.help == entry["help"]
        assert option.choices == (tuple(entry["choices"]) if "choices" in entry else None)
        assert (option.minimum, option.maximum) == (entry.get("minimum"), entry.get("maximum"))


def test_the_ai_table_is_the_table_a_default_game_plays_with() -> None:
    game = new_farkle(["p1", "p2"], seed=1)
    assert game.table == scoring.DEFAULT_TABLE == scoring.score_table(farkle_rules.DEFAULTS)


def test_a_changed_scoring_value_reaches_a_real_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(farkle_rules.RULES["scoring"], "single_5", 75)
    game = new_farkle(["p1", "p2"], seed=1)
    assert game.table.single_5 == 75
    assert scoring.score([5], game.table) == 75


@pytest.mark.parametrize("name", GAMES)
def test_each_declared_default_is_the_default_a_game_plays_with(name: str) -> None:
    """Passing every declared default explicitly makes the same game as passing none."""
    info = registry.get(name)
    defaults: dict[str, Any] = {o.name: o.default for o in info.game_class.OPTIONS}
    plain = info.new_game(_players(name), 5)
    explicit = info.new_game(_players(name), 5, **defaults)
    assert plain.to_dict() == explicit.to_dict()


def _other_value(option: Any) -> Any:
    if isinstance(option.default, bool):
        return not option.default
    if option.choices:
        return next(c for c in option.choices if c != option.default)
    if isinstance(option.default, int):
        return (
            option.default + 1
            if option.maximum is None or option.default < option.maximum
            else option.default - 1
        )
    return None


@pytest.mark.parametrize("name", GAMES)
def test_each_declared_option_changes_the_game(name: str) -> None:
    """Every declared option reaches the engine: another value makes another game."""
    info = registry.get(name)
    players = [f"p{i}" for i in range(1, info.game_class.MAX_PLAYERS + 1)]
    plain = info.new_game(players, 5).to_dict()
    for option in info.game_class.OPTIONS:
        value = _other_value(option)
        if value is None:
            continue
        try:
            changed = info.new_game(players, 5, **{option.name: value}).to_dict()
        except ValueError:  # a value this table cannot take (e.g. a team game of an odd size)
            continue
        assert changed != plain, f"{name}: {option.name}={value!r} changed nothing"


@pytest.mark.parametrize("name", GAMES)
def test_game_rules_shows_each_declared_option(name: str) -> None:
    """/game rules lists the same declarations: each option's line (name, meaning, default)."""
    shown = table_section(name).text
    for option in registry.get(name).game_class.OPTIONS:
        assert option_line(option) in shown
