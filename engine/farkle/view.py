"""What a Dragon Farkle player or spectator sees: the shape of ``FarkleGame.view`` (typed here,
as python-chess types its board's parts), and the notation of its actions, read and written in
one place (as ``chess.Move.from_uci`` / ``Move.uci()``): the Discord UI builds and reads keeps
through :class:`FarkleAction`, never by slicing strings."""

# No ``from __future__ import annotations`` here: TypedDict reads NotRequired[...] only from
# evaluated annotations (its __required_keys__ are then right at run time too).
from dataclasses import dataclass
from typing import NotRequired, Self, TypedDict

JOIN = "+"  # keep:1,5+roll: a keep and its follow-up in one action (FarkleGame.shortcuts)


class CardInfo(TypedDict):
    id: str
    name: str
    text: str
    source: str


class BattleInfo(TypedDict):
    damage: int  # dealt to the dragon this turn (at most hp)
    hp: int


class FarkleView(TypedDict):
    """``FarkleGame.view(player)``: public facts, plus the viewer's own Magic Items."""

    game: str
    players: list[str]  # seat order
    current: str  # whose turn it is
    to_act: list[str]
    phase: str  # a phase of engine.farkle.phases ("choose", "roll", "decide", "react", ...)
    action: str | None  # this turn's choice: "recruit", "brawl", "battle"
    actor: str  # who rolls or chooses now (the defender while defending)
    defender: str | None  # the Brawl defender
    armies: dict[str, int]
    companions: dict[str, CardInfo]
    item_counts: dict[str, int]  # Magic Items held (a count: the items are secret)
    pending_counts: dict[str, int]
    cursed_counts: dict[str, int]
    roll: list[int] | None  # soldier dice on the table, sorted; None between rolls
    event: str | None  # the Event die's face while dice are on the table
    set_aside: list[int]
    pool: int
    turn_total: int
    attack_score: int | None
    battle: BattleInfo | None  # during a Final Battle
    battle_ok: bool
    keep_min_army: int
    item_deck: int
    item_discard: int
    round: int
    max_rounds: int
    winner: str | None
    end_reason: str | None
    revealed: NotRequired[dict[str, list[str]]]  # once the game is over: everyone's items left
    viewer: NotRequired[str]  # a seated viewer's own view:
    my_items: NotRequired[list[CardInfo]]
    my_pending: NotRequired[list[CardInfo]]


@dataclass(frozen=True)
class FarkleAction:
    """One action in Farkle's notation, ``<head>[:<arg>][+<follow-up>]`` (docs/farkle.md):
    ``keep:1,5``, ``roll``, ``brawl:p2``, ``use:loaded_die:6:1``, ``keep:1,5+roll``."""

    head: str
    arg: str = ""
    follow: str = ""  # a shortcut's follow-up ("roll" or "stop"), FarkleGame.shortcuts

    @classmethod
    def from_text(cls, text: str) -> Self:
        first, _, follow = text.partition(JOIN)
        head, _, arg = first.partition(":")
        return cls(head, arg, follow)

    @classmethod
    def keep(cls, dice: tuple[int, ...] | list[int]) -> Self:
        """Keeping these dice values (written in ascending order, as ``legal_actions`` does)."""
        return cls("keep", ",".join(map(str, sorted(dice))))

    def text(self) -> str:
        """The notation ``play`` takes (``FarkleAction.from_text(a).text() == a``)."""
        first = f"{self.head}:{self.arg}" if self.arg else self.head
        return f"{first}{JOIN}{self.follow}" if self.follow else first

    @property
    def dice(self) -> tuple[int, ...]:
        """A keep's dice values, ascending; () for any other action (or a malformed keep)."""
        if self.head != "keep" or not self.arg:
            return ()
        values = self.arg.split(",")
        if not all(v.isascii() and v.isdigit() for v in values):
            return ()
        return tuple(sorted(int(v) for v in values))
