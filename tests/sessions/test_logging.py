"""What an operator asks about is logged at INFO with the game id, under one logger scheme."""

from __future__ import annotations

import logging

from tests.sessions.conftest import ALICE, BOB


def _lines(caplog) -> list[str]:
    ours = [r for r in caplog.records if r.levelno == logging.INFO]
    assert all(r.name.startswith("dragon_tavern.") for r in ours), [r.name for r in ours]
    return [r.getMessage() for r in ours]


async def test_created_started_finished_and_cancelled_are_info_lines(service, caplog):
    caplog.set_level(logging.INFO, logger="dragon_tavern")
    first = await service.create("tally", 1, 10, ALICE, "target=40")
    await service.join(first.id, BOB)
    await service.start(first.id, ALICE)
    await service.resign(first.id, BOB)  # two players: the game is over
    second = await service.create("tally", 1, 11, ALICE, "target=40")
    await service.cancel(second.id, ALICE)
    lines = _lines(caplog)
    assert f"game {first.id} created: tally lobby in guild 1, channel 10" in lines
    assert f"game {first.id} started: tally, 2 seats (0 AI)" in lines
    assert any(line.startswith(f"game {first.id} finished: tally") for line in lines)
    assert any(line.startswith(f"game {second.id} cancelled") for line in lines)


async def test_an_abandoned_game_is_an_info_line(service, clock, caplog):
    from sessions.service import TURN_TIMER

    caplog.set_level(logging.INFO, logger="dragon_tavern")
    await service.change_setting(1, "afk_strikes", 1)
    await service.change_setting(1, "afk_action", "abandon")
    rec = await service.create("tally", 1, 10, ALICE, "target=40")
    await service.join(rec.id, BOB)
    await service.start(rec.id, ALICE)
    clock.now = await service.db.timers.deadline(rec.id, TURN_TIMER)
    await service.on_timer(rec.id, TURN_TIMER)
    assert any(line.startswith(f"game {rec.id} abandoned: seat ") for line in _lines(caplog))
