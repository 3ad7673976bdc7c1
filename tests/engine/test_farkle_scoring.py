"""The Soldier table (spec §5) against an independent brute force over every roll of 1-6 dice."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import cache
from itertools import combinations_with_replacement, product

import pytest

from engine.farkle import score
from engine.farkle.scoring import DEFAULT_TABLE, ScoreTable, has_score, score_all, scoring_selections


def _set_partitions(items: list[int]):
    """All partitions of a list of indices into blocks."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _set_partitions(rest):
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1 :]]
        yield [[first], *part]


def _block_value(block: list[int], whole: int, t: ScoreTable) -> int | None:
    c = Counter(block)
    n = len(block)
    if n == 1 and block[0] == 1:
        return t.single_1
    if n == 1 and block[0] == 5:
        return t.single_5
    if len(c) == 1 and n == 3:
        return t.triple_1 if block[0] == 1 else 100 * block[0]
    if len(c) == 1 and n == 4:
        return t.four_kind
    if len(c) == 1 and n == 5 and t.five_kind is not None:
        return t.five_kind
    if n == 6 and whole == 6:
        vals = []
        if sorted(block) == [1, 2, 3, 4, 5, 6]:
            vals.append(t.straight)
        if len(c) == 1:
            vals.append(t.six_kind)
        shape = sorted(c.values())
        if shape == [2, 2, 2] or (t.quad_plus_pair_is_three_pairs and shape == [2, 4]):
            vals.append(t.three_pairs)
        return max(vals) if vals else None
    return None


@cache
def brute(dice: tuple[int, ...], t: ScoreTable) -> int | None:
    best = None
    for part in _set_partitions(list(range(len(dice)))):
        total = 0
        for block in part:
            v = _block_value([dice[i] for i in block], len(dice), t)
            if v is None:
                break
            total += v
        else:
            best = total if best is None else max(best, total)
    return best


TABLES = [
    DEFAULT_TABLE,
    replace(DEFAULT_TABLE, five_kind=2000),
    replace(DEFAULT_TABLE, quad_plus_pair_is_three_pairs=False),
]


@pytest.mark.parametrize("table", TABLES, ids=["default", "five2000", "noquadpair"])
def test_scorer_matches_brute_force_on_every_roll(table: ScoreTable) -> None:
    for n in range(1, 7):
        for roll in product(range(1, 7), repeat=n):
            assert score(roll, table) == brute(tuple(sorted(roll)), table), roll


@pytest.mark.parametrize(("n", "count"), [(1, 4), (2, 16), (3, 60), (4, 204), (5, 600), (6, 1080)])
def test_farkle_counts_match_spec(n: int, count: int) -> None:
    assert sum(1 for roll in product(range(1, 7), repeat=n) if not has_score(roll)) == count


def test_selections_are_exactly_the_scoring_subsets() -> None:
    for n in range(1, 7):
        for roll in combinations_with_replacement(range(1, 7), n):
            sels = dict(scoring_selections(roll))
            assert all(score(sel) == v for sel, v in sels.items())
            assert bool(sels) == has_score(roll)


@pytest.mark.parametrize(
    ("dice", "value"),
    [
        ([1], 100),
        ([5], 50),
        ([1, 1, 1], 1000),
        ([2, 2, 2], 200),
        ([6, 6, 6], 600),
        ([2, 2, 2, 4, 4, 4], 600),  # OL worked example: two triples, no bonus
        ([3, 3, 3, 3], 1500),
        ([2, 2, 3, 3, 6, 6], 2000),
        ([4, 4, 4, 4, 4, 4], 2500),
        ([1, 1, 1, 1, 1, 1], 2500),  # six of a kind beats 1000 + 1000
        ([1, 2, 3, 4, 5, 6], 3000),
        ([2, 2, 2, 2, 6, 6], 2000),  # four of a kind + pair counts as three pairs
        ([1, 1, 1, 5], 1050),  # a triple and a single from one roll
        ([1, 1, 1, 1, 1], 1600),  # five of a kind: four of a kind + a single 1
        ([2, 2, 2, 2, 2], None),  # ... and a fifth 2 belongs to no combination
        ([1, 2, 3, 4, 5], None),  # no partial straights
        ([2, 2], None),
        ([], None),
    ],
)
def test_worked_examples(dice: list[int], value: int | None) -> None:
    assert score(dice) == value


def test_open_points_are_options() -> None:
    assert score([2, 2, 2, 2, 2], replace(DEFAULT_TABLE, five_kind=2000)) == 2000
    assert score([2, 2, 2, 2, 6, 6], replace(DEFAULT_TABLE, quad_plus_pair_is_three_pairs=False)) is None
    assert score([2, 2, 2, 2], replace(DEFAULT_TABLE, quad_plus_pair_is_three_pairs=False)) == 1500


def test_score_rejects_non_dice() -> None:
    with pytest.raises(ValueError):
        score([7])


def test_score_all_takes_every_scoring_die() -> None:
    assert score_all([1, 1, 1, 2, 3, 5]) == ((1, 1, 1, 5), 1050)
    assert score_all([2, 2, 2, 2, 2, 3]) == ((2, 2, 2, 2), 1500)
    assert score_all([2, 3, 4, 6, 6, 2]) == ((), 0)
