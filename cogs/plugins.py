"""The one loader of game plug-ins.

A game is one record, :class:`engine.registry.GameInfo`, registered when its plug-in package is
imported (``engine.<name>`` for the built-in games). The record names, as module paths, the
game's renderer (``render.<name>``) and Discord UI (``cogs.ui.<name>``); this loader imports
them, and each registers its part with its own layer (``render.register``, ``cogs.ui.register``).
The layers keep only tables: none of them imports a game by itself, and only this module, at the
top of the layers, imports them all.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from engine import registry

BUILTIN_PACKAGES = tuple(f"engine.{name}" for name in registry.BUILTIN_GAMES)


def load_plugins(packages: Iterable[str] = BUILTIN_PACKAGES, *, ui: bool = True) -> None:
    """Import each plug-in package (registering its record), then the renderer and, with
    ``ui``, the Discord UI every registered record names. With ``ui``, refuse to start if a
    registered game has no UI (a worker process that only draws boards passes ``ui=False``)."""
    for package in packages:
        importlib.import_module(package)
    for info in registry.all_games():
        for module in (info.renderer, info.ui if ui else None):
            if module:
                importlib.import_module(module)
    if ui:
        from cogs.ui import registered_uis  # here: a drawing worker (ui=False) never imports discord

        missing = [info.name for info in registry.all_games() if info.name not in registered_uis()]
        if missing:
            raise RuntimeError(
                f"No Discord UI registered for {', '.join(missing)}: name a module in its GameInfo(ui=...) "
                "that calls cogs.ui.register (with cogs.ui.GameUI() for the generic buttons)."
            )
