"""The ramp as a PNG (Pillow only): requests/s outside interactions against the global limit,
and click-to-board latency and bot CPU, per number of games."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bench.discord_scale.ramp import StepResult
from tests.wire.ratelimits import GLOBAL_LIMIT

WIDTH, HEIGHT, MARGIN = 900, 360, 70
COLOURS = {
    "out": (31, 119, 180),
    "peak": (23, 190, 207),
    "moves": (44, 160, 44),
    "limit": (214, 39, 40),
    "p50": (148, 103, 189),
    "p99": (255, 127, 14),
    "cpu": (127, 127, 127),
}


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.truetype("DejaVuSans.ttf", size)
    except OSError:
        return ImageFont.load_default()


def _panel(
    draw: ImageDraw.ImageDraw,
    top: int,
    title: str,
    xs: Sequence[float],
    y_max: float,
    series: list[tuple[str, str, Sequence[float]]],
    hline: tuple[float, str] | None = None,
) -> None:
    font, small = _font(15), _font(12)
    left, right, bottom = MARGIN, WIDTH - 30, top + HEIGHT - 50
    height = bottom - (top + 30)
    x_max = max(xs) if xs else 1

    def point(x: float, y: float) -> tuple[float, float]:
        return left + (right - left) * x / x_max, bottom - height * min(y, y_max) / y_max

    draw.text((left, top + 5), title, fill="black", font=font)
    draw.line([(left, top + 30), (left, bottom), (right, bottom)], fill="black", width=1)
    for i in range(5):
        y = y_max * i / 4
        _, py = point(0, y)
        draw.line([(left - 4, py), (left, py)], fill="black")
        draw.text((8, py - 7), f"{y:.3g}", fill="black", font=small)
    for x in xs:
        px, _ = point(x, 0)
        draw.line([(px, bottom), (px, bottom + 4)], fill="black")
        draw.text((px - 10, bottom + 6), f"{x:g}", fill="black", font=small)
    draw.text((right - 60, bottom + 22), "games", fill="black", font=small)
    if hline is not None:
        _, py = point(0, hline[0])
        draw.line([(left, py), (right, py)], fill=COLOURS["limit"], width=2)
        draw.text((right - 220, py - 18), hline[1], fill=COLOURS["limit"], font=small)
    for index, (label, colour, ys) in enumerate(series):
        points = [point(x, y) for x, y in zip(xs, ys, strict=True)]
        if len(points) > 1:
            draw.line(points, fill=COLOURS[colour], width=3)
        for px, py in points:
            draw.ellipse([px - 4, py - 4, px + 4, py + 4], fill=COLOURS[colour])
        draw.text(
            (left + 10 + 190 * index, top + HEIGHT - 22), f"— {label}", fill=COLOURS[colour], font=small
        )


def draw(results: list[StepResult], path: Path) -> None:
    image = Image.new("RGB", (WIDTH, 2 * HEIGHT), "white")
    pen = ImageDraw.Draw(image)
    xs = [r.games for r in results]

    def of(field: Callable[[StepResult], float]) -> list[float]:
        return [field(r) for r in results]

    def known(value: float) -> float:
        return value if value == value else 0.0  # NaN (no public move measured) drawn as 0

    top_max = max([GLOBAL_LIMIT * 1.2, *of(lambda r: r.outside_peak_second)])
    _panel(
        pen,
        0,
        "Requests/s outside interaction endpoints (x: a goal missed)",
        xs,
        top_max,
        [
            ("mean requests/s", "out", of(lambda r: r.outside_per_second)),
            ("busiest second", "peak", of(lambda r: r.outside_peak_second)),
            ("member moves/s", "moves", of(lambda r: r.moves_per_second)),
        ],
        hline=(GLOBAL_LIMIT, f"Discord's global limit: {GLOBAL_LIMIT}/s"),
    )
    for result in results:
        if result.reasons():
            x = MARGIN + (WIDTH - 30 - MARGIN) * result.games / max(xs)
            pen.text((x - 70, 34), f"x {result.rate_limited} × 429", fill=COLOURS["limit"], font=_font(13))
    latency = of(lambda r: known(r.board_p99))
    _panel(
        pen,
        HEIGHT,
        "Click to board (s) and bot CPU (cores)",
        xs,
        max([1.0, *latency, *of(lambda r: r.bot_cpu)]),
        [
            ("click-to-board p50", "p50", of(lambda r: known(r.board_p50))),
            ("click-to-board p99", "p99", latency),
            ("bot CPU (cores)", "cpu", of(lambda r: r.bot_cpu)),
        ],
    )
    image.save(path)


def save(results: list[StepResult], path: Path) -> None:
    path.write_text(json.dumps([dataclasses.asdict(r) for r in results], indent=1) + "\n")


def load(path: Path) -> list[StepResult]:
    return [StepResult(**r) for r in json.loads(path.read_text())]
