"""Issue 24 split the Farkle card parser, the Flagon card parser and the Flagon layout parser
into named steps. These properties hold the split to the old behaviour: on every shipped file and
on random edits of them, old and new give the same value or refuse with the same message."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.farkle.cards import DEFAULT_CARDS_PATH
from engine.farkle.cards import parse_cards as farkle_parse_cards
from engine.flagon.board import LAYOUT_DIR, parse_layout
from engine.flagon.cards import DATA as FLAGON_DATA
from engine.flagon.cards import parse_cards as flagon_parse_cards
from tests.engine import parsers_before_issue24 as before

FARKLE_FILE = tomllib.loads(DEFAULT_CARDS_PATH.read_text(encoding="utf-8"))
FLAGON_FILE = tomllib.loads((FLAGON_DATA / "cards.toml").read_text(encoding="utf-8"))
LAYOUT_FILES = {
    p.stem: tomllib.loads(p.read_text(encoding="utf-8")) for p in sorted(LAYOUT_DIR.glob("*.toml"))
}

# (old, new) pairs; the Farkle parser also takes the file's name for its messages
PARSERS: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    "farkle cards": (before.farkle_parse_cards, farkle_parse_cards),
    "flagon cards": (before.flagon_parse_cards, flagon_parse_cards),
    "flagon layout": (before.parse_layout, parse_layout),
}


def outcome(parse: Callable[[Any], Any], data: Any) -> tuple[str, Any]:
    """What a parser makes of ``data``: its value, or the kind and message of its refusal (a
    crash on odd input counts too: the split must crash the same way, not quietly differ)."""
    try:
        return "value", parse(copy.deepcopy(data))
    except Exception as exc:
        return type(exc).__name__, str(exc)


def assert_same(kind: str, data: Any) -> None:
    old, new = PARSERS[kind]
    assert outcome(new, data) == outcome(old, data)


@pytest.mark.parametrize(
    ("kind", "data"),
    [("farkle cards", FARKLE_FILE), ("flagon cards", FLAGON_FILE)]
    + [("flagon layout", layout) for layout in LAYOUT_FILES.values()],
)
def test_every_shipped_file_parses_to_the_same_value(kind: str, data: Any) -> None:
    verdict, _ = outcome(PARSERS[kind][1], data)
    assert verdict == "value"
    assert_same(kind, data)


def strings_in(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set().union(*(strings_in(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(strings_in(v) for v in data)) if data else set()
    return {data} if isinstance(data, str) and len(data) < 12 else set()


# Values a field may be edited to: each type a TOML file can hold, and values near the limits
# the parsers check (lengths, ranges, known names, offsets, and the squares the layouts use, so
# an edit can put a chair under a table or two rugs on one square).
SQUARES = sorted(strings_in(list(LAYOUT_FILES.values())))
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=30),
    st.sampled_from([100000, 100001, -1, 0, 1, 2, 13]),
    st.text(max_size=6),
    st.sampled_from(
        [
            "",
            " ",
            "x" * 41,
            "y" * 301,
            "bank_bonus",
            "passive",
            "confirmed",
            "common",
            "special",
            "dragon",
            "thras",
            "line",
            "adjacent",
            "a1",
            "c3",
            "z99",
            "move",
        ]
    ),
    st.sampled_from(SQUARES),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["v", "s", "src", "id", "from", "to", "x"]), inner, max_size=4),
    ),
    max_leaves=8,
)
# What an edit writes: as often a plain scalar or square as a nested value, so that most edits
# get past the first checks and reach the later ones
EDITS = st.one_of(st.sampled_from(SQUARES), SCALARS, VALUES)


def paths_of(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside ``data`` (dict keys and list indexes) that an edit can reach."""
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths_of(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += paths_of(value, (*prefix, index))
    return found


@st.composite
def edited(draw: st.DrawFn, data: Any) -> Any:
    """``data`` with one to three random edits: a value replaced, a key removed or a key added."""
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        path = draw(st.sampled_from(paths_of(data)))
        parent: Any = data
        for step in path[:-1]:
            parent = parent[step]
        action = draw(st.sampled_from(["replace", "remove", "add"]))
        if not path:
            if action == "replace":
                data = draw(VALUES)
            continue
        last = path[-1]
        if action == "replace":
            parent[last] = draw(EDITS)
        elif action == "remove":
            del parent[last]
        elif isinstance(parent[last], dict):
            key = draw(
                st.sampled_from(["name", "value", "copies", "landing", "extra", "time", "rugs", "start"])
            )
            parent[last][key] = draw(EDITS)
        elif isinstance(parent[last], list):
            parent[last].append(copy.deepcopy(draw(st.sampled_from(parent[last]))) if parent[last] else None)
    return data


EDIT_SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@EDIT_SETTINGS
@given(edited(FARKLE_FILE))
def test_farkle_card_parser_agrees_with_the_old_one_on_edited_files(data: Any) -> None:
    assert_same("farkle cards", data)


@EDIT_SETTINGS
@given(edited(FLAGON_FILE))
def test_flagon_card_parser_agrees_with_the_old_one_on_edited_files(data: Any) -> None:
    assert_same("flagon cards", data)


@EDIT_SETTINGS
@given(st.sampled_from(sorted(LAYOUT_FILES)).flatmap(lambda name: edited(LAYOUT_FILES[name])))
def test_layout_parser_agrees_with_the_old_one_on_edited_files(data: Any) -> None:
    assert_same("flagon layout", data)


ANY_SQUARE = st.builds(lambda x, y: f"{chr(ord('a') + x)}{y + 1}", st.integers(0, 12), st.integers(0, 12))
PLACED = ("chairs", "mugs", "barrels", "start")  # lists of squares in a layout


@st.composite
def rearranged(draw: st.DrawFn, layout: dict[str, Any]) -> dict[str, Any]:
    """``layout`` with one to four things moved to any square, on or off the grid: a chair, mug,
    barrel or start square, the centre, or a corner of a table or rug. Most moves make a valid
    layout or one refused late (under a table, overlapping, against no wall)."""
    layout = copy.deepcopy(layout)
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        what = draw(st.sampled_from([*PLACED, "centre", "tables", "rugs"]))
        if what == "centre":
            layout["centre"] = draw(ANY_SQUARE)
        elif layout.get(what):
            index = draw(st.integers(0, len(layout[what]) - 1))
            if what in PLACED:
                layout[what][index] = draw(ANY_SQUARE)
            else:
                layout[what][index][draw(st.sampled_from(["from", "to"]))] = draw(ANY_SQUARE)
    return layout


@EDIT_SETTINGS
@given(st.sampled_from(sorted(LAYOUT_FILES)).flatmap(lambda name: rearranged(LAYOUT_FILES[name])))
def test_layout_parser_agrees_with_the_old_one_on_rearranged_rooms(data: Any) -> None:
    assert_same("flagon layout", data)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(PARSERS)), VALUES)
def test_parsers_agree_with_the_old_ones_on_arbitrary_values(kind: str, data: Any) -> None:
    assert_same(kind, data)
