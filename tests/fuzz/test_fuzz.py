"""Seeded interaction fuzzing of every game (300 steps each here; 5,000 with
``python -m tests.fuzz.run``), and proof that the leak scan catches a leak when there is one."""

from __future__ import annotations

import asyncio
import logging
import threading

import aiosqlite
import pytest

from bot import create_bot
from cogs.announcer import Announcer
from engine.farkle.game import FarkleGame
from tests.fuzz import fuzzer as fuzzer_module
from tests.fuzz.fuzzer import Fuzzer, name_pattern
from tests.fuzz.run import build_world, fuzz_game

STEPS = 300


async def fuzz(env, bot, kind: str, steps: int, seed: int = 3) -> Fuzzer:
    guild, channel, other, members = build_world(env)
    fuzzer = Fuzzer(env, bot, guild, channel, other, members, kind=kind, seed=seed,
                    bot_factory=lambda: create_bot(database_path=bot.database_path))
    await fuzzer.run(steps)
    return fuzzer


@pytest.mark.parametrize("kind", ["farkle", "ninesons", "flagon"])
async def test_fuzzed_game_stays_sound(simcord_env, simcord_bot, kind):
    fuzzer = await fuzz(simcord_env, simcord_bot, kind, STEPS)
    stats = fuzzer.stats
    assert stats.failures == []  # no swallowed error, 💥 reply, unacknowledged click or broken invariant
    assert stats.leaks == []
    assert stats.steps == STEPS and stats.invariant_checks >= STEPS // 25
    if kind != "flagon":  # a Flagon game can outlast 300 steps; it is finished below
        assert stats.games_finished >= 1  # the valid moves really drive games to their end
    assert stats.refused > 0 and stats.interactions > STEPS // 2  # the invalid half was exercised too
    if kind != "ninesons":  # games with hidden information: secrets were tracked and messages read
        assert stats.secrets_seen and stats.messages_scanned > 0
    assert await fuzzer.finish_current_game()  # after all that, the game can still be finished
    assert fuzzer.stats.failures == []
    assert simcord_env.errors == []


async def test_same_seed_same_run(simcord_env, simcord_bot):
    # Two fuzzers with one seed, each in its own fresh guild, make exactly the same moves.
    first = await fuzz(simcord_env, simcord_bot, "farkle", 120, seed=11)
    # The second run drives the bot that is running now (the first may have restarted it).
    second = await fuzz(simcord_env, first.bot, "farkle", 120, seed=11)
    db = second.bot.service.db  # the latest bot: the fuzzer may have restarted it
    assert len(first.game_ids) == len(second.game_ids) >= 2
    # The last game of the first run is left out: it was still running while the second run
    # advanced the (shared) virtual clock, so its turn timer may have fired.
    for a, b in zip(first.game_ids[:-1], second.game_ids[:-1], strict=True):
        moves_a = [(m.seat, m.action, m.source) for m in await db.log.of_game(a)]
        moves_b = [(m.seat, m.action, m.source) for m in await db.log.of_game(b)]
        assert moves_a == moves_b and moves_a
    assert first.stats.kinds == second.stats.kinds and first.stats.refused == second.stats.refused


async def test_leak_scan_catches_items_on_the_public_board(simcord_env, simcord_bot, monkeypatch):
    # A broken view(None) that hands spectators p1's hand: the board then names p1's items.
    original = FarkleGame.view
    monkeypatch.setattr(FarkleGame, "view", lambda self, player: original(self, player or "p1"))
    fuzzer = await fuzz(simcord_env, simcord_bot, "farkle", 40)
    assert any(" public " in leak for leak in fuzzer.stats.leaks), fuzzer.stats.leaks


async def test_leak_scan_catches_items_in_info_logs(simcord_env, simcord_bot, monkeypatch):
    log = logging.getLogger("dragon_tavern.chatty")
    original = Announcer.after_change

    async def chatty_after_change(self, outcome):
        if outcome.game is not None and not outcome.game.is_over:
            log.info("p1 holds %s", [i["name"] for i in outcome.game.view("p1").get("my_items", [])])
        await original(self, outcome)

    monkeypatch.setattr(Announcer, "after_change", chatty_after_change)
    fuzzer = await fuzz(simcord_env, simcord_bot, "farkle", 40)
    assert any(" log " in leak for leak in fuzzer.stats.leaks), fuzzer.stats.leaks


def test_name_pattern_does_not_match_inside_a_longer_name():
    names = {"Move", "Move (2nd copy)", "Charge"}
    assert not name_pattern("Move", names).search("Sir Goodheart — Move (2nd copy)")
    assert name_pattern("Move", names).search("Sir Goodheart — Move, then Charge")
    assert not name_pattern("Charge", names).search("Recharge")


