"""Views -> text or PNG, one renderer per game, registered under the game's registry name
(``render.register("farkle", render_text, render_png)``; built-ins register themselves in
``render/<name>.py``, loaded by :func:`load_builtin_renderers`).

Renderers only ever receive a view dict from ``Game.view(...)``, never the game itself, so
they cannot leak what the view does not hold.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.registry import BUILTIN_GAMES

TextRenderer = Callable[[dict[str, Any], dict[str, str]], str]  # (view, names) -> text
PngRenderer = Callable[[dict[str, Any], dict[str, str]], bytes]  # (view, names) -> PNG bytes


@dataclass(frozen=True)
class Renderer:
    text: TextRenderer
    png: PngRenderer | None = None  # no picture: the board is text only


_RENDERERS: dict[str, Renderer] = {}
_builtins_loaded = False


def register(kind: str, text: TextRenderer, png: PngRenderer | None = None) -> None:
    _RENDERERS[kind] = Renderer(text, png)


def load_builtin_renderers() -> None:
    global _builtins_loaded
    if _builtins_loaded:
        return
    for name in BUILTIN_GAMES:
        importlib.import_module(f"{__name__}.{name}")
    _builtins_loaded = True


def renderer(kind: str) -> Renderer | None:
    load_builtin_renderers()
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
