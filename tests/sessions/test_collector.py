"""The bot's process collects garbage in larger batches and never walks what start-up built
(sessions.collector; bench.discord_scale measured the CPU and the click-to-board p99)."""

from __future__ import annotations

import gc

from sessions.collector import THRESHOLDS, freeze_startup_objects, tune_collector


def test_start_up_tunes_the_collector_and_freezes_what_exists():
    before = gc.get_threshold()
    try:
        tune_collector()
        assert gc.get_threshold() == THRESHOLDS
        kept_alive = [object() for _ in range(10)]  # noqa: F841 (exists at the freeze)
        freeze_startup_objects()
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_the_bot_tunes_its_collector_before_it_connects():
    import inspect

    import bot

    source = inspect.getsource(bot.main)
    assert source.index("tune_collector()") < source.index("bot.run(")
    assert source.index("freeze_startup_objects()") < source.index("bot.run(")
