"""Dragon Farkle: what every part of the engine reads: constants, the state, cards and items.

:class:`FarkleCore` holds the state (``self.s``, typed by :class:`FarkleState`), the Rng and the
card set, and answers questions about them (whose turn, which Companion works, how many items a
player holds). The turn flow (:mod:`engine.farkle.flow`) and the phase tables
(:mod:`engine.farkle.phases`) build on it.
"""

from __future__ import annotations

from typing import Any, Literal, cast

from engine.base import Event, Game
from engine.farkle import rules
from engine.farkle.cards import Card, CardSet
from engine.farkle.scoring import ScoreTable, score_table
from engine.farkle.state import FarkleState, TurnState
from engine.rng import Rng

DICE = rules.CONSTANTS["dice_per_player"]
KEEP_MIN_ARMY = rules.CONSTANTS["keep_min_army"]
DRAGON_HP = rules.CONSTANTS["dragon_hp"]
BRAWL_BONUS = rules.CONSTANTS["brawl_win_bonus"]

_ACTIVE_COMPANION_EFFECTS = ("reroll_event", "reroll_one_die")


def turn_fields(actor: str, battle_ok: bool, players: list[str]) -> TurnState:
    """The state's per-turn fields as a turn begins (a new game's first turn included)."""
    return {
        "phase": "choose",
        "action": None,
        "actor": actor,
        "defender": None,
        "battle_ok": battle_ok,
        "roll": None,
        "event": None,
        "pool": 0,
        "full": 0,
        "set_aside": [],
        "total": 0,
        "last_value": 0,
        "attack_score": None,
        "attack_full": DICE,
        "damage": 0,
        "no_loss": False,
        "shield_used": False,
        "scout_used": False,
        "claimer": None,
        "comp_uses": {p: 0 for p in players},
        "brawl_gained": {p: [] for p in players},
    }


def fmt_dice(dice: list[int] | tuple[int, ...]) -> str:
    return " ".join(str(d) for d in dice)


class FarkleCore(Game):
    def __init__(self, state: FarkleState | dict[str, Any], rng_state: int, cards: CardSet) -> None:
        # ``from_dict`` hands over the saved dict as loaded; its shape is FarkleState.
        self.s = cast(FarkleState, state)
        self.rng = Rng.from_state(rng_state)
        self.cards = cards
        self.players = list(self.s["players"])
        self.table: ScoreTable = score_table(self.s["options"])

    # ------------------------------------------------------------------ helpers
    @property
    def opt(self) -> dict[str, Any]:
        return self.s["options"]

    @property
    def current(self) -> str:
        return self.s["players"][self.s["turn"]]

    def dice_on_table(self) -> list[int]:
        """The soldier dice rolled and not yet kept; asked only while some are on the table."""
        roll = self.s["roll"]
        assert roll is not None, "no dice on the table"
        return roll

    def brawl_defender(self) -> str:
        """The defender of the Brawl under way; asked only during a Brawl."""
        defender = self.s["defender"]
        assert defender is not None, "no Brawl under way"
        return defender

    def card(self, card_id: str) -> Card:
        return self.cards.get(card_id)

    def companion_effect(self, p: str) -> str:
        return self.card(self.s["companions"][p]).effect

    def _companion_works(self, p: str, effect: str) -> bool:
        """A Companion works on its owner's own turn (spec §8.6: not while defending unless
        the card says so); in the Final Battle only if the option allows it."""
        s = self.s
        if self.companion_effect(p) != effect:
            return False
        if effect == "defender_six_dice":
            return True
        if p != self.current:
            return False
        return not (s["action"] == "battle" and not self.opt["battle_companion"])

    def _companion_active_left(self, p: str) -> bool:
        comp = self.card(self.s["companions"][p])
        return self.s["comp_uses"][p] < comp.uses_per_turn

    def _usable_items(self, p: str) -> list[str]:
        s = self.s
        items = list(s["hands"][p])
        if self.opt["pending_items_usable"]:
            items += s["pending"][p]
        return items

    def item_count(self, p: str) -> int:
        """Items that count toward the limit / are shown as a count to others."""
        return len(self.s["hands"][p]) + len(self.s["stuck"][p])

    def item_limit(self, p: str) -> int:
        extra = any(self.card(i).effect == "raise_item_limit" for i in self.s["hands"][p])
        return self.opt["item_limit"] + (self.opt["sack_extra"] if extra else 0)

    def _public_item_stake(self, p: str) -> bool:
        """Whether ``p`` *might* be able to react to a roll, judged only on public facts (how
        many items they hold, their face-up Companion), so that pausing for them never
        reveals what their hidden items are."""
        s = self.s
        if s["action"] == "battle" and not self.opt["battle_items"]:
            has_items = False
        else:
            n = len(s["hands"][p]) + (len(s["pending"][p]) if self.opt["pending_items_usable"] else 0)
            has_items = n > 0
        active = any(
            self._companion_works(p, e) and self._companion_active_left(p) for e in _ACTIVE_COMPANION_EFFECTS
        )
        return has_items or active

    def _draw_item(self, events: list[Event], who: str, into: Literal["pending", "hands"] = "pending") -> str | None:
        s = self.s
        if not s["item_deck"]:
            if not s["item_discard"]:
                events.append(Event("deck_empty", "The Magic Item deck and its discard pile are empty."))
                return None
            s["item_deck"] = s["item_discard"]
            s["item_discard"] = []
            self.rng.shuffle(s["item_deck"])
            events.append(Event("reshuffle", "The Magic Item discard pile is shuffled into a new deck."))
        item = s["item_deck"].pop()
        s[into][who].append(item)
        if into == "pending" and s["action"] == "brawl":
            s["brawl_gained"][who].append(item)
        events.append(Event("draw_item", f"{{{who}}} draws a Magic Item.", data={"player": who}))
        events.append(
            Event(
                "draw_item_private",
                f"You drew {self.card(item).name}: {self.card(item).text}",
                to=who,
                data={"item": item},
            )
        )
        return item

    def _can_draw(self) -> bool:
        return bool(self.s["item_deck"] or self.s["item_discard"])

    def _take_item(self, p: str, item: str) -> None:
        """Remove one copy of ``item`` from what ``p`` can use (pending first: those would be
        lost on a Farkle anyway)."""
        s = self.s
        if self.opt["pending_items_usable"] and item in s["pending"][p]:
            s["pending"][p].remove(item)
            if item in s["brawl_gained"][p]:
                s["brawl_gained"][p].remove(item)
        else:
            s["hands"][p].remove(item)

    def _public_item_stake_defender(self, d: str) -> bool:
        s = self.s
        return len(s["hands"][d]) > 0

