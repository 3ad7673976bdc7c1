"""Events in the outbox (storage) are announced later, maybe by a newer bot: an event queued
before it carried structured ``data`` still loads and shows on the board (issue 24)."""

from __future__ import annotations

from typing import Any

from tests.bot.helpers import last_board, table_world, texts_of


async def _flagon_with_queued(env, bot, rows: list[dict[str, Any]]) -> tuple[str, str]:
    """A started two-player Flagon game with ``rows`` queued in its outbox and delivered; returns
    the board's text and the display name of seat p1."""
    _, channel, m = table_world(env, bot)
    await m["alice"].slash(channel, "game new", game="flagon")
    await m["bob"].click(last_board(channel), label="Join")
    await m["alice"].click(last_board(channel), label="Start")
    rec, _ = await bot.service.load(1)
    await bot.db.outbox.queue(rec.id, rows)
    await bot.outbox.deliver(rec.id)
    p1 = "alice" if rec.seat("p1").user_id == m["alice"].user.id else "bob"
    return texts_of(last_board(channel)), p1


async def test_flagon_events_queued_without_data_by_an_older_bot_are_shown_on_the_board(
    simcord_env, simcord_bot
):
    # As an older bot wrote them: a card reveal and its token move, with no "data" key at all.
    old_rows: list[dict[str, Any]] = [
        {"kind": "reveal", "text": "{p1}'s Nari reveals Backstab.", "to": None},
        {"kind": "token", "text": "Nari faces E; time token moves 2 to space 5.", "to": None},
    ]
    board, p1 = await _flagon_with_queued(simcord_env, simcord_bot, old_rows)
    assert f"{p1}'s Nari reveals Backstab." in board
    assert "Nari faces E; time token moves 2 to space 5." in board


async def test_flagon_events_with_data_fold_into_one_recent_line(simcord_env, simcord_bot):
    rows: list[dict[str, Any]] = [
        {"kind": "reveal", "text": "reworded", "to": None, "data": {"owner": "p1", "char": "nari", "card": "backstab"}},
        {"kind": "token", "text": "reworded too", "to": None,
         "data": {"char": "nari", "facing": "E", "cost": 2, "space": 5}},
    ]  # fmt: skip
    board, p1 = await _flagon_with_queued(simcord_env, simcord_bot, rows)
    assert f"{p1}'s Nari — Backstab · faces E, +2 time → 5" in board
    assert "reworded" not in board
