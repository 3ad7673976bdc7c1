"""Grid geometry: square names, facings, the character frame and the pattern library.

Squares are ``(col, row)`` with row 0 at the top (north). In text they are written like chess
squares, ``c4`` = column c (index 2), row 4 (index 3). Card patterns use the character frame:
``(x, y)`` with +y forward and +x to the character's right.
"""

from __future__ import annotations

from functools import cache

Sq = tuple[int, int]

FACINGS = ("N", "E", "S", "W")
# Board step for each facing (rows grow southwards).
STEP: dict[str, Sq] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
# Names of the 8 compass directions, for throw/kick direction choices.
DIR8: dict[str, Sq] = {
    "N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
    "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1),
}  # fmt: skip
DIR8_NAME: dict[Sq, str] = {v: k for k, v in DIR8.items()}


@cache
def name(sq: Sq) -> str:
    return f"{chr(ord('a') + sq[0])}{sq[1] + 1}"


@cache
def parse(text: str) -> Sq:
    """``"c4"`` -> ``(2, 3)``; raises ValueError on anything else."""
    text = text.strip().lower()
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
        raise ValueError(f"`{text}` is not a square (use a letter and a number, like c4)")
    return (ord(text[0]) - ord("a"), int(text[1:]) - 1)


def to_board(pos: Sq, facing: str, rel: Sq) -> Sq:
    """Relative offset (x right, y forward) of a character at ``pos`` facing ``facing`` -> board square."""
    c, r = pos
    x, y = rel
    if facing == "N":
        return (c + x, r - y)
    if facing == "E":
        return (c + y, r + x)
    if facing == "S":
        return (c - x, r + y)
    return (c - y, r - x)


def to_rel(pos: Sq, facing: str, sq: Sq) -> Sq:
    """Inverse of :func:`to_board`: where ``sq`` lies in the frame of a character at ``pos``."""
    dx, dy = sq[0] - pos[0], sq[1] - pos[1]
    if facing == "N":
        return (dx, -dy)
    if facing == "E":
        return (dy, dx)
    if facing == "S":
        return (-dx, dy)
    return (-dy, -dx)


def rel_dir(facing: str, rel: Sq) -> Sq:
    """A relative direction vector turned into a board direction vector."""
    return to_board((0, 0), facing, rel)


def sign(v: int) -> int:
    return (v > 0) - (v < 0)


def away(src: Sq, dst: Sq) -> Sq:
    """Unit (possibly diagonal) direction pointing from ``src`` to ``dst``."""
    return (sign(dst[0] - src[0]), sign(dst[1] - src[1]))


def facing_towards(src: Sq, dst: Sq) -> str:
    """The orthogonal facing that best points from ``src`` at ``dst`` (ties prefer N/S)."""
    dx, dy = dst[0] - src[0], dst[1] - src[1]
    if abs(dx) > abs(dy):
        return "E" if dx > 0 else "W"
    return "S" if dy > 0 else "N"


def _box(n: int) -> list[Sq]:
    return [(x, y) for y in range(-n, n + 1) for x in range(-n, n + 1) if (x, y) != (0, 0)]


# Area patterns (offsets). Ray patterns are listed separately: they are directions, not squares.
PATTERNS: dict[str, list[Sq]] = {
    "SELF": [(0, 0)],
    "F1": [(0, 1)],
    "FRONT3": [(-1, 1), (0, 1), (1, 1)],
    "FRONT5": [(-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0)],
    "REAR3": [(-1, -1), (0, -1), (1, -1)],
    "ADJ8": _box(1),
    "BOX1": [(0, 0), *_box(1)],
    "BOX2": _box(2),
    "CONE2": [(-1, 1), (0, 1), (1, 1), (-2, 2), (-1, 2), (0, 2), (1, 2), (2, 2)],
    "CONE3": [(-1, 1), (0, 1), (1, 1), (-2, 2), (-1, 2), (0, 2), (1, 2), (2, 2)]
    + [(x, 3) for x in range(-3, 4)],
    "HALF3": [(x, y) for y in range(1, 4) for x in range(-3, 4)],
    "MOVE6": [(0, 1), (0, 2), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    "DASH4": [(0, 1), (0, 2), (0, 3), (0, 4)],
    "MANH3": [(x, y) for y in range(-3, 4) for x in range(-3, 4) if 0 < abs(x) + abs(y) <= 3],
}
RAYS: dict[str, list[Sq]] = {
    "RAY_F": [(0, 1)],
    "RAYS3": [(0, 1), (-1, 1), (1, 1)],
    "RAYS8": [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)],
}
