"""The sandbox's world (cogs/sandbox.py) without a browser: what `python bot.py --sandbox` builds,
and that its games survive a restart."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from bot import create_bot
from tests.bot.helpers import texts_of

pytest.importorskip("linkify_it", reason='simcord\'s Preview is not installed (pip install -e ".[test]")')

from cogs import sandbox


def lobby_of(world: sandbox.SandboxWorld):
    return next(
        m for m in reversed(world.table.history()) if m.embeds and "lobby" in (m.embeds[0].title or "")
    )


async def test_the_world_its_page_its_setting_and_a_game_across_a_restart(tmp_path):
    database = tmp_path / sandbox.SANDBOX_DATABASE
    async with sandbox.open_sandbox(create_bot(database_path=database)) as world:
        assert world.url.startswith("http://127.0.0.1:") and "#" in world.url  # loopback, with its key
        assert set(world.members) == {"alice", "bob", "carol", "innkeeper"}
        assert set(world.guild.channels) >= {"tavern", "back-room"}
        ids = (world.guild.id, world.table.id, *(member.id for member in world.members.values()))
        # the simulated clock is the wall clock (turn timers and <t:…:R> run on real time)
        assert abs((world.env.now() - datetime.now(UTC)).total_seconds()) < 30
        settings = await world.admin.slash(world.table, "config show")
        assert "hidden_pick_mode" in texts_of(settings.response) and "ephemeral" in texts_of(
            settings.response
        )
        # the page presents one channel: games stay in it rather than in threads of their own
        assert re.search(r"game_threads\W+off", texts_of(settings.response))
        alice, bob = world.members["alice"], world.members["bob"]
        await alice.slash(world.table, "game new", game="ninesons")
        await bob.click(lobby_of(world), label="Join")
        await alice.click(lobby_of(world), label="Start")
        assert world.url in sandbox.banner(world, str(database))

    async with sandbox.open_sandbox(create_bot(database_path=database)) as world:
        # the same server, channels and members: the saved game still belongs to them
        assert (world.guild.id, world.table.id, *(m.id for m in world.members.values())) == ids
        assert world.table.history() == []  # Discord's side is new
        status = await world.members["alice"].slash(world.table, "game status")  # commands synced again
        board = world.table.history()[-1] if world.table.history() else None
        assert board is not None and "The Nine Sons of the Dragon" in texts_of(board), texts_of(
            status.response
        )
