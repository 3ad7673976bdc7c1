"""Dragon Farkle AI: ``choose_action(game, player, level, seed) -> str``.

The four levels are four kinds of player (docs/decisions/ai-strength.md, "Round 3"). Farkle is
mostly dice, so the rungs are spaced by design: each gives away a recognisable part of the game.

* ``easy``, a timid beginner: keeps every scoring die, banks as soon as the turn is worth a
  little (50 to 150 soldiers, its mood varies) but always rolls hot dice while under 300, brawls
  now and then for fun and banks a low attack, picks the Rally reward at random and forgets its
  Magic Items and Companion. It always attacks the dragon when it may.
* ``medium``, a club player who plays the soldier dice, not the cards: keeps the most soldiers
  now, banks by a fixed table of dice left (:data:`MEDIUM_STOPS`), banks when the bank reaches the
  Keep, never brawls, always doubles on a Rally and leaves its items and Companion unused.
* ``hard``, a strong, careful player blind to the score and to the opponent: it stops from the
  exact soldier value of the turn (below) but rolls on only when that pays at least
  :data:`HARD_CAUTION` (a fifth) more than the bank, keeps by the strong player's rule "a die still to
  roll is worth :data:`DIE_WORTH` soldiers" (it throws back lone 5s), never brawls, and uses
  its items and Companion well.
* ``expert``, the solved game: every Recruit/Brawl/Final Battle choice, every Recruit stop and
  keep from the chance to win, solved offline for two players over both armies, the bank and the
  dice left (:mod:`engine.farkle.winprob`, ``data/expert_winprob.bin``); with more players it
  plays against the leader. Where the table does not reach (defence, items, a Brawl's keeps,
  and every decision under other rule options) it plays the exact turn solution made aware of
  the score: exact keeps and stops in soldiers, banks when the bank reaches the Keep, brawls
  whoever may attack the dragon next.

The exact turn solution is a push-your-luck table: ``V[n][t]`` is the expected soldiers banked
by playing on optimally with ``n`` dice left and ``t`` soldiers in the temporary bank, under the
real Event die (Dragon eats a roll or cancels a Farkle, Rally doubles or draws an item worth
:data:`ITEM_VALUE`), solved once per scoring table (:mod:`engine.farkle.turn_values`).

The AI reads only public state and its own items (never another player's hand).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.farkle.rules import CONSTANTS
from engine.farkle.scoring import DEFAULT_TABLE, score, score_all
from engine.farkle.turn_values import ITEM_VALUE, STEP, continue_value, expected_bank

if TYPE_CHECKING:
    from engine.farkle.game import FarkleGame
    from engine.farkle.winprob import WinTable

LEVELS = ("easy", "medium", "hard", "expert")
# easy: the turn total it banks at (one drawn per decision), hot dice rolled while under 300,
# the share of turns it starts a Brawl and the attack scores it banks in one
EASY_STOPS = (50, 100, 150)
EASY_HOT_DICE_UNDER = 300
EASY_BRAWL_CHANCE = 0.15
EASY_ATTACKS = (300, 400, 500, 600)
# medium: bank at this turn total with 1..6 dice to roll (6 = hot dice)
MEDIUM_STOPS = {1: 200, 2: 250, 3: 250, 4: 300, 5: 300, 6: 500}
# hard: roll on only if the exact turn value beats the bank by this share; a die to roll is
# worth this many soldiers when it chooses what to keep
HARD_CAUTION = 0.20
DIE_WORTH = 50
KEEP_MIN_ARMY: int = CONSTANTS["keep_min_army"]
# How much the AI wants to keep an item (higher = more useful); used for claims and discards.
ITEM_RANK = {
    "raise_item_limit": 9,
    "cancel_farkle": 8,
    "reroll_all": 7,
    "set_die": 7,
    "bank_bonus": 6,
    "ignore_battle_loss": 5,
    "blank_to_dragon": 6,
    "dragon_to_blank": 4,
    "blank_to_rally": 4,
    "attacker_five_dice": 3,
    "give_away": 2,
}


# ---------------------------------------------------------------------------------- AI


def _win_table(game: FarkleGame) -> WinTable | None:
    """The shipped win-probability table, if this game plays the rules it was solved for."""
    from engine.farkle import turn_solver, winprob  # loaded with the first expert decision

    opt = game.opt
    if game.table != DEFAULT_TABLE or any(opt[k] != v for k, v in turn_solver.SOLVED_OPTIONS.items()):
        return None
    return winprob.shipped()


def choose_action(game: FarkleGame, player: str, level: str, seed: int) -> str:
    """Pick one of ``game.legal_actions(player)`` for ``player`` at ``level``."""
    legal = game.legal_actions(player)
    if not legal:
        raise ValueError(f"{player} has no legal action")
    if level not in LEVELS:
        raise ValueError(f"unknown AI level `{level}`")
    rng = random.Random(seed)
    choice = _Brain(game, player, level, rng, legal).decide()
    return choice if choice in legal else legal[0]


class _Brain:
    def __init__(
        self, game: FarkleGame, player: str, level: str, rng: random.Random, legal: list[str]
    ) -> None:
        self.g = game
        self.s = game.s
        self.me = player
        self.level = level
        self.rng = rng
        self.legal = legal
        # expert reads the shipped win-probability table, solved for the default rules only
        self.win = _win_table(game) if level == "expert" else None
        # hard and expert use their Magic Items and Companion; medium and easy play the dice only
        self.plays_cards = level in ("hard", "expert")

    # -- helpers
    def _items(self, prefix: str) -> list[str]:
        return [a for a in self.legal if a.startswith(prefix)]

    def _effect_use(self, effect: str) -> str | None:
        for a in self._items("use:"):
            if self.g.card(a.split(":")[1]).effect == effect:
                return a
        return None

    def _rank(self, item: str) -> int:
        return ITEM_RANK.get(self.g.card(item).effect, 1)

    def _rival(self) -> str:
        """The opponent the win table plays against: the strongest army among the others."""
        return max((q for q in self.s["players"] if q != self.me), key=lambda q: self.s["armies"][q])

    def _planned(self) -> tuple[str, int]:
        """The win table's action for this turn: recruit, battle or brawl (with its target)."""
        assert self.win is not None
        armies = self.s["armies"]
        return self.win.action(armies[self.me], armies[self._rival()])

    def decide(self) -> str:
        phase = self.s["phase"]
        return getattr(self, f"_{phase}")()

    # -- phases
    def _choose(self) -> str:
        s, me = self.s, self.me
        # every level attacks the dragon as soon as it may (the expert asks its win table below)
        if "battle" in self.legal and self.win is None:
            return "battle"
        give = [a for a in self.legal if a.startswith("use:") and a.count(":") == 2]
        if give and self.plays_cards:
            leader = max((q for q in s["players"] if q != me), key=lambda q: s["armies"][q])
            for a in give:
                if a.endswith(":" + leader):
                    return a
        if self.win is not None:
            plan, _ = self._planned()
            if plan == "battle" and "battle" in self.legal:
                return "battle"
            if plan == "brawl" and f"brawl:{self._rival()}" in self.legal:
                return f"brawl:{self._rival()}"
            return "recruit"
        opps = [q for q in s["players"] if q != me]
        if self.level == "easy":  # a Brawl now and then, for the fun of it
            if self.rng.random() < EASY_BRAWL_CHANCE:
                return f"brawl:{self.rng.choice(opps)}"
            return "recruit"
        if self.level != "expert":  # medium and hard mind their own army: they never brawl
            return "recruit"
        threat = max(opps, key=lambda q: s["armies"][q])
        # Someone who may attack the dragon next turn: a won Brawl can drop them below the Keep.
        if s["armies"][threat] >= KEEP_MIN_ARMY:
            return f"brawl:{threat}"
        # Far behind a leader near the Keep: a Brawl swings both armies at once.
        if s["armies"][threat] - s["armies"][me] >= 3000 and s["armies"][threat] >= 4000:
            return f"brawl:{threat}"
        return "recruit"

    def _react(self) -> str:
        if self.plays_cards:
            use = self._effect_use("attacker_five_dice")
            if use:
                return use
        return "pass"

    def _roll(self) -> str:
        s = self.s
        keeps = self._items("keep:")
        if s["action"] == "battle":
            return self._battle_roll(keeps)
        if not keeps:
            return self._rescue()
        if self.plays_cards and s["event"] == "dragon":
            best = max(score(self._dice(k), self.g.table) or 0 for k in keeps)
            if best >= 300 and "companion" in self.legal:
                return "companion"  # Hedge Wizard: a 5-in-6 chance the Dragon goes away
            use = self._effect_use("dragon_to_blank")
            if use and best >= 300:
                return use
        if self.plays_cards and s["event"] == "blank":
            use = self._effect_use("blank_to_rally")
            best = max(score(self._dice(k), self.g.table) or 0 for k in keeps)
            if use and best >= 500:
                return use
        if self.level == "easy":
            return max(keeps, key=lambda k: (score(self._dice(k), self.g.table) or 0, len(k)))
        if self.level == "medium":  # the most soldiers now, then the most dice left to roll
            return max(keeps, key=lambda k: (self._keep_gain(k), -len(k)))
        if self.level == "hard":
            return max(keeps, key=lambda k: (self._keep_gain(k) + DIE_WORTH * self._dice_after(k), -len(k)))
        return self._best_keep(keeps)

    def _dice_after(self, keep: str) -> int:
        """Dice to roll after this keep (all of them again after hot dice)."""
        left = len(self.g.dice_on_table()) - len(self._dice(keep))
        return left or self.s["full"] or 6

    def _keep_gain(self, keep: str) -> int:
        """Soldiers this keep adds to the bank (Dragon eats them; Rally: the better of its two)."""
        v = score(self._dice(keep), self.g.table) or 0
        event = self.s["event"]
        if event == "dragon":
            return 0
        if event == "rally":
            return max(2 * v, v + ITEM_VALUE)
        return v

    def _dice(self, keep: str) -> tuple[int, ...]:
        return tuple(int(x) for x in keep.split(":", 1)[1].split(","))

    def _best_keep(self, keeps: list[str]) -> str:
        s, table = self.s, self.g.table
        n = len(self.g.dice_on_table())
        t = s["total"]
        full = s["full"] or 6
        best, best_v = keeps[0], float("-inf")
        army = s["armies"][self.me]
        for k in keeps:
            sel = self._dice(k)
            v = self._keep_gain(k)
            left = n - len(sel)
            left = full if left == 0 else left
            worth = expected_bank(table, left, t + v)
            if self.win is not None and s["action"] == "recruit":
                worth = -self._lose_after_keep(army, left, t + v, worth)
            if self._aim() is not None:
                # Brawl: more dice left matters more than the table's risk-neutral view.
                worth = t + v + 40 * left
            if worth > best_v + 1e-9:
                best, best_v = k, worth
        return best

    def _lose_after_keep(self, army: int, left: int, banked: int, soldiers: float) -> float:
        """P(lose) after a keep: exact where the table stops there; where it rolls on, the
        better of stopping and the soldier table's expected bank (a certainty equivalent)."""
        assert self.win is not None
        rival = self.s["armies"][self._rival()]
        stop = self.win.after_turn(army + banked, rival)
        if self.win.should_stop(army, rival, left, banked):
            return stop
        return min(stop, self.win.after_turn(army + round(soldiers / STEP) * STEP, rival))

    def _aim(self) -> int | None:
        """In a Brawl: the score to reach (defender: beat the attack; attacker: a target)."""
        s = self.s
        if s["action"] != "brawl":
            return None
        if self.me == s["defender"]:
            return (s["attack_score"] or 0) + 50
        d = self.g.brawl_defender()
        if self.win is not None:
            plan, target = self.win.action(s["armies"][self.me], s["armies"][d])
            if plan == "brawl":
                return target
        if self.level == "easy":  # a beginner banks an attack it would bank in a Recruit turn
            return self.rng.choice(EASY_ATTACKS)
        need = s["armies"][d] - (KEEP_MIN_ARMY - 50) if s["armies"][d] >= KEEP_MIN_ARMY else 0
        return max(700, min(need + 300, 2500))

    def _rescue(self) -> str:
        """No scoring dice: try an item or Companion before accepting the Farkle."""
        if not self.plays_cards:
            return "accept"
        for effect in ("cancel_farkle", "reroll_all"):
            use = self._effect_use(effect)
            if use and (effect != "cancel_farkle" or self.s["total"] > 0):
                return use
        loaded = [a for a in self._items("use:") if a.count(":") == 3 and a.endswith(":1")]
        if loaded:
            return loaded[0]
        if "companion" in self.legal:
            return "companion"
        tink = [a for a in self.legal if a.startswith("companion:") and a[10:].isdigit()]
        if tink:
            return tink[0]
        return "accept"

    def _battle_roll(self, keeps: list[str]) -> str:
        s = self.s
        if self.plays_cards:
            if s["event"] == "blank":
                use = self._effect_use("blank_to_dragon")
                if use:
                    return use
            loss = max((score(self._dice(k), self.g.table) or 0) for k in keeps) if keeps else 0
            if not keeps:
                loss = score_all(self.g.dice_on_table(), self.g.table)[1]
            use = self._effect_use("ignore_battle_loss")
            if use and loss >= 500:
                return use
            if not loss and s["event"] == "blank":
                # A battle Farkle: anything that rerolls may save it.
                if "companion" in self.legal:
                    return "companion"
                use = self._effect_use("reroll_all")
                if use:
                    return use
        if keeps:  # the player chooses which scoring dice to lose: lose the least
            return min(keeps, key=lambda k: (score(self._dice(k), self.g.table) or 0, -len(k)))
        return "accept"

    def _rally(self) -> str:
        s = self.s
        if "rally:item" not in self.legal:
            return "rally:double"
        if self.level == "medium":  # the soldiers, always: it does not play the cards
            return "rally:double"
        if self.level == "easy":
            return self.rng.choice(["rally:double", "rally:item"])
        room = self.g.item_count(self.me) + len(s["pending"][self.me]) < self.g.item_limit(self.me)
        # what "double" would add: this roll, or the whole turn total under rally_double=turn
        gain = s["total"] if self.g.opt["rally_double"] == "turn" else s["last_value"]
        if gain < ITEM_VALUE and room:
            return "rally:item"
        return "rally:double"

    def _decide(self) -> str:
        s, me, table = self.s, self.me, self.g.table
        t = s["total"]
        n = s["pool"] or s["full"]
        aim = self._aim()
        if aim is not None:
            if self.me == s["defender"]:
                if t < aim:
                    return "roll"
                return "roll" if (s["pool"] == 0 and t - aim < 1500 and self.level != "easy") else "stop"
            return "roll" if t < aim else "stop"
        if self.level == "easy":
            if s["pool"] == 0 and t < EASY_HOT_DICE_UNDER:
                return "roll"  # hot dice: every beginner rolls them
            return "stop" if t >= self.rng.choice(EASY_STOPS) else "roll"
        stop = "stop"
        banner = self._effect_use("bank_bonus") if self.plays_cards else None
        if banner:
            stop = banner
        if t == 0:
            return "roll"
        if self.win is not None and s["action"] == "recruit":
            rival = s["armies"][self._rival()]
            return stop if self.win.should_stop(s["armies"][me], rival, n, t) else "roll"
        if self.level == "hard":  # blind to the score: soldiers only, and a margin of caution
            return "roll" if continue_value(table, n, t) > t * (1 + HARD_CAUTION) + 1e-6 else stop
        if s["armies"][me] + t >= KEEP_MIN_ARMY > s["armies"][me]:
            return stop
        if self.level == "medium":
            return stop if t >= MEDIUM_STOPS[n] else "roll"
        return "roll" if continue_value(table, n, t) > t + 1e-6 else stop

    def _battle(self) -> str:
        return "roll"

    def _claim(self) -> str:
        return max(self._items("claim:"), key=lambda a: self._rank(a.split(":")[1]))

    def _discard(self) -> str:
        stuck = set(self.s["stuck"][self.me])
        return min(
            self._items("discard:"),
            key=lambda a: (0 if a.split(":")[1] in stuck else 1, self._rank(a.split(":")[1])),
        )
