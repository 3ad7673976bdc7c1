"""The building blocks every card effect uses: reputation, statuses, Daze and falling, the
prizes, moving and knocking characters back, striking a target, rays and spell origins."""

from __future__ import annotations

from engine.flagon import geometry as G
from engine.flagon.board import PRIZES
from engine.flagon.cards import Card, dragon_of
from engine.flagon.geometry import STEP, Sq
from engine.flagon.rules.queries import Queries

ASMA_SPELLS = ("arc_lightning", "arcane_bolt", "ice_cone", "familiar")


class Primitives(Queries):
    """State changes shared by the effects; each emits the events that describe it."""

    # ------------------------------------------------------------------ reputation
    def transfer(
        self, loser: str, gainer: str | None, base: int, boost: bool = True, real: bool = False
    ) -> int:
        """``loser`` pays ``gainer`` (None = the supply). Friends: points leave the game unless ``real``."""
        lo = self.ch(loser)
        amount = base
        mark = self.s.get("mark")
        if (
            boost
            and gainer
            and mark
            and mark["by"] == gainer
            and mark["on"] == loser
            and not self.friends(gainer, loser)
        ):
            amount += self.card("mark_prey")["rep"]
            self.s["mark"] = None
        if boost and gainer and self.has(gainer, "boast"):
            amount += self.card("boast")["gain_bonus"]
        if boost and self.has(loser, "boast"):
            amount += self.card("boast")["loss_bonus"]
        if self.has(loser, "chug"):
            amount -= self.card("chug")["loss_reduction"]
        amount = max(0, min(amount, lo["rep"]))
        if amount <= 0:
            return 0
        lo["rep"] -= amount
        if gainer is not None and (real or not self.friends(gainer, loser)):
            self.ch(gainer)["rep"] += amount
            self.emit(f"{self.label(loser)} gives {amount} reputation to {self.label(gainer)}.", kind="rep",
                      loser=loser, gainer=gainer, amount=amount)  # fmt: skip
        else:
            self.s["removed_rep"] += amount
            self.emit(f"{self.label(loser)} loses {amount} reputation (out of the game).", kind="rep",
                      loser=loser, gainer=None, amount=amount)  # fmt: skip
        self.drop_prize(loser)
        return amount

    # ------------------------------------------------------------------ statuses
    def add_status(self, cid: str, card: str, duration: int) -> None:
        at = self.s["marker"] + duration
        self.s["statuses"].append({"char": cid, "card": card, "at": at})
        self.emit(f"{self.label(cid)}'s {self.card(card).name} lasts until time space {at}.", kind="status")

    def end_status(self, cid: str, card: str, why: str) -> None:
        for st in list(self.s["statuses"]):
            if st["char"] == cid and st["card"] == card:
                self.s["statuses"].remove(st)
                self.return_faceup(cid, card)
                self.emit(f"{self.label(cid)}'s {self.card(card).name} ends ({why}).", kind="status")

    def return_faceup(self, cid: str, card: str) -> None:
        c = self.ch(cid)
        if card in c["faceup"]:
            c["faceup"].remove(card)
            if self.card(card).is_dragon:
                c["mat"].append(card)
        if card == "eyes_of_gaia":
            c["gaia_last"] = None

    def expire(self, cid: str | None, space: int) -> None:
        """End every status on ``space`` or earlier (of ``cid`` only, or of everyone)."""
        for st in list(self.s["statuses"]):
            if st["at"] <= space and (cid is None or st["char"] == cid):
                self.end_status(st["char"], st["card"], "its time is up")

    # ------------------------------------------------------------------ daze / fall / prizes
    def drop_prize(self, cid: str) -> None:
        c = self.ch(cid)
        if c["held"] in PRIZES:
            item = c["held"]
            c["held"] = None
            self.s["prizes"][item] = self.s["centre"]
            self.emit(f"{self.label(cid)} drops the {item.title()}; it returns to the centre.", kind="prize")

    def gain_dragon(self, cid: str) -> None:
        c = self.ch(cid)
        d = dragon_of(cid)
        if d in c["mat"]:
            c["mat"].remove(d)
            self.emit(
                f"{self.label(cid)} takes the Dragon card {self.card(d).name} into the deck.", kind="dragon"
            )

    def daze(self, cid: str, n: int) -> None:
        if n <= 0:
            return
        if self.has(cid, "eyes_of_gaia"):
            self.emit(f"{self.label(cid)} ignores the Daze (Eyes of Gaia).")
            return
        self.drop_prize(cid)
        if self.has(cid, "battle_frenzy"):
            self.end_status(cid, "battle_frenzy", "Dazed")
        if self.has(cid, "arcano"):
            self.end_status(cid, "arcano", "Dazed")
        c = self.ch(cid)
        k = min(n, 3 - len(c["slots"]))
        added = 0
        for _ in range(max(0, k)):
            deck = self.deck(cid)
            if not deck:
                break
            pick = self.ctx.ask(self.owner(cid), "daze", cid, deck, private=True)
            c["slots"].append(pick)
            added += 1
            self.emit(f"You add {self.card(pick).name} to {self.label(cid)}'s slot {len(c['slots'])}.",
                      to=self.owner(cid), kind="daze_card")  # fmt: skip
        self.emit(
            f"{self.label(cid)} is Dazed {n}: {added} card(s) added.", kind="daze", char=cid, added=added
        )

    def fall(self, cid: str) -> None:
        if self.has(cid, "earthbond") or self.has(cid, "eyes_of_gaia"):
            self.emit(f"{self.label(cid)} does not fall.")
            return
        c = self.ch(cid)
        c["prone"] = True
        self.emit(f"{self.label(cid)} falls down.", kind="fall")
        self.drop_prize(cid)
        if self.has(cid, "arcano"):
            self.end_status(cid, "arcano", "fell")

    # ------------------------------------------------------------------ moving characters
    def place(self, cid: str, dest: Sq, effect: bool) -> None:
        """Put ``cid`` on ``dest``. Moved by an effect onto or off a table: Fall."""
        before = self.on_table(cid)
        self.ch(cid)["pos"] = G.name(dest)
        fam = self.s.get("familiar")
        if fam and fam["at"] == G.name(dest):
            self.s["familiar"] = None
            self.emit("The Familiar is removed.")
        if effect and before != (self.table_at(dest) is not None):
            self.fall(cid)

    def knockback(self, cid: str, d: Sq, moved: list[str] | None = None, depth: int = 0) -> list[str]:
        """Knock ``cid`` one square in direction ``d``; returns everyone who moved (chain included)."""
        moved = [] if moved is None else moved
        if depth > 40 or d == (0, 0):
            return moved
        if self.has(cid, "earthbond"):
            self.emit(f"{self.label(cid)} is not knocked back (Earthbond).")
            return moved
        x, y = self.pos(cid)
        dest = (x + d[0], y + d[1])
        step = d
        if not self.inb(dest):
            cands: list[Sq] = []
            if not 0 <= dest[0] < self.w:
                cands += [(x, y - 1), (x, y + 1)]
            if not 0 <= dest[1] < self.h:
                cands += [(x - 1, y), (x + 1, y)]
            cands = [q for q in dict.fromkeys(cands) if self.inb(q)]
            if not cands:
                return moved
            pick = self.ctx.ask(self.owner(cid), "slide", cid, [G.name(q) for q in cands])
            dest = G.parse(pick)
            step = (dest[0] - x, dest[1] - y)
        other = self.who(dest, exclude=cid)
        if other is not None:
            self.knockback(other, step, moved, depth + 1)
            if self.who(dest, exclude=cid) is not None:
                return moved  # the chain is stuck: stay put
        self.place(cid, dest, effect=True)
        moved.append(cid)
        self.emit(f"{self.label(cid)} is knocked back to {G.name(dest)}.", kind="knockback")
        return moved

    def arrive(self, cid: str, dest: Sq, d: Sq, effect: bool) -> bool:
        """Move ``cid`` into ``dest``; an occupant is knocked back (two characters in a square)."""
        other = self.who(dest, exclude=cid)
        if other is not None:
            self.knockback(other, d)
            if self.who(dest, exclude=cid) is not None:
                return False
        self.place(cid, dest, effect)
        return True

    def reachable(self, cid: str, dest: Sq) -> bool:
        """A shortest orthogonal path through character-free squares leads to ``dest``."""
        start = self.pos(cid)
        if not self.inb(dest) or self.who(dest, exclude=cid) is not None:
            return False
        dist = abs(dest[0] - start[0]) + abs(dest[1] - start[1])
        frontier = {start}
        for _ in range(dist):
            nxt = set()
            for x, y in frontier:
                for dx, dy in STEP.values():
                    q = (x + dx, y + dy)
                    if abs(dest[0] - q[0]) + abs(dest[1] - q[1]) >= abs(dest[0] - x) + abs(dest[1] - y):
                        continue
                    if self.inb(q) and self.who(q, exclude=cid) is None:
                        nxt.add(q)
            frontier = nxt
        return dest in frontier

    # ------------------------------------------------------------------ attacks
    def riposte_blocks(self, attacker: str, target: str) -> bool:
        t = self.ch(target)
        if not t["riposte"]:
            return False
        sq = self.board_squares(target, self.card("riposte").squares)
        return self.pos(attacker) in sq

    def riposte_may_drain(self, actor: str, targets: list[str], card: Card) -> bool:
        """A weapon attack whose Ripostes could cost the actor more than it holds: then the order of
        the targets changes what is paid (gains taken first are paid back)."""
        if not card["weapon"]:
            return False
        most = (
            self.card("riposte")["rep"] + self.card("boast")["gain_bonus"] + self.card("boast")["loss_bonus"]
        )
        owed = sum(most for t in targets if self.riposte_blocks(actor, t))
        return owed > 0 and self.ch(actor)["rep"] < owed

    def strike(self, actor: str, target: str, card: Card, rep: int | None = None, daze: int | None = None,
               fall: bool | None = None, kb: Sq | None = None, weapon: bool | None = None, boost: bool = True) -> str:  # fmt: skip
        """Apply a card's effects to one target. Returns "hit" or "riposted"."""
        weapon = card["weapon"] if weapon is None else weapon
        if weapon and self.riposte_blocks(actor, target):
            rc = self.card("riposte")
            self.emit(f"{self.label(target)} ripostes {self.label(actor)}'s {card.name}!", kind="riposte")
            self.transfer(actor, target, rc["rep"])
            self.daze(actor, rc["daze"])
            return "riposted"
        rep = card["rep"] if rep is None else rep
        if rep:
            self.transfer(target, actor, rep, boost=boost)
        self.daze(target, card["daze"] if daze is None else daze)
        if card["fall"] if fall is None else fall:
            self.fall(target)
        if kb is None and card["knockback"]:
            kb = G.away(self.pos(actor), self.pos(target))
        if kb is not None and kb != (0, 0):
            for _ in range(max(1, card["knockback"])):
                self.knockback(target, kb)
        return "hit"

    def order(self, cid: str, targets: list[str], card: Card) -> list[str]:
        """Orange cards: the actor picks the order when it can matter: knockback, or a weapon attack
        meeting Ripostes the actor might not pay in full (RB: the active player decides the order)."""
        if len(targets) < 2 or not (card["knockback"] or self.riposte_may_drain(cid, targets, card)):
            return targets
        rest, out = list(targets), []
        while len(rest) > 1:
            pick = self.ctx.ask(self.owner(cid), "target", cid, rest)
            out.append(pick)
            rest.remove(pick)
        return out + rest

    def first_on_ray(
        self, origin: Sq, d: Sq, rng: int, exclude: str, familiar: bool = False
    ) -> tuple[str, Sq] | None:
        """First character (or the Familiar, if ``familiar``) along a ray; rng 0 = unlimited."""
        k = 1
        while True:
            q = (origin[0] + d[0] * k, origin[1] + d[1] * k)
            if not self.inb(q) or (rng and k > rng):
                return None
            t = self.who(q, exclude=exclude)
            if t is not None:
                return (t, q)
            fam = self.s.get("familiar")
            if familiar and fam and fam["at"] == G.name(q):
                return ("@familiar", q)
            k += 1

    def spell_origin(self, cid: str, card: Card) -> tuple[Sq, str]:
        fam = self.s.get("familiar")
        me = (self.pos(cid), self.ch(cid)["facing"])
        if cid != "asma" or card.id not in ASMA_SPELLS or not fam:
            return me
        pick = self.ctx.ask(self.owner(cid), "from", cid, ["self", "familiar"])
        return (G.parse(fam["at"]), fam["facing"]) if pick == "familiar" else me
