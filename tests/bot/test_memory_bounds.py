"""Issue 23, memory: maps the bot keeps per game are bounded or emptied (a map that only grows
is a leak; bench/lobby_memory.py measures them over 10,000 lobbies)."""

from __future__ import annotations

from tests.bot.helpers import last_board, private_replies
from tests.bot.test_member_gone import world  # noqa: F401 (fixture)


async def test_the_board_images_kept_in_memory_are_bounded(world):  # noqa: F811
    """The last board image of every game drawn was kept for ever (~25 KiB a game); only the
    most recently drawn games' are kept now, and so are the uploaded pictures' attachments."""
    env, guild, channel, m = world
    env.bot.presenter._images.size = 3
    env.bot.presenter._pictures.size = 3
    for _ in range(6):
        await m["alice"].slash(channel, "game new", game="ninesons")
        await m["bob"].click(last_board(channel), label="Join")
        await m["alice"].click(last_board(channel), label="Start")
        assert last_board(channel).embeds[0].image  # a board picture was drawn
        await m["bob"].slash(channel, "game resign")
    assert len(env.bot.presenter._images) == 3
    assert len(env.bot.presenter._pictures) == 3


async def test_a_retried_announcement_leaves_no_task_behind(world):  # noqa: F811
    env, guild, channel, m = world
    await m["alice"].slash(channel, "game new", game="tally")
    await m["bob"].click(last_board(channel), label="Join")
    await m["alice"].click(last_board(channel), label="Start")
    # The click's own response carries the board edit, and the channel edit is its fallback:
    # both fail once.
    env.inject_error("PATCH", "/webhooks/*/messages/@original", status=500, times=1)
    env.inject_error("PATCH", f"/channels/{channel.id}/messages/*", status=500, times=1)
    result = await m["alice"].click(last_board(channel), label="Add 1")
    assert any("could not be updated just now" in r for r in private_replies(result))
    assert 1 in env.bot.outbox._retries
    await env.advance_time(16)  # the first retry goes out
    assert env.bot.outbox.behind == set() and env.bot.outbox._retries == {}
