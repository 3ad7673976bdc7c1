"""One character's activation: expiries, the reveal, requirements and cancelling, the card's
effect (looked up in the effect registry), where the card goes, the facing change and the time
token."""

from __future__ import annotations

from engine.flagon import geometry as G
from engine.flagon.cards import Card
from engine.flagon.effects import HANDLERS, REQUIREMENTS
from engine.flagon.geometry import FACINGS
from engine.flagon.rules.primitives import ASMA_SPELLS, Primitives


class Rules(Primitives):
    """The rules on one game state: :meth:`perform` and :meth:`finish` run an activation."""

    # ------------------------------------------------------------------ requirements
    def requirement_unmet(self, cid: str, card: Card) -> str | None:
        """The first of the card's red requirements that does not hold now, in words."""
        for req in card["requires"]:
            if not REQUIREMENTS[req](self, cid, card):
                return req.replace("_", " ")
        return None

    # ------------------------------------------------------------------ one activation
    def perform(self, cid: str) -> None:
        """One activation up to the facing change: expiries, Riposte end, Cannon Barrage, the
        reveal, cancelling and the card itself. :meth:`finish` does the rest."""
        s = self.s
        c = self.ch(cid)
        T = s["marker"]
        self.expire(cid, T)
        if c["riposte"]:
            c["riposte"] = False
            if "riposte" in c["faceup"]:
                c["faceup"].remove("riposte")
            self.emit(f"{self.label(cid)}'s Riposte ends.", kind="status")
        bar = s.get("barrage")
        if bar and bar["owner"] == cid:
            self.resolve_barrage(cid)
        prefaced = False
        if self.has(cid, "sixth_sense"):
            pick = self.ctx.ask(c["owner"], "preface", cid, [*FACINGS, "after"])
            if pick != "after":
                c["facing"] = pick
                prefaced = True
        performed = False
        if not c["slots"]:
            self.emit(f"{self.label(cid)} has nothing planned.", kind="reveal")
            cost = 1
        else:
            card_id = c["slots"].pop(0)
            c["playing"] = card_id
            s["current"] = {"char": cid, "card": card_id}
            self.emit(f"{{{c['owner']}}}'s {self.label(cid)} reveals {self.card(card_id).name}.", kind="reveal",
                      char=cid, card=card_id, owner=c["owner"])  # fmt: skip
            cost = self.reveal_and_resolve(cid, card_id)
            performed = self.performed
            if self.has(cid, "eyes_of_gaia") or card_id == "eyes_of_gaia":
                c["gaia_last"] = card_id
        s["after"] = {"char": cid, "cost": cost, "prefaced": prefaced, "performed": performed}

    def finish(self, cid: str, facing: str | None) -> None:
        """After the card: the free facing change, Battle Frenzy, and the time token moves."""
        s = self.s
        c = self.ch(cid)
        cost = s["after"]["cost"]
        # RB: Battle Frenzy pays "at the end of every Action Thras takes": a cancelled card is no
        # action taken. States saved before this key existed keep the old behaviour (paid).
        performed = s["after"].get("performed", True)
        s["after"] = None
        if facing is not None:
            c["facing"] = facing
        if performed and self.has(cid, "battle_frenzy"):
            bf = self.card("battle_frenzy")
            for t in self.chars_in(self.board_squares(cid, bf.squares), exclude=cid):
                self.transfer(t, cid, bf["rep"])
        s["seq"] += 1
        c["token"] += cost
        c["seq"] = s["seq"]
        s["current"] = None
        s["acted"].append(cid)
        c["actions"] += 1
        self.emit(f"{self.label(cid)} faces {c['facing']}; time token moves {cost} to space {c['token']}.",
                  kind="token", char=cid, cost=cost, facing=c["facing"], space=c["token"])  # fmt: skip

    def reveal_and_resolve(self, cid: str, card_id: str, extra: int = 0) -> int:
        c = self.ch(cid)
        card = self.card(card_id)
        why = None
        # Our reading: Vision "comes up" as the card it becomes, so a prone Tuuli stays down until
        # that card is revealed and a purple one is cancelled; the lobby option
        # ``prone_vision_stands`` restores the other reading (she stands as Vision is revealed).
        defer = card.effect == "vision" and not self.s["options"].get("prone_vision_stands", False)
        if c["prone"] and not defer:
            c["prone"] = False
            if card["purple"]:
                why = "prone (purple header)"
            self.emit(f"{self.label(cid)} stands up.")
        if why is None:
            why = self.requirement_unmet(cid, card)
        self.dest = None
        self.cancelled = why is not None
        self.performed = False
        if why is not None:
            self.emit(f"{card.name} is cancelled: {why}.", kind="cancel")
            c["playing"] = None
            return 1
        cost = HANDLERS[card.effect](self, cid, card)
        self.performed = not self.cancelled and self.dest != "cancel"
        if cost is None:
            cost = card.base_time
        if cid == "asma" and card_id in ASMA_SPELLS and self.has(cid, "arcano") and self.dest != "cancel":
            cost = 1
        dest = self.dest or ("mat" if card.is_dragon else "deck")
        if dest == "cancel":
            cost, dest = 1, "deck"
        c["playing"] = None
        if dest == "faceup":
            c["faceup"].append(card_id)
        elif dest == "mat":
            c["mat"].append(card_id)
        elif dest == "removed":
            c["removed"].append(card_id)
        return int(cost) + extra

    # ------------------------------------------------------------------ a Cannon Barrage called earlier (effects/ranged.py) lands
    def resolve_barrage(self, cid: str) -> None:
        bar = self.s["barrage"]
        card = self.card("cannon_barrage")
        centre = G.parse(bar["at"])
        sqs = [(centre[0] + x, centre[1] + y) for x, y in card.squares]
        self.emit(f"The Cannon Barrage lands on {bar['at']}!", kind="barrage")
        for t in self.chars_in(sqs):
            if t == cid:
                self.transfer(cid, None, card["rep"])
            else:
                self.transfer(t, cid, card["rep"])
        self.s["barrage"] = None
