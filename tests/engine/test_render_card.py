"""The /game card picture of every Dragon & Flagon card: every printed mark drawn, no text over
another or off the card (render.flagon_card)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.handbook import all_cards
from render.canvas import outside, overlapping
from render.flagon_card import PLAIN, PURPLE, RED, card_png, draw_flagon_card, time_mark

FLAGON = [c for c in all_cards() if c.game == "flagon"]


@pytest.mark.parametrize("card", FLAGON, ids=lambda c: c.key)
def test_every_flagon_card_picture_keeps_its_texts_apart_and_inside(card):
    assert card.face is not None
    canvas = draw_flagon_card(card.face)
    assert overlapping(canvas.texts) == [] and outside(canvas.texts, canvas.size) == []
    shown = " ".join(t.text for t in canvas.texts)
    assert time_mark(card.face) in shown and card.face.name in shown
    assert ("Weapon attack" in shown) == card.face.weapon
    assert ("Requires:" in shown) == bool(card.face.requirements)
    header = canvas.image.getpixel((canvas.size[0] // 2, 8))
    assert header == (PURPLE if card.face.purple else PLAIN)


def test_the_picture_is_a_small_png_with_the_red_requirement_box():
    throw = next(c for c in FLAGON if c.name == "Throw")
    picture = card_png(throw)
    assert picture is not None and len(picture) < 40_000
    image = Image.open(io.BytesIO(picture)).convert("RGB")
    assert RED in {image.getpixel((x, 100)) for x in range(image.width)}  # the red box's border
    assert all(card_png(c) is None for c in all_cards() if c.game != "flagon")
