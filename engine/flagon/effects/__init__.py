"""Card effects, one handler per ``effect`` name of ``data/cards.toml``, grouped by theme.

Importing this package registers every handler in :data:`HANDLERS` and every red requirement's
check in :data:`REQUIREMENTS`; the card loader refuses a card naming an effect or requirement
that is not registered, and ``tests/engine/test_flagon_effects.py`` checks that every one
registered is used by some card.
"""

from __future__ import annotations

from engine.flagon.effects import furniture, items, melee, movement, ranged, special
from engine.flagon.effects.registry import HANDLERS, Handler, effect
from engine.flagon.effects.requirements import REQUIREMENTS, requirement

__all__ = [
    "HANDLERS",
    "REQUIREMENTS",
    "Handler",
    "effect",
    "furniture",
    "items",
    "melee",
    "movement",
    "ranged",
    "requirement",
    "special",
]
