"""A tiny game used as a test double for the platform (the real games have their own tests).

"Tally": players take turns adding 1 or 2 to their own score (public, sequential). With the
option ``secret=on`` each round then has a simultaneous secret pick (`pick:1`..`pick:3`),
revealed when everyone has picked; the highest unique pick scores 2. First to ``target`` wins.
"""

from __future__ import annotations

import re
from typing import Any

from engine import (
    STATE_VERSION_KEY,
    Event,
    Game,
    IllegalAction,
    OptionSpec,
    Result,
    Rng,
    check_legal,
    registry,
)
from engine.registry import GameInfo


class Tally(Game):
    NAME = "tally"
    TITLE = "Tally"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    OPTIONS = (
        OptionSpec("target", 6, "Score that wins", minimum=2, maximum=50),
        OptionSpec("secret", False, "Add a secret simultaneous pick after every round"),
    )
    HIDDEN_INFORMATION = True

    def __init__(self, players: list[str], seed: int, target: int = 6, secret: bool = False) -> None:
        self.players = list(players)
        self.rng = Rng(seed)
        self.target = target
        self.secret = secret
        self.scores = {p: 0 for p in players}
        self.turn = 0
        self.phase = "add"
        self.picks: dict[str, int] = {}
        self.winner: str | None = None

    def to_act(self) -> list[str]:
        if self.winner:
            return []
        if self.phase == "pick":
            return [p for p in self.players if p not in self.picks]
        return [self.players[self.turn]]

    def legal_actions(self, player: str) -> list[str]:
        if player not in self.to_act():
            return []
        if self.phase == "pick":
            return ["pick:1", "pick:2", "pick:3"]
        return ["+1", "+2"]

    def is_private_action(self, player: str, action: str) -> bool:
        return action.startswith("pick:")

    def describe_action(self, player: str, action: str) -> str:
        return {"+1": "Add 1", "+2": "Add 2"}.get(action, f"Secretly pick {action[5:]}")

    def play(self, player: str, action: str) -> list[Event]:
        check_legal(self, player, action)
        events: list[Event] = []
        if self.phase == "pick":
            self.picks[player] = int(action[5:])
            events.append(Event("pick", f"You picked {action[5:]}.", to=player))
            events.append(Event("picked", f"{{{player}}} has picked."))
            if len(self.picks) == len(self.players):
                values = list(self.picks.values())
                unique = [p for p, v in self.picks.items() if values.count(v) == 1]
                reveal = ", ".join(f"{{{p}}} {v}" for p, v in self.picks.items())
                events.append(Event("reveal", f"Picks: {reveal}."))
                if unique:
                    best = max(unique, key=lambda p: self.picks[p])
                    self.scores[best] += 2
                self.picks = {}
                self.phase = "add"
                self._check_win()
            return events
        if action not in ("+1", "+2"):
            raise IllegalAction("Unknown action.")
        self.scores[player] += int(action[1:])
        events.append(Event("add", f"{{{player}}} added {action[1:]}."))
        self._check_win()
        if not self.winner:
            self.turn = (self.turn + 1) % len(self.players)
            if self.turn == 0 and self.secret:
                self.phase = "pick"
        return events

    def _check_win(self) -> None:
        for p in self.players:
            if self.scores[p] >= self.target and self.winner is None:
                self.winner = p

    def view(self, player: str | None) -> dict[str, Any]:
        view: dict[str, Any] = {"scores": dict(self.scores), "phase": self.phase, "to_act": self.to_act(),
                                "picked": sorted(self.picks)}
        if player is not None and player in self.picks:
            view["my_pick"] = self.picks[player]
        return view

    def to_dict(self) -> dict[str, Any]:
        return {STATE_VERSION_KEY: self.STATE_VERSION, "players": self.players, "rng": self.rng.state,
                "target": self.target, "secret": self.secret,
                "scores": self.scores, "turn": self.turn, "phase": self.phase, "picks": self.picks,
                "winner": self.winner}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Tally:
        d = cls.upgrade(d)
        game = cls(d["players"], 0, d["target"], d["secret"])
        game.rng = Rng.from_state(d["rng"])
        game.scores = dict(d["scores"])
        game.turn = d["turn"]
        game.phase = d["phase"]
        game.picks = dict(d["picks"])
        game.winner = d["winner"]
        return game

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def result(self) -> Result | None:
        if self.winner is None:
            return None
        others = sorted((p for p in self.players if p != self.winner), key=lambda p: -self.scores[p])
        return Result(scores=dict(self.scores), ranking=[[self.winner], *[[p] for p in others]],
                      reason=f"{{{self.winner}}} reached {self.target}.")


def new_game(players: list[str], seed: int, **options: Any) -> Tally:
    return Tally(players, seed, **options)


def choose_action(game: Game, player: str, level: str, seed: int) -> str:
    actions = game.legal_actions(player)
    return actions[-1] if level == "hard" else actions[Rng(seed).below(len(actions))]


def secrets(g: Tally, viewer: str | None) -> list[re.Pattern[str]]:
    """Another player's secret pick (shown only to its owner as ``my_pick``)."""
    return [] if viewer is not None and viewer in g.picks else [re.compile('"my_pick"')]


INFO = GameInfo(name="tally", title="Tally", game_class=Tally, new_game=new_game, choose_ai_action=choose_action,
                rules_summary="Add 1 or 2 on your turn; first to the target wins.", secrets=secrets)


def install() -> None:
    """Register Tally with the engine registry and, on Discord, with the generic UI (the
    GameUI base class: one button per action, the generic private select)."""
    from cogs import ui

    registry.register(INFO)
    ui.register(INFO.name, ui.GameUI())
