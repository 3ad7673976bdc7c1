"""Dragon Farkle turn flow: rolling, keeping, banking, the Brawl, the Final Battle, turn ends.

These steps run after a move (:mod:`engine.farkle.phases`) and set the next phase, as the
Dragon Farkle rulebook orders them (docs/farkle.md).
"""

from __future__ import annotations

from engine.base import Event
from engine.farkle import rules
from engine.farkle.core import BRAWL_BONUS, DRAGON_HP, KEEP_MIN_ARMY, FarkleCore, fmt_dice, turn_fields
from engine.farkle.scoring import score, score_all, scoring_selections


class TurnFlow(FarkleCore):
    # ------------------------------------------------------------------ turn flow
    def _start_turn(self) -> None:
        s = self.s
        p = self.current
        # The Final Battle needs the army at the START of the turn.
        s.update(turn_fields(p, s["armies"][p] >= KEEP_MIN_ARMY, s["players"]))

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
                s["end_reason"] = f"{mr} round{'' if mr == 1 else 's'} played; the largest army wins"
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
        roll = sorted(self.rng.die(6) for _ in range(s["pool"]))
        face = rules.EVENT_FACES[self.rng.below(len(rules.EVENT_FACES))]
        s["roll"] = roll
        s["event"] = face
        s["no_loss"] = False
        events.append(
            Event(
                "roll",
                f"{{{p}}} rolls {fmt_dice(roll)} and the Event die shows {face.title()}.",
                data={"player": p, "dice": list(roll), "event": face},
            )
        )
        self._after_roll(events)

    def _after_roll(self, events: list[Event]) -> None:
        """Decide what the dice on the table mean; pause for the roller when they have a choice."""
        s = self.s
        p = s["actor"]
        if s["action"] == "battle":
            if not self.opt["battle_score_all"] and scoring_selections(self.dice_on_table(), self.table):
                s["phase"] = "roll"  # the player picks which scoring dice to lose
            elif self._public_item_stake(p):
                s["phase"] = "roll"
            else:
                self._battle_apply(events, None)
            return
        if scoring_selections(self.dice_on_table(), self.table):
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
            d = self.brawl_defender()
            events.append(
                Event(
                    "attack_done",
                    f"{{{p}}}'s Brawl attack score is {s['attack_score']}. {{{d}}} defends.",
                    data={"score": s["attack_score"]},
                )
            )
            six = self._companion_works(d, "defender_six_dice")
            s.update(
                {
                    "actor": d,
                    "total": 0,
                    "last_value": 0,
                    "set_aside": [],
                    "pool": 6 if six else self.opt["defender_dice"],
                    "full": 6 if six else self.opt["defender_hot_dice"],
                }
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
        a, d = self.current, self.brawl_defender()
        att = s["attack_score"]
        assert att is not None, "the attacker has finished"
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
        roll = list(self.dice_on_table())
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
                f"{{{p}}} sets aside {fmt_dice(sel)} for +{value}{note} (total {s['total']}).",
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
            sel, loss = score_all(self.dice_on_table(), self.table)
        else:
            loss = score(sel, self.table) or 0
        if loss and self._companion_works(p, "halve_battle_loss"):
            loss = -(-loss // 100) * 50  # half, rounded up to a multiple of 50
        if s["no_loss"]:
            loss = 0
        dmg = {"dragon": self.opt["battle_dragon_damage"], "rally": self.opt["battle_rally_damage"]}.get(
            s["event"] or "", 0
        )
        paid = min(loss, s["armies"][p])
        s["armies"][p] -= paid
        s["damage"] += dmg
        farkle = not sel and dmg == 0
        remaining = list(self.dice_on_table())
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


    def _start_attack(self, events: list[Event]) -> None:
        s = self.s
        a = self.current
        s.update({"actor": a, "pool": s["attack_full"], "full": s["attack_full"], "total": 0, "set_aside": []})
        self._roll(events)

