"""Card effects, one handler per ``effect`` name of ``data/cards.toml``, grouped by theme.

Importing this package registers every handler in :data:`HANDLERS`; the card loader refuses a
card whose effect has no handler, and ``tests/engine/test_flagon_effects.py`` checks that every
handler is used by some card.
"""

from __future__ import annotations

from engine.flagon.effects import furniture, items, melee, movement, ranged, special
from engine.flagon.effects.registry import HANDLERS, Handler, effect

__all__ = ["HANDLERS", "Handler", "effect", "furniture", "items", "melee", "movement", "ranged", "special"]
