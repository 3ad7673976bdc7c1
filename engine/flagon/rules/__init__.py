"""The rules proper: one character's activation; the card effects live in ``engine.flagon.effects``.

The state is one JSON-safe dict (see ``game.py``). Resolution code runs top to bottom and asks for
choices through :class:`Ctx`. When a choice is not known yet, :class:`NeedChoice` is raised; the
game stores the question plus a snapshot taken before the activation began, and when the answer
arrives it replays the activation from the snapshot with one more answer. Replays are exact
because the activation is deterministic given the state and the answers. This keeps every
mid-card decision (targets, destinations, wall slides, Daze cards, facing) a plain action in the
notation, asked of the right player, with no coroutine state to serialise.

Layers, each building on the one before: ``ctx`` (asking for choices), ``queries`` (reading the
state), ``primitives`` (changing it: reputation, Daze, knockback, strikes), ``activation`` (one
activation, dispatching to the effect registry).
"""

from __future__ import annotations

from engine.flagon.board import DRINKS, PRIZES, THROWABLE
from engine.flagon.rules.activation import Rules
from engine.flagon.rules.ctx import Ctx, NeedChoice
from engine.flagon.rules.primitives import ASMA_SPELLS
from engine.flagon.rules.queries import cname

__all__ = ["ASMA_SPELLS", "DRINKS", "PRIZES", "THROWABLE", "Ctx", "NeedChoice", "Rules", "cname"]
