"""Views -> text or PNG, one renderer per game, registered under the game's registry name
(``render.register("farkle", render_text, render_png)`` at the end of ``render/<name>.py``, the
module the game's record names; :func:`cogs.plugins.load_plugins` imports it).

Renderers only ever receive a view dict from ``Game.view(...)``, never the game itself, so
they cannot leak what the view does not hold.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.handbook import CardEntry

TextRenderer = Callable[[dict[str, Any], dict[str, str]], str]  # (view, names) -> text
PngRenderer = Callable[[dict[str, Any], dict[str, str]], bytes]  # (view, names) -> PNG bytes
CardRenderer = Callable[[CardEntry], "bytes | None"]  # a card of its catalogue -> its picture, if it has one


@dataclass(frozen=True)
class Renderer:
    text: TextRenderer
    png: PngRenderer | None = None  # no picture: the board is text only
    card: CardRenderer | None = None  # no card pictures: /game card shows the card's text only


_RENDERERS: dict[str, Renderer] = {}


def register(
    kind: str, text: TextRenderer, png: PngRenderer | None = None, card: CardRenderer | None = None
) -> None:
    _RENDERERS[kind] = Renderer(text, png, card)


def renderer(kind: str) -> Renderer | None:
    return _RENDERERS.get(kind)


def render_text(kind: str, view: dict[str, Any], names: dict[str, str]) -> str:
    found = renderer(kind)
    if found is None:  # a game that registered no renderer: a readable dump
        body = json.dumps(view, indent=1, sort_keys=True)[:1700]
        return f"```json\n{body}\n```"
    text: str = found.text(view, names)
    return text


def render_png(kind: str, view: dict[str, Any], names: dict[str, str]) -> bytes | None:
    found = renderer(kind)
    if found is None or found.png is None:
        return None
    png: bytes = found.png(view, names)
    return png


def render_card(card: CardEntry) -> bytes | None:
    """The picture of one card of a game's catalogue (``/game card``), or None when its game
    draws no card pictures (Dragon Farkle and Nine Sons cards are text only)."""
    found = renderer(card.game)
    if found is None or found.card is None:
        return None
    return found.card(card)
