"""save_game in one trip (issue 17): timers saved with the game, the version check, and JSON
columns through orjson with the standard library behind it."""

from __future__ import annotations

import math

import pytest

from storage import ActionRow, Database, SeatRecord, VersionConflict
from storage.records import decode_json, encode_json
from tests.storage.records import new_game, seat


async def test_timers_are_set_and_removed_with_the_save(tmp_path):
    async with await Database.open(tmp_path / "db.sqlite3") as db:
        rec = await new_game(db, seats=[seat(1, 100), seat(2, 200)])
        v1 = await db.games.save(
            rec.id,
            rec.version,
            state={"n": 1},
            actions=[ActionRow("p1", "+1")],
            timers={"turn": 100.0, "remind": 50.0},
        )
        assert await db.timers.deadline(rec.id, "turn") == 100.0 and await db.timers.deadline(rec.id, "remind") == 50.0
        v2 = await db.games.save(rec.id, v1, state={"n": 2}, timers={"turn": 200.0, "remind": None})
        assert await db.timers.deadline(rec.id, "turn") == 200.0 and await db.timers.deadline(rec.id, "remind") is None
        # clear_timers first, then the new deadlines: only those remain.
        await db.timers.set(rec.id, "lobby", 5.0)
        await db.games.save(rec.id, v2, clear_timers=True, timers={"turn": 300.0})
        assert sorted((p, d) for g, p, d in await db.timers.pending() if g == rec.id) == [("turn", 300.0)]


async def test_a_stale_version_writes_nothing_at_all(tmp_path):
    async with await Database.open(tmp_path / "db.sqlite3") as db:
        rec = await new_game(db, seats=[seat(1, 100), seat(2, 200)])
        v1 = await db.games.save(
            rec.id,
            rec.version,
            state={"n": 1},
            actions=[ActionRow("p1", "+1")],
            announce=[{"kind": "x"}],
            timers={"turn": 100.0},
        )
        pending = len(await db.outbox.pending(rec.id))
        with pytest.raises(VersionConflict):
            await db.games.save(
                rec.id,
                rec.version,
                state={"n": 9},
                actions=[ActionRow("p2", "+9")],
                announce=[{"kind": "y"}],
                timers={"turn": 999.0},
                seats=[seat(1, 100)],
            )
        loaded = await db.games.load(rec.id)
        assert loaded.version == v1 and loaded.state == {"n": 1}
        assert [s.seat for s in loaded.seats] == ["p1", "p2"]
        assert [a.action for a in await db.log.of_game(rec.id)] == ["+1"]
        assert len(await db.outbox.pending(rec.id)) == pending
        assert await db.timers.deadline(rec.id, "turn") == 100.0


async def test_the_game_loads_with_its_seats_in_position_order(tmp_path):
    async with await Database.open(tmp_path / "db.sqlite3") as db:
        rec = await new_game(db, seats=[seat(1, 100), seat(2, 200)])
        moved = [
            SeatRecord(seat="p2", position=0, user_id=200, ai_level=None, display_name="b"),
            SeatRecord(
                seat="p1",
                position=1,
                user_id=100,
                ai_level=None,
                display_name="a",
                timeouts_in_a_row=2,
                private_route="dm",
            ),
        ]
        await db.games.save(rec.id, rec.version, seats=moved)
        loaded = await db.games.load(rec.id)
        assert loaded.seats == moved


def test_json_columns_round_trip_what_the_standard_library_wrote():
    big = {"seed": 2**70, "nan": math.nan, "keys": {1: "one"}}
    text = encode_json(big)  # orjson refuses the 70-bit integer: the standard library writes it
    back = decode_json(text)
    assert back["seed"] == 2**70 and math.isnan(back["nan"]) and back["keys"] == {"1": "one"}
    assert encode_json({"a": [1, 2], 3: None}) == '{"a":[1,2],"3":null}'
    assert decode_json('{"x":NaN}')["x"] != decode_json('{"x":NaN}')["x"]  # older rows with NaN still load
