"""Asking for choices in the middle of a card: :class:`Ctx` replays known answers and raises
:class:`NeedChoice` for the first unknown one (see the package docstring for why)."""

from __future__ import annotations

from typing import Any


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
