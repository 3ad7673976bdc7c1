"""The engine game of each recently played game, as saved, so the next click copies it instead
of restoring it from its JSON state.

Restoring a game (decode, rebuild every object) was the largest cost of a click after the
database trip. The service keeps the game it just saved, at that saved version, and hands out
copies (``Game.copy``, exact and independent by the engine contract): a kept game is never
changed, so the outcome that shared it with the presenter stays as it was. A version that no
longer matches (another process moved the game on, a resign, a lobby change) is simply not
used: every save raises the version, so a matching version means the same state.

Only games that override ``Game.copy`` for speed are kept: all three do today (Farkle's and
Flagon's states go through orjson, engine.base.copy_state). A copy against a restore from the
saved JSON text (``from_dict(orjson.loads(...))``), the mean over every 15th state of four
seeded random games each: Nine Sons ~7 against ~52 µs, Farkle ~13 against ~21 µs, Flagon ~26
against ~49 µs (a busy 2-core machine, December 2026). The default copy goes through
``to_dict`` / ``from_dict`` and costs about as much as such a restore (58 against 61 µs, 28
against 27, 69 against 64 in one run): a game class that keeps it is not kept.
"""

from __future__ import annotations

from collections import OrderedDict

from engine import Game

CAPACITY = 4096  # games kept; the least recently played leave first


class LiveGames:
    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self._games: OrderedDict[int, tuple[int, Game]] = OrderedDict()

    def copy_at(self, game_id: int, version: int) -> Game | None:
        """A copy of the kept game if it is the one saved at ``version``, else None."""
        kept = self._games.get(game_id)
        if kept is None or kept[0] != version:
            return None
        self._games.move_to_end(game_id)
        return kept[1].copy()

    def keep(self, game_id: int, version: int, game: Game) -> None:
        """``game`` was just saved at ``version``; the caller must not change it afterwards."""
        if game.is_over or type(game).copy is Game.copy:  # nothing more to play, or no faster
            self._games.pop(game_id, None)
            return
        self._games[game_id] = (version, game)
        self._games.move_to_end(game_id)
        while len(self._games) > self.capacity:
            self._games.popitem(last=False)

    def __len__(self) -> int:
        return len(self._games)