async def test_scan_catches_unescaped_names(simcord_env, simcord_bot, monkeypatch):
    # Names shown raw: the hostile name's mention, @everyone and code fence reach the board.
    import render.text

    monkeypatch.setattr(render.text, "shown_name", lambda raw, form="markdown": raw)
    fuzzer = await fuzz(simcord_env, simcord_bot, "farkle", 30)
    assert any("unescaped" in failure for failure in fuzzer.stats.failures), fuzzer.stats.failures
    simcord_env.errors  # noqa: B018 - inspected


async def test_scan_catches_unintended_pings(simcord_env, simcord_bot, monkeypatch):
    # A ping that also allows (and pings) a member who is not seated.
    import cogs.pings

    original = cogs.pings.fill_mentions
    guild_members: list[int] = []

    def loud(template, rec, names):
        content, pinged = original(template, rec, names)
        return f"{content} <@{guild_members[0]}>", [*pinged, guild_members[0]]

    monkeypatch.setattr(cogs.pings, "fill_mentions", loud)
    guild, channel, other, members = build_world(simcord_env)
    guild_members.append(members["carol"].id)
    fuzzer = Fuzzer(simcord_env, simcord_bot, guild, channel, other, members, kind="farkle", seed=3)
    await fuzzer.run(150)
    assert any("pinged" in failure for failure in fuzzer.stats.failures), fuzzer.stats.failures
    assert any("allows users" in failure for failure in fuzzer.stats.failures), fuzzer.stats.failures


def test_over_limits_names_each_excess():
    from types import SimpleNamespace

    from tests.fuzz.fuzzer import over_limits

    message = SimpleNamespace(
        content="c" * 2001,
        embeds=[{"title": "t" * 257, "fields": [{"name": "n", "value": "v" * 1025}] * 26}],
        components=[{"type": 1, "components": [{"type": 2, "label": "b" * 81},
                                               {"type": 3, "options": [{"label": "o" * 101, "value": "v"}] * 26}]}],
    )
    problems = " | ".join(over_limits(message))
    for expected in ("content of 2001", "embed title of 257", "26 embed fields", "value of 1025", "embeds of",
                     "button label", "select of 26 options", "select option label of 101"):
        assert expected in problems, problems


async def test_a_restart_closes_the_database_of_the_bot_it_replaces(simcord_env, simcord_bot, monkeypatch):
    monkeypatch.setitem(fuzzer_module.KINDS, "restart", 20)  # restarts are rare (0.2 %) in a normal run
    fuzzer = await fuzz(simcord_env, simcord_bot, "ninesons", 40)
    assert fuzzer.stats.kinds["restart"] >= 2
    assert len(fuzzer.retired_databases) == fuzzer.stats.kinds["restart"]
    assert all(db._closed for db in fuzzer.retired_databases)
    assert fuzzer.stats.failures == []


def test_the_fuzz_runner_leaves_no_database_thread_behind(tmp_path, monkeypatch):
    """``python -m tests.fuzz.run`` printed its figures and then never exited: the bots a restart
    replaced kept their aiosqlite threads (non-daemon) alive. Every bot of a run is closed now."""
    monkeypatch.setitem(fuzzer_module.KINDS, "restart", 20)
    before = set(threading.enumerate())
    stats, _ = asyncio.run(fuzz_game("ninesons", 40, 3, tmp_path / "fuzz.sqlite3"))
    assert stats.kinds["restart"] >= 2
    left = [t for t in threading.enumerate() if t not in before and isinstance(t, aiosqlite.Connection)]
    for thread in left:
        thread.join(timeout=5)
    assert not [t for t in left if t.is_alive()]


def test_a_fuzz_run_that_stops_on_an_exception_still_exits(tmp_path, monkeypatch):
    """A step that raised (Farkle seed 6 stopped on simcord's TimeoutError) skipped closing the
    bot: the traceback was printed and the process then waited for ever on its database thread."""
    original = Fuzzer.step

    async def step_then_stop(self, kind):
        if self.stats.steps == 5:
            raise TimeoutError("bot did not settle while advancing time")
        await original(self, kind)

    monkeypatch.setattr(Fuzzer, "step", step_then_stop)
    before = set(threading.enumerate())
    with pytest.raises(TimeoutError):
        asyncio.run(fuzz_game("ninesons", 40, 3, tmp_path / "fuzz.sqlite3"))
    left = [t for t in threading.enumerate() if t not in before and not t.daemon]  # any would hold the exit
    for thread in left:
        thread.join(timeout=5)
    assert not [t for t in left if t.is_alive()]
