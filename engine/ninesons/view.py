"""What a Nine Sons player or spectator sees: the shape of ``NineSonsGame.view`` (typed here),
and the notation of its actions read and written in one place (as python-chess's
``Move.from_uci`` / ``uci()``): ``3@b2`` places a 3 on b2, ``a1-a2-b2`` moves the stack on a1
along that path, ``tame:S3`` / ``tame:S6:d3`` choose how a taming goes (docs/ninesons.md)."""

# No ``from __future__ import annotations``: TypedDict reads its keys from evaluated annotations.
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self, TypedDict, cast

if TYPE_CHECKING:
    from engine.ninesons.game import NineSonsGame


class CardView(TypedDict):
    name: str
    chinese: str
    colour: str
    points: int
    rule: str
    text: str
    condition: str


class CellView(TypedDict):
    cell: str  # "a1".."c4"
    slot: str  # the card slot it counts towards, "S1".."S6"
    exists: bool
    stack: list[list[Any]]  # [owner seat, value] from the bottom up


class SlotView(TypedDict):
    slot: str
    cells: list[str]
    hole: bool  # the card was tamed: no card there any more
    card: CardView | None
    dice: int


class PendingView(TypedDict):
    player: str
    kind: str  # "tame_order"
    options: list[str]
    labels: list[str]


class NineSonsView(TypedDict):
    """``NineSonsGame.view(player)``: everything but the deck's order."""

    game: str
    viewer: str | None
    players: list[str]
    seats: dict[str, str]  # seat -> "A" / "B"
    cells: list[CellView]
    slots: list[SlotView]
    reserves: dict[str, list[int]]
    removed: dict[str, list[int]]
    tamed: dict[str, list[CardView]]
    points: dict[str, int]
    cards_tamed: dict[str, int]
    deck: dict[str, Any]  # {"count", "contents" (names, sorted: never the order)}
    turn: str | None
    to_act: list[str]
    last_action: dict[str, Any] | None
    pending: PendingView | None
    ply: int
    win_points: int
    options: dict[str, Any]
    is_over: bool
    result: dict[str, Any] | None
    result_text: str | None


def typed_view(game: "NineSonsGame", player: str | None) -> NineSonsView:
    """``game.view(player)`` with its shape, for code that reads it (the test of this module
    checks every view against it)."""
    return cast(NineSonsView, game.view(player))


@dataclass(frozen=True)
class NineSonsAction:
    """One action: ``kind`` "place" (``value``, ``cells`` = [the cell]), "move" (``cells`` = the
    path, the stack's cell first) or "tame" (``slot``, and ``cells`` = [the stack's cell] when
    the tamer's stack is chosen); "" for text that is none of these."""

    kind: str
    value: int = 0
    cells: tuple[str, ...] = ()
    slot: str = ""

    @classmethod
    def from_text(cls, text: str) -> Self:
        """Read any text (never raises): a malformed action reads as one no game offers."""
        if text.startswith("tame:"):
            _, slot, *stack = text.split(":")
            return cls("tame", slot=slot, cells=tuple(stack[:1]))
        if "@" in text:
            value, _, target = text.partition("@")
            return cls("place", int(value) if value.isascii() and value.isdigit() else 0, (target,))
        cells = tuple(text.split("-"))
        return cls("move", cells=cells) if len(cells) >= 2 else cls("", cells=cells)

    def text(self) -> str:
        """The notation ``play`` takes (``NineSonsAction.from_text(a).text() == a``)."""
        if self.kind == "tame":
            return ":".join(["tame", self.slot, *self.cells])
        if self.kind == "place":
            return f"{self.value}@{self.cells[0]}"
        return "-".join(self.cells)
