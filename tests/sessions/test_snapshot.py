"""One snapshot per delivery (issue 24): everything a board, a ping and a seat message are drawn from,
loaded once; what this process saved itself (the move count, the turn deadline a move saved
with itself) is not read back, and what another process saved is."""

from __future__ import annotations

from sessions import GameService
from sessions.service import TURN_TIMER
from tests.sessions.conftest import ALICE, BOB


async def started(service: GameService, options: str = "") -> int:
    rec = await service.create("tally", guild_id=1, channel_id=10, host=ALICE, options_text=options)
    await service.join(rec.id, BOB)
    return (await service.start(rec.id, ALICE)).record.id


async def test_a_snapshot_holds_what_the_board_shows(service, clock):
    game_id = await started(service)
    await service.apply(game_id, ALICE, "+1")
    snap = await service.snapshot(game_id)
    timeout = (await service.settings(1)).turn_timeout("tally")
    assert snap.running and snap.game is not None and snap.game.to_act() == ["p2"]
    assert snap.moves_played == 1
    assert snap.deadline == clock.now + timeout == await service.db.timers.deadline(game_id, TURN_TIMER)
    assert snap.settings is await service.settings(1) and snap.pending == []


async def test_the_moves_and_deadline_this_process_saved_are_not_read_back(service, clock, monkeypatch):
    game_id = await started(service)
    await service.snapshot(game_id)  # read once: the count at the start
    clock.now += 60
    await service.apply(game_id, ALICE, "+1")
    await service.apply(game_id, BOB, "+2")

    async def not_read(*args, **kwargs):
        raise AssertionError("read back what this process saved")

    monkeypatch.setattr(service.db.log, "of_game", not_read)
    monkeypatch.setattr(service.db.timers, "deadline", not_read)
    snap = await service.snapshot(game_id)
    assert snap.moves_played == 2
    assert snap.deadline == clock.now + (await service.settings(1)).turn_timeout("tally")


async def test_what_another_process_saved_is_read(service, database, clock):
    game_id = await started(service)
    await service.snapshot(game_id)
    await service.apply(game_id, ALICE, "+1")
    other = GameService(database, clock=clock)  # another process on the same database
    clock.now += 90
    await other.apply(game_id, BOB, "+2")
    snap = await service.snapshot(game_id)
    assert snap.moves_played == 2  # not the 1 this process counted at its own version
    assert (
        snap.deadline
        == await database.timers.deadline(game_id, TURN_TIMER)
        == clock.now + (await service.settings(1)).turn_timeout("tally")
    )


async def test_a_private_choice_is_not_counted_as_a_move(service):
    game_id = await started(service, "secret=on")
    await service.snapshot(game_id)
    await service.apply(game_id, ALICE, "+1")
    await service.apply(game_id, BOB, "+1")  # the round is over: both pick in secret now
    _, game = await service.load(game_id)
    assert game is not None and sorted(game.to_act()) == ["p1", "p2"]
    await service.apply(
        game_id, ALICE, next(a for a in game.legal_actions("p1") if game.is_private_action("p1", a))
    )
    assert [a.seat for a in await service.db.log.of_game(game_id)] == ["p1", "p2", "p1"]
    assert (await service.snapshot(game_id)).moves_played == 2
