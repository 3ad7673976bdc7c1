"""The Soldier table (spec §5): what a set of dice from one roll is worth.

``score(dice)`` returns the best value over every way of splitting exactly these dice into
combinations, or ``None`` when some die belongs to no combination. The two open points of the
table (five of a kind, four of a kind plus a pair) are lobby options; every value comes from
data/rules.toml.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Any

from engine.farkle import rules


@dataclass(frozen=True)
class ScoreTable:
    """Values of the Soldier table. Frozen and hashable so results can be cached per table.

    No field has a default: the values are declared once, in data/rules.toml ([scoring] and two
    lobby options), and :func:`score_table` builds every table from there."""

    single_1: int
    single_5: int
    triple_1: int
    triple_face_x: int  # three 2s = 200 ... three 6s = 600
    four_kind: int
    five_kind: int | None  # None: scored as four of a kind plus the fifth die alone
    three_pairs: int
    six_kind: int
    straight: int
    quad_plus_pair_is_three_pairs: bool


def score_table(options: Mapping[str, Any]) -> ScoreTable:
    """The table a game plays with: rules.toml's [scoring] and the lobby options that change it."""
    five = options["five_of_a_kind"]
    return ScoreTable(
        **rules.RULES["scoring"],
        five_kind=five if five else None,
        quad_plus_pair_is_three_pairs=options["quad_plus_pair"],
    )


# The table of a game with the default options (what the AI's solved tables assume).
DEFAULT_TABLE = score_table(rules.DEFAULTS)


def _counts(dice: Iterable[int]) -> tuple[int, ...]:
    c = [0] * 6
    for d in dice:
        if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
            raise ValueError(f"a die shows 1 to 6, not {d!r}")
        c[d - 1] += 1
    return tuple(c)


@lru_cache(maxsize=65536)
def _best(counts: tuple[int, ...], table: ScoreTable) -> int | None:
    """Best split of the multiset ``counts`` (index = face - 1) into combinations."""
    n = sum(counts)
    if n == 0:
        return 0
    best: int | None = None

    def consider(value: int, rest: tuple[int, ...]) -> None:
        nonlocal best
        sub = _best(rest, table)
        if sub is not None and (best is None or value + sub > best):
            best = value + sub

    # Six-dice combinations exist only when these are all six dice of the roll.
    if n == 6:
        if all(c == 1 for c in counts):
            best = max(best or 0, table.straight)
        if 6 in counts:
            best = max(best or 0, table.six_kind)
        pairs = sorted(c for c in counts if c)
        if pairs == [2, 2, 2] or (table.quad_plus_pair_is_three_pairs and pairs == [2, 4]):
            best = max(best or 0, table.three_pairs)
    # Take one combination containing the lowest face still present; recurse on the rest.
    face = next(i for i, c in enumerate(counts) if c)
    c = counts[face]

    def minus(k: int) -> tuple[int, ...]:
        lst = list(counts)
        lst[face] -= k
        return tuple(lst)

    if face == 0:
        consider(table.single_1, minus(1))
    if face == 4:
        consider(table.single_5, minus(1))
    if c >= 3:
        consider(table.triple_1 if face == 0 else table.triple_face_x * (face + 1), minus(3))
    if c >= 4:
        consider(table.four_kind, minus(4))
    if c >= 5 and table.five_kind is not None:
        consider(table.five_kind, minus(5))
    return best


def score(dice: Iterable[int], table: ScoreTable = DEFAULT_TABLE) -> int | None:
    """Soldiers for setting aside exactly ``dice`` from one roll, or ``None`` if some die
    belongs to no combination. ``score([])`` is ``None`` (you must set something aside)."""
    counts = _counts(dice)
    if sum(counts) == 0:
        return None
    return _best(counts, table)


def submultisets(dice: Iterable[int]) -> list[tuple[int, ...]]:
    """Every distinct non-empty sub-multiset of ``dice``, each sorted ascending."""
    counts = Counter(dice)
    faces = sorted(counts)
    out = []
    for picks in product(*(range(counts[f] + 1) for f in faces)):
        sel = tuple(f for f, k in zip(faces, picks, strict=True) for _ in range(k))
        if sel:
            out.append(sel)
    return out


@lru_cache(maxsize=8192)
def _scoring_selections(roll: tuple[int, ...], table: ScoreTable) -> tuple[tuple[tuple[int, ...], int], ...]:
    out = []
    for sel in submultisets(roll):
        v = _best(_counts(sel), table)
        if v is not None:
            out.append((sel, v))
    return tuple(sorted(out))


def scoring_selections(
    roll: Iterable[int], table: ScoreTable = DEFAULT_TABLE
) -> list[tuple[tuple[int, ...], int]]:
    """Every legal set-aside from ``roll``: (sorted dice, soldiers), sorted by dice."""
    return list(_scoring_selections(tuple(sorted(roll)), table))


def has_score(roll: Iterable[int], table: ScoreTable = DEFAULT_TABLE) -> bool:
    """True unless the roll is a Farkle (no die can be set aside)."""
    return bool(_scoring_selections(tuple(sorted(roll)), table))


def score_all(roll: Iterable[int], table: ScoreTable = DEFAULT_TABLE) -> tuple[tuple[int, ...], int]:
    """The largest scoring selection of a roll (most dice, then most soldiers): what the
    Final Battle applies when every scoring die counts (spec §9.3). ``((), 0)`` if none."""
    sels = _scoring_selections(tuple(sorted(roll)), table)
    if not sels:
        return (), 0
    return max(sels, key=lambda sv: (len(sv[0]), sv[1]))
