"""The game a click saved is kept and copied for the next click instead of restored from its
state (sessions.live, issue 17): the next click starts from exactly the saved game, the board a
click handed out never changes afterwards, and a game moved on elsewhere is restored afresh."""

from __future__ import annotations

import pytest

from cogs.plugins import load_plugins
from engine import Game, registry
from sessions import Actor, GameService
from sessions.live import LiveGames
from tests.sessions.conftest import ALICE, BOB

load_plugins(ui=False)


class CountingRestore:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        original = registry.restore

        def restore(kind, state):
            self.calls += 1
            return original(kind, state)

        monkeypatch.setattr(registry, "restore", restore)


async def ninesons(service: GameService) -> tuple[int, dict[str, Actor]]:
    rec = await service.create("ninesons", guild_id=1, channel_id=10, host=ALICE)
    await service.join(rec.id, BOB)
    out = await service.start(rec.id, ALICE)
    return rec.id, {s.seat: ALICE if s.user_id == ALICE.user_id else BOB for s in out.record.seats}


async def test_clicks_after_the_start_copy_the_kept_game_and_match_the_saved_state(service, monkeypatch):
    game_id, actors = await ninesons(service)
    restores = CountingRestore(monkeypatch)
    boards = []
    for _ in range(12):
        _, game = await service.load(game_id)
        assert game is not None
        seat = game.to_act()[0]
        outcome = await service.apply(game_id, actors[seat], game.legal_actions(seat)[-1])
        assert outcome.game is not None
        boards.append((outcome.game, outcome.game.to_dict()))
    assert restores.calls == 0  # neither the clicks nor the loads restored the game
    # The kept game equals what the database holds (restored the slow way, for the check).
    rec = await service.db.games.load(game_id)
    assert registry.restore("ninesons", rec.state).to_dict() == boards[-1][0].to_dict()
    # Every board handed out is still the game as it was at its click.
    for game, state in boards:
        assert game.to_dict() == state


async def test_a_game_moved_on_by_another_service_is_restored_not_copied(database, clock, monkeypatch):
    here = GameService(database, clock=clock, seed_source=lambda: 7)
    there = GameService(database, clock=clock)  # stands for another process on the same database
    game_id, actors = await ninesons(here)
    _, game = await there.load(game_id)
    assert game is not None
    seat = game.to_act()[0]
    await there.apply(game_id, actors[seat], game.legal_actions(seat)[0])
    restores = CountingRestore(monkeypatch)
    _, game = await here.load(game_id)  # here kept the game at the start: one move behind
    assert game is not None and restores.calls == 1
    assert len(game.to_dict()["log"]) == 1
    seat = game.to_act()[0]
    outcome = await here.apply(game_id, actors[seat], game.legal_actions(seat)[0])
    assert outcome.game is not None and len(outcome.game.to_dict()["log"]) == 2


def test_only_games_with_a_faster_copy_are_kept():
    live = LiveGames()
    farkle_class = registry.get("farkle").game_class

    class DefaultCopyFarkle(farkle_class):  # type: ignore[misc,valid-type]
        copy = Game.copy

    slow = DefaultCopyFarkle.from_dict(registry.get("farkle").new_game(["p1", "p2"], 1).to_dict())
    live.keep(1, 5, slow)  # the default copy (to_dict / from_dict) costs about a restore: not kept
    assert live.copy_at(1, 5) is None and len(live) == 0
    farkle = registry.get("farkle").new_game(["p1", "p2"], 1)  # copies its state through orjson
    live.keep(3, 5, farkle)
    kept = live.copy_at(3, 5)
    assert kept is not None and kept is not farkle and kept.to_dict() == farkle.to_dict()
    nine = registry.get("ninesons").new_game(["p1", "p2"], 1)
    live.keep(2, 5, nine)
    copied = live.copy_at(2, 5)
    assert copied is not None and copied is not nine and copied.to_dict() == nine.to_dict()
    assert live.copy_at(2, 6) is None  # another version: not this game any more
