"""The profile's rating chart: one line per game, rating against time, as a PNG.

Drawn with Pillow at the width Discord shows an embed image (about 400-520 px on a phone, up to
~550 on a desktop): 640 x 300 source pixels, text no smaller than 15 px, so it is legible
after Discord scales it down. Receives plain numbers, never a game or a database row.
"""

from __future__ import annotations

import io
import time
from collections.abc import Mapping, Sequence

from PIL import Image

from render.canvas import Canvas, fit_text, font, smallest_font, text_width

WIDTH, HEIGHT = 640, 300
BG = (36, 30, 40)
GRID = (70, 62, 78)
INK = (240, 232, 220)
MUTED = (184, 174, 164)
# One colour per game line, in the order the games are given (the legend names them).
LINE_COLOURS = ((232, 184, 64), (110, 180, 235), (120, 200, 110), (205, 110, 180))
LEFT, RIGHT, TOP, BOTTOM = 62, 16, 40, 42  # plot margins

Series = Sequence[tuple[float, float]]  # (unix time, rating), oldest first


def rating_chart(title: str, series: Mapping[str, Series]) -> bytes:
    """A PNG of each game's rating over its rated games (x: games in time order, with the first
    and last dates under the axis; a time axis would squeeze a busy evening into one pixel)."""
    return _png(draw_chart(title, series))


def draw_chart(title: str, series: Mapping[str, Series]) -> Canvas:
    """The chart of :func:`rating_chart` as a Canvas (the picture and where each text went)."""
    canvas = Canvas(Image.new("RGB", (WIDTH, HEIGHT), BG))
    draw = canvas.draw
    small, label = font(smallest_font(WIDTH)), font(17, bold=True)  # 16 px: readable on a phone
    canvas.text((LEFT, 10), title, label, INK, width=WIDTH - LEFT - RIGHT)
    lines = {name: list(points) for name, points in series.items() if points}
    plot = (LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM)
    if not lines:
        canvas.text(
            ((plot[0] + plot[2]) / 2, (plot[1] + plot[3]) / 2),
            "No rated games yet",
            small,
            MUTED,
            anchor="mm",
        )
        return canvas
    values = [v for points in lines.values() for _, v in points]
    low, high = _bounds(min(values), max(values))
    longest = max(len(points) for points in lines.values())

    def y_of(value: float) -> float:
        return plot[3] - (value - low) / (high - low) * (plot[3] - plot[1])

    for step in range(5):  # four bands, their values on the left
        value = low + (high - low) * step / 4
        y = y_of(value)
        draw.line((plot[0], y, plot[2], y), fill=GRID, width=1)
        canvas.text((plot[0] - 8, y), f"{value:,.0f}", small, MUTED, anchor="rm")
    for index, (name, points) in enumerate(lines.items()):
        colour = LINE_COLOURS[index % len(LINE_COLOURS)]
        span = max(1, longest - 1)
        # Each game's line ends at the right edge: its latest rating is what the profile says.
        offset = longest - len(points)
        xy = [
            (plot[0] + (offset + i) / span * (plot[2] - plot[0]), y_of(v)) for i, (_, v) in enumerate(points)
        ]
        if len(xy) == 1:
            x, y = xy[0]
            draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=colour)
        else:
            draw.line(xy, fill=colour, width=3, joint="curve")
            x, y = xy[-1]
            draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=colour)
        legend_x = plot[0] + index * (plot[2] - plot[0]) / max(1, len(lines))
        draw.rectangle((legend_x, HEIGHT - 18, legend_x + 12, HEIGHT - 8), fill=colour)
        room = (plot[2] - plot[0]) / max(1, len(lines)) - 24
        latest = f" {points[-1][1]:,.0f}"  # the latest rating always shows; a long name gives way
        label_text = fit_text(name, small, room - text_width(latest, small)) + latest
        canvas.text((legend_x + 18, HEIGHT - 13), label_text, small, INK, anchor="lm")
    first = min(points[0][0] for points in lines.values())
    last = max(points[-1][0] for points in lines.values())
    canvas.text((plot[0], plot[3] + 4), _date(first), small, MUTED)
    canvas.text((plot[2], plot[3] + 4), _date(last), small, MUTED, anchor="ra")
    return canvas


def _bounds(low: float, high: float) -> tuple[float, float]:
    """A value range with some air, rounded to tens, never empty."""
    pad = max(20.0, (high - low) * 0.1)
    return (low - pad) // 10 * 10, -((-(high + pad)) // 10) * 10


def _date(stamp: float) -> str:
    return time.strftime("%d %b %Y", time.gmtime(stamp))


def _png(canvas: Canvas) -> bytes:
    out = io.BytesIO()
    canvas.image.save(out, format="PNG", optimize=False)
    return out.getvalue()
