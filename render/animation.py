"""An animated GIF of a game: one frame per public view, each with a caption strip.

The frames are the game's own board pictures (:func:`render.render_png`), so a renderer
needs nothing extra to be animated. The GIF must fit a Discord attachment: frames are kept
small as they are drawn (at most :data:`MAX_WIDTH` pixels wide, a palette of
:data:`COLOURS`), and if the file is still larger than :data:`MAX_BYTES` it is written again
smaller and with fewer colours, step by step.

Callers choose which views become frames (a replay caps them, see sessions.replay); each frame
is captioned so that no two consecutive frames are identical (GIF writers merge those, and a
replay wants one frame per ply).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from PIL import Image

from render import canvas, render_png

MAX_BYTES = 8 * 1024 * 1024  # Discord's attachment limit is 10 MiB by default; keep a margin
MAX_WIDTH = 560
COLOURS = 128
FRAME_MS = 700
LAST_FRAME_MS = 4000  # the final position stays up before the loop starts again
CAPTION_HEIGHT = 28
# Tried in turn until the GIF fits MAX_BYTES: (scale of the drawn frames, palette size).
_SHRINK_STEPS = ((1.0, COLOURS), (0.75, 64), (0.5, 32), (0.35, 16))


@dataclass(frozen=True)
class Frame:
    view: dict[str, Any]  # a public view, as for render_png
    caption: str  # e.g. "ply 3 / 40 · alice: 3@b2"


def animate(kind: str, frames: Iterable[Frame], names: dict[str, str]) -> bytes | None:
    """The GIF of ``frames`` (None if the game draws no pictures or there is no frame)."""
    drawn: list[Image.Image] = []
    pictures: dict[str, Image.Image] = {}  # the same view drawn once (this call only)
    for frame in frames:
        key = json.dumps(frame.view, sort_keys=True, default=str)
        picture = pictures.get(key)
        if picture is None:
            png = render_png(kind, frame.view, names)
            if png is None:
                return None
            picture = _fit_width(Image.open(io.BytesIO(png)).convert("RGB"), MAX_WIDTH)
            pictures = {key: picture}  # consecutive plies often share a picture; older ones never return
        # Kept paletted (a byte a pixel): a few hundred frames stay within tens of megabytes.
        drawn.append(_paletted(_captioned(picture, frame.caption), COLOURS, drawn[0] if drawn else None))
    if not drawn:
        return None
    data = b""
    for scale, colours in _SHRINK_STEPS:
        data = _write(drawn, scale, colours)
        if len(data) <= MAX_BYTES:
            break
    return data


def _fit_width(image: Image.Image, width: int) -> Image.Image:
    if image.width <= width:
        return image
    height = round(image.height * width / image.width)
    return image.resize((width, height), Image.Resampling.LANCZOS)


def _captioned(picture: Image.Image, caption: str) -> Image.Image:
    return captioned(picture, caption).image


def captioned(picture: Image.Image, caption: str) -> canvas.Canvas:
    """The frame: ``picture`` with its caption under it, cut to the width, in a font a phone
    reads (at least 15 px; more for a frame wider than MAX_WIDTH)."""
    framed = canvas.Canvas(Image.new("RGB", (picture.width, picture.height + CAPTION_HEIGHT), (24, 20, 16)))
    framed.image.paste(picture, (0, 0))
    f = canvas.font(max(15, canvas.smallest_font(picture.width)), bold=True, condensed=True)
    framed.text((8, picture.height + CAPTION_HEIGHT // 2), caption, f, (240, 226, 196), anchor="lm",
                width=picture.width - 16)
    return framed


def _paletted(frame: Image.Image, colours: int, first: Image.Image | None) -> Image.Image:
    """``frame`` with the first frame's palette and no dithering: a pixel that did not change
    keeps its index, so the GIF stores only what changed from frame to frame."""
    if first is None:
        return frame.quantize(colours, method=Image.Quantize.MEDIANCUT)
    return frame.quantize(palette=first, dither=Image.Dither.NONE)


def _write(frames: list[Image.Image], scale: float, colours: int) -> bytes:
    paletted = frames
    if (scale, colours) != _SHRINK_STEPS[0]:
        paletted = []
        for frame in frames:
            rgb = frame.convert("RGB")
            size = (max(1, round(rgb.width * scale)), max(1, round(rgb.height * scale)))
            paletted.append(
                _paletted(
                    rgb.resize(size, Image.Resampling.LANCZOS), colours, paletted[0] if paletted else None
                )
            )
    durations = [FRAME_MS] * (len(paletted) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    paletted[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=paletted[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return out.getvalue()


__all__ = ["MAX_BYTES", "Frame", "animate"]
