"""The dragon of Dragon Farkle, drawn with Pillow polygons as a cached sprite.

It is drawn four times larger and scaled down, which smooths the polygon edges (Pillow draws
polygons without antialiasing). Coordinates are on a 230 x 140 grid, the dragon facing right (its fire reaches the
right edge).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

Point = tuple[float, float]

OUTLINE = (40, 8, 12)
BODY = (168, 38, 42)
BODY_DARK = (120, 24, 34)
BELLY = (236, 176, 96)
WING = (104, 28, 52)
WING_BONE = (60, 14, 26)
HORN = (240, 226, 196)
EYE = (255, 214, 60)
FIRE = ((255, 120, 30), (255, 196, 60), (255, 240, 170))
ASLEEP = (0.55, 0.55, 0.6)  # colour factors of a calm dragon: it only wakes for a Final Battle

_TAIL = [(62, 96), (40, 108), (18, 104), (8, 90), (12, 78), (20, 88), (34, 96), (56, 84)]
_TAIL_TIP = [(12, 78), (0, 70), (6, 84), (2, 94), (16, 88)]
_BACK_WING = [(96, 60), (104, 18), (126, 2), (124, 22), (142, 14), (132, 40), (146, 38), (120, 64)]
_BODY = (48, 56, 132, 106)
_BELLY = [(60, 94), (82, 104), (110, 104), (130, 88), (128, 98), (104, 110), (72, 108)]
_HIND_LEG = [(58, 86), (52, 120), (74, 122), (80, 98)]
_FRONT_LEG = [(108, 94), (110, 122), (128, 122), (126, 88)]
_NECK = [(106, 74), (122, 44), (144, 26), (158, 40), (142, 62), (132, 90)]
_HEAD = [(140, 30), (150, 20), (170, 22), (194, 32), (196, 40), (176, 44), (152, 48), (142, 42)]
_JAW = [(152, 48), (176, 46), (192, 52), (172, 58), (154, 56)]
_HORNS = ([(148, 24), (128, 2), (156, 20)], [(158, 22), (150, 0), (166, 21)])
_WING = [(104, 66), (96, 30), (74, 2), (66, 24), (52, 24), (56, 40), (38, 42), (58, 56), (80, 64)]
_WING_BONES = [((104, 66), (74, 2)), ((104, 66), (52, 24)), ((104, 66), (38, 42))]
_SPIKES = [(60, 60), (74, 54), (88, 52), (102, 54), (116, 58), (126, 50), (134, 42)]
_CLAWS = [(52, 120), (60, 120), (68, 120), (110, 122), (118, 122), (126, 122)]
_FIRE = [
    [(190, 51), (226, 28), (218, 48), (230, 56), (216, 62), (224, 78)],
    [(192, 51), (216, 38), (212, 50), (220, 58), (208, 62)],
    [(194, 51), (206, 46), (206, 56)],
]


def _scaled(points: Sequence[tuple[float, float]], k: float) -> list[Point]:
    return [(x * k, y * k) for x, y in points]


def _tint(colour: tuple[int, int, int], awake: bool) -> tuple[int, int, int]:
    if awake:
        return colour
    return tuple(int(c * f) for c, f in zip(colour, ASLEEP, strict=True))  # type: ignore[return-value]


@lru_cache(maxsize=8)
def dragon_sprite(width: int, awake: bool, fire: bool = True) -> Image.Image:
    """An RGBA dragon ``width`` pixels wide (140/230 as tall); ``awake`` for a battle
    (bright, breathing ``fire``), otherwise dimmed."""
    ss = 4
    k = width * ss / 230
    big = Image.new("RGBA", (width * ss, int(width * 140 / 230) * ss), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    line = max(1, int(1.6 * k))

    def poly(points: Sequence[tuple[float, float]], colour: tuple[int, int, int]) -> None:
        d.polygon(_scaled(points, k), fill=_tint(colour, awake), outline=OUTLINE, width=line)

    poly(_BACK_WING, _tint(WING_BONE, True))
    poly(_TAIL, BODY_DARK)
    poly(_TAIL_TIP, BODY_DARK)
    poly(_HIND_LEG, BODY_DARK)
    for x, y in _CLAWS[:3]:
        poly([(x - 3, y - 2), (x + 3, y - 2), (x, y + 4)], HORN)
    d.ellipse(tuple(v * k for v in _BODY), fill=_tint(BODY, awake), outline=OUTLINE, width=line)
    poly(_BELLY, BELLY)
    for x, y in _SPIKES:
        poly([(x - 5, y + 4), (x, y - 8), (x + 5, y + 4)], HORN)
    poly(_NECK, BODY)
    poly(_FRONT_LEG, BODY)
    for x, y in _CLAWS[3:]:
        poly([(x - 3, y - 2), (x + 3, y - 2), (x, y + 4)], HORN)
    for horn in _HORNS:
        poly(horn, HORN)
    poly(_HEAD, BODY)
    poly(_JAW, BODY_DARK)
    for bx, by in ((164, 24), (178, 26)):  # brow ridge
        d.line(_scaled([(bx - 8, by + 2), (bx + 6, by)], k), fill=OUTLINE, width=line)
    if awake:
        d.ellipse(tuple(v * k for v in (160, 27, 170, 35)), fill=EYE, outline=OUTLINE, width=line)
        d.line(_scaled([(165, 27.5), (165, 34.5)], k), fill=OUTLINE, width=line)  # slit pupil
    else:  # asleep: a closed eye
        d.arc(tuple(v * k for v in (159, 26, 171, 34)), 20, 160, fill=OUTLINE, width=line)
    d.ellipse(tuple(v * k for v in (188, 33, 191, 36)), fill=OUTLINE)  # nostril
    poly(_WING, WING)
    for root, tip in _WING_BONES:
        d.line(_scaled([root, tip], k), fill=_tint(WING_BONE, awake), width=line * 2)
    if awake and fire:
        for flame, colour in zip(_FIRE, FIRE, strict=False):
            d.polygon(_scaled(flame, k), fill=colour)
    return big.resize((width, int(width * 140 / 230)), Image.Resampling.LANCZOS)


@lru_cache(maxsize=4)
def dragon_head(size: int) -> Image.Image:
    """The dragon's head and horns alone, ``size`` pixels wide (the Event die's Dragon face)."""
    left, top, right, bottom = 124, 0, 200, 60
    width = round(size * 230 / (right - left))
    whole = dragon_sprite(width, True, fire=False)
    k = width / 230
    return whole.crop((round(left * k), round(top * k), round(right * k), round(bottom * k)))
