"""The Dragon & Flagon game object: setup, planning, the time-step loop, persistence. Beside it:
notation and button labels (.notation), the view (.view), team sides (.teams), the start (.setup)."""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from typing import Any, ClassVar, cast

from engine.base import (
    Event,
    Game,
    IllegalAction,
    InvalidSetup,
    OptionSpec,
    Result,
    StateUpgrade,
    check_legal,
    copy_state,
    resolve_options,
)
from engine.flagon import geometry as G
from engine.flagon.cards import CHARACTERS, load_cards
from engine.flagon.events import order_text
from engine.flagon.notation import SLOT_NAMES, FlagonAction, describe
from engine.flagon.options import OPTIONS
from engine.flagon.rules import PRIZES, Ctx, NeedChoice, Rules, cname
from engine.flagon.rules.queries import deck_left, running_statuses
from engine.flagon.setup import initial_state, play_setup
from engine.flagon.view import FlagonView, build_view, plans_left
from engine.rng import Rng

MAX_STEPS = 200  # a safety net; the Town Guard ends every game by space 30


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
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = OPTIONS

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
        return cls(initial_state(players, seed, opts, picks, cls.STATE_VERSION))

    # ================================================================== helpers
    def _rng(self) -> Rng:
        return Rng.from_state(self.s["rng"])

    def chars_of(self, player: str) -> list[str]:
        return [c for c, d in self.s["chars"].items() if d["owner"] == player]

    def need(self, cid: str, running: set[tuple[str, str]] | None = None) -> int:
        """How many more cards ``cid`` must plan now (Chug: three in all; Eyes of Gaia: one)."""
        running = running_statuses(self.s) if running is None else running
        gaia = (cid, "eyes_of_gaia") in running
        want = 3 if (cid, "chug") in running else 1 if gaia else 2
        c = self.s["chars"][cid]
        missing = max(0, want - len(c["slots"]))
        if missing:  # never wait for cards that do not exist (a nearly empty deck)
            avail = [k for k in deck_left(cid, c) if not (gaia and k == c["gaia_last"])]
            missing = min(missing, len(avail))
        return missing

    def cards_to_place(self, cid: str) -> int:
        """How many cards character ``cid`` still places in this planning phase: 0 unless it is
        planning now, else what fills it to two cards (three while it Chugs, one under Eyes of
        Gaia), never more than its deck can give. The UI asks this; it never counts for itself."""
        if self.s["phase"] != "plan" or cid not in self.s["actives"]:
            return 0
        return self.need(cid)

    def planners(self, running: set[tuple[str, str]] | None = None) -> list[str]:
        running = running_statuses(self.s) if running is None else running
        return [c for c in self.s["actives"] if self.need(c, running) > 0]

    # ================================================================== contract
    def to_act(self, planners: list[str] | None = None) -> list[str]:
        """``planners``: :meth:`planners` while planning, when the caller has it already."""
        s = self.s
        if s["result"] is not None:
            return []
        if s["phase"] == "setup":
            return [self._setup_player()]
        if s["pending"]:
            return [s["pending"]["player"]]
        if s["phase"] == "plan":
            owners = {s["chars"][c]["owner"] for c in (self.planners() if planners is None else planners)}
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
        running = running_statuses(s)
        for cid in self.planners(running):
            c = s["chars"][cid]
            if c["owner"] != player:
                continue
            slot = len(c["slots"]) + 1
            gaia = (cid, "eyes_of_gaia") in running
            for k in deck_left(cid, c):
                if gaia and k == c.get("gaia_last"):
                    continue  # not the same card twice in a row
                out.append(f"plan:{cid}:{slot}:{k}")
        return sorted(out)

    def is_private_action(self, player: str, action: str) -> bool:
        return FlagonAction.from_text(action).is_private

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
        events = play_setup(self.s, player, action)
        if self.s["phase"] == "plan":  # every character is in the tavern
            self._begin_step()
        return events

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
                events.append(Event("order", order_text(s["marker"], s["order"]),
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
        self.s = copy_state(snap)
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
        return copy_state(self.s)  # type: ignore[no-any-return]

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FlagonGame:
        return cls(copy_state(cls.upgrade(d)))

    def copy(self) -> FlagonGame:
        """An independent copy: the state is the whole game (no rebuilt objects, no upgrade step)."""
        return type(self)(copy_state(self.s))

    # ------------------------------------------------------------------ views
    def view(self, player: str | None) -> dict[str, Any]:
        return cast("dict[str, Any]", self.typed_view(player))

    def typed_view(self, player: str | None) -> FlagonView:
        """:meth:`view` with its shape (engine.flagon.view.FlagonView), for code that reads it."""
        return build_view(self, player)

    def private_summary(self, player: str) -> list[str]:
        return plans_left(self, player, load_cards())

    def describe_action(self, player: str, action: str) -> str:
        return describe(action)


def new_game(players: list[str], seed: int, **options: Any) -> FlagonGame:
    return FlagonGame.new(players, seed, **options)


__all__ = ["PRIZES", "FlagonGame", "IllegalAction", "new_game"]
