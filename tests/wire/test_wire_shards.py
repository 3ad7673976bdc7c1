"""Shards on the wire: the fake Discord sends each guild's events to the shard that owns it
((guild_id >> 22) % shard_count) and DMs to shard 0; one bot process holding every shard
(SHARD_COUNT, discord.py's AutoShardedBot) serves guilds on all of them. DMs reaching shard 0
of another process: tests/wire/test_wire_two_processes.py."""

from __future__ import annotations

from typing import Any

import discord

from tests.wire.botproc import BotProcess, custom_ids
from tests.wire.fake_discord import FakeDiscord, _Snowflakes, shard_of
from tests.wire.minibot import running


def test_guild_ids_can_be_chosen_per_shard() -> None:
    snowflakes = _Snowflakes()
    ids = [snowflakes.next_in_shard(shard, 3) for shard in (2, 0, 1, 1)]
    assert [shard_of(i, 3) for i in ids] == [2, 0, 1, 1] and ids == sorted(set(ids))


async def test_one_process_holding_both_shards_serves_a_guild_on_each(fake: FakeDiscord, tmp_path: Any) -> None:
    guilds = [fake.create_guild(f"Tavern {shard}", shard=(shard, 2)) for shard in (0, 1)]
    channels = [guild.create_text_channel("games") for guild in guilds]
    alice = fake.create_user("alice")
    for guild in guilds:
        guild.add_member(alice)
    bot = BotProcess(fake, guilds[0].id, tmp_path, shards=([0, 1], 2))
    # discord.py waits 5 s between two IDENTIFYs of one process (Discord's identify limit).
    await bot.start(timeout=40)
    try:
        assert sorted(p["shard"] for p in fake.identify_payloads) == [[0, 2], [1, 2]]
        for shard, channel in enumerate(channels):
            new = await fake.slash(alice, channel, "game new", {"game": "farkle"})
            assert new.shards == [(shard, 2)], "a guild's interaction goes to its shard only"
            await new.wait_followup(timeout=10)
            await fake.wait_message(channel, lambda m: any(c.endswith(":join") for c in custom_ids(m)))
        assert "shards: 0,1 of 2" in bot.log_text()
    finally:
        await bot.stop()
    assert fake.unhandled == [] and bot.error_lines() == []


class InteractionRecorder(discord.AutoShardedClient):
    """A bare client on chosen shards that only records the interactions it receives."""

    def __init__(self, shard_id: int) -> None:
        super().__init__(intents=discord.Intents.default(), shard_ids=[shard_id], shard_count=2)
        self.received: list[int] = []

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.received.append(interaction.id)


async def test_two_processes_split_the_guilds_and_shard_zero_gets_the_dms(fake: FakeDiscord) -> None:
    guild = fake.create_guild("Tavern", shard=(1, 2))
    channel = guild.create_text_channel("games")
    alice = guild.add_member(fake.create_user("alice"))
    shard0, shard1 = InteractionRecorder(0), InteractionRecorder(1)
    async with running(shard0, fake), running(shard1, fake):
        assert fake.identified_shards() == {(0, 2), (1, 2)}
        assert shard1.get_guild(guild.id) is not None and shard0.get_guild(guild.id) is None
        in_guild = await fake.slash(alice, channel, "play", {"action": "x"})
        in_dm = await fake.slash(alice, fake.dm_channel_for(alice), "play", {"action": "x"})
        assert in_guild.shards == [(1, 2)] and in_dm.shards == [(0, 2)]
        await fake.wait_until(lambda: bool(shard0.received and shard1.received), what="both interactions")
        assert shard1.received == [in_guild.id] and shard0.received == [in_dm.id]
