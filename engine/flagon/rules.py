"""The rules proper: one character's activation and every card effect.

The state is one JSON-safe dict (see ``game.py``). Resolution code runs top to bottom and asks for
choices through :class:`Ctx`. When a choice is not known yet, :class:`NeedChoice` is raised; the
game stores the question plus a snapshot taken before the activation began, and when the answer
arrives it replays the activation from the snapshot with one more answer. Replays are exact
because the activation is deterministic given the state and the answers. This keeps every
mid-card decision (targets, destinations, wall slides, Daze cards, facing) a plain action in the
notation, asked of the right player, with no coroutine state to serialise.
"""

from __future__ import annotations

from typing import Any

from engine.flagon import geometry as G
from engine.flagon.cards import CHARACTER_NAMES, Card, deck_of, dragon_of, load_cards
from engine.flagon.geometry import FACINGS, STEP, Sq

PRIZES = ("flagon", "cookies")
THROWABLE = ("mug", "chair", *PRIZES)
DRINKS = ("mug", *PRIZES)
ASMA_SPELLS = ("arc_lightning", "arcane_bolt", "ice_cone", "familiar")


class NeedChoice(Exception):
    """Resolution needs an answer from ``player``: one of ``options`` (full action strings)."""

    def __init__(self, player: str, verb: str, char: str, options: list[str], private: bool) -> None:
        super().__init__(verb)
        self.player, self.verb, self.char, self.options, self.private = player, verb, char, options, private


class Ctx:
    """Answers known so far, in order, plus the events produced by this run."""

    def __init__(self, choices: list[str]) -> None:
        self.choices = choices
        self.i = 0
        self.events: list[dict[str, Any]] = []

    def ask(self, player: str, verb: str, char: str, options: list[str], private: bool = False) -> str:
        opts = sorted(set(options))
        if not opts:
            raise RuntimeError(f"no options for {verb}")
        if len(opts) == 1:  # a forced choice is not worth a prompt
            return opts[0]
        prefix = f"{verb}:{char}:"
        if self.i < len(self.choices):
            act = self.choices[self.i]
            self.i += 1
            if not act.startswith(prefix) or act[len(prefix) :] not in opts:
                raise RuntimeError(f"replay mismatch: {act} not in {verb} options")
            return act[len(prefix) :]
        raise NeedChoice(player, verb, char, [prefix + o for o in opts], private)


def cname(cid: str) -> str:
    return CHARACTER_NAMES.get(cid, cid)


