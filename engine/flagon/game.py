"""The Dragon & Flagon game object: setup, planning, the time-step loop, views, persistence.

Notation (see docs/flagon.md): every action is ``verb:...`` text. Setup: ``char:<id>``,
``start:<square>``. Planning (private): ``plan:<char>:<slot>:<card>``. Choices while a card
resolves: ``<verb>:<char>:<answer>`` (``to``, ``target``, ``dir``, ``face``, ``slide``, ``daze``
(private), ``time``, ``vision``, ``item``, ``barrel``, ``from``, ``at``, ``turn``, ``preface``).
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.base import (
    STATE_VERSION_KEY,
    Event,
    Game,
    IllegalAction,
    InvalidSetup,
    OptionSpec,
    Result,
    StateUpgrade,
    check_legal,
    resolve_options,
)
from engine.flagon import geometry as G
from engine.flagon.board import layout_names, load_layout
from engine.flagon.cards import CHARACTER_NAMES, CHARACTERS, dragon_of, load_cards
from engine.flagon.rules import PRIZES, Ctx, NeedChoice, Rules, cname
from engine.rng import Rng

SLOT_NAMES = ("I", "II", "III")
VERB_LABELS = {
    "to": "go to", "target": "target", "dir": "direction", "face": "face", "slide": "slide to",
    "daze": "Daze card", "time": "Riposte time", "vision": "Vision becomes", "item": "take",
    "barrel": "barrel on", "from": "cast from", "at": "place on", "turn": "turn", "preface": "face first",
}  # fmt: skip
# plan/daze pick hidden cards; a Vision prompt lists Tuuli's deck, which would show by absence
# what she has planned, so it is private too (the card it becomes is then announced publicly).
SPECIAL_LABELS = {
    ("to", "stay"): "stay put", ("vision", "cancel"): "cancel the Vision", ("item", "drop"): "drop what you hold",
    ("preface", "after"): "turn after acting instead", ("from", "self"): "cast from yourself",
    ("from", "familiar"): "cast from the Familiar",
    ("dir", "familiar"): "throw at the Familiar",
}  # fmt: skip
PRIVATE_VERBS = ("plan", "daze", "vision")
# Printed spaces of the time track, for display only (the engine's track is unbounded).
# PROPOSAL (spec 2.2: [UNKNOWN] P:40).
TRACK_SPACES = 40
MAX_STEPS = 200  # a safety net; the Town Guard ends every game by space 30


# A side of the team game never fields more than half of the nine characters.
MAX_TEAM_CHARACTERS = len(CHARACTER_NAMES) // 2


def team_sides(players: list[str], picks: Mapping[str, str]) -> dict[str, str]:
    """Each player's team ("A" or "B"): their lobby pick, or else (in seat order) the team
    with fewer players so far, so with no picks at all the seats alternate A, B, A, B."""
    teams = {p: picks[p] for p in players if picks.get(p) in ("A", "B")}
    for p in players:
        if p not in teams:
            size = {t: sum(1 for q in teams.values() if q == t) for t in "AB"}
            teams[p] = "B" if size["B"] < size["A"] else "A"
    return {p: teams[p] for p in players}


def team_quotas(players: list[str], teams: Mapping[str, str]) -> dict[str, int]:
    """How many characters each player controls in the team game. Rulebook: "While the number of
    players on each side may be uneven, the number of characters should not." Even teams keep the
    usual count (two each with 4 players, one each with 5-8). Uneven teams field four characters a
    side, as in the rulebook's five-player example (2+2 against 2+1+1): every player of the smaller
    team controls two, and on the larger team the first players in seat order take a second one.
    Raises InvalidSetup when the sides cannot be balanced with one or two characters a player."""
    members = {t: [p for p in players if teams[p] == t] for t in "AB"}
    small, large = sorted((len(members["A"]), len(members["B"])))
    if small == 0:
        empty = "A" if not members["A"] else "B"
        raise InvalidSetup(f"Team {empty} has no players; both teams need at least one.")
    if small == large:
        per = 2 if len(players) <= 4 else 1
        return {p: per for p in players}
    side = MAX_TEAM_CHARACTERS
    if large > side or 2 * small < side:
        raise InvalidSetup(
            f"Teams of {large} and {small} players cannot field the same number of characters "
            f"(each player controls one or two, at most {side} a side); move a player to the other team."
        )
    quota = {}
    for t in "AB":
        extra = side - len(members[t])
        for i, p in enumerate(members[t]):
            quota[p] = 2 if i < extra else 1
    return {p: quota[p] for p in players}


def _clone(obj: Any) -> Any:
    return pickle.loads(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))


class FlagonGame(Game):
    NAME: ClassVar[str] = "flagon"
    TITLE: ClassVar[str] = "The Dragon & Flagon"
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 8
    # Plans are secret: the platform checks DM reachability and offers the "Plan" button.
    HIDDEN_INFORMATION: ClassVar[bool] = True
    # Version 1 kept its version under "v"; version 2 is the same state under the common key.
    STATE_VERSION: ClassVar[int] = 4
    OLD_STATE_VERSION_KEY: ClassVar[str | None] = "v"
    STATE_UPGRADES: ClassVar[Mapping[int, StateUpgrade]] = {
        1: lambda d: {k: x for k, x in d.items() if k != "v"},
        # 3: the prone-Vision and Familiar lobby options (issue 15); games saved before it keep the default.
        2: lambda d: {
            **d,
            "options": {**d["options"], "prone_vision_stands": False, "familiar_blocks": False},
        },
        # 4: the Flagon-throw and barrel-past-a-table lobby options (issue 29); old games keep the default.
        3: lambda d: {
            **d,
            "options": {**d["options"], "flagon_not_thrown": False, "barrel_table_shields": False},
        },
    }
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("extended", False, "Extended game: Game End tokens on spaces 27-30 instead of 21-24."),
        OptionSpec("team", False, "Team game (4-8 players): two teams with equal numbers of characters."),
        OptionSpec("late_night", False, "Late Night: you may not look at your own placed cards."),
        OptionSpec(
            "cookies",
            "off",
            "Plate of Cookies: off, instead of the Flagon, or with it.",
            choices=("off", "instead", "with"),
        ),
        OptionSpec("layout", "first-game", "Tavern layout.", choices=layout_names()),
        OptionSpec(
            "prone_vision_stands",
            False,
            "Prone Vision: a prone Tuuli stands up when Vision is revealed, so the card it becomes is "
            "never cancelled for being prone (off = our reading of the rulebook: the card Vision "
            "becomes is the one checked).",
        ),
        OptionSpec(
            "familiar_blocks",
            False,
            "Familiar blocks throws: a mug or chair thrown along the Familiar's line must hit it "
            "(off = our reading of the rulebook: you may aim at the Familiar or past it).",
        ),
        OptionSpec(
            "flagon_not_thrown",
            False,
            "The Flagon stays in hand: a card that throws what you hold (Throw, Monkey Throw, Divine Hurl) is "
            "cancelled while you hold the Flagon (or the Cookies) "
            "(off = the rulebook's letter: the Flagon is treated exactly like a mug, so it can be thrown).",
        ),
        OptionSpec(
            "barrel_table_shields",
            False,
            "Tables shield from barrels: a barrel stopped before a table hits nobody past it "
            "(off = our reading of the rulebook: it stops before the table and still hits the "
            "character just past it).",
        ),
    )

    def __init__(self, state: dict[str, Any]) -> None:
        self.s = state
        self.players = list(state["players"])

    # ================================================================== creation
    @classmethod
    def new(cls, players: list[str], seed: int, **options: Any) -> FlagonGame:
        if not cls.MIN_PLAYERS <= len(players) <= cls.MAX_PLAYERS or len(set(players)) != len(players):
            raise InvalidSetup("The Dragon & Flagon needs 2 to 8 different players.")
        # The lobby's team picks ride along with the options ({seat: "A"/"B"}); they are not an option.
        picks = options.pop("teams", None) or {}
        opts = resolve_options(cls.OPTIONS, options, "The Dragon & Flagon")
        if opts["team"] and len(players) < 4:
            raise InvalidSetup(f"The team game needs 4-8 players; {len(players)} are seated.")
        lay = load_layout(opts["layout"])
        rng = Rng(seed)
        per = 2 if len(players) <= 4 else 1
        quota = {p: per for p in players}
        teams = None
        if opts["team"]:
            teams = team_sides(players, picks)
            quota = team_quotas(players, teams)
        queue: list[list[Any]] = []
        if teams:
            start_team = "AB"[rng.below(2)]
            members = {t: [p for p in players if teams[p] == t] for t in "AB"}
            left = dict(quota)
            turn = start_team
            idx = {"A": 0, "B": 0}
            while any(left.values()):
                group = [p for p in members[turn] if left[p] > 0]
                if group:
                    p = group[idx[turn] % len(group)]
                    idx[turn] += 1
                    left[p] -= 1
                    queue.append(["choose", p])
                    queue.append(["place_last", p])
                turn = "B" if turn == "A" else "A"
        else:
            for r in range(per):
                for p in players:
                    if quota[p] > r:
                        queue.append(["choose", p])
        guard_tokens = ["guard", "blank", "blank", "blank"]
        rng.shuffle(guard_tokens)
        first_space = 27 if opts["extended"] else 21
        prizes: dict[str, str | None] = {}
        if opts["cookies"] in ("off", "with"):
            prizes["flagon"] = G.name(lay.centre)
        if opts["cookies"] in ("instead", "with"):
            prizes["cookies"] = G.name(lay.centre)
        state: dict[str, Any] = {
            STATE_VERSION_KEY: cls.STATE_VERSION,
            "players": list(players),
            "options": opts,
            "layout": lay.name,
            "width": lay.width,
            "height": lay.height,
            "centre": G.name(lay.centre),
            "start": [G.name(q) for q in lay.start],
            "tables": {t: sorted(G.name(q) for q in sqs) for t, sqs in lay.tables.items()},
            "rugs": {r: sorted(G.name(q) for q in sqs) for r, sqs in lay.rugs.items()},
            "chairs": _count(lay.chairs),
            "mugs": _count(lay.mugs),
            "barrels": sorted(G.name(q) for q in lay.barrels),
            "prizes": prizes,
            "familiar": None,
            "barrage": None,
            "mark": None,
            "teams": teams,
            "quota": quota,
            "queue": queue,
            "chars": {},
            "statuses": [],
            "game_end": [
                {"space": first_space + i, "guard": t == "guard", "revealed": False}
                for i, t in enumerate(guard_tokens)
            ],
            "marker": 1,
            "seq": 0,
            "phase": "setup",
            "actives": [],
            "order": [],
            "idx": 0,
            "acted": [],
            "current": None,
            "after": None,
            "removed_rep": 0,
            "pending": None,
            "result": None,
            "forced_order": None,
            "steps": 0,
            "rng": rng.state,
        }
        return cls(state)

    # ================================================================== helpers
    def _rng(self) -> Rng:
        return Rng.from_state(self.s["rng"])

    def chars_of(self, player: str) -> list[str]:
        return [c for c, d in self.s["chars"].items() if d["owner"] == player]

    def need(self, cid: str, running: set[tuple[str, str]] | None = None) -> int:
        """How many more cards ``cid`` must plan now (Chug: three in all; Eyes of Gaia: one)."""
        if running is None:
            running = {(st["char"], st["card"]) for st in self.s["statuses"]}
        want = 3 if (cid, "chug") in running else 1 if (cid, "eyes_of_gaia") in running else 2
        missing = max(0, want - len(self.s["chars"][cid]["slots"]))
        if missing:  # never wait for cards that do not exist (a nearly empty deck)
            c = self.s["chars"][cid]
            avail = [
                k
                for k in Rules(self.s, Ctx([])).deck(cid)
                if not ((cid, "eyes_of_gaia") in running and k == c["gaia_last"])
            ]
            missing = min(missing, len(avail))
        return missing

    def cards_to_place(self, cid: str) -> int:
        """How many cards character ``cid`` still places in this planning phase: 0 unless it is
        planning now, else what fills it to two cards (three while it Chugs, one under Eyes of
        Gaia), never more than its deck can give. The UI asks this; it never counts for itself."""
        if self.s["phase"] != "plan" or cid not in self.s["actives"]:
            return 0
        return self.need(cid)

    def planners(self) -> list[str]:
        running = {(st["char"], st["card"]) for st in self.s["statuses"]}
        return [c for c in self.s["actives"] if self.need(c, running) > 0]

    # ================================================================== contract
    def to_act(self) -> list[str]:
        s = self.s
        if s["result"] is not None:
            return []
        if s["phase"] == "setup":
            return [self._setup_player()]
        if s["pending"]:
            return [s["pending"]["player"]]
        if s["phase"] == "plan":
            owners = {s["chars"][c]["owner"] for c in self.planners()}
            return [p for p in self.players if p in owners]
        return []

    def character_quota(self) -> dict[str, int]:
        """How many characters each player controls (public: said in the lobby)."""
        return dict(self.s["quota"])

    def character_being_placed(self) -> str | None:
        """The character whose start square is chosen now, during setup (public)."""
        queue = self.s["queue"] if self.s["phase"] == "setup" else []
        return str(queue[0][1]) if queue and queue[0][0] == "place" else None

    def _setup_player(self) -> str:
        s = self.s
        kind, who = s["queue"][0]
        if kind == "place":
            return s["chars"][who]["owner"]  # type: ignore[no-any-return]
        return who  # type: ignore[no-any-return]

    def legal_actions(self, player: str) -> list[str]:
        s = self.s
        if s["result"] is not None or player not in self.to_act():
            return []
        if s["phase"] == "setup":
            kind, _ = s["queue"][0]
            if kind == "choose":
                return sorted(f"char:{c}" for c in CHARACTERS if c not in s["chars"])
            taken = {c["pos"] for c in s["chars"].values() if c["pos"]}
            return sorted(f"start:{q}" for q in s["start"] if q not in taken)
        if s["pending"]:
            return list(s["pending"]["options"])
        out = []
        r = Rules(s, Ctx([]))
        for cid in self.planners():
            c = s["chars"][cid]
            if c["owner"] != player:
                continue
            slot = len(c["slots"]) + 1
            for k in r.deck(cid):
                if r.has(cid, "eyes_of_gaia") and k == c.get("gaia_last"):
                    continue  # not the same card twice in a row
                out.append(f"plan:{cid}:{slot}:{k}")
        return sorted(out)

    def is_private_action(self, player: str, action: str) -> bool:
        return action.split(":", 1)[0] in PRIVATE_VERBS

    def play(self, player: str, action: str) -> list[Event]:
        check_legal(self, player, action)
        return self._apply(player, action)

    def _apply(self, player: str, action: str) -> list[Event]:
        """Play an action already known to be legal (the AI's rollouts skip the check)."""
        s = self.s
        events: list[Event] = []
        if s["phase"] == "setup":
            events += self._play_setup(player, action)
        elif s["pending"]:
            events += self._answer(action)
        else:
            _, cid, slot, card = action.split(":")
            c = s["chars"][cid]
            c["slots"].append(card)
            cards = load_cards()
            events.append(Event("plan", f"You planned {cards[card].name} in slot {SLOT_NAMES[int(slot) - 1]} for {cname(cid)}.",
                                to=player, data={"char": cid, "slot": int(slot), "card": card}))  # fmt: skip
            events.append(
                Event("planned", f"{{{player}}} has planned a card for {cname(cid)}.", data={"char": cid})
            )
        events += self._advance()
        return events

    def _play_setup(self, player: str, action: str) -> list[Event]:
        s = self.s
        verb, arg = action.split(":", 1)
        _, who = s["queue"].pop(0)
        if verb == "char":
            s["chars"][arg] = {
                "id": arg, "owner": player, "pos": None, "facing": "N", "prone": False, "held": None,
                "rep": 20, "token": 1, "seq": 0, "slots": [], "faceup": [], "removed": [], "mat": [dragon_of(arg)],
                "playing": None, "riposte": False, "loaded": True, "gaia_last": None, "actions": 0,
                "placed": len(s["chars"]),
            }  # fmt: skip
            evs = [Event("choose", f"{{{player}}} takes {cname(arg)}.", data={"char": arg})]
            if not s["queue"]:  # every character chosen: placement in a random order
                order = sorted(s["chars"])
                rng = self._rng()
                rng.shuffle(order)
                s["rng"] = rng.state
                s["queue"] = [["place", c] for c in order]
                evs.append(Event("setup", "Placement order: " + ", ".join(cname(c) for c in order) + "."))
            elif s["queue"][0][0] == "place_last":
                s["queue"][0] = ["place", arg]
            return evs
        cid = who
        c = s["chars"][cid]
        lay = load_layout(s["layout"])
        c["pos"] = arg
        c["facing"] = lay.start_facing(G.parse(arg))
        s["seq"] += 1
        c["seq"] = s["seq"]
        evs = [
            Event(
                "place",
                f"{{{player}}} places {cname(cid)} on {arg}, facing {c['facing']}.",
                data={"char": cid, "at": arg},
            )
        ]
        if not s["queue"]:
            s["phase"] = "plan"
            evs.append(
                Event("start", "All characters are in the tavern. Time step 1: everyone plans two cards.")
            )
            self._begin_step()
        return evs

    # ------------------------------------------------------------------ the loop
    def _begin_step(self) -> None:
        s = self.s
        s["phase"] = "plan"
        s["actives"] = sorted(c for c, d in s["chars"].items() if d["token"] == s["marker"])
        s["order"], s["idx"], s["acted"] = [], 0, []

    def _advance(self) -> list[Event]:
        s = self.s
        events: list[Event] = []
        while s["result"] is None and not s["pending"] and s["phase"] != "setup":
            if s["phase"] == "plan":
                if self.planners():
                    return events
                s["phase"] = "act"
                order = list(s["actives"])
                if s["forced_order"]:
                    order = [c for c in s["forced_order"] if c in order] + [
                        c for c in order if c not in s["forced_order"]
                    ]
                    s["forced_order"] = None
                else:
                    rng = self._rng()
                    rng.shuffle(order)
                    s["rng"] = rng.state
                r = Rules(s, Ctx([]))
                first = [c for c in order if r.has(c, "divine_inspiration")]
                s["order"] = first + [c for c in order if c not in first]
                events.append(Event("order", _order_text(s["marker"], s["order"]),
                                    data={"order": s["order"], "space": s["marker"]}))  # fmt: skip
                continue
            # act
            if s["idx"] < len(s["order"]):
                cid = s["order"][s["idx"]]
                s["idx"] += 1
                if s["chars"][cid]["token"] != s["marker"]:
                    events.append(
                        Event("skip", f"{cname(cid)} was pushed along the time track and does not act.")
                    )
                    continue
                events += self._run(cid, [], 0, pickle.dumps(s, protocol=pickle.HIGHEST_PROTOCOL))
                continue
            events += self._end_step()
        return events

    def _run(self, cid: str, choices: list[str], emitted: int, snap: dict[str, Any] | bytes) -> list[Event]:
        """Run one activation with the known answers; store the next question if one is needed.

        ``snap`` is the state before the activation (pickled bytes until a question makes it
        worth keeping). The free facing change at the end is asked without a snapshot: it is
        always the last question, so answering it never needs a replay.
        """
        ctx = Ctx(choices)
        try:
            Rules(self.s, ctx).perform(cid)
        except NeedChoice as q:
            self.s["pending"] = {
                "char": cid, "player": q.player, "verb": q.verb, "about": q.char, "options": q.options,
                "private": q.private, "choices": choices, "emitted": len(ctx.events),
                "snap": pickle.loads(snap) if isinstance(snap, bytes) else snap,
            }  # fmt: skip
            return [Event(e["kind"], e["text"], e["to"], e["data"]) for e in ctx.events[emitted:]]
        events = [Event(e["kind"], e["text"], e["to"], e["data"]) for e in ctx.events[emitted:]]
        after = self.s["after"]
        if after["prefaced"]:
            self.s["pending"] = None
            return events + self._finish_activation(cid, None)
        owner = self.s["chars"][cid]["owner"]
        self.s["pending"] = {
            "char": cid, "player": owner, "verb": "face", "about": cid, "private": False, "after": True,
            "options": [f"face:{cid}:{f}" for f in sorted(G.FACINGS)],
        }  # fmt: skip
        return events

    def _finish_activation(self, cid: str, facing: str | None) -> list[Event]:
        ctx = Ctx([])
        Rules(self.s, ctx).finish(cid, facing)
        return [Event(e["kind"], e["text"], e["to"], e["data"]) for e in ctx.events]

    def _answer(self, action: str) -> list[Event]:
        p = self.s["pending"]
        if p.get("after"):
            self.s["pending"] = None
            return self._finish_activation(p["char"], action.split(":")[2])
        snap = p["snap"]
        self.s = _clone(snap)
        return self._run(p["char"], [*p["choices"], action], p["emitted"], snap)

    def _end_step(self) -> list[Event]:
        s = self.s
        events: list[Event] = []
        ctx = Ctx([])
        r = Rules(s, ctx)
        r.expire(None, s["marker"])
        self._reveal_end(ctx)
        s["steps"] += 1
        while s["result"] is None:
            s["marker"] += 1
            if any(c["token"] == s["marker"] for c in s["chars"].values()):
                break
            r.expire(None, s["marker"])
            self._reveal_end(ctx)
        if s["steps"] > MAX_STEPS and s["result"] is None:
            self._finish("The tavern closes (step limit).")
        events += [Event(e["kind"], e["text"], e["to"], e["data"]) for e in ctx.events]
        if s["result"] is None:
            self._begin_step()
        else:
            events.append(Event("end", s["result"]["reason"], data=s["result"]))
        return events

    def _reveal_end(self, ctx: Ctx) -> None:
        s = self.s
        for tok in s["game_end"]:
            if tok["space"] == s["marker"] and not tok["revealed"]:
                tok["revealed"] = True
                if tok["guard"]:
                    ctx.events.append(
                        {
                            "kind": "guard",
                            "text": f"The Town Guard arrives on space {s['marker']}!",
                            "to": None,
                            "data": {},
                        }
                    )
                    self._finish(f"The Town Guard broke up the brawl on time space {s['marker']}.")
                else:
                    ctx.events.append({"kind": "game_end_token", "text": f"The Game End token on space {s['marker']} is blank: the brawl goes on.",
                                       "to": None, "data": {}})  # fmt: skip

    # ------------------------------------------------------------------ end
    def side_of(self, player: str) -> str:
        teams = self.s["teams"]
        return teams[player] if teams else player  # type: ignore[no-any-return]

    def side_scores(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in self.s["chars"].values():
            side = self.side_of(c["owner"])
            out[side] = out.get(side, 0) + c["rep"]
        return out

    def _finish(self, reason: str) -> None:
        s = self.s
        scores = self.side_scores()

        def key(side: str) -> tuple[int, int, int]:
            best = min(
                (c["token"], c["seq"]) for c in s["chars"].values() if self.side_of(c["owner"]) == side
            )
            return (-scores[side], best[0], best[1])

        sides = sorted(scores, key=key)
        ranking = [[p for p in self.players if self.side_of(p) == side] for side in sides]
        per_player = {p: float(scores.get(self.side_of(p), 0)) for p in self.players}
        s["result"] = {"scores": per_player, "ranking": ranking, "reason": reason}
        if s["teams"]:  # each place is a side: rated as teams, not as a tie
            s["result"]["teams"] = ranking
        s["phase"] = "over"
        s["pending"] = None

    @property
    def is_over(self) -> bool:
        return self.s["result"] is not None

    @property
    def result(self) -> Result | None:
        return Result.from_dict(self.s["result"]) if self.s["result"] else None

    # ------------------------------------------------------------------ persistence
    def to_dict(self) -> dict[str, Any]:
        return _clone(self.s)  # type: ignore[no-any-return]

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FlagonGame:
        return cls(_clone(cls.upgrade(d)))

    # ------------------------------------------------------------------ views
    def view(self, player: str | None) -> dict[str, Any]:
        s = self.s
        r = Rules(s, Ctx([]))
        cards = load_cards()
        late = s["options"]["late_night"]
        chars = []
        for cid in sorted(s["chars"], key=lambda k: s["chars"][k]["placed"]):
            c = s["chars"][cid]
            chars.append({
                "id": cid, "name": CHARACTER_NAMES[cid], "owner": c["owner"], "team": s["teams"][c["owner"]] if s["teams"] else None,
                "pos": c["pos"], "xy": list(G.parse(c["pos"])) if c["pos"] else None, "facing": c["facing"],
                "prone": c["prone"], "on_table": bool(c["pos"]) and r.on_table(cid), "held": c["held"], "rep": c["rep"],
                "token": c["token"], "stack": self._stack_index(cid), "slots_filled": len(c["slots"]),
                "statuses": [{"card": st["card"], "name": cards[st["card"]].name, "until": st["at"]} for st in s["statuses"] if st["char"] == cid],
                "riposte": c["riposte"], "hand_cannon": ("loaded" if c["loaded"] else "unloaded") if cid == "jack" else None,
                "faceup": list(c["faceup"]), "removed": list(c["removed"]),
                "dragon_card": "under the mat" if dragon_of(cid) in c["mat"] else "in play",
                "active": cid in s["actives"], "planning": cid in self.planners() and s["phase"] == "plan",
                "acted": cid in s["acted"], "to_place": self.cards_to_place(cid),
                # Eyes of Gaia forbids the card played last; it was revealed, so it is public.
                "gaia_last": cards[c["gaia_last"]].name if r.has(cid, "eyes_of_gaia") and c["gaia_last"] else None,
            })  # fmt: skip
        track: dict[str, list[str]] = {}
        for cid in sorted(s["chars"], key=lambda k: (s["chars"][k]["token"], s["chars"][k]["seq"])):
            track.setdefault(str(s["chars"][cid]["token"]), []).append(cid)
        pend = s["pending"]
        v: dict[str, Any] = {
            "game": "flagon",
            "phase": s["phase"],
            "options": dict(s["options"]),
            "layout": s["layout"],
            "grid": {"width": s["width"], "height": s["height"]},
            "centre": s["centre"],
            "start_squares": list(s["start"]),
            "tables": [{"id": t, "squares": list(q)} for t, q in sorted(s["tables"].items())],
            "rugs": [{"id": t, "squares": list(q)} for t, q in sorted(s["rugs"].items())],
            "chairs": dict(s["chairs"]),
            "mugs": dict(s["mugs"]),
            "barrels": list(s["barrels"]),
            "prizes": {
                k: {"at": at, "held_by": next((c for c, d in s["chars"].items() if d["held"] == k), None)}
                for k, at in s["prizes"].items()
            },
            "familiar": dict(s["familiar"]) if s["familiar"] else None,
            "barrage": dict(s["barrage"]) if s["barrage"] else None,
            "mark_prey": dict(s["mark"]) if s["mark"] else None,
            "characters": chars,
            "time": {
                "marker": s["marker"],
                "stacks": track,
                "status_tokens": [
                    {"char": st["char"], "card": st["card"], "space": st["at"]} for st in s["statuses"]
                ],
                "game_end": [
                    {
                        "space": t["space"],
                        "revealed": t["revealed"],
                        "guard": t["guard"] if t["revealed"] else None,
                    }
                    for t in s["game_end"]
                ],
            },
            "reputation": {c: d["rep"] for c, d in s["chars"].items()},
            "scores": self.side_scores() if s["chars"] else {},
            "teams": dict(s["teams"]) if s["teams"] else None,
            "active": list(s["actives"]),
            "order": list(s["order"]),
            "acted": list(s["acted"]),
            "planning": self.planners() if s["phase"] == "plan" else [],
            "current": dict(s["current"]) if s["current"] else None,
            "to_act": self.to_act(),
            "pending": {
                "player": pend["player"],
                "verb": pend["verb"],
                "char": pend["about"],
                "acting": pend["char"],
            }
            if pend
            else None,
            "setup": {"next": s["queue"][0][0], "player": self._setup_player()}
            if s["phase"] == "setup"
            else None,
            "removed_reputation": s["removed_rep"],
            "card_names": {k: c.name for k, c in cards.items()},
            "track_spaces": TRACK_SPACES,
            "result": s["result"],
            "late_night": late,
        }
        if s["result"]:
            # The plans still face down when the game ended are shown: nothing is secret any more.
            v["revealed"] = {p: self._plans_left(p, cards) for p in self.players}
        if player is not None and player in self.players:
            mine = {}
            for cid in self.chars_of(player):
                c = s["chars"][cid]
                mine[cid] = {
                    "slots": (["?"] * len(c["slots"])) if late else list(c["slots"]),
                    "deck": r.deck(cid),
                    "under_mat": list(c["mat"]),
                }
            v["me"] = {"player": player, "characters": mine}
            if pend and pend["player"] == player:
                v["me"]["choice"] = {
                    "verb": pend["verb"],
                    "char": pend["about"],
                    "options": list(pend["options"]),
                }
        return v

    def private_summary(self, player: str) -> list[str]:
        return self._plans_left(player, load_cards())

    def _plans_left(self, player: str, cards: dict[str, Any]) -> list[str]:
        """The cards ``player``'s characters had planned but not revealed yet, by name."""
        lines = []
        for cid in self.chars_of(player):
            slots = self.s["chars"][cid]["slots"]
            if slots:
                lines.append(f"{CHARACTER_NAMES[cid]} planned {', '.join(cards[k].name for k in slots)}")
        return lines or ["no card left face down"]

    def _stack_index(self, cid: str) -> int:
        c = self.s["chars"][cid]
        same = sorted((d["seq"], k) for k, d in self.s["chars"].items() if d["token"] == c["token"])
        return [k for _, k in same].index(cid)

    def describe_action(self, player: str, action: str) -> str:
        cards = load_cards()
        parts = action.split(":")
        verb = parts[0]
        if verb == "char":
            return f"Play {CHARACTER_NAMES.get(parts[1], parts[1])}"
        if verb == "start":
            return f"Start on {parts[1]}"
        if verb == "plan" and len(parts) == 4:
            return f"{cname(parts[1])} slot {SLOT_NAMES[int(parts[2]) - 1]}: {cards[parts[3]].name}"[:80]
        if len(parts) == 3:
            who, arg = cname(parts[1]), parts[2]
            special = SPECIAL_LABELS.get((verb, arg))
            if special:
                return f"{who}: {special}"
            if arg in cards:
                arg = cards[arg].name
            elif arg in CHARACTER_NAMES:
                arg = CHARACTER_NAMES[arg]
            return f"{who}: {VERB_LABELS.get(verb, verb)} {arg}"[:80]
        return action[:80]


def _order_text(space: int, order: list[str]) -> str:
    names = [cname(c) for c in order]
    if len(names) == 1:
        return f"Time step {space}: {names[0]} acts."
    return f"Time step {space}: " + ", ".join(names) + " act, in this order."


def _count(sqs: tuple[tuple[int, int], ...]) -> dict[str, int]:
    out: dict[str, int] = {}
    for q in sqs:
        out[G.name(q)] = out.get(G.name(q), 0) + 1
    return out


def new_game(players: list[str], seed: int, **options: Any) -> FlagonGame:
    return FlagonGame.new(players, seed, **options)


__all__ = ["PRIZES", "FlagonGame", "IllegalAction", "new_game"]
