"""Sizes and colours of the Dragon & Flagon picture (shared by the board and its pieces)."""

from __future__ import annotations

from render.canvas import smallest_font

RING = 11  # track spaces per side of the ring (corners shared): 40 spaces
SP = 62  # a track space, pixels
MARGIN = 26  # between the ring and the grid, for the coordinate labels
PANEL_ROW = 50  # a character's two lines under the board: who, then time and state
GAIA_ROW = 23  # a third line under a character while Eyes of Gaia names its last card
BG = (43, 33, 28)
FLOOR = (222, 196, 160)
FLOOR_LINE = (196, 168, 130)
RUG = (150, 52, 52)
RUG_EDGE = (214, 166, 80)
TABLE = (121, 78, 44)
TABLE_EDGE = (74, 45, 22)
START = (250, 225, 120)
TRACK = (245, 236, 215)
TRACK_EDGE = (120, 100, 80)
INK = (30, 25, 20)
LIGHT = (250, 245, 235)
GOLD = (240, 190, 40)


def _track_spaces() -> list[tuple[int, int]]:
    """Top-left corners of the ring's spaces, clockwise from the top-left corner (space 1)."""
    out = []
    n = RING - 1
    out += [(i * SP, 0) for i in range(n)]
    out += [(n * SP, i * SP) for i in range(n)]
    out += [((n - i) * SP, n * SP) for i in range(n)]
    out += [(0, (n - i) * SP) for i in range(n)]
    return out


SPACES = _track_spaces()
SIDE = RING * SP
SMALL = smallest_font(SIDE)  # 18: no text smaller, so that a phone (360 px wide) can read it
CELL_AREA = SIDE - 2 * SP - 2 * MARGIN