class Rules:
    """Operations on one game state ``s``. Cheap to build; holds no state of its own."""

    def __init__(self, s: dict[str, Any], ctx: Ctx) -> None:
        self.s = s
        self.ctx = ctx
        self.cards = load_cards()
        self.w: int = s["width"]
        self.h: int = s["height"]
        self.dest: str | None = None  # where the resolving card goes afterwards (override)
        self.cancelled = False

    # ------------------------------------------------------------------ small helpers
    def emit(self, text: str, to: str | None = None, kind: str = "info", **data: Any) -> None:
        self.ctx.events.append({"kind": kind, "text": text, "to": to, "data": data})

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
        c = self.ch(cid)
        used = set(c["slots"]) | set(c["faceup"]) | set(c["removed"]) | set(c["mat"])
        if c.get("playing"):
            used.add(c["playing"])
        return [k for k in deck_of(cid) if k not in used]

    def chars_in(self, squares: list[Sq], exclude: str | None = None) -> list[str]:
        names = {G.name(q) for q in squares if self.inb(q)}
        return sorted(cid for cid, c in self.s["chars"].items() if c["pos"] in names and cid != exclude)

    def board_squares(self, cid: str, rel: list[Sq], origin: tuple[Sq, str] | None = None) -> list[Sq]:
        p, f = origin if origin else (self.pos(cid), self.ch(cid)["facing"])
        return [G.to_board(p, f, r) for r in rel]

    def card(self, cid: str) -> Card:
        return self.cards[cid]

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
        """Orange cards: the actor picks the order when it can matter (knockback)."""
        if len(targets) < 2 or not card["knockback"]:
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

    # ------------------------------------------------------------------ requirements
    def requirement_unmet(self, cid: str, card: Card) -> str | None:
        c = self.ch(cid)
        p = self.pos(cid)
        ah = self.ahead(cid)
        for req in card["requires"]:
            ok = True
            if req == "on_table":
                ok = self.table_at(p) is not None
            elif req == "holding_throwable":
                ok = c["held"] in THROWABLE
            elif req == "holding_drink":
                ok = c["held"] in DRINKS
            elif req == "facing_table":
                ok = self.table_at(ah) is not None and self.table_at(ah) != self.table_at(p)
            elif req == "barrel_here_or_ahead":
                ok = G.name(p) in self.s["barrels"] or (self.inb(ah) and G.name(ah) in self.s["barrels"])
            elif req == "facing_rug_off_it":
                ok = self.rug_at(ah) is not None and self.rug_at(ah) != self.rug_at(p)
            elif req == "table_here_or_ahead":
                ok = self.table_at(p) is not None or self.table_at(ah) is not None
            elif req == "ahead_free_same_height":
                ok = (
                    self.inb(ah)
                    and self.who(ah) is None
                    and (self.table_at(ah) is None) == (self.table_at(p) is None)
                )
            elif req == "ahead_free_not_up":
                ok = (
                    self.inb(ah)
                    and self.who(ah) is None
                    and not (self.table_at(p) is None and self.table_at(ah))
                )
            elif req == "shadow_step":
                ok = bool(self.chars_in(self.board_squares(cid, card.squares), exclude=cid)) or (
                    self.has(cid, "shadow_dash") and len(self.s["chars"]) > 1
                )
            if not ok:
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
        if not c["slots"]:
            self.emit(f"{self.label(cid)} has nothing planned.", kind="reveal")
            cost = 1
        else:
            card_id = c["slots"].pop(0)
            c["playing"] = card_id
            s["current"] = {"char": cid, "card": card_id}
            self.emit(f"{{{c['owner']}}}'s {self.label(cid)} reveals {self.card(card_id).name}.", kind="reveal",
                      char=cid, card=card_id)  # fmt: skip
            cost = self.reveal_and_resolve(cid, card_id)
            if self.has(cid, "eyes_of_gaia") or card_id == "eyes_of_gaia":
                c["gaia_last"] = card_id
        s["after"] = {"char": cid, "cost": cost, "prefaced": prefaced}

    def finish(self, cid: str, facing: str | None) -> None:
        """After the card: the free facing change, Battle Frenzy, and the time token moves."""
        s = self.s
        c = self.ch(cid)
        cost = s["after"]["cost"]
        s["after"] = None
        if facing is not None:
            c["facing"] = facing
        if self.has(cid, "battle_frenzy"):
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
                  kind="token", char=cid, cost=cost)  # fmt: skip

    def reveal_and_resolve(self, cid: str, card_id: str, extra: int = 0) -> int:
        c = self.ch(cid)
        card = self.card(card_id)
        why = None
        if c["prone"]:
            c["prone"] = False
            if card["purple"]:
                why = "prone (purple header)"
            self.emit(f"{self.label(cid)} stands up.")
        if why is None:
            why = self.requirement_unmet(cid, card)
        self.dest = None
        self.cancelled = why is not None
        if why is not None:
            self.emit(f"{card.name} is cancelled: {why}.", kind="cancel")
            c["playing"] = None
            return 1
        handler = getattr(self, "do_" + card.effect)
        cost = handler(cid, card)
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

    # ------------------------------------------------------------------ card effects
    def do_move(self, cid: str, card: Card) -> int:
        opts = [G.name(q) for q in self.board_squares(cid, card.squares) if self.reachable(cid, q)]
        pick = self.ctx.ask(self.owner(cid), "to", cid, ["stay", *opts])
        times = card["time"] if isinstance(card["time"], list) else [card["time"]] * 2
        if pick == "stay":
            self.emit(f"{self.label(cid)} stays put.")
            return int(times[0])
        self.place(cid, G.parse(pick), effect=False)
        self.emit(f"{self.label(cid)} moves to {pick}.", kind="move")
        return int(times[-1])

    def do_status(self, cid: str, card: Card) -> None:
        if card.id == "eyes_of_gaia":
            c = self.ch(cid)
            if c["slots"]:
                self.emit(f"{self.label(cid)} takes back {len(c['slots'])} planned card(s).")
            c["slots"] = []
        self.add_status(cid, card.id, card["duration"])
        self.dest = "faceup"

    def do_dash(self, cid: str, card: Card) -> None:
        height = self.on_table(cid)
        opts = []
        for rel in card.squares:
            q = self.board_squares(cid, [rel])[0]
            if not self.inb(q) or self.who(q) is not None or (self.table_at(q) is not None) != height:
                break
            opts.append(G.name(q))
        if not opts:
            self.emit(f"{self.label(cid)} cannot dash anywhere.")
            return
        pick = self.ctx.ask(self.owner(cid), "to", cid, opts)
        self.place(cid, G.parse(pick), effect=False)
        self.emit(f"{self.label(cid)} dashes to {pick}.", kind="move")

    def do_charge(self, cid: str, card: Card) -> None:
        self.place(cid, self.ahead(cid), effect=False)
        self.emit(f"{self.label(cid)} charges to {G.name(self.pos(cid))}.", kind="move")
        t = self.who(self.ahead(cid))
        if t is not None:
            self.strike(cid, t, card)

    def do_flunge(self, cid: str, card: Card) -> None:
        self.place(cid, self.ahead(cid), effect=False)
        self.emit(f"{self.label(cid)} lunges to {G.name(self.pos(cid))}.", kind="move")
        self.do_area(cid, card)

    def do_area(self, cid: str, card: Card) -> None:
        targets = self.chars_in(self.board_squares(cid, card.squares), exclude=cid)
        hits = 0
        for t in self.order(cid, targets, card):
            if self.strike(cid, t, card) == "hit":
                hits += 1
        if not targets:
            self.emit(f"{card.name} hits nobody.")
        if card.id == "sword_dance" and hits:
            x, y = self.pos(cid)
            opts = [
                G.name(q)
                for q in [(x + dx, y + dy) for dx, dy in STEP.values()]
                if self.inb(q) and self.who(q) is None
            ]
            pick = self.ctx.ask(self.owner(cid), "to", cid, ["stay", *opts])
            if pick != "stay":
                self.place(cid, G.parse(pick), effect=False)
                self.emit(f"{self.label(cid)} dances to {pick}.", kind="move")
        if card.get("self_daze"):
            self.daze(cid, card["self_daze"])

    def do_single(self, cid: str, card: Card) -> None:
        origin = self.spell_origin(cid, card)
        targets = self.chars_in(self.board_squares(cid, card.squares, origin), exclude=cid)
        if not targets:
            self.emit(f"{card.name} finds no target.")
            return
        t = self.ctx.ask(self.owner(cid), "target", cid, targets)
        rep = card["rep"]
        if card.get("rep_behind") is not None:
            me, tc = self.pos(cid), self.ch(t)
            rel = G.to_rel(self.pos(t), tc["facing"], me)
            # Touch of Death: directly behind; Backstab: anywhere in the target's rear squares
            behind = rel == (0, -1) if card.id == "touch_of_death" else rel[1] == -1 and abs(rel[0]) <= 1
            rep = card["rep_behind"] if behind else card["rep"]
        if self.strike(cid, t, card, rep=rep) == "hit" and card.get("token_push"):
            self.push_token(t, card["token_push"])

    def push_token(self, t: str, n: int) -> None:
        tc = self.ch(t)
        skipped = tc["token"] == self.s["marker"] and t not in self.s["acted"]
        self.s["seq"] += 1
        tc["token"] += n
        tc["seq"] = self.s["seq"]
        extra = " and loses its action this step" if skipped else ""
        self.emit(f"{self.label(t)}'s time token moves {n} forward{extra}.", kind="token", char=t)

    def do_pickup(self, cid: str, card: Card) -> None:
        c = self.ch(cid)
        here = c["pos"]
        opts = []
        if self.s["mugs"].get(here):
            opts.append("mug")
        if self.s["chairs"].get(here):
            opts.append("chair")
        ah = self.ahead(cid)
        for item, at in self.s["prizes"].items():
            if at is not None and (at == here or (self.inb(ah) and at == G.name(ah))):
                opts.append(item)
        if c["held"]:
            opts.append("drop")
        if not opts:
            self.emit(f"{self.label(cid)} finds nothing to pick up.")
            return
        pick = self.ctx.ask(self.owner(cid), "item", cid, opts)
        self.drop_held(cid)
        if pick == "drop":
            return
        if pick in PRIZES:
            self.s["prizes"][pick] = None
            self.gain_dragon(cid)
        else:
            key = "mugs" if pick == "mug" else "chairs"
            self._dec(key, here)
        c["held"] = pick
        self.emit(f"{self.label(cid)} picks up the {pick}.", kind="item")

    def gain_dragon(self, cid: str) -> None:
        c = self.ch(cid)
        d = dragon_of(cid)
        if d in c["mat"]:
            c["mat"].remove(d)
            self.emit(
                f"{self.label(cid)} takes the Dragon card {self.card(d).name} into the deck.", kind="dragon"
            )

    def drop_held(self, cid: str) -> None:
        c = self.ch(cid)
        item = c["held"]
        if not item:
            return
        if item in PRIZES:
            self.drop_prize(cid)
            return
        c["held"] = None
        key = "mugs" if item == "mug" else "chairs"
        self.s[key][c["pos"]] = self.s[key].get(c["pos"], 0) + 1
        self.emit(f"{self.label(cid)} drops the {item}.", kind="item")

    def _dec(self, key: str, sq: str) -> None:
        self.s[key][sq] -= 1
        if self.s[key][sq] <= 0:
            del self.s[key][sq]

    def do_throw(self, cid: str, card: Card) -> None:
        c = self.ch(cid)
        item = c["held"]
        kind = "chair" if item == "chair" else "mug"
        rng = card[f"{kind}_range"] if kind == "chair" else 0
        me = self.pos(cid)
        hits: dict[str, tuple[str, Sq]] = {}
        for rel in card.rays:
            d = G.rel_dir(c["facing"], rel)
            hit = self.first_on_ray(me, d, rng, cid, familiar=True)
            if hit:
                hits[G.DIR8_NAME[d]] = hit
        pick = self.ctx.ask(self.owner(cid), "dir", cid, list(hits)) if hits else None
        c["held"] = None
        if item in PRIZES:
            self.s["prizes"][item] = self.s["centre"]
        self.emit(
            f"{self.label(cid)} throws the {item}" + (f" {pick}." if pick else " at nothing."), kind="throw"
        )
        if item in PRIZES:
            self.emit(f"The {item.title()} returns to the centre.", kind="prize")
        if pick is None:
            return
        t = hits[pick][0]
        if t == "@familiar":
            self.s["familiar"] = None
            self.emit("The Familiar is hit and removed.")
            return
        kb = G.DIR8[pick] if card["knockback"] else None
        self.strike(
            cid, t, card, rep=card[f"{kind}_rep"], daze=card[f"{kind}_daze"], fall=card[f"{kind}_fall"], kb=kb
        )

    def do_ray(self, cid: str, card: Card) -> None:
        p, f = self.spell_origin(cid, card)
        hits: dict[str, tuple[str, Sq]] = {}
        for rel in card.rays:
            d = G.rel_dir(f, rel)
            hit = self.first_on_ray(p, d, card["range"], cid)
            if hit:
                hits[G.DIR8_NAME[d]] = hit
        if not hits:
            self.emit(f"{card.name} has no target.")
            return
        pick = self.ctx.ask(self.owner(cid), "dir", cid, list(hits))
        t = hits[pick][0]
        res = self.strike(cid, t, card)
        if card.id == "daggerang" and res == "hit":
            self.dest = "removed"
            self.emit("The Daggerang stays stuck in its target: the card leaves the game.")

    def do_hand_cannon(self, cid: str, card: Card) -> None:
        c = self.ch(cid)
        if not c["loaded"]:
            c["loaded"] = True
            self.emit(f"{self.label(cid)} reloads the Hand Cannon.")
            return
        c["loaded"] = False
        hit = self.first_on_ray(self.pos(cid), G.rel_dir(c["facing"], card.rays[0]), card["range"], cid)
        self.emit(f"{self.label(cid)} fires the Hand Cannon" + ("." if hit else " and misses."))
        if hit:
            self.strike(cid, hit[0], card, kb=G.rel_dir(c["facing"], card.rays[0]))

    def do_riposte(self, cid: str, card: Card) -> int:
        t = self.ctx.ask(self.owner(cid), "time", cid, [str(x) for x in card["time"]])
        self.ch(cid)["riposte"] = True
        self.dest = "faceup"
        self.emit(f"{self.label(cid)} takes a Riposte stance for {t} time.")
        return int(t)

    def do_swing(self, cid: str, card: Card) -> None:
        c = self.ch(cid)
        me = self.pos(cid)
        if card.rays:
            dirs = [G.rel_dir(c["facing"], r) for r in card.rays]
            dists = sorted({sq[1] for sq in self.card("swing").squares})
        else:
            dirs = [G.rel_dir(c["facing"], (0, 1))]
            dists = sorted({sq[1] for sq in card.squares})
        opts: dict[str, tuple[Sq, int]] = {}
        for d in dirs:
            for k in dists:
                q = (me[0] + d[0] * k, me[1] + d[1] * k)
                if self.inb(q):
                    opts[G.name(q)] = (d, k)
        if not opts:
            self.emit(f"No room to {card.name}.")
            self.dest = "cancel"
            return
        pick = self.ctx.ask(self.owner(cid), "to", cid, list(opts))
        d, k = opts[pick]
        path = [(me[0] + d[0] * i, me[1] + d[1] * i) for i in range(1, k + 1)]
        self.emit(f"{self.label(cid)} swings to {pick}.", kind="move")
        for q in path:
            t = self.who(q, exclude=cid)
            if t is not None:
                self.strike(cid, t, card, kb=None)
        fam = self.s.get("familiar")
        if fam and G.parse(fam["at"]) in path[:-1]:
            self.s["familiar"] = None
        if not self.arrive(cid, G.parse(pick), d, effect=False):
            self.emit(f"{self.label(cid)} cannot land and stays put.")

    def do_leap(self, cid: str, card: Card) -> None:
        opts = [
            G.name(q) for q in self.board_squares(cid, card.squares) if self.inb(q) and self.who(q) is None
        ]
        if not opts:
            self.emit(f"{self.label(cid)} has nowhere to leap.")
            return
        pick = self.ctx.ask(self.owner(cid), "to", cid, opts)
        self.place(cid, G.parse(pick), effect=False)
        self.emit(f"{self.label(cid)} leaps to {pick}.", kind="move")

    def do_dragon_kick(self, cid: str, card: Card) -> None:
        me = self.pos(cid)
        opts: dict[str, tuple[Sq, str | None]] = {"stay": ((0, 0), None)}
        for rel in card.rays:
            d = G.rel_dir(self.ch(cid)["facing"], rel)
            k = 1
            while True:
                q = (me[0] + d[0] * k, me[1] + d[1] * k)
                if not self.inb(q):
                    break
                t = self.who(q)
                opts[G.name(q)] = (d, t)
                if t is not None:
                    break
                k += 1
        pick = self.ctx.ask(self.owner(cid), "to", cid, list(opts))
        if pick == "stay":
            self.emit(f"{self.label(cid)} kicks the air and stays put.")
            return
        d, t = opts[pick]
        dest = G.parse(pick)
        self.emit(f"{self.label(cid)} flies to {pick}.", kind="move")
        if t is not None:
            self.strike(cid, t, card, kb=d)
        if not self.arrive(cid, dest, d, effect=False):
            back = (dest[0] - d[0], dest[1] - d[1])
            if back != me and self.who(back) is None:
                self.place(cid, back, effect=False)

    def do_lure(self, cid: str, card: Card) -> None:
        me = self.pos(cid)
        targets = self.chars_in(self.board_squares(cid, card.squares), exclude=cid)
        if not targets:
            self.emit("Lure of the Sea finds no one.")
            return
        t = self.ctx.ask(self.owner(cid), "target", cid, targets)
        tp = self.pos(t)
        steps = []
        if tp[0] != me[0]:
            steps.append((G.sign(me[0] - tp[0]), 0))
        if tp[1] != me[1]:
            steps.append((0, G.sign(me[1] - tp[1])))
        opts = {G.name((tp[0] + d[0], tp[1] + d[1])): d for d in steps}
        pick = self.ctx.ask(self.owner(cid), "to", cid, list(opts))
        self.strike(cid, t, card)
        if self.pos(t) == tp:
            self.emit(f"{self.label(t)} is pulled to {pick}.", kind="move")
            self.arrive(t, G.parse(pick), opts[pick], effect=True)

    def do_cannon_barrage(self, cid: str, card: Card) -> None:
        opts = [G.name((x, y)) for x in range(self.w) for y in range(self.h)]
        pick = self.ctx.ask(self.owner(cid), "at", cid, opts)
        self.s["barrage"] = {"at": pick, "owner": cid}
        self.emit(f"{self.label(cid)} calls a Cannon Barrage on {pick}.", kind="barrage")

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

    def do_arise(self, cid: str, card: Card) -> None:
        for t in self.chars_in(self.board_squares(cid, card.squares), exclude=cid):
            tc = self.ch(t)
            if not tc["prone"]:
                continue
            tc["prone"] = False
            self.emit(f"{self.label(t)} stands up.")
            if not self.friends(cid, t):
                self.transfer(t, cid, card["rep"])

    def do_vision(self, cid: str, card: Card) -> int:
        c = self.ch(cid)
        c["playing"] = None  # Vision goes back to the deck; the chosen card is performed instead
        opts = [k for k in self.deck(cid) if k != "vision"]
        pick = self.ctx.ask(self.owner(cid), "vision", cid, ["cancel", *opts])
        if pick == "cancel":
            self.emit(f"{self.label(cid)} cancels the Vision.", kind="cancel")
            return 1
        self.emit(f"Vision becomes {self.card(pick).name}.", kind="reveal", char=cid, card=pick)
        c["playing"] = pick
        cost = self.reveal_and_resolve(cid, pick)
        self.dest = "deck"  # Vision itself goes back to the deck (the chosen card went its own way)
        if self.cancelled:  # the chosen card was cancelled: time 1, like any cancelled card
            return 1
        return cost + card["extra_time"]

    def do_tithe(self, cid: str, card: Card) -> None:
        targets = self.chars_in(self.board_squares(cid, card.squares), exclude=cid)
        for t in targets:
            if self.ch(t)["rep"] < card["poor_below"]:
                self.transfer(cid, t, card["give"], real=True)
        for t in targets:
            if self.ch(t)["rep"] > card["rich_above"]:
                self.transfer(t, cid, card["rep"], real=True)

    def do_living_wood(self, cid: str, card: Card) -> None:
        targets = [t for t in self.s["chars"] if t != cid and self.on_table(t)]
        for t in sorted(targets):
            self.strike(cid, t, card)

    def do_mark_prey(self, cid: str, card: Card) -> None:
        targets = [t for t in self.s["chars"] if t != cid]
        t = self.ctx.ask(self.owner(cid), "target", cid, targets)
        self.s["mark"] = {"by": cid, "on": t}
        self.emit(f"{self.label(cid)} marks {self.label(t)} as prey.", kind="mark")

    def do_radiance(self, cid: str, card: Card) -> None:
        me = self.pos(cid)
        front = set(G.PATTERNS["FRONT3"])
        for t in self.chars_in(self.board_squares(cid, card.squares), exclude=cid):
            tc = self.ch(t)
            if G.to_rel(self.pos(t), tc["facing"], me) in front:
                self.strike(cid, t, card)

    def do_god_smack(self, cid: str, card: Card) -> None:
        targets = self.chars_in(self.board_squares(cid, card.squares), exclude=cid)
        if not targets:
            self.emit("God Smack finds no target.")
            return
        t = self.ctx.ask(self.owner(cid), "target", cid, targets)
        d = G.away(self.pos(cid), self.pos(t))
        self.transfer(t, cid, card["rep"])
        paid = {t}
        for _ in range(card["knockback"]):
            for o in self.knockback(t, d):
                if o not in paid:
                    paid.add(o)
                    self.transfer(o, cid, card["rep"])

    def do_shove(self, cid: str, card: Card) -> None:
        targets = [
            t
            for t in self.chars_in(self.board_squares(cid, card.squares), exclude=cid)
            if not self.ch(t)["prone"]
        ]
        if not targets:
            self.emit("Shove finds no standing target.")
            return
        t = self.ctx.ask(self.owner(cid), "target", cid, targets)
        d = G.away(self.pos(cid), self.pos(t))
        start = self.pos(t)
        nxt = (start[0] + d[0], start[1] + d[1])
        moved = 0
        if not self.on_table(t) and self.table_at(nxt) is not None and not self.has(t, "earthbond"):
            k = nxt
            moved = 1
            while True:
                rider = self.who(k, exclude=t)
                if rider is not None or not self.inb(k) or self.table_at(k) is None:
                    break
                k2 = (k[0] + d[0], k[1] + d[1])
                if not self.inb(k2):
                    break
                k = k2
                moved += 1
            self.emit(f"{self.label(t)} skids across the table to {G.name(k)}.", kind="knockback")
            self.arrive(t, k, d, effect=True)
        else:
            self.knockback(t, d)
            moved = 1 if self.pos(t) != start else 0
        if moved:
            self.strike(cid, t, card, rep=card["rep"] * moved, kb=(0, 0))

    def do_shadow_step(self, cid: str, card: Card) -> None:
        opts = []
        for yellow, green in zip(
            self.board_squares(cid, card.squares), self.board_squares(cid, card["landing"]), strict=True
        ):
            if self.who(yellow, exclude=cid) and self.inb(green) and self.who(green) is None:
                opts.append(G.name(green))
        if self.has(cid, "shadow_dash"):
            for t, tc in self.s["chars"].items():
                if t == cid:
                    continue
                q = G.to_board(self.pos(t), tc["facing"], (0, -1))
                if self.inb(q) and self.who(q, exclude=cid) is None:
                    opts.append(G.name(q))
        if not opts:
            self.emit("No shadow to step into.")
            return
        pick = self.ctx.ask(self.owner(cid), "to", cid, opts)
        self.place(cid, G.parse(pick), effect=False)
        self.emit(f"{self.label(cid)} steps through the shadows to {pick}.", kind="move")

    def do_snatch(self, cid: str, card: Card) -> None:
        targets = [
            t for t in self.chars_in(self.board_squares(cid, card.squares), exclude=cid) if self.ch(t)["held"]
        ]
        if not targets:
            self.emit("Nothing to snatch.")
            return
        t = self.ctx.ask(self.owner(cid), "target", cid, targets)
        item = self.ch(t)["held"]
        self.drop_held(cid)
        self.ch(t)["held"] = None
        self.ch(cid)["held"] = item
        self.emit(f"{self.label(cid)} snatches the {item} from {self.label(t)}.", kind="item")
        if item in PRIZES:
            self.gain_dragon(cid)

    def do_blade_waltz(self, cid: str, card: Card) -> None:
        done: set[str] = set()
        for _ in range(12):
            t = self.who(self.ahead(cid))
            if t is None or t in done:
                break
            done.add(t)
            self.strike(cid, t, card)  # a Riposte makes him pay but the waltz goes on
            opts = [G.name(q) for q in self.board_squares(cid, card["landing"]) if self.reachable(cid, q)]
            pick = self.ctx.ask(self.owner(cid), "to", cid, ["stay", *opts])
            if pick != "stay":
                self.place(cid, G.parse(pick), effect=False)
                self.emit(f"{self.label(cid)} waltzes to {pick}.", kind="move")
            self.ch(cid)["facing"] = self.ctx.ask(self.owner(cid), "turn", cid, list(FACINGS))
        if not done:
            self.emit("Blade Waltz finds no partner.")

    def do_arc_lightning(self, cid: str, card: Card) -> None:
        origin = self.spell_origin(cid, card)
        pool = self.chars_in(self.board_squares(cid, card.squares, origin), exclude=cid)
        hit: list[str] = []
        while pool:
            t = self.ctx.ask(self.owner(cid), "target", cid, pool)
            first = not hit
            hit.append(t)
            self.strike(cid, t, card, rep=card["rep"] if first else card["rep_chain"], boost=first)
            pool = [o for o in self.chars_in([(self.pos(t)[0] + x, self.pos(t)[1] + y) for x, y in G.PATTERNS["ADJ8"]], exclude=cid)
                    if o not in hit]  # fmt: skip
        if not hit:
            self.emit("Arc Lightning finds no target.")

    def do_familiar(self, cid: str, card: Card) -> None:
        s = self.s
        busy = {c["pos"] for c in s["chars"].values()} | set(s["mugs"]) | set(s["chairs"]) | set(s["barrels"])
        busy |= {v for v in s["prizes"].values() if v}
        opts = [G.name((x, y)) for x in range(self.w) for y in range(self.h)
                if G.name((x, y)) not in busy and self.table_at((x, y)) is None]  # fmt: skip
        at = self.ctx.ask(self.owner(cid), "at", cid, opts)
        facing = self.ctx.ask(self.owner(cid), "turn", cid, list(FACINGS))
        s["familiar"] = {"at": at, "facing": facing}
        self.emit(f"{self.label(cid)}'s Familiar appears on {at}, facing {facing}.", kind="familiar")

    def do_yank_rug(self, cid: str, card: Card) -> None:
        rid = self.rug_at(self.ahead(cid))
        rug = set(self.s["rugs"][rid])
        tables = {tid for tid, sqs in self.s["tables"].items() if rug & set(sqs)}
        targets = []
        for t, tc in self.s["chars"].items():
            tt = self.table_at(G.parse(tc["pos"]))
            if t != cid and ((tt is None and tc["pos"] in rug) or (tt is not None and tt in tables)):
                targets.append(t)
        for t in sorted(targets):
            self.strike(cid, t, card)
        if not targets:
            self.emit("The rug is yanked but nobody is on it.")

    def do_push_barrel(self, cid: str, card: Card) -> None:
        me, ah = self.pos(cid), self.ahead(cid)
        opts = [G.name(q) for q in (me, ah) if self.inb(q) and G.name(q) in self.s["barrels"]]
        start = G.parse(self.ctx.ask(self.owner(cid), "barrel", cid, opts))
        d = STEP[self.ch(cid)["facing"]]
        cur = start
        victim = None
        while True:
            nxt = (cur[0] + d[0], cur[1] + d[1])
            if not self.inb(nxt):
                break
            if self.table_at(nxt) is not None:
                k = nxt
                while self.inb(k) and self.table_at(k) is not None:
                    k = (k[0] + d[0], k[1] + d[1])
                if not self.inb(k):
                    break  # a table against the wall: stop before it
                t = self.who(k)
                if t is not None:
                    victim = t
                    break  # P: the barrel stops before the table rather than under it
                cur = k
                self._barrel_enters(k)
                continue
            t = self.who(nxt)
            if t is not None:
                victim = t
                break
            cur = nxt
            self._barrel_enters(cur)
        self.s["barrels"].remove(G.name(start))
        self.s["barrels"].append(G.name(cur))
        self.s["barrels"].sort()
        self.emit(f"{self.label(cid)} rolls a barrel from {G.name(start)} to {G.name(cur)}.", kind="barrel")
        if victim is not None:
            self.strike(cid, victim, card, kb=d)

    def _barrel_enters(self, q: Sq) -> None:
        n = G.name(q)
        if self.s["chairs"].pop(n, None):
            self.emit(f"The barrel smashes the chairs on {n}.")
        fam = self.s.get("familiar")
        if fam and fam["at"] == n:
            self.s["familiar"] = None

    def do_push_table(self, cid: str, card: Card) -> None:
        s = self.s
        d = STEP[self.ch(cid)["facing"]]
        first = self.table_at(self.ahead(cid))
        chain = [first]
        while True:
            grow = False
            for tid in list(chain):
                for n in s["tables"][tid]:
                    x, y = G.parse(n)
                    q = (x + d[0], y + d[1])
                    if not self.inb(q):
                        self.emit("The tables would hit the wall: Push Table is cancelled.", kind="cancel")
                        self.dest = "cancel"
                        return
                    other = self.table_at(q)
                    if other is not None and other not in chain:
                        chain.append(other)
                        grow = True
            if not grow:
                break
        old = {n for tid in chain for n in s["tables"][tid]}
        new = {G.name((G.parse(n)[0] + d[0], G.parse(n)[1] + d[1])) for n in old}
        entered = new - old
        riders = [t for t, c in s["chars"].items() if c["pos"] in old]
        floor = [t for t, c in s["chars"].items() if c["pos"] in entered]
        blockers = [t for t in floor if self.has(t, "earthbond")]
        for t in self.order(cid, sorted(riders + floor), card):
            self.strike(cid, t, card, kb=(0, 0))
        if blockers:
            self.emit(f"The table stops against {self.label(blockers[0])} (Earthbond).")
            return
        for t in floor:
            self.knockback(t, d)
        # objects on the floor in the way are shoved, or destroyed against a wall or table
        for key in ("mugs", "chairs"):
            for n in sorted(entered):
                cnt = s[key].pop(n, 0)
                if cnt:
                    q = (G.parse(n)[0] + d[0], G.parse(n)[1] + d[1])
                    if self.inb(q) and G.name(q) not in new and self.table_at(q) is None:
                        s[key][G.name(q)] = s[key].get(G.name(q), 0) + cnt
                    else:
                        self.emit(f"{key.title()} on {n} are crushed.")
        for i, n in enumerate(list(s["barrels"])):
            if n in entered:
                q = (G.parse(n)[0] + d[0], G.parse(n)[1] + d[1])
                if self.inb(q) and G.name(q) not in new and self.table_at(q) is None:
                    s["barrels"][i] = G.name(q)
                else:
                    s["barrels"][i] = ""
                    self.emit(f"The barrel on {n} is crushed.")
        s["barrels"] = sorted(b for b in s["barrels"] if b)
        for item, at in s["prizes"].items():
            if at in entered:
                q = (G.parse(at)[0] + d[0], G.parse(at)[1] + d[1])
                if self.inb(q) and G.name(q) not in new and self.table_at(q) is None:
                    s["prizes"][item] = G.name(q)  # else it simply ends up on the table top
        # objects on the tables ride along
        for key in ("mugs", "chairs"):
            moving = {n: s[key].pop(n) for n in list(s[key]) if n in old}
            for n, cnt in moving.items():
                dest = G.name((G.parse(n)[0] + d[0], G.parse(n)[1] + d[1]))
                s[key][dest] = s[key].get(dest, 0) + cnt
        for item, at in s["prizes"].items():
            if at in old:
                s["prizes"][item] = G.name((G.parse(at)[0] + d[0], G.parse(at)[1] + d[1]))
        for tid in chain:
            s["tables"][tid] = sorted(
                G.name((G.parse(n)[0] + d[0], G.parse(n)[1] + d[1])) for n in s["tables"][tid]
            )
        for t in riders:
            p = self.pos(t)
            s["chars"][t]["pos"] = G.name((p[0] + d[0], p[1] + d[1]))
        for t in floor:  # stuck in front of the table: it ends up on top, and falls
            if s["chars"][t]["pos"] in entered:
                self.fall(t)
        fam = s.get("familiar")
        if fam and fam["at"] in new:
            s["familiar"] = None
        self.emit(f"{self.label(cid)} pushes table {first}" + (f" and {len(chain) - 1} more." if len(chain) > 1 else "."),
                  kind="table")  # fmt: skip

    def do_flip_table(self, cid: str, card: Card) -> None:
        s = self.s
        d = STEP[self.ch(cid)["facing"]]
        tid = self.table_at(self.ahead(cid))
        sqs = [G.parse(n) for n in s["tables"][tid]]

        def proj(q: Sq) -> int:
            return q[0] * d[0] + q[1] * d[1]

        lo = min(proj(q) for q in sqs)
        depth = max(proj(q) for q in sqs) - lo + 1
        far = [q for q in sqs if proj(q) - lo + 1 == depth]
        beyond = {G.name((q[0] + d[0], q[1] + d[1])) for q in far}
        names = set(s["tables"][tid])
        riders = sorted(t for t, c in s["chars"].items() if c["pos"] in names)
        floor = sorted(t for t, c in s["chars"].items() if c["pos"] in beyond)
        targets = self.order(cid, riders + floor, card)
        for t in targets:
            self.strike(cid, t, card, fall=False, kb=(0, 0))
        # the table goes, with the objects on it (the Flagon returns to the centre)
        del s["tables"][tid]
        for key in ("mugs", "chairs"):
            for n in names:
                s[key].pop(n, None)
        for item, at in s["prizes"].items():
            if at in names:
                s["prizes"][item] = s["centre"]
        self.emit(f"{self.label(cid)} flips table {tid}; it is removed.", kind="table")
        for t in sorted(riders, key=lambda r: -(proj(self.pos(r)) - lo + 1)):
            p = self.pos(t)
            dd = proj(p) - lo + 1
            k = 2 * depth + 1 - 2 * dd
            dest = (p[0] + d[0] * k, p[1] + d[1] * k)
            while not self.inb(dest) and k > 0:
                k -= 1
                dest = (p[0] + d[0] * k, p[1] + d[1] * k)
            self.emit(f"{self.label(t)} is thrown to {G.name(dest)}.", kind="knockback")
            self.arrive(t, dest, d, effect=False)
        for t in targets:
            self.fall(t)
