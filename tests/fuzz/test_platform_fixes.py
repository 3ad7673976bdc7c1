"""Bugs the fuzzer found (platform and game UI), pinned by a test each."""

from __future__ import annotations

import logging

from cogs.plugins import load_plugins
from engine.farkle import FarkleGame
from tests.bot.helpers import private_replies


async def test_play_in_a_dm_with_an_unknown_game_number_says_so(simcord_env, caplog):
    # Found by the fuzzer: `/play game:999999` answered "The game could not be saved right
    # now" and logged a storage error, as if the database had failed.
    guild = simcord_env.create_guild()
    alice = guild.add_member(simcord_env.create_user("alice"))
    with caplog.at_level(logging.INFO):
        result = await alice.user.slash("play", action="recruit", game=999999)
    assert private_replies(result) == ["⚠️ There is no game #999999."]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_farkle_defender_ping_after_an_earlier_brawl_in_the_same_outcome():
    # Found by the fuzzer: AI seats played a whole Brawl (its attack_done event) and then the
    # next player brawled a human, all in one outcome; the ping read the new Brawl's attack
    # score, which is None until the attacker banks: TypeError, the board was never updated
    # and the player was told "Something went wrong ... Nothing was changed" after a saved move.
    from cogs.ui import farkle as farkle_ui
    from engine import Event, registry
    from storage import GameRecord, SeatRecord

    load_plugins(ui=False)
    game = registry.get("farkle").new_game(["p1", "p2"], 5, first_player="lobby")
    assert isinstance(game, FarkleGame)
    new_brawl = game.play("p1", "brawl:p2")  # p2 holds an item: they may react first
    assert game.view(None)["attack_score"] is None and game.to_act() == ["p2"]
    seats = [SeatRecord(seat="p1", position=0, user_id=None, ai_level="easy", display_name="AI"),
             SeatRecord(seat="p2", position=1, user_id=42, ai_level=None, display_name="bob")]
    rec = GameRecord(id=1, kind="farkle", guild_id=1, channel_id=2, host_user_id=42, status="active",
                     options={}, seed=5, state=None, version=3, board_message_id=None, result=None,
                     created_at=0.0, updated_at=0.0, seats=seats)
    earlier = Event("attack_done", "{p2}'s Brawl attack score is 300. {p1} defends.")
    text = farkle_ui.announce(rec, game, [earlier, *new_brawl])
    assert text is not None and "{@p2}" in text and "brawls with you" in text


async def test_the_bots_timers_wait_for_the_fuzzers_clock(tmp_path):
    # Found by the fuzzer (Farkle seed 6, step 794, "bot did not settle while advancing time"):
    # with turn_timeout 30 s (the shortest an admin may set) the reminder was due in 15 s, inside
    # simcord's 30 s settle window, so each step waited for it on the wall clock; a timer due near
    # the end of a step's window started an AI turn for the late seat that could not end inside
    # it. The fuzzer's timers now fire only when it moves time; the bot was not at fault.
    import time

    import simcord

    from tests.fuzz.fuzzer import Fuzzer, VirtualDeadlines
    from tests.fuzz.run import SETTLE_SECONDS, build_world, fuzz_bot

    deadlines = VirtualDeadlines()
    bot = fuzz_bot(tmp_path / "fuzz.sqlite3", deadlines)
    try:
        async with simcord.run(bot, settle_timeout=SETTLE_SECONDS) as env:
            deadlines.env = env
            guild, channel, other, members = build_world(env)
            fuzzer = Fuzzer(env, bot, guild, channel, other, members, kind="farkle", seed=6)
            await members["admin"].slash(channel, "config set", setting="turn_timeout.farkle", value="30")
            game_id = await fuzzer.open_game()
            timers = {purpose for gid, purpose, _ in await bot.service.db.timers.pending() if gid == game_id}
            assert timers == {"remind", "turn"}  # before: the reminder (15 s) had fired on the wall clock
            started, began = env.now(), time.perf_counter()
            result = await members["alice"].slash(channel, "game status")
            assert "The board is below." in (result.response.content or "")
            assert time.perf_counter() - began < 10  # was 15 s and more: the reminder's wall-clock wait
            assert env.now() == started  # no timer fired on its own
            assert not [a for a in await bot.service.db.log.of_game(game_id) if a.source == "timeout"]
            await env.advance_time(31)  # the fuzzer moves time: the turn runs out, the AI acts for the seat
            assert [a for a in await bot.service.db.log.of_game(game_id) if a.source == "timeout"]
            env.errors  # noqa: B018 - inspected: the fuzzer's churn sends refused clicks on purpose
    finally:
        await bot.close()
