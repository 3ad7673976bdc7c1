"""Read-only look-ups on one game state: who stands where, tables and rugs, teams, statuses, a
character's deck and the squares a card pattern covers. Also where events are collected."""

from __future__ import annotations

from typing import Any

from engine.flagon import geometry as G
from engine.flagon.cards import CHARACTER_NAMES, Card, deck_of, load_cards
from engine.flagon.geometry import Sq
from engine.flagon.rules.ctx import Ctx


def cname(cid: str) -> str:
    return CHARACTER_NAMES.get(cid, cid)


def running_statuses(s: dict[str, Any]) -> set[tuple[str, str]]:
    """(character, card) of every status in play (Chug, Eyes of Gaia...) in state ``s``."""
    return {(st["char"], st["card"]) for st in s["statuses"]}


def deck_left(cid: str, c: dict[str, Any]) -> list[str]:
    """:meth:`Queries.deck` of character ``cid`` whose state is ``c``, without building the rules."""
    used = set(c["slots"]) | set(c["faceup"]) | set(c["removed"]) | set(c["mat"])
    if c.get("playing"):
        used.add(c["playing"])
    return [k for k in deck_of(cid) if k not in used]


class Queries:
    """Operations on one game state ``s``. Cheap to build; holds no state of its own."""

    def __init__(self, s: dict[str, Any], ctx: Ctx) -> None:
        self.s = s
        self.ctx = ctx
        self.cards = load_cards()
        self.w: int = s["width"]
        self.h: int = s["height"]
        self.dest: str | None = None  # where the resolving card goes afterwards (override)
        self.cancelled = False
        self.performed = False  # the last revealed card was carried out (not cancelled)

    # ------------------------------------------------------------------ events
    def emit(self, text: str, to: str | None = None, kind: str = "info", **data: Any) -> None:
        self.ctx.events.append({"kind": kind, "text": text, "to": to, "data": data})

    # ------------------------------------------------------------------ look-ups
    def ch(self, cid: str) -> dict[str, Any]:
        return self.s["chars"][cid]  # type: ignore[no-any-return]

    def pos(self, cid: str) -> Sq:
        return G.parse(self.ch(cid)["pos"])

    def owner(self, cid: str) -> str:
        return self.ch(cid)["owner"]  # type: ignore[no-any-return]

    def label(self, cid: str) -> str:
        return cname(cid)

    def inb(self, sq: Sq) -> bool:
        return 0 <= sq[0] < self.w and 0 <= sq[1] < self.h

    def who(self, sq: Sq, exclude: str | None = None) -> str | None:
        n = G.name(sq) if self.inb(sq) else None
        if n is None:
            return None
        for cid, c in self.s["chars"].items():
            if c["pos"] == n and cid != exclude:
                return cid
        return None

    def table_at(self, sq: Sq) -> str | None:
        if not self.inb(sq):
            return None
        n = G.name(sq)
        for tid, sqs in self.s["tables"].items():
            if n in sqs:
                return tid  # type: ignore[no-any-return]
        return None

    def rug_at(self, sq: Sq) -> str | None:
        if not self.inb(sq):
            return None
        n = G.name(sq)
        for rid, sqs in self.s["rugs"].items():
            if n in sqs:
                return rid  # type: ignore[no-any-return]
        return None

    def on_table(self, cid: str) -> bool:
        return self.table_at(self.pos(cid)) is not None

    def ahead(self, cid: str, n: int = 1) -> Sq:
        c = self.ch(cid)
        return G.to_board(self.pos(cid), c["facing"], (0, n))

    def team(self, cid: str) -> str:
        teams = self.s.get("teams")
        o = self.owner(cid)
        return teams[o] if teams else o  # type: ignore[no-any-return]

    def friends(self, a: str, b: str) -> bool:
        return self.team(a) == self.team(b)

    def has(self, cid: str, card: str) -> bool:
        return any(st["char"] == cid and st["card"] == card for st in self.s["statuses"])

    def deck(self, cid: str) -> list[str]:
        """Cards that are in the character's deck now (not slotted, face up, under the mat, removed)."""
        return deck_left(cid, self.ch(cid))

    def chars_in(self, squares: list[Sq], exclude: str | None = None) -> list[str]:
        names = {G.name(q) for q in squares if self.inb(q)}
        return sorted(cid for cid, c in self.s["chars"].items() if c["pos"] in names and cid != exclude)

    def board_squares(self, cid: str, rel: list[Sq], origin: tuple[Sq, str] | None = None) -> list[Sq]:
        p, f = origin if origin else (self.pos(cid), self.ch(cid)["facing"])
        return [G.to_board(p, f, r) for r in rel]

    def card(self, cid: str) -> Card:
        return self.cards[cid]
