"""Dragon Farkle rules engine (the Dragon Farkle rulebook; our readings in docs/farkle.md).

The whole state is one JSON-safe dict (``self.s``, shaped by :class:`FarkleState`) plus the
Rng, so ``to_dict`` is trivial and ``play`` can work on a copy: it validates against
``legal_actions`` (the single source of truth), applies the action to a deep copy and commits
only if nothing raised.

The game is built in layers, each module one concern:

* :mod:`engine.farkle.state`   the state's keys and types.
* :mod:`engine.farkle.core`    constants, card and item questions (:class:`FarkleCore`).
* :mod:`engine.farkle.flow`    rolling, keeping, banking, Brawl, Final Battle, turn ends.
* :mod:`engine.farkle.effects` Magic Items and active Companions in use.
* :mod:`engine.farkle.phases`  the phase table: who acts, legal moves, apply and describe.
* this module                  creation, persistence and the public engine API.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

from engine.base import Event, IllegalAction, InvalidSetup, Result, StateUpgrade, check_legal, copy_state
from engine.farkle import rules
from engine.farkle.cards import check_card_counts, default_cards, parse_cards
from engine.farkle.core import DRAGON_HP, KEEP_MIN_ARMY, turn_fields
from engine.farkle.flow import TurnFlow
from engine.farkle.phases import MOVES, PHASES
from engine.farkle.state import FarkleState
from engine.farkle.view import JOIN, CardInfo, FarkleView
from engine.rng import Rng

FOLLOW_UPS = ("roll", "stop")


class FarkleGame(TurnFlow):
    NAME: ClassVar[str] = "farkle"
    TITLE: ClassVar[str] = "Dragon Farkle"
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 5
    OPTIONS = rules.OPTIONS
    # Version 2 added the option rally_double; a game saved before it keeps the only reading it knew.
    STATE_VERSION: ClassVar[int] = 2
    STATE_UPGRADES: ClassVar[Mapping[int, StateUpgrade]] = {
        1: lambda d: d | {"options": {"rally_double": "roll"} | d["options"]},
    }
    # Magic Items in hand are secret: the bot sends private prompts and checks DMs at start.
    HIDDEN_INFORMATION: ClassVar[bool] = True

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(
        cls, players: list[str], seed: int, *, cards: dict[str, Any] | None = None, **options: Any
    ) -> FarkleGame:
        """``cards`` is a card set as data (``CardSet.to_dict()``, e.g. from :func:`load_cards`
        of a card file's text); ``None`` = the bundled house cards. It is not a lobby option:
        the engine never reads files, and the state keeps the cards so a save restores them."""
        if not cls.MIN_PLAYERS <= len(players) <= cls.MAX_PLAYERS:
            raise InvalidSetup(f"Dragon Farkle takes {cls.MIN_PLAYERS} to {cls.MAX_PLAYERS} players.")
        if len(set(players)) != len(players) or any(not isinstance(p, str) or not p for p in players):
            raise ValueError("player ids must be distinct non-empty strings")
        opts = rules.check_options(options)
        custom: dict[str, Any] | None = None
        if cards is not None:
            cardset = parse_cards(cards, "card set")
            custom = cardset.to_dict()
        else:
            cardset = default_cards()
        check_card_counts(cardset, len(players))
        rng = Rng(seed)
        order = list(players)  # seat order is kept; only the first player may be random
        first = rng.below(len(order)) if opts["first_player"] == "random" else 0
        comp_deck = [c.id for c in cardset.companions for _ in range(c.copies)]
        item_deck = [c.id for c in cardset.items for _ in range(c.copies)]
        rng.shuffle(comp_deck)
        rng.shuffle(item_deck)
        s: FarkleState = {
            "version": cls.STATE_VERSION,
            "players": order,
            "options": opts,
            "custom_cards": custom,
            "armies": {p: 0 for p in order},
            "companions": {p: comp_deck.pop() for p in order},
            "hands": {p: [item_deck.pop()] for p in order},
            "stuck": {p: [] for p in order},  # items given to a player that they cannot use
            "pending": {p: [] for p in order},  # items gained this turn, lost on a Farkle
            "item_deck": item_deck,
            "item_discard": [],
            "companion_deck": comp_deck,
            "companion_discard": [],
            "turn": first,
            "first": first,
            "round": 1,
            **turn_fields(order[first], False, order),  # _start_turn below sets them for real
            "discarding": [],
            "winner": None,
            "end_reason": None,
            "turn_number": 1,
        }
        game = cls(s, rng.to_dict(), cardset)
        game._start_turn()
        return game

    # ------------------------------------------------------------------ persistence
    def to_dict(self) -> dict[str, Any]:
        d = cast(dict[str, Any], copy_state(self.s))
        d["rng"] = self.rng.to_dict()
        return d

    def copy(self) -> FarkleGame:
        """An independent copy: the state through JSON (engine.base.copy_state), the card set
        (frozen) shared rather than parsed again."""
        return type(self)(copy_state(self.s), self.rng.to_dict(), self.cards)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FarkleGame:
        state = copy_state(cls.upgrade(d))
        rng_state = state.pop("rng")
        cards = (
            parse_cards(state["custom_cards"], "saved cards") if state["custom_cards"] else default_cards()
        )
        return cls(state, rng_state, cards)

    def setup_arguments(self) -> dict[str, Any]:
        return {"cards": self.s["custom_cards"]} if self.s["custom_cards"] else {}

    # ------------------------------------------------------------------ public API
    def to_act(self) -> list[str]:
        return PHASES[self.s["phase"]].to_act(self)


    @property
    def is_over(self) -> bool:
        return self.s["phase"] == "over"

    @property
    def result(self) -> Result | None:
        s = self.s
        if s["phase"] != "over":
            return None
        armies = s["armies"]
        ranking: list[list[str]] = [[s["winner"]]] if s["winner"] else []
        others = sorted((p for p in s["players"] if p != s["winner"]), key=lambda p: -armies[p])
        groups: list[list[str]] = []
        for p in others:  # equal armies share a place
            if groups and armies[groups[-1][0]] == armies[p]:
                groups[-1].append(p)
            else:
                groups.append([p])
        ranking += groups
        return Result(
            scores={p: float(armies[p]) for p in s["players"]}, ranking=ranking, reason=s["end_reason"] or ""
        )

    def legal_actions(self, player: str) -> list[str]:
        if player not in self.to_act():
            return []
        items = self._usable_items(player)
        effects = {i: self.card(i).effect for i in set(items)}
        return sorted(set(PHASES[self.s["phase"]].legal(self, player, effects)))

    def is_private_action(self, player: str, action: str) -> bool:
        head = action.split(":", 1)[0]
        if head in ("use", "discard", "claim"):
            return True
        # The Peddler names the item it swaps away.
        return head == "companion" and action.count(":") == 1 and not action.split(":")[1].isdigit()

    def shortcuts(self, player: str) -> list[str]:
        """``keep:<dice>+roll`` and ``keep:<dice>+stop``: a keep with what follows it, one
        command for the usual decision of a roll (each offered only if its follow-up is legal
        after that keep)."""
        keeps = [a for a in self.legal_actions(player) if a.startswith("keep:")]
        out = []
        for keep in keeps:
            after = self.after(player, keep)
            if after is not None:
                out += [f"{keep}{JOIN}{follow}" for follow in FOLLOW_UPS if follow in after.legal_actions(player)]
        return out

    def after(self, player: str, action: str) -> FarkleGame | None:
        """This game after ``player`` plays ``action``, on a copy (None if it is refused): what
        a joined move or a one-click button would lead to, without playing it."""
        copied = self.copy()
        try:
            copied.play(player, action)
        except IllegalAction:
            return None
        return copied

    def play(self, player: str, action: str) -> list[Event]:
        first, join, follow = action.partition(JOIN)
        if join:
            return self._play_joined(player, first, follow)
        check_legal(self, player, action)
        backup_state = copy_state(self.s)
        backup_rng = self.rng.to_dict()
        try:
            events: list[Event] = []
            self._apply(player, action, events)
            return events
        except Exception:
            self.s = backup_state
            self.rng.state = backup_rng
            raise

    def _play_joined(self, player: str, keep: str, follow: str) -> list[Event]:
        """``keep:1,5+roll``: both actions or, if either is refused, neither."""
        if not keep.startswith("keep:") or follow not in FOLLOW_UPS:
            raise IllegalAction(f"`{keep}{JOIN}{follow}` is not a move: the `+` joins a keep to `roll` or `stop`, "
                                "as in `keep:1,5+roll`.")
        check_legal(self, player, keep)
        backup_state = copy_state(self.s)
        backup_rng = self.rng.to_dict()
        try:
            events = self.play(player, keep)
            if follow not in self.legal_actions(player):
                raise IllegalAction(f"`{follow}` cannot follow `{keep}` now (see the board): nothing was "
                                    f"played. Play `{keep}` alone, then choose.")
            return events + self.play(player, follow)
        except Exception:
            self.s = backup_state
            self.rng.state = backup_rng
            raise

    def _apply(self, player: str, action: str, events: list[Event]) -> None:
        head, _, arg = action.partition(":")
        if head not in PHASES[self.s["phase"]].moves:  # pragma: no cover - legal_actions prevents this
            raise IllegalAction(f"Unknown action `{action}`.")
        MOVES[head].apply(self, player, arg, events)

    # ------------------------------------------------------------------ presentation
    def view(self, player: str | None) -> dict[str, Any]:
        return cast("dict[str, Any]", self.typed_view(player))

    def typed_view(self, player: str | None) -> FarkleView:
        """:meth:`view` with its shape (engine.farkle.view.FarkleView), for code that reads it."""
        s = self.s

        def card_info(cid: str) -> CardInfo:
            c = self.card(cid)
            return {"id": c.id, "name": c.name, "text": c.text, "source": c.source}

        v: FarkleView = {
            "game": self.NAME,
            "players": list(s["players"]),
            "current": self.current,
            "to_act": self.to_act(),
            "phase": s["phase"],
            "action": s["action"],
            "actor": s["actor"],
            "defender": s["defender"],
            "armies": dict(s["armies"]),
            "companions": {p: card_info(c) for p, c in s["companions"].items()},
            "item_counts": {p: self.item_count(p) for p in s["players"]},
            "pending_counts": {p: len(s["pending"][p]) for p in s["players"]},
            "cursed_counts": {p: len(s["stuck"][p]) for p in s["players"]},
            "roll": list(s["roll"]) if s["roll"] is not None else None,
            "event": s["event"] if s["roll"] is not None else None,
            "set_aside": list(s["set_aside"]),
            "pool": s["pool"],
            "turn_total": s["total"],
            "attack_score": s["attack_score"],
            "battle": {"damage": min(s["damage"], DRAGON_HP), "hp": DRAGON_HP} if s["action"] == "battle" else None,
            "battle_ok": s["battle_ok"],
            "keep_min_army": KEEP_MIN_ARMY,
            "item_deck": len(s["item_deck"]),
            "item_discard": len(s["item_discard"]),
            "round": s["round"],
            "max_rounds": self.opt["max_rounds"],
            "winner": s["winner"],
            "end_reason": s["end_reason"],
        }
        if s["phase"] == "over":
            # Nothing is secret once the game is over: everyone sees the Magic Items left in hand.
            v["revealed"] = {p: self._items_left(p) for p in s["players"]}
        if player is not None and player in s["players"]:
            v["viewer"] = player
            v["my_items"] = [card_info(i) for i in s["hands"][player]]
            v["my_pending"] = [card_info(i) for i in s["pending"][player]]
        return v

    def private_summary(self, player: str) -> list[str]:
        return self._items_left(player)

    def _items_left(self, player: str) -> list[str]:
        """The Magic Items ``player`` still holds, by name (cursed and new ones marked)."""
        s = self.s
        names = [self.card(i).name for i in s["hands"][player]]
        names += [f"{self.card(i).name} (cursed)" for i in s["stuck"][player]]
        names += [f"{self.card(i).name} (new)" for i in s["pending"][player]]
        return [f"Magic Items: {', '.join(names)}"] if names else ["no Magic Item"]

    def describe_action(self, player: str, action: str) -> str:
        first, join, follow = action.partition(JOIN)
        if join:  # "Keep 1 5 (+150) & roll 4 dice": the follow-up as it reads after the keep
            after = self.after(player, first)
            if after is None:
                then = follow
            elif follow == "stop" and after.s["action"] == "recruit":
                then = f"bank {after.s['total']}"  # as the board's "Keep 1 5 (+150) & bank 450"
            else:
                then = after.describe_action(player, follow)
            return f"{self.describe_action(player, first)} & {then[:1].lower()}{then[1:]}"
        head, _, arg = action.partition(":")
        move = MOVES.get(head)
        text = move.describe(self, player, arg) if move is not None else None
        return action if text is None else text
