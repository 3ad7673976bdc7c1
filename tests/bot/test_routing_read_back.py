"""Spec.make reads an id back once per shape of its values (its numbers replaced by a mark):
the same answer as reading every id back, for every spec the bot has, over numbers of every
size (and out of range) and texts with every separator."""

from __future__ import annotations

import functools
import random
from typing import Any, NamedTuple

import pytest

from cogs import routing
from cogs.plugins import load_plugins

NUMBERS: list[Any] = [0, 1, 7, 10, 42, 99, 100, 10**6, 10**18, routing.MAX_NUMBER, routing.MAX_NUMBER + 1,
                      -1, -10, True, None, "5", "x"]  # fmt: skip
TEXTS: list[Any] = ["a", "play:1", "3@b2", "a1-a2-b2", "", "x|y", "a/b", "-", ":", "12", "1:2", "2.", "é", "q",
                    "a\nb", None, 5]  # fmt: skip
GAME_IDS = [1, 77, 10**12, routing.MAX_NUMBER, routing.MAX_NUMBER + 1, 0, -3]


def outcome(make: Any, game_id: int, values: tuple[Any, ...]) -> str:
    try:
        return str(make(game_id, values))
    except ValueError:
        return "refused"


def read_back_every_time(spec: routing.Spec[Any], game_id: int, values: tuple[Any, ...]) -> str:
    custom_id = routing.make(game_id, *spec._words(values))
    route = routing.parse(custom_id)
    if route is None or spec.parse(route) != values:
        raise ValueError("does not read back")
    return custom_id


def test_an_id_made_reads_back_exactly_when_reading_it_back_says_so() -> None:
    load_plugins()
    specs = list(routing.all_specs())
    assert sum(spec._apart for spec in specs) >= 10  # the board's ids take the short way
    rng = random.Random(9)
    for spec in specs:
        names = spec.fields._fields
        ints = [n for n in names if n in spec._ints]
        for _ in range(400):
            values = spec.fields(*(rng.choice(NUMBERS if n in ints else TEXTS) for n in names))
            game_id = rng.choice(GAME_IDS)
            expected = outcome(functools.partial(read_back_every_time, spec), game_id, values)
            assert outcome(spec.make, game_id, values) == expected, (spec.verb, spec.control, game_id, values)


@pytest.mark.parametrize("layout", ["{a}{b}", "{a}1{b}", "x{a}:{b}7", "{a}:{b}"])
def test_a_layout_takes_the_short_way_only_with_its_fields_apart_and_no_digit_between(layout: str) -> None:
    assert routing._fields_apart(layout) is (layout == "{a}:{b}")


class _Swapped(NamedTuple):
    a: int
    b: int
    s: str = "x"


def test_a_spec_of_several_layouts_reads_every_id_back() -> None:
    """An earlier layout may read an id with its numbers in other fields: "1:1:x" reads back
    through "{b}:{a}:x" as written, "1:2:x" does not. The shape must not vouch for it."""
    spec = routing.Spec("zz-test", _Swapped, "{b}:{a}:x", "{a}:{b}:{s}")
    try:
        assert not spec._apart
        assert spec.make(5, _Swapped(1, 1, "x")) == "dt:5:zz-test:1:1:x"
        with pytest.raises(ValueError, match="reads back"):
            spec.make(5, _Swapped(1, 2, "x"))
    finally:
        routing._SPECS.pop(("zz-test", None))
