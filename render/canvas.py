"""Drawing helpers shared by the PNG renderers: one font loader, text cut to a pixel width, and
a :class:`Canvas` that remembers where every piece of text went.

The remembered boxes are how the layout is checked: a board is drawn at its extremes (six dice,
eight characters, 32-letter names) and no two texts may overlap or leave the picture
(tests/engine/test_render_layout.py). Measuring costs a few microseconds per text, so the
product draws through the same Canvas the tests read, with no switch between the two; texts are
rendered once and cached as masks, which makes a board cheaper to draw than with ImageDraw.text.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from PIL import Image, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
Box = tuple[int, int, int, int]  # left, top, right, bottom (right and bottom exclusive)
Colour = tuple[int, int, int]

ELLIPSIS = "…"
# Discord shows a picture about 360 px wide on a phone; a text whose font is under 9 px there is
# unreadable (issue 27). A text's height here is its font size in pixels (the em), the same for
# "1" and "Ág", so it does not depend on which letters a label happens to hold.
PHONE_WIDTH = 360
MIN_PHONE_TEXT = 9
_FONT_DIR = "/usr/share/fonts/truetype/dejavu/"
_FONT_FILES = {
    (False, False): "DejaVuSans.ttf",
    (True, False): "DejaVuSans-Bold.ttf",
    (False, True): "DejaVuSansCondensed.ttf",
    (True, True): "DejaVuSansCondensed-Bold.ttf",
}


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False, condensed: bool = False) -> Font:
    """DejaVu Sans at ``size`` pixels (bold and condensed variants), Pillow's own font if
    DejaVu is not installed."""
    name = _FONT_FILES[(bold, condensed)]
    for path in (name, _FONT_DIR + name):
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    try:
        return ImageFont.load_default(size)
    except Exception:  # Pillow without FreeType
        return ImageFont.load_default()


def smallest_font(image_width: int) -> int:
    """The smallest font size (px) a picture ``image_width`` wide may use: MIN_PHONE_TEXT px
    once the picture is shown PHONE_WIDTH wide."""
    return math.ceil(MIN_PHONE_TEXT * image_width / PHONE_WIDTH - 1e-9)


@lru_cache(maxsize=32768)
def text_width(text: str, f: Font) -> float:
    """``text``'s advance width in ``f``, in pixels. Cached: laying a text out costs 50-200 µs
    and the boards measure the same captions, labels and names for every picture, of every
    running game (fonts are cached objects, so they key by identity; ~200 bytes an entry,
    ~6 MB when full)."""
    return float(f.getlength(text))


@lru_cache(maxsize=16384)
def fit_text(text: str, f: Font, width: float) -> str:
    """``text`` cut (with an ellipsis) so that it is at most ``width`` pixels wide; names can
    be 32 wide letters and must not run into the next column. Cached for every running game's
    names (~200 bytes an entry, ~3 MB when full)."""
    if text_width(text, f) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + ELLIPSIS, f) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS if lo else ELLIPSIS


def fit_name(template: str, name: str, f: Font, width: float) -> str:
    """``template`` with ``{}`` replaced by ``name``, the name (only) cut so that the whole is at
    most ``width`` pixels: "WWWW… attacks" rather than "WWWWWWWW…"."""
    room = width - text_width(template.replace("{}", ""), f)
    return template.replace("{}", fit_text(name, f, room))


def fit_font(
    text: str, sizes: tuple[int, ...], width: float, bold: bool = False, condensed: bool = False
) -> Font:
    """The largest of ``sizes`` (largest first) at which ``text`` fits ``width``; else the smallest."""
    for size in sizes:
        if text_width(text, font(size, bold, condensed)) <= width:
            return font(size, bold, condensed)
    return font(sizes[-1], bold, condensed)


class _TextMasks:
    """Rendered texts, the least recently drawn forgotten first once they hold more than
    ``budget`` bytes of pixels. Bounded by bytes, not entries: a mask is 20 bytes ("7") to 18 KB
    (a status line). Drawing runs in worker threads: the table is read and changed under a lock;
    a text is rendered outside it (two threads may render the same text once each; both are
    the same mask)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._masks: OrderedDict[tuple[str, Font, str], tuple[Any, Box, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, text: str, f: Font, anchor: str) -> tuple[Any, Box]:
        key = (text, f, anchor)
        with self._lock:
            found = self._masks.get(key)
            if found is not None:
                self._masks.move_to_end(key)
                return found[0], found[1]
        mask, box = _render_text(text, f, anchor)
        width, height = mask.size
        cost = width * height + _ENTRY_OVERHEAD
        with self._lock:
            if key not in self._masks:
                self._masks[key] = (mask, box, cost)
                self.used += cost
                while self.used > self.budget and self._masks:
                    self.used -= self._masks.popitem(last=False)[1][2]
        return mask, box

    def clear(self) -> None:
        with self._lock:
            self._masks.clear()
            self.used = 0


def _render_text(text: str, f: Font, anchor: str) -> tuple[Any, Box]:
    """``text`` as an alpha mask (a core image) and its box when drawn at (0, 0). It costs
    0.3-1 ms (shaping, then hinting each glyph), so it is laid out once: the mask and its offset
    come from one ``getmask2`` (what ImageDraw.text draws), not from a ``getbbox`` first."""
    if isinstance(f, ImageFont.FreeTypeFont):
        mask, (left, top) = f.getmask2(text, "L", anchor=anchor)
    else:  # Pillow's bitmap font, without FreeType: no anchors
        mask, (left, top) = f.getmask(text, "L"), (0, 0)
    width, height = mask.size
    if not width or not height:  # nothing drawn (a blank text): a box of one empty pixel
        mask = Image.core.fill("L", (max(1, width), max(1, height)), 0)
    return mask, (left, top, left + width, top + height)


# Boards repeat most of their texts (labels, names, numbers) and rendering them is most of the
# cost of drawing a board; pasting a cached mask is nearly free. At thousands of games each game's
# own texts (its names, "alice chooses an action") come back once per move of that game, minutes
# apart: the cache must hold every running game's texts, ~10 per game at ~3 KB each (issue 25:
# with 2,048 entries, 2,000 games drew nearly every text afresh). 64 MB hold ~20,000 texts.
TEXT_MASK_BUDGET = 64 * 1024 * 1024
_ENTRY_OVERHEAD = 200  # bytes of a cached mask besides its pixels (the core image, the key, the entry)
text_masks = _TextMasks(TEXT_MASK_BUDGET)


class TextBox(NamedTuple):
    """A text drawn on a canvas and where it went (a tuple: a board records ~50 per picture)."""

    text: str
    box: Box
    size: int = 0  # the font size in pixels (0: unknown)


@dataclass
class Canvas:
    """An image, its ImageDraw, and the box of every text drawn on it."""

    image: Image.Image
    texts: list[TextBox] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.draw = ImageDraw.Draw(self.image)
        self._core = self.image.im  # after ImageDraw made the image writable (its own copy)

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        f: Font,
        fill: Colour,
        anchor: str = "la",
        width: float | None = None,
    ) -> Box:
        """Draw ``text`` (cut to ``width`` pixels if given) and remember its box."""
        if width is not None:
            text = fit_text(text, f, width)
        mask, (left, top, right, bottom) = text_masks.get(text, f, anchor)
        x, y = round(xy[0]), round(xy[1])
        box = (x + left, y + top, x + right, y + bottom)
        # The text's colour blended through its mask, as Image.paste(fill, box, mask) does, but
        # from a block of that colour: Pillow's fill-through-mask compares the image's mode name
        # for every channel of every pixel, the image-through-mask path does not (same blend,
        # same pixels; 30 instead of 50 µs for a 430 x 16 text). Core calls: Image.paste's checks
        # cost more than a small text.
        width, height = mask.size
        colour = Image.core.fill(self.image.mode, (width, height), fill)
        self._core.paste(colour, (box[0], box[1], box[0] + width, box[1] + height), mask)
        if text.strip():
            self.texts.append(TextBox(text, box, int(getattr(f, "size", 0))))
        return box

    def note(self, text: str, box: Box, size: int = 0) -> None:
        """Remember text drawn some other way (a cached sprite pasted on the canvas)."""
        self.texts.append(TextBox(text, box, size))

    def paste(
        self,
        sprite: Image.Image,
        xy: tuple[int, int],
        label: str = "",
        label_box: Box | None = None,
        label_size: int = 0,
    ) -> None:
        """Paste a sprite (with its alpha as mask when it has one: sprites are drawn and cached,
        never changed after); ``label`` is the text drawn inside it, recorded at ``label_box`` (relative to the sprite) or over the whole sprite."""
        x, y = int(xy[0]), int(xy[1])
        box = (x, y, x + sprite.width, y + sprite.height)
        if sprite.mode == "RGBA":  # the core paste, as for texts: a board pastes ~40 sprites
            self._core.paste(sprite.im, box, sprite.im)
        elif sprite.mode == self.image.mode:
            self._core.paste(sprite.im, box)
        else:
            self.image.paste(sprite, (x, y))
        if label:
            lx0, ly0, lx1, ly1 = label_box or (0, 0, sprite.width, sprite.height)
            self.note(label, (x + lx0, y + ly0, x + lx1, y + ly1), label_size)


def overlapping(texts: list[TextBox]) -> list[tuple[TextBox, TextBox]]:
    """Every pair of texts whose boxes share at least one pixel."""
    pairs = []
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            if a.box[0] < b.box[2] and b.box[0] < a.box[2] and a.box[1] < b.box[3] and b.box[1] < a.box[3]:
                pairs.append((a, b))
    return pairs


def too_small(texts: list[TextBox], image_width: int) -> list[TextBox]:
    """The texts under MIN_PHONE_TEXT px once the picture is shown PHONE_WIDTH wide (a text of
    unknown size counts as too small: every text must say its size)."""
    return [t for t in texts if t.size * PHONE_WIDTH / image_width < MIN_PHONE_TEXT]


def outside(texts: list[TextBox], size: tuple[int, int]) -> list[TextBox]:
    """The texts not wholly inside an image of ``size``."""
    w, h = size
    return [t for t in texts if t.box[0] < 0 or t.box[1] < 0 or t.box[2] > w or t.box[3] > h]
