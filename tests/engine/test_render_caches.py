"""The caches that make a board picture cheap (issue 25) stay bounded and are safe in the worker
threads that draw the pictures."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from render import canvas, render_png
from render.canvas import _TextMasks, font
from tests.engine.test_render_pixels import _cases, pixels_digest


def test_text_masks_stay_within_their_budget_forgetting_the_least_recent() -> None:
    masks = _TextMasks(budget=40_000)
    f = font(18)
    masks.get("a label drawn on every board", f, "la")
    for i in range(200):  # the texts of many games, each drawn once
        masks.get(f"player {i} chooses an action", f, "la")
        masks.get("a label drawn on every board", f, "la")  # drawn again on every board
        assert masks.used <= masks.budget
    kept = [key[0] for key in masks._masks]
    assert "a label drawn on every board" in kept
    assert "player 0 chooses an action" not in kept  # the oldest went first
    assert "player 199 chooses an action" in kept
    assert 5 < len(kept) < 200


def test_a_cached_text_is_the_same_mask_as_a_fresh_one() -> None:
    masks = _TextMasks(budget=1_000_000)
    f = font(22, True)
    first, box = masks.get("Bartholomew the Bold", f, "ra")
    again, box_again = masks.get("Bartholomew the Bold", f, "ra")
    assert again is first and box_again == box
    assert box[2] - box[0] == first.size[0] and box[3] - box[1] == first.size[1]


def test_pictures_drawn_in_parallel_threads_are_the_pictures_drawn_alone() -> None:
    """The bot draws in asyncio.to_thread: several boards at once share every cache."""
    canvas.text_masks.clear()  # every thread starts by rendering texts, filling the cache together
    cases = _cases() * 3
    with ThreadPoolExecutor(max_workers=6) as pool:
        pngs = list(pool.map(lambda c: render_png(c["kind"], c["view"], c["names"]), cases))
    for case, png in zip(cases, pngs, strict=True):
        assert png is not None
        assert pixels_digest(png) == case["rgb_sha256"]


def test_a_text_blends_with_what_is_under_it_as_pillow_draws_it() -> None:
    """Canvas.text pastes its colour through the cached mask itself: on a background of every
    colour (noise) the pixels are those of ImageDraw.text."""
    from PIL import Image, ImageDraw

    from render.canvas import Canvas

    noise = Image.effect_noise((320, 60), 90).convert("RGB")
    for anchor, xy in (("la", (6.0, 8.0)), ("mm", (160.0, 30.0)), ("rs", (314.0, 50.0))):
        drawn = Canvas(noise.copy())
        drawn.text(xy, "Sir Goodheart — Radiance ½", font(20, True), (250, 200, 60), anchor=anchor)
        expected = noise.copy()
        ImageDraw.Draw(expected).text(
            xy, "Sir Goodheart — Radiance ½", font=font(20, True), fill=(250, 200, 60), anchor=anchor
        )
        assert drawn.image.tobytes() == expected.tobytes()
