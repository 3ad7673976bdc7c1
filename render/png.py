"""A board picture as PNG bytes: mapped onto its game's fixed palette, then written with a faster
deflate than Pillow's.

Pillow writes a PNG through the system zlib; at level 1 that was the largest single cost of a
board picture (2–4 ms of 5–10, issue 25). ISA-L's deflate (the ``isal`` package) writes the
same standard zlib stream 4–5× faster and, on these flat-coloured boards, ~10 % smaller. The
PNG is written here (signature, IHDR, PLTE, one IDAT, IEND: what Pillow wrote for these
pictures) because Pillow cannot be handed another deflate. Without ``isal`` installed the
stdlib zlib at level 1 is used, as before. Either way the picture decodes to the same pixels.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from functools import lru_cache

from PIL import Image

try:  # ISA-L: the same zlib format, several times faster at its lowest levels
    from isal import isal_zlib

    def _deflate(data: bytes) -> bytes:
        return isal_zlib.compress(data, 1)

except ImportError:  # pragma: no cover - isal is a declared dependency; zlib still writes a valid PNG

    def _deflate(data: bytes) -> bytes:
        return zlib.compress(data, 1)


SIGNATURE = b"\x89PNG\r\n\x1a\n"
_NO_FILTER = 0  # each row starts with its filter type; "none" suits palette pictures (as Pillow)


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(body, zlib.crc32(kind)))


@lru_cache(maxsize=8)
def _palette_chunk(palette: Callable[[], Image.Image]) -> bytes:
    """The PLTE chunk of a game's fixed palette (one per game: written once)."""
    rgb = bytes(palette().getpalette("RGB") or [])
    return _chunk(b"PLTE", rgb[: 3 * 256])


def palette_png(image: Image.Image, plte: bytes) -> bytes:
    """``image`` (mode "P") as PNG bytes, 8 bits per pixel, with ``plte`` its palette's chunk."""
    width, height = image.size
    # The rows with their filter byte in front: the picture pasted one pixel right of a column of
    # zeros (a copy in C; slicing rows in Python costs 3x more).
    rows = Image.new("P", (width + 1, height), _NO_FILTER)
    rows.paste(image, (1, 0))  # same mode: the indices are copied as they are
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit indexed colour
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            plte,
            _chunk(b"IDAT", _deflate(rows.tobytes())),
            _chunk(b"IEND", b""),
        )
    )


def board_png(image: Image.Image, palette: Callable[[], Image.Image]) -> bytes:
    """A board drawn in RGB as PNG bytes: each pixel mapped onto the game's fixed ``palette``
    (nearest colour, no dithering: flat colours stay exact), then written by :func:`palette_png`."""
    mapped = image.quantize(palette=palette(), dither=Image.Dither.NONE)
    return palette_png(mapped, _palette_chunk(palette))
