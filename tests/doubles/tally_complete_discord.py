"""The outer layers of the complete Tally plug-in (tests.doubles.tally_complete names this module
as its renderer and UI): importing it registers them, as render/<game>.py and cogs/ui/<game>.py
do for the built-in games."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

import render
from cogs import ui
from engine.handbook import CardEntry
from tests.doubles import tally_ui


def render_text(view: dict[str, Any], names: dict[str, str]) -> str:
    board = tally_ui.render_text(view, names)
    return board + (f"\nGame over: {view['stopped']}." if view.get("stopped") else "")


def card_png(card: CardEntry) -> bytes:
    image = Image.new("RGB", (120, 60), "white")
    ImageDraw.Draw(image).text((8, 24), card.name, fill="black")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


render.register("tally", render_text, card=card_png)
ui.register("tally", tally_ui.TallyUI())
