"""Dragon Farkle rules engine (spec: shared/rules/dragon-farkle.md).

The whole state is one JSON-safe dict (``self.s``) plus the Rng, so ``to_dict`` is trivial and
``play`` can work on a copy: it validates against ``legal_actions`` (the single source of
truth), applies the action to a deep copy and commits only if nothing raised.

Phases (``s["phase"]``) and who acts:

* ``choose``  the current player picks ``recruit``, ``brawl:<player>`` or ``battle``.
* ``react``   a chosen Brawl defender holding Magic Items may answer first (``pass`` / item).
* ``roll``    dice are on the table: ``keep:...`` a scoring selection, ``accept`` a Farkle or
              a Final Battle roll, or use an item / Companion that changes the roll.
* ``rally``   after keeping on a Rally face: ``rally:double`` or ``rally:item``.
* ``decide``  ``roll`` the remaining dice or ``stop`` (Recruit / Brawl).
* ``battle``  Final Battle between rolls: ``roll`` (no voluntary stop).
* ``claim``   the Brawl winner picks the one Magic Item gained in the Brawl to keep.
* ``discard`` end of turn: players above the item limit discard (simultaneous).
* ``over``
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from engine.base import Event, Game, IllegalAction, InvalidSetup, Result, check_legal
from engine.farkle import rules
from engine.farkle.cards import Card, CardSet, check_card_counts, default_cards, parse_cards
from engine.farkle.scoring import ScoreTable, score, score_all, scoring_selections
from engine.rng import Rng

DICE = rules.CONSTANTS["dice_per_player"]
KEEP_MIN_ARMY = rules.CONSTANTS["keep_min_army"]
DRAGON_HP = rules.CONSTANTS["dragon_hp"]
BRAWL_BONUS = rules.CONSTANTS["brawl_win_bonus"]

# Effects a player triggers on the dice just rolled (Recruit / Brawl, and some in battle).
_ROLL_ITEM_EFFECTS = ("reroll_all", "set_die", "dragon_to_blank", "blank_to_rally", "cancel_farkle")
_BATTLE_ITEM_EFFECTS = ("reroll_all", "set_die", "ignore_battle_loss", "blank_to_dragon")
_ACTIVE_COMPANION_EFFECTS = ("reroll_event", "reroll_one_die")


def _fmt(dice: list[int] | tuple[int, ...]) -> str:
    return " ".join(str(d) for d in dice)


class FarkleGame(Game):
    NAME: ClassVar[str] = "farkle"
    TITLE: ClassVar[str] = "Dragon Farkle"
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 5
    OPTIONS = rules.OPTIONS
    STATE_VERSION: ClassVar[int] = 1
    # Magic Items in hand are secret: the bot sends private prompts and checks DMs at start.
    HIDDEN_INFORMATION: ClassVar[bool] = True

    def __init__(self, state: dict[str, Any], rng_state: int, cards: CardSet) -> None:
        self.s = state
        self.rng = Rng.from_state(rng_state)
        self.cards = cards
        self.players = list(state["players"])
        self.table: ScoreTable = rules.score_table(state["options"])

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
        s: dict[str, Any] = {
            "version": cls.STATE_VERSION,
            "players": order,
            "options": opts,
            "custom_cards": custom,
            "armies": {p: 0 for p in order},
            "companions": {p: comp_deck.pop() for p in order},
            "hands": {p: [item_deck.pop()] for p in order},
            "stuck": {p: [] for p in order},  # items given to a player that they cannot use
            "pending": {p: [] for p in order},  # items gained this turn, lost on a Farkle
            "brawl_gained": {p: [] for p in order},
            "item_deck": item_deck,
            "item_discard": [],
            "companion_deck": comp_deck,
            "companion_discard": [],
            "turn": first,
            "first": first,
            "round": 1,
            "phase": "choose",
            "action": None,
            "actor": order[first],
            "defender": None,
            "battle_ok": False,
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
            "comp_uses": {p: 0 for p in order},
            "shield_used": False,
            "scout_used": False,
            "discarding": [],
            "claimer": None,
            "winner": None,
            "end_reason": None,
            "turn_number": 1,
        }
        game = cls(s, rng.to_dict(), cardset)
        game._start_turn()
        return game

    # ------------------------------------------------------------------ persistence
    def to_dict(self) -> dict[str, Any]:
        d = copy.deepcopy(self.s)
        d["rng"] = self.rng.to_dict()
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FarkleGame:
        state = copy.deepcopy(cls.upgrade(d))
        rng_state = state.pop("rng")
        cards = (
            parse_cards(state["custom_cards"], "saved cards") if state["custom_cards"] else default_cards()
        )
        return cls(state, rng_state, cards)

    def setup_arguments(self) -> dict[str, Any]:
        return {"cards": self.s["custom_cards"]} if self.s["custom_cards"] else {}

    # ------------------------------------------------------------------ helpers
    @property
    def opt(self) -> dict[str, Any]:
        return self.s["options"]

    @property
    def current(self) -> str:
        return self.s["players"][self.s["turn"]]

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

    def _draw_item(self, events: list[Event], who: str, into: str = "pending") -> str | None:
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

    # ------------------------------------------------------------------ turn flow
    def _start_turn(self) -> None:
        s = self.s
        p = self.current
        s.update(
            phase="choose",
            action=None,
            actor=p,
            defender=None,
            battle_ok=s["armies"][p] >= KEEP_MIN_ARMY,  # checked at the START of the turn
            roll=None,
            event=None,
            pool=0,
            full=0,
            set_aside=[],
            total=0,
            last_value=0,
            attack_score=None,
            attack_full=DICE,
            damage=0,
            no_loss=False,
            shield_used=False,
            scout_used=False,
            claimer=None,
        )
        s["comp_uses"] = {q: 0 for q in s["players"]}
        s["brawl_gained"] = {q: [] for q in s["players"]}

    def _end_turn(self, events: list[Event]) -> None:
        """Close a turn: callers have already banked what the player keeps; anything still
        pending is discarded, then every player is held to the item limit."""
        s = self.s
        for q in s["players"]:  # anything still pending at the end of a turn is discarded
            s["item_discard"].extend(s["pending"][q])
            s["pending"][q] = []
        over = [q for q in s["players"] if self.item_count(q) > self.item_limit(q)]
        if over:
            s["phase"] = "discard"
            s["discarding"] = over
            s["roll"] = None
            for q in over:
                events.append(
                    Event(
                        "item_limit",
                        f"{{{q}}} holds too many Magic Items and must discard down to {self.item_limit(q)}.",
                        data={"player": q},
                    )
                )
            return
        self._next_player(events)

    def _next_player(self, events: list[Event]) -> None:
        s = self.s
        s["discarding"] = []
        s["turn"] = (s["turn"] + 1) % len(s["players"])
        s["turn_number"] += 1
        if s["turn"] == s["first"]:
            s["round"] += 1
            mr = self.opt["max_rounds"]
            if mr and s["round"] > mr:
                s["phase"] = "over"
                s["end_reason"] = f"{mr} rounds played; the largest army wins"
                events.append(
                    Event("game_over", f"The round limit ({mr}) is reached: the largest army wins.")
                )
                return
        self._start_turn()
        p = self.current
        note = " (may attack the dragon)" if s["battle_ok"] else ""
        events.append(Event("turn", f"It is {{{p}}}'s turn{note}.", data={"player": p}))

    # ------------------------------------------------------------------ rolling
    def _roll(self, events: list[Event]) -> None:
        s = self.s
        p = s["actor"]
        if s["pool"] == 0:
            s["pool"] = s["full"]
        s["roll"] = sorted(self.rng.die(6) for _ in range(s["pool"]))
        s["event"] = rules.EVENT_FACES[self.rng.below(len(rules.EVENT_FACES))]
        s["no_loss"] = False
        events.append(
            Event(
                "roll",
                f"{{{p}}} rolls {_fmt(s['roll'])} and the Event die shows {s['event'].title()}.",
                data={"player": p, "dice": list(s["roll"]), "event": s["event"]},
            )
        )
        self._after_roll(events)

    def _after_roll(self, events: list[Event]) -> None:
        """Decide what the dice on the table mean; pause for the roller when they have a choice."""
        s = self.s
        p = s["actor"]
        if s["action"] == "battle":
            if not self.opt["battle_score_all"] and scoring_selections(s["roll"], self.table):
                s["phase"] = "roll"  # the player picks which scoring dice to lose
            elif self._public_item_stake(p):
                s["phase"] = "roll"
            else:
                self._battle_apply(events, None)
            return
        if scoring_selections(s["roll"], self.table):
            s["phase"] = "roll"
            return
        if s["event"] == "dragon":
            # The Dragon face cancels a Farkle: continue with the same dice or stop.
            events.append(
                Event(
                    "dragon_cancel",
                    f"No scoring dice, but the Dragon cancels {{{p}}}'s Farkle.",
                    data={"player": p},
                )
            )
            if self.opt["dragon_eats"] == "turn" and s["total"]:
                if self._companion_works(p, "block_dragon") and not s["shield_used"]:
                    s["shield_used"] = True
                else:
                    events.append(Event("dragon_eats", f"The Dragon eats the {s['total']} gained this turn."))
                    s["total"] = 0
            s["phase"] = "decide"
            return
        if self._public_item_stake(p):
            s["phase"] = "roll"  # only `accept` or an item / Companion that saves the roll
            return
        self._farkle(events)

    def _farkle(self, events: list[Event]) -> None:
        s = self.s
        p = s["actor"]
        lost = s["pending"][p]
        events.append(
            Event(
                "farkle",
                f"{{{p}}} Farkles and loses {s['total']} soldiers"
                + (f" and {len(lost)} Magic Item(s)" if lost else "")
                + " gained this turn.",
                data={"player": p, "lost": s["total"], "items_lost": len(lost)},
            )
        )
        s["item_discard"].extend(lost)
        s["pending"][p] = []
        s["brawl_gained"][p] = []
        s["total"] = 0
        self._finish_roller(events, banked=False)

    def _finish_roller(self, events: list[Event], banked: bool) -> None:
        s = self.s
        p = s["actor"]
        if s["action"] == "recruit":
            gain = s["total"] if banked else 0
            if banked and gain > 0 and self._companion_works(p, "bank_bonus"):
                bonus = self.card(s["companions"][p]).value
                gain += bonus
                events.append(
                    Event("companion", f"{{{p}}}'s {self.card(s['companions'][p]).name} adds {bonus}.")
                )
            if banked:
                s["armies"][p] += gain
                s["hands"][p].extend(s["pending"][p])
                s["pending"][p] = []
                events.append(
                    Event(
                        "bank",
                        f"{{{p}}} banks {gain} soldiers (army {s['armies'][p]}).",
                        data={"player": p, "gain": gain},
                    )
                )
            s["roll"] = None
            self._end_turn(events)
            return
        # Brawl
        if p != s["defender"]:
            s["attack_score"] = s["total"] if banked else 0
            d = s["defender"]
            events.append(
                Event(
                    "attack_done",
                    f"{{{p}}}'s Brawl attack score is {s['attack_score']}. {{{d}}} defends.",
                    data={"score": s["attack_score"]},
                )
            )
            six = self._companion_works(d, "defender_six_dice")
            s.update(
                actor=d,
                total=0,
                last_value=0,
                set_aside=[],
                pool=6 if six else self.opt["defender_dice"],
                full=6 if six else self.opt["defender_hot_dice"],
            )
            if six:
                events.append(
                    Event("companion", f"{{{d}}}'s {self.card(s['companions'][d]).name} rolls 6 dice.")
                )
            self._roll(events)
            return
        self._resolve_brawl(events, s["total"] if banked else 0)

    def _resolve_brawl(self, events: list[Event], defence: int) -> None:
        s = self.s
        a, d = self.current, s["defender"]
        att = s["attack_score"]
        s["roll"] = None
        winner: str | None
        loser: str | None
        if att > defence:
            winner, loser = a, d
        elif att < defence or self.opt["brawl_tie"] == "defender":
            winner, loser = d, a
        else:
            winner = loser = None
        if winner is None or loser is None:
            events.append(Event("brawl_tie", f"The Brawl is a tie ({att} to {defence}): nobody wins."))
            for q in (a, d):
                s["item_discard"].extend(s["pending"][q])
                s["pending"][q] = []
            self._end_turn(events)
            return
        diff = abs(att - defence)
        taken = min(diff, s["armies"][loser])
        bonus = BRAWL_BONUS
        if winner == a and self._companion_works(a, "brawl_bonus"):
            bonus = self.card(s["companions"][a]).value
        s["armies"][loser] -= taken
        s["armies"][winner] += taken + bonus
        events.append(
            Event(
                "brawl_result",
                f"{{{winner}}} wins the Brawl {max(att, defence)} to {min(att, defence)}: takes {taken} "
                f"soldiers from {{{loser}}} and gains {bonus} more.",
                data={"winner": winner, "loser": loser, "taken": taken, "bonus": bonus},
            )
        )
        s["item_discard"].extend(s["pending"][loser])
        s["pending"][loser] = []
        gained = list(s["pending"][winner])
        if len(gained) > 1:  # by count, not by kind: two equal items must not look different
            s["phase"] = "claim"
            s["claimer"] = winner
            return
        if gained:
            s["hands"][winner].append(gained[0])
            s["pending"][winner] = gained[1:]
            events.append(Event("claim", f"{{{winner}}} keeps a Magic Item won in the Brawl."))
        self._end_turn(events)

    def _keep(self, events: list[Event], sel: tuple[int, ...]) -> None:
        s = self.s
        p = s["actor"]
        value = score(sel, self.table) or 0
        roll = list(s["roll"])
        for d in sel:
            roll.remove(d)
        s["roll"] = roll
        note = ""
        if s["event"] == "dragon":
            if self._companion_works(p, "block_dragon") and not s["shield_used"]:
                s["shield_used"] = True
                note = f" ({self.card(s['companions'][p]).name} stops the Dragon)"
            else:
                note = " (eaten by the Dragon)"
                if self.opt["dragon_eats"] == "turn" and s["total"]:
                    note = f" (the Dragon eats this roll and the {s['total']} gained before)"
                    s["total"] = 0
                value = 0
        s["total"] += value
        s["last_value"] = value
        s["set_aside"] = [*s["set_aside"], *sel]
        s["pool"] -= len(sel)
        events.append(
            Event(
                "keep",
                f"{{{p}}} sets aside {_fmt(sel)} for +{value}{note} (total {s['total']}).",
                data={"player": p, "dice": list(sel), "value": value},
            )
        )
        if s["pool"] == 0:
            s["pool"] = 0  # refilled on the next roll
            s["set_aside"] = []
            events.append(Event("hot_dice", f"Hot dice! {{{p}}} may roll {s['full']} dice again."))
        if s["event"] == "rally":
            s["phase"] = "rally"
            return
        s["phase"] = "decide"

    # ------------------------------------------------------------------ Final Battle
    def _battle_apply(self, events: list[Event], sel: tuple[int, ...] | None) -> None:
        s = self.s
        p = s["actor"]
        if sel is None:
            sel, loss = score_all(s["roll"], self.table)
        else:
            loss = score(sel, self.table) or 0
        if loss and self._companion_works(p, "halve_battle_loss"):
            loss = -(-loss // 100) * 50  # half, rounded up to a multiple of 50
        if s["no_loss"]:
            loss = 0
        dmg = {"dragon": self.opt["battle_dragon_damage"], "rally": self.opt["battle_rally_damage"]}.get(
            s["event"], 0
        )
        paid = min(loss, s["armies"][p])
        s["armies"][p] -= paid
        s["damage"] += dmg
        farkle = not sel and dmg == 0
        remaining = list(s["roll"])
        for d in sel:
            remaining.remove(d)
        s["roll"] = remaining  # like Recruit: the view shows what is left and what was set aside
        s["pool"] -= len(sel)
        s["set_aside"] = [*s["set_aside"], *sel]
        events.append(
            Event(
                "battle_roll",
                f"{{{p}}} loses {paid} soldiers and deals {dmg} damage (dragon {s['damage']}/{DRAGON_HP}).",
                data={"player": p, "loss": paid, "damage": dmg, "dice": list(sel)},
            )
        )
        if s["event"] == "rally" and self.opt["battle_rally_item"]:
            self._draw_item(events, p)
        if s["pool"] == 0:
            s["set_aside"] = []
        if s["damage"] >= DRAGON_HP:
            s["phase"] = "over"
            s["winner"] = p
            s["end_reason"] = f"{{{p}}} slew the dragon"  # {p1}: the bot fills the name
            s["hands"][p].extend(s["pending"][p])
            s["pending"][p] = []
            events.append(
                Event("game_over", f"{{{p}}} deals the final blow and slays the dragon!", data={"winner": p})
            )
            return
        if s["armies"][p] == 0:
            events.append(Event("battle_lost", f"The dragon has eaten {{{p}}}'s whole army."))
            self._battle_failed(events, keep_items=True)
            return
        if farkle:
            if self._companion_works(p, "ignore_battle_farkle") and not s["scout_used"]:
                s["scout_used"] = True
                events.append(
                    Event("companion", f"{{{p}}}'s {self.card(s['companions'][p]).name} ignores the Farkle.")
                )
            else:
                events.append(Event("battle_lost", f"{{{p}}} Farkles in the Final Battle."))
                self._battle_failed(events, keep_items=False)
                return
        s["phase"] = "battle"

    def _battle_failed(self, events: list[Event], keep_items: bool) -> None:
        s = self.s
        p = s["actor"]
        s["damage"] = 0
        s["roll"] = None
        if keep_items:
            s["hands"][p].extend(s["pending"][p])
            s["pending"][p] = []
        events.append(Event("dragon_heals", "The dragon regenerates all its damage."))
        self._end_turn(events)

    # ------------------------------------------------------------------ public API
    def to_act(self) -> list[str]:
        s = self.s
        if s["phase"] == "over":
            return []
        if s["phase"] == "discard":
            return [p for p in s["players"] if p in s["discarding"]]
        if s["phase"] == "claim":
            return [s["claimer"]]
        return [s["actor"]]

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
        s = self.s
        ph = s["phase"]
        out: list[str] = []
        items = self._usable_items(player)
        effects = {i: self.card(i).effect for i in set(items)}
        own_turn = player == self.current
        if ph == "choose":
            out.append("recruit")
            out += [f"brawl:{q}" for q in s["players"] if q != player]
            if s["battle_ok"]:
                out.append("battle")
            if self._companion_works(player, "swap_item") and self._companion_active_left(player):
                out += [f"companion:{i}" for i in set(s["hands"][player])]
            out += self._give_actions(player, effects)
        elif ph == "react":
            out.append("pass")
            out += [f"use:{i}" for i, e in effects.items() if e == "attacker_five_dice"]
        elif ph == "roll":
            roll = s["roll"]
            sels = scoring_selections(roll, self.table)
            if sels:
                out += ["keep:" + ",".join(map(str, sel)) for sel, _ in sels]
            else:
                out.append("accept")
            if s["action"] == "battle":
                if self.opt["battle_score_all"]:
                    out = ["accept"]
                allowed: tuple[str, ...] = _BATTLE_ITEM_EFFECTS if self.opt["battle_items"] else ()
            else:
                allowed = _ROLL_ITEM_EFFECTS
            for i, e in effects.items():
                if e not in allowed:
                    continue
                if e == "set_die":
                    out += [f"use:{i}:{a}:{b}" for a in sorted(set(roll)) for b in range(1, 7) if a != b]
                elif (
                    e == "reroll_all"
                    or (e == "dragon_to_blank" and s["event"] == "dragon")
                    or (e == "blank_to_rally" and s["event"] == "blank")
                    or (e == "cancel_farkle" and not sels)
                    or (e == "ignore_battle_loss" and not s["no_loss"])
                    or (e == "blank_to_dragon" and s["event"] == "blank")
                ):
                    out.append(f"use:{i}")
            if own_turn and self._companion_active_left(player):
                if self._companion_works(player, "reroll_event"):
                    out.append("companion")
                if self._companion_works(player, "reroll_one_die"):
                    out += [f"companion:{v}" for v in sorted(set(roll))]
        elif ph == "rally":
            out.append("rally:double")
            if self._can_draw():
                out.append("rally:item")
        elif ph == "decide":
            out.append("roll")
            out.append("stop")
            if s["action"] == "recruit" and own_turn:
                out += [f"use:{i}" for i, e in effects.items() if e == "bank_bonus"]
                out += self._give_actions(player, effects)
        elif ph == "battle":
            out.append("roll")
        elif ph == "claim":
            out += [f"claim:{i}" for i in set(s["pending"][player])]
        elif ph == "discard":
            out += [f"discard:{i}" for i in set(s["hands"][player]) | set(s["stuck"][player])]
        return sorted(set(out))

    def _give_actions(self, player: str, effects: dict[str, str]) -> list[str]:
        return [
            f"use:{i}:{q}"
            for i, e in effects.items()
            if e == "give_away"
            for q in self.s["players"]
            if q != player
        ]

    def is_private_action(self, player: str, action: str) -> bool:
        head = action.split(":", 1)[0]
        if head in ("use", "discard", "claim"):
            return True
        # The Peddler names the item it swaps away.
        return head == "companion" and action.count(":") == 1 and not action.split(":")[1].isdigit()

    def play(self, player: str, action: str) -> list[Event]:
        check_legal(self, player, action)
        backup_state = copy.deepcopy(self.s)
        backup_rng = self.rng.to_dict()
        try:
            events: list[Event] = []
            self._apply(player, action, events)
            return events
        except Exception:
            self.s = backup_state
            self.rng.state = backup_rng
            raise

    # ------------------------------------------------------------------ applying
    def _apply(self, player: str, action: str, events: list[Event]) -> None:
        s = self.s
        head, _, arg = action.partition(":")
        if head == "recruit":
            s.update(action="recruit", pool=DICE, full=DICE, total=0)
            events.append(Event("action", f"{{{player}}} recruits.", data={"action": "recruit"}))
            self._roll(events)
        elif head == "brawl":
            s.update(action="brawl", defender=arg, attack_full=DICE)
            events.append(
                Event(
                    "action",
                    f"{{{player}}} brawls with {{{arg}}}.",
                    data={"action": "brawl", "defender": arg},
                )
            )
            if self._public_item_stake_defender(arg):
                s["phase"] = "react"
                s["actor"] = arg
                return
            self._start_attack(events)
        elif head == "pass":
            self._start_attack(events)
        elif head == "battle":
            s.update(action="battle", pool=DICE, full=DICE, total=0, damage=0)
            events.append(
                Event("action", f"{{{player}}} marches on the Dragon's Keep!", data={"action": "battle"})
            )
            self._roll(events)
        elif head == "keep":
            sel = tuple(int(x) for x in arg.split(","))
            if s["action"] == "battle":
                self._battle_apply(events, sel)
            else:
                self._keep(events, sel)
        elif head == "accept":
            if s["action"] == "battle":
                self._battle_apply(events, None)
            else:
                self._farkle(events)
        elif head == "rally":
            value = s["last_value"]
            if arg == "double":
                mult = 2 if self._companion_works(player, "rally_triple") else 1
                s["total"] += value * mult
                word = "triples" if mult == 2 else "doubles"
                events.append(
                    Event(
                        "rally",
                        f"{{{player}}} rallies and {word} the roll: +{value * mult} (total {s['total']}).",
                    )
                )
            else:
                events.append(Event("rally", f"{{{player}}} rallies for a Magic Item."))
                self._draw_item(events, player)
            s["phase"] = "decide"
        elif head == "roll":
            self._roll(events)
        elif head == "stop":
            self._finish_roller(events, banked=True)
        elif head == "use":
            self._use_item(player, arg, events)
        elif head == "companion":
            self._use_companion(player, arg, events)
        elif head == "claim":
            s["pending"][player].remove(arg)
            s["hands"][player].append(arg)
            events.append(Event("claim", f"{{{player}}} keeps a Magic Item won in the Brawl."))
            events.append(Event("claim_private", f"You keep {self.card(arg).name}.", to=player))
            self._end_turn(events)
        elif head == "discard":
            if arg in s["stuck"][player]:
                s["stuck"][player].remove(arg)
            else:
                s["hands"][player].remove(arg)
            s["item_discard"].append(arg)
            events.append(Event("discard", f"{{{player}}} discards a Magic Item."))
            events.append(Event("discard_private", f"You discard {self.card(arg).name}.", to=player))
            if self.item_count(player) <= self.item_limit(player):
                s["discarding"] = [q for q in s["discarding"] if q != player]
            if not s["discarding"]:
                self._next_player(events)
        else:  # pragma: no cover - legal_actions prevents this
            raise IllegalAction(f"Unknown action `{action}`.")

    def _public_item_stake_defender(self, d: str) -> bool:
        s = self.s
        return len(s["hands"][d]) > 0

    def _start_attack(self, events: list[Event]) -> None:
        s = self.s
        a = self.current
        s.update(actor=a, pool=s["attack_full"], full=s["attack_full"], total=0, set_aside=[])
        self._roll(events)

    def _use_item(self, player: str, arg: str, events: list[Event]) -> None:
        s = self.s
        parts = arg.split(":")
        item = parts[0]
        card = self.card(item)
        self._take_item(player, item)
        e = card.effect
        if e != "give_away":
            s["item_discard"].append(item)
        said = f"{{{player}}} uses {card.name}"
        if e == "attacker_five_dice":
            s["attack_full"] = 5
            events.append(Event("use_item", f"{said}: the attacker rolls 5 dice.", data={"item": item}))
            self._start_attack(events)
        elif e == "reroll_all":
            s["roll"] = sorted(self.rng.die(6) for _ in s["roll"])
            events.append(Event("use_item", f"{said} and rerolls: {_fmt(s['roll'])}.", data={"item": item}))
            self._after_roll(events)
        elif e == "set_die":
            a, b = int(parts[1]), int(parts[2])
            roll = list(s["roll"])
            roll.remove(a)
            s["roll"] = sorted([*roll, b])
            events.append(Event("use_item", f"{said} and turns a {a} into a {b}.", data={"item": item}))
            self._after_roll(events)
        elif e == "dragon_to_blank":
            s["event"] = "blank"
            events.append(Event("use_item", f"{said}: the Dragon face counts as Blank.", data={"item": item}))
            self._after_roll(events)
        elif e == "blank_to_rally":
            s["event"] = "rally"
            events.append(Event("use_item", f"{said}: the Blank face counts as Rally.", data={"item": item}))
            self._after_roll(events)
        elif e == "blank_to_dragon":
            s["event"] = "dragon"
            events.append(Event("use_item", f"{said}: the Blank face counts as Dragon.", data={"item": item}))
            self._after_roll(events)
        elif e == "ignore_battle_loss":
            s["no_loss"] = True
            events.append(Event("use_item", f"{said}: this roll costs no soldiers.", data={"item": item}))
        elif e == "cancel_farkle":
            events.append(
                Event(
                    "use_item",
                    f"{said}: the Farkle is cancelled and {{{player}}} stops.",
                    data={"item": item},
                )
            )
            self._finish_roller(events, banked=True)
        elif e == "bank_bonus":
            s["total"] += card.value
            events.append(Event("use_item", f"{said}: +{card.value} soldiers.", data={"item": item}))
            self._finish_roller(events, banked=True)
        elif e == "give_away":
            target = parts[1]
            s["stuck"][target].append(item)
            events.append(
                Event(
                    "use_item",
                    f"{said} and gives it to {{{target}}}, who cannot use it.",
                    data={"item": item},
                )
            )

    def _use_companion(self, player: str, arg: str, events: list[Event]) -> None:
        s = self.s
        comp = self.card(s["companions"][player])
        s["comp_uses"][player] += 1
        e = comp.effect
        if e == "reroll_event":
            s["event"] = rules.EVENT_FACES[self.rng.below(len(rules.EVENT_FACES))]
            events.append(
                Event("companion", f"{{{player}}}'s {comp.name} rerolls the Event die: {s['event'].title()}.")
            )
            self._after_roll(events)
        elif e == "reroll_one_die":
            a = int(arg)
            roll = list(s["roll"])
            roll.remove(a)
            b = self.rng.die(6)
            s["roll"] = sorted([*roll, b])
            events.append(Event("companion", f"{{{player}}}'s {comp.name} rerolls a {a}: it shows {b}."))
            self._after_roll(events)
        elif e == "swap_item":
            s["hands"][player].remove(arg)
            s["item_discard"].append(arg)
            events.append(Event("companion", f"{{{player}}}'s {comp.name} swaps a Magic Item for a new one."))
            events.append(Event("companion_private", f"You discard {self.card(arg).name}.", to=player))
            self._draw_item(events, player, into="hands")

    # ------------------------------------------------------------------ presentation
    def view(self, player: str | None) -> dict[str, Any]:
        s = self.s

        def card_info(cid: str) -> dict[str, str]:
            c = self.card(cid)
            return {"id": c.id, "name": c.name, "text": c.text, "source": c.source}

        v: dict[str, Any] = {
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
            "battle": {"damage": s["damage"], "hp": DRAGON_HP} if s["action"] == "battle" else None,
            "battle_ok": s["battle_ok"],
            "keep_min_army": KEEP_MIN_ARMY,
            "item_deck": len(s["item_deck"]),
            "item_discard": len(s["item_discard"]),
            "round": s["round"],
            "max_rounds": self.opt["max_rounds"],
            "winner": s["winner"],
            "end_reason": s["end_reason"],
        }
        if player is not None and player in s["players"]:
            v["viewer"] = player
            v["my_items"] = [card_info(i) for i in s["hands"][player]]
            v["my_pending"] = [card_info(i) for i in s["pending"][player]]
        return v

    def describe_action(self, player: str, action: str) -> str:
        s = self.s
        head, _, arg = action.partition(":")
        if head == "recruit":
            return "Recruit soldiers"
        if head == "brawl":
            return f"Brawl {{{arg}}} (army {s['armies'].get(arg, 0)})"
        if head == "battle":
            return "Final Battle: attack the dragon"
        if head == "keep":
            sel = tuple(int(x) for x in arg.split(","))
            value = score(sel, self.table) or 0
            if s["action"] == "battle":
                return f"Lose {_fmt(sel)} (-{value})"
            extra = ""
            shielded = self._companion_works(player, "block_dragon") and not s["shield_used"]
            if s["event"] == "dragon" and not shielded:
                extra = ", eaten"
            elif s["event"] == "rally":
                extra = ", Rally"
            return f"Keep {_fmt(sel)} (+{value}{extra})"
        if head == "accept":
            return "Resolve the roll" if s["action"] == "battle" else "Accept the Farkle"
        if head == "rally":
            if arg == "double":
                mult = 3 if self._companion_works(player, "rally_triple") else 2
                return f"Rally: {'triple' if mult == 3 else 'double'} (+{s['last_value'] * (mult - 1)})"
            return "Rally: draw a Magic Item"
        if head == "roll":
            n = s["pool"] or s["full"]
            hot = " (hot dice)" if s["pool"] == 0 else ""
            return f"Roll {n} dice{hot}"
        if head == "stop":
            if s["action"] == "recruit":
                return f"Stop and bank {s['total']}"
            return f"Stop with {s['total']}"
        if head == "pass":
            return "Let the Brawl begin"
        if head in ("use", "discard", "claim"):
            parts = arg.split(":")
            try:
                name = self.card(parts[0]).name
            except KeyError:
                return action
            if head == "discard":
                return f"Discard {name}"
            if head == "claim":
                return f"Keep {name}"
            if len(parts) == 3:
                return f"{name}: turn a {parts[1]} into a {parts[2]}"
            if len(parts) == 2:
                return f"{name}: give to {{{parts[1]}}}"
            return f"Use {name}"
        if head == "companion":
            comp = self.card(s["companions"][player]).name
            if not arg:
                return f"{comp}: reroll the Event die"
            if arg.isdigit():
                return f"{comp}: reroll a {arg}"
            try:
                return f"{comp}: swap {self.card(arg).name}"
            except KeyError:
                return action
        return action
