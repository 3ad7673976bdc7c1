"""Platform bugs the fuzzer found, pinned by a test each."""

from __future__ import annotations

import logging

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
