"""The real Dragon Tavern bot (bot.create_bot) over the wire against the loopback fake.

Two smoke paths: in-process, ``/game new`` posts a lobby message with buttons and a Join
click from another member is acknowledged and shows up on the lobby; out of process,
the real bot via ``python -m tests.wire.launch_bot`` (pointed at the fake by DT_FAKE_DISCORD_URL) is killed with SIGKILL after
posting a lobby and a restarted process answers Join on it. The lobby needs no game logic, so
it uses whichever built-in game is registered first (servers only enable built-in games).
"""

from __future__ import annotations

import json
from pathlib import Path

from bot import create_bot
from cogs.plugins import load_plugins
from engine import registry
from sessions.settings import GAME_KINDS
from tests.wire.botproc import BotProcess
from tests.wire.fake_discord import (
    CALLBACK_DEFERRED_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_UPDATE_MESSAGE,
    FLAG_EPHEMERAL,
    FakeDiscord,
)
from tests.wire.minibot import running


def _custom_ids(message: dict) -> list[str]:
    return [item.get("custom_id", "") for row in message["components"] for item in row.get("components", [])]


async def test_real_bot_game_new_posts_lobby_and_join_is_answered(fake: FakeDiscord, tmp_path: Path) -> None:
    load_plugins(ui=False)
    known = {info.name for info in registry.all_games()}
    kind = next(k for k in GAME_KINDS if k in known)
    guild = fake.create_guild("Tavern")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(fake.create_user("alice"))
    bob = guild.add_member(fake.create_user("bob"))
    bot = create_bot(database_path=tmp_path / "wire.sqlite3", dev_guild_id=guild.id)
    async with running(bot, fake):
        # setup_hook synced the commands to the dev guild over REST.
        [sync] = fake.find_requests("PUT", f"/applications/{fake.application_id}/guilds/{guild.id}/commands")
        assert {"game", "play"} <= {c["name"] for c in sync.json}

        # The game option autocompletes from the registry over the wire.
        typing = await fake.autocomplete(alice, channel, "game new", {"game": kind[:4]}, focused="game")
        choices = (await typing.wait_callback()).json["data"]["choices"]
        assert kind in [c["value"] for c in choices]

        new = await fake.slash(alice, channel, "game new", {"game": kind})
        callback = await new.wait_callback()
        assert callback.json["type"] == CALLBACK_DEFERRED_CHANNEL_MESSAGE
        lobby = await fake.wait_message(channel, lambda m: any(":join" in c for c in _custom_ids(m)))
        labels = [
            item["label"] for row in lobby["components"] for item in row["components"] if "label" in item
        ]
        assert "Join" in labels and "Start" in labels
        followup = await new.wait_followup()
        assert "Lobby #" in followup["content"] and followup["flags"] & FLAG_EPHEMERAL

        join_id = next(c for c in _custom_ids(lobby) if c.endswith(":join"))
        click = await fake.click(bob, lobby, join_id)
        callback = await click.wait_callback()
        assert callback.json["type"] == CALLBACK_DEFERRED_UPDATE_MESSAGE
        # The bot edits the lobby message in place through the click's own response (PATCH
        # @original: an interaction endpoint, cogs.carrier), and it now lists bob.
        edit = await click.wait_original_edit()
        assert "bob" in json.dumps(edit.json)
        assert "bob" in json.dumps(lobby)  # the fake's stored copy was updated too
    assert fake.unhandled == []


async def test_real_bot_process_killed_mid_lobby_restarts_and_answers_join(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """The real bot as its own process (tests/wire/launch_bot, DT_FAKE_DISCORD_URL); kill -9 after
    the lobby is posted; a new process must answer Join on the old lobby from the database."""
    load_plugins(ui=False)
    known = {info.name for info in registry.all_games()}
    kind = next(k for k in GAME_KINDS if k in known)
    guild = fake.create_guild("Tavern")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(fake.create_user("alice"))
    bob = guild.add_member(fake.create_user("bob"))
    bot = BotProcess(fake, guild.id, tmp_path)
    await bot.start()
    try:
        new = await fake.slash(alice, channel, "game new", {"game": kind})
        await new.wait_followup(timeout=10)
        lobby = await fake.wait_message(channel, lambda m: any(":join" in c for c in _custom_ids(m)))
        join_id = next(c for c in _custom_ids(lobby) if c.endswith(":join"))

        await bot.kill()  # no close frame, no cleanup, no goodbye

        await bot.start()
        click = await fake.click(bob, lobby, join_id)
        assert (await click.wait_callback(timeout=10)).json["type"] == CALLBACK_DEFERRED_UPDATE_MESSAGE
        edit = await click.wait_original_edit(timeout=10)  # the click's response edits the lobby
        assert "bob" in json.dumps(edit.json)
        assert len(fake.identify_payloads) == 2  # two processes, each with a fresh IDENTIFY
    finally:
        await bot.stop()
    assert fake.unhandled == []
