"""Views -> text or PNG. One module per game (render/<game>.py) with
``render_text(view, names) -> str`` and ``render_png(view, names) -> bytes``.

Renderers only ever receive a view dict from ``Game.view(...)``, never the game itself, so
they cannot leak what the view does not hold.
"""

from __future__ import annotations

import importlib
import json
from types import ModuleType
from typing import Any


def _module(kind: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"render.{kind}")
    except ModuleNotFoundError as exc:
        if exc.name == f"render.{kind}":
            return None
        raise


def render_text(kind: str, view: dict[str, Any], names: dict[str, str]) -> str:
    module = _module(kind)
    if module is None:  # a game without its own renderer yet: a readable dump
        body = json.dumps(view, indent=1, sort_keys=True)[:1700]
        return f"```json\n{body}\n```"
    function = module.render_text
    text: str = function(view, names)
    return text


def render_png(kind: str, view: dict[str, Any], names: dict[str, str]) -> bytes | None:
    module = _module(kind)
    if module is None or not hasattr(module, "render_png"):
        return None
    function = module.render_png
    png: bytes = function(view, names)
    return png
