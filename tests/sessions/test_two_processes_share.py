"""What one process keeps in memory when several share a PostgreSQL database (issue 17): a
server's settings changed by /config in one process reach the others within
``shared_settings_seconds``; games are never kept (each action reads the game afresh), so an
action taken in one process is seen by the next action in the other."""

from __future__ import annotations

from sessions import GameService
from storage import Database
from tests.sessions.conftest import ALICE, BOB


async def test_a_setting_changed_in_one_process_reaches_the_other(pg_url, clock):
    async with (
        await Database.open(pg_url, clock=clock) as db_a,
        await Database.open(pg_url, clock=clock) as db_b,
    ):
        here, there = GameService(db_a, clock=clock), GameService(db_b, clock=clock)
        assert (await there.settings(1))["afk_strikes"] != 1  # read (and kept) before the change
        await here.change_setting(1, "afk_strikes", 1)
        assert (await here.settings(1))["afk_strikes"] == 1
        assert (await there.settings(1))["afk_strikes"] != 1  # kept a little while...
        there.shared_settings_seconds = 0  # ...as if that while had passed
        assert (await there.settings(1))["afk_strikes"] == 1


async def test_a_move_made_in_one_process_is_seen_by_the_next_move_in_the_other(pg_url, clock):
    async with (
        await Database.open(pg_url, clock=clock) as db_a,
        await Database.open(pg_url, clock=clock) as db_b,
    ):
        here, there = GameService(db_a, clock=clock, seed_source=lambda: 7), GameService(db_b, clock=clock)
        rec = await here.create("tally", guild_id=1, channel_id=10, host=ALICE)
        await here.join(rec.id, BOB)
        started = await here.start(rec.id, ALICE)
        actors = {s.seat: ALICE if s.user_id == ALICE.user_id else BOB for s in started.record.seats}
        for turn in range(6):
            service = here if turn % 2 else there  # each move in the other process than the last
            _, game = await service.load(rec.id)
            assert game is not None
            seat = game.to_act()[0]
            await service.apply(rec.id, actors[seat], game.legal_actions(seat)[0])
        assert len(await db_a.log.of_game(rec.id)) == len(await db_b.log.of_game(rec.id)) == 6
