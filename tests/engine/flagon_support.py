"""Helpers to build Flagon positions for the tests (test-only; the product never imports this).

``position`` makes a game that is already past setup, on an empty tavern unless furniture is
given; ``step`` plans cards and runs one time step until the first question; ``answer`` plays
answers for whoever is asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.base import Event
from engine.flagon import geometry as G
from engine.flagon.cards import dragon_of
from engine.flagon.game import FlagonGame
from engine.flagon.rules import Ctx, Rules


def position(
    chars: dict[str, tuple[str, str, str]],
    *,
    players: list[str] | None = None,
    tables: dict[str, list[str] | str] | None = None,
    rugs: dict[str, list[str] | str] | None = None,
    chairs: Sequence[str] = (),
    mugs: Sequence[str] = (),
    barrels: Sequence[str] = (),
    flagon: str | None = "f6",
    marker: int = 1,
    seed: int = 1,
    **options: Any,
) -> FlagonGame:
    """A game past setup. ``chars`` maps character -> (owner, square, facing).

    Tables and rugs are given as id -> squares (``"c3-e4"`` rectangles also work).
    """
    owners = players or sorted({o for o, _, _ in chars.values()})
    while len(owners) < 2:
        owners.append(f"x{len(owners)}")
    g = FlagonGame.new(owners, seed, **options)
    s = g.s
    s["queue"] = []
    s["phase"] = "plan"
    s["tables"] = {k: _expand(v) for k, v in (tables or {}).items()}
    s["rugs"] = {k: _expand(v) for k, v in (rugs or {}).items()}
    s["chairs"], s["mugs"] = _count(chairs), _count(mugs)
    s["barrels"] = sorted(barrels)
    s["prizes"] = {k: flagon for k in s["prizes"]}  # the Flagon (and/or Cookies) start on ``flagon``
    s["marker"] = marker
    for i, (cid, (owner, sq, facing)) in enumerate(chars.items()):
        s["chars"][cid] = {
            "id": cid, "owner": owner, "pos": sq, "facing": facing, "prone": False, "held": None, "rep": 20,
            "token": marker, "seq": i + 1, "slots": [], "faceup": [], "removed": [], "mat": [dragon_of(cid)],
            "playing": None, "riposte": False, "loaded": True, "gaia_last": None, "actions": 0,
            "placed": i,
        }  # fmt: skip
    s["seq"] = len(chars)
    return g


def under_eyes_of_gaia() -> FlagonGame:
    """Margalo (p1, e5 facing N) has just revealed Eyes of Gaia (her Slash went back to her deck);
    Nari (p2, e2) waits. The marker is not yet on Margalo's next step."""
    g = position({"margalo": ("p1", "e5", "N"), "nari": ("p2", "e2", "S")})
    g.s["chars"]["margalo"]["mat"] = []  # her Dragon card in her deck, as after picking up the Flagon
    step(g, {"margalo": ["eyes_of_gaia", "slash"]})
    answer(g, "face:margalo:N")
    return g


def _expand(v: list[str] | str) -> list[str]:
    if isinstance(v, str) and "-" in v:
        a, b = (G.parse(x) for x in v.split("-"))
        return sorted(G.name((x, y)) for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1)
                      for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1))  # fmt: skip
    return sorted(v)


def _count(sqs: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for q in sqs:
        out[q] = out.get(q, 0) + 1
    return out


def step(g: FlagonGame, plans: dict[str, list[str]], order: list[str] | None = None) -> list[Event]:
    """Make exactly the characters in ``plans`` active (others wait 5 spaces ahead), give them
    those slot cards, fix the draw order, and run until the first question."""
    s = g.s
    for cid, c in s["chars"].items():
        if cid in plans:
            c["token"] = s["marker"]
            c["slots"] = list(plans[cid])
        elif c["token"] == s["marker"]:
            c["token"] = s["marker"] + 5
    g._begin_step()
    s["forced_order"] = list(order) if order else list(plans)
    return g._advance()


def answer(g: FlagonGame, *actions: str) -> list[Event]:
    """Play each action for the player currently asked."""
    out: list[Event] = []
    for a in actions:
        out += g.play(g.to_act()[0], a)
    return out


def deck(g: FlagonGame, cid: str) -> list[str]:
    """The cards in ``cid``'s deck now (not slotted, face up, under the mat or removed)."""
    return Rules(g.s, Ctx([])).deck(cid)


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)
