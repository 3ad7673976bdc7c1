"""Wire smoke tests: the unmodified discord.py client against the loopback FakeDiscord.

These check the parts simcord cannot: real HTTP requests (headers, JSON, multipart) and a
real gateway WebSocket (HELLO, IDENTIFY, READY, heartbeats). The bot is a minimal
``commands.Bot`` from tests/wire/minibot.py (not the real bot), shaped like the real one (slash commands synced to a
guild, a persistent view, a select in a DM, defer + ephemeral followup, a PNG upload).
"""

from __future__ import annotations

import io
import math

import aiohttp
import discord
import pytest
from PIL import Image

from tests.wire.fake_discord import (
    CALLBACK_AUTOCOMPLETE_RESULT,
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_UPDATE_MESSAGE,
    CALLBACK_UPDATE_MESSAGE,
    FLAG_EPHEMERAL,
    FakeDiscord,
)
from tests.wire.minibot import COUNT_ID, JOIN_ID, PICK_ID, make_bot, make_png, running
from tests.wire.patch_client import point_discord_at, point_discord_from_env


def seed(fake: FakeDiscord) -> tuple:
    guild = fake.create_guild("Tavern")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(fake.create_user("alice"))
    return guild, channel, alice


async def test_json_content_type_is_exact(fake: FakeDiscord) -> None:
    # The first thing that breaks a hand-rolled fake: "application/json; charset=utf-8".
    async with aiohttp.ClientSession() as session, session.get(f"{fake.api_base}/users/@me") as response:
        assert response.headers["Content-Type"] == "application/json"
        assert (await response.json())["id"] == str(fake.bot_user.id)


async def test_login_ready_guild_create_and_heartbeats(fake: FakeDiscord) -> None:
    guild, channel, _alice = seed(fake)
    bot = make_bot(guild.id)
    async with running(bot, fake):
        # Login went over REST with the bot token, then IDENTIFY over the gateway.
        login = fake.find_requests("GET", "/users/@me")
        assert login and login[0].headers["authorization"] == "Bot fake-token"
        assert fake.find_requests("GET", "/oauth2/applications/@me")
        assert fake.identify_payloads[0]["token"] == "fake-token"
        assert bot.user is not None and bot.user.id == fake.bot_user.id
        assert bot.application_id == fake.application_id
        # GUILD_CREATE populated the cache: the channel exists, and the bot's own member
        # (without the members intent discord.py caches no other member from GUILD_CREATE).
        cached = bot.get_guild(guild.id)
        assert cached is not None and cached.name == "Tavern"
        assert cached.get_channel(channel.id) is not None
        assert cached.me is not None and cached.me.id == fake.bot_user.id
        # HELLO asked for 250 ms heartbeats: several are sent and each is ACKed (op 11).
        await fake.wait_until(lambda: fake.heartbeats_received >= 3, timeout=3, what="3 heartbeats")
        assert fake.heartbeat_acks_sent == fake.heartbeats_received
        assert math.isfinite(bot.latency) and bot.latency < 1.0
    assert fake.unhandled == []


async def test_autosharded_client_finds_the_gateway_through_gateway_bot(fake: FakeDiscord) -> None:
    # AutoShardedClient asks GET /gateway/bot for the URL and shard count before connecting.
    guild = fake.create_guild("Tavern")
    bot = discord.AutoShardedClient(intents=discord.Intents.default(), guild_ready_timeout=0.1)
    async with running(bot, fake):
        assert fake.find_requests("GET", "/gateway/bot")
        assert bot.shard_count == 1 and bot.get_guild(guild.id) is not None
    async with aiohttp.ClientSession() as session, session.get(f"{fake.api_base}/gateway") as response:
        assert (await response.json()) == {"url": fake.gateway_url}


async def test_command_sync_and_slash_command_answered(fake: FakeDiscord) -> None:
    guild, channel, alice = seed(fake)
    bot = make_bot(guild.id)
    async with running(bot, fake):
        sync = fake.find_requests("PUT", f"/applications/{fake.application_id}/guilds/{guild.id}/commands")
        assert len(sync) == 1 and sync[0].headers["content-type"] == "application/json"
        synced = {c["name"]: c for c in sync[0].json}
        assert set(synced) == {"ping", "lobby", "plan", "secret", "late", "board"}
        assert [(o["name"], o["type"], o["required"]) for o in synced["lobby"]["options"]] == [
            ("game", 3, True),
            ("seats", 4, False),
        ]
        # GET of the commands returns what was synced, with ids.
        async with (
            aiohttp.ClientSession() as session,
            session.get(
                f"{fake.api_base}/applications/{fake.application_id}/guilds/{guild.id}/commands"
            ) as response,
        ):
            assert sorted(c["name"] for c in await response.json()) == sorted(synced)

        ix = await fake.slash(alice, channel, "ping")
        callback = await ix.wait_callback()
        assert callback.json["type"] == CALLBACK_CHANNEL_MESSAGE
        assert callback.json["data"]["content"] == "pong"
        assert not callback.json["data"].get("flags", 0) & FLAG_EPHEMERAL
        assert callback.query == {"with_response": "1"}
        assert ix.original_message is not None and ix.original_message["content"] == "pong"

        # Autocomplete: the focused option's partial text in, choices out (callback type 8).
        ix = await fake.autocomplete(alice, channel, "lobby", {"game": "dragon"}, focused="game")
        callback = await ix.wait_callback()
        assert callback.json["type"] == CALLBACK_AUTOCOMPLETE_RESULT
        assert [c["value"] for c in callback.json["data"]["choices"]] == ["farkle", "flagon"]

        # Typed options reach the command: "seats" arrives as an int.
        ix = await fake.slash(alice, channel, "lobby", {"game": "farkle", "seats": 4})
        callback = await ix.wait_callback()
        assert callback.json["data"]["content"] == "Lobby for farkle (4 seats)"
    assert fake.unhandled == []


async def test_persistent_button_click_answered(fake: FakeDiscord) -> None:
    guild, channel, alice = seed(fake)
    bob = guild.add_member(fake.create_user("bob"))
    bot = make_bot(guild.id)
    async with running(bot, fake):
        lobby = await fake.slash(alice, channel, "lobby", {"game": "ninesons"})
        await lobby.wait_callback()
        message = lobby.original_message
        assert message is not None
        button = message["components"][0]["components"][0]
        assert (button["custom_id"], button["label"]) == (JOIN_ID, "Join")

        click = await fake.click(bob, message, JOIN_ID)
        callback = await click.wait_callback()
        assert callback.json["type"] == CALLBACK_CHANNEL_MESSAGE
        assert callback.json["data"]["content"] == "bob joined"
        assert callback.json["data"]["flags"] & FLAG_EPHEMERAL

        # A button that edits its own message in the callback (UPDATE_MESSAGE).
        click = await fake.click(bob, message, COUNT_ID)
        callback = await click.wait_callback()
        assert callback.json["type"] == CALLBACK_UPDATE_MESSAGE
        assert message["content"] == "Lobby for ninesons (2 seats) +1"


async def test_dm_with_select_and_select_answered_from_dm(fake: FakeDiscord) -> None:
    guild, channel, alice = seed(fake)
    bot = make_bot(guild.id)
    async with running(bot, fake):
        ix = await fake.slash(alice, channel, "plan")
        await ix.wait_callback()
        # The bot opened a DM channel (POST /users/@me/channels) and posted the select in it.
        opened = fake.find_requests("POST", "/users/@me/channels")
        assert opened and opened[0].json == {"recipient_id": alice.id}
        dm = await fake.wait_dm(alice)
        select = dm["components"][0]["components"][0]
        assert select["custom_id"] == PICK_ID
        assert [o["value"] for o in select["options"]] == ["slash", "parry", "dodge"]

        # The select interaction comes from the DM: no guild, `user` instead of `member`.
        pick = await fake.select(alice, dm, PICK_ID, ["parry"])
        assert "guild_id" not in pick.payload and pick.payload["user"]["id"] == str(alice.id)
        callback = await pick.wait_callback()
        assert callback.json["type"] == CALLBACK_DEFERRED_UPDATE_MESSAGE
        edit = await pick.wait_original_edit()
        assert edit.path == f"/webhooks/{fake.application_id}/{pick.token}/messages/@original"
        assert edit.json["content"] == "DM: you picked parry" and edit.json["components"] == []
        assert dm["content"] == "DM: you picked parry" and dm["components"] == []


async def test_closed_dms_reach_the_bot_as_forbidden_50007(fake: FakeDiscord) -> None:
    guild, channel, alice = seed(fake)
    fake.inject_error(
        "POST", "/channels/*/messages", status=403, code=50007, message="Cannot send messages to this user"
    )
    bot = make_bot(guild.id)
    async with running(bot, fake):
        ix = await fake.slash(alice, channel, "plan")
        callback = await ix.wait_callback()
        assert callback.json["data"]["content"] == "Your DMs are closed (50007)."
        assert fake.dm_messages(alice) == []
        # The injected error was used up: the next DM goes through.
        ix = await fake.slash(alice, channel, "plan")
        assert (await ix.wait_callback()).json["data"]["content"] == "Sent you a DM."
        assert len(fake.dm_messages(alice)) == 1


async def test_late_callback_is_refused_with_10062(fake: FakeDiscord) -> None:
    guild, channel, alice = seed(fake)
    fake.callback_deadline = 0.2  # Discord's is 3 s; shortened to keep the test quick
    bot = make_bot(guild.id)
    async with running(bot, fake):
        ix = await fake.slash(alice, channel, "late", {"delay": 0.4})
        refused = await fake.wait_request("POST", f"/interactions/{ix.id}/*/callback")
        assert (refused.status, refused.response["code"]) == (404, 10062)
        await fake.wait_until(lambda: bot.late_errors == [10062], timeout=2, what="NotFound in the bot")
        assert ix.callbacks == []
        # In time is fine.
        ix = await fake.slash(alice, channel, "late", {"delay": 0.0})
        assert (await ix.wait_callback()).json["data"]["content"] == "finally"


async def test_defer_then_ephemeral_followup(fake: FakeDiscord) -> None:
    guild, channel, alice = seed(fake)
    bot = make_bot(guild.id)
    async with running(bot, fake):
        ix = await fake.slash(alice, channel, "secret")
        callback = await ix.wait_callback()
        assert callback.json["type"] == CALLBACK_DEFERRED_CHANNEL_MESSAGE
        assert callback.json["data"]["flags"] == FLAG_EPHEMERAL
        followup = await ix.wait_followup()
        request = fake.find_requests("POST", f"/webhooks/{fake.application_id}/{ix.token}")[0]
        assert request.query.get("wait") in ("1", "true")  # discord.py waits for the message
        assert request.json["flags"] & FLAG_EPHEMERAL
        assert followup["content"] == "only you can see this"
        # The first followup after a thinking defer replaces the placeholder (Discord documents this).
        assert followup["id"] == str(ix.original_message_id)
        assert followup["flags"] & FLAG_EPHEMERAL


async def test_png_upload_received_intact(fake: FakeDiscord) -> None:
    guild, channel, alice = seed(fake)
    bot = make_bot(guild.id)
    async with running(bot, fake):
        ix = await fake.slash(alice, channel, "board")
        await ix.wait_followup()
        message = await fake.wait_message(channel, lambda m: bool(m["attachments"]))
        upload = fake.find_requests("POST", f"/channels/{channel.id}/messages")[-1]
        assert upload.headers["content-type"].startswith("multipart/form-data")
        assert upload.json["content"] == "Board:"
        assert [f.filename for f in upload.files] == ["board.png"]
        assert upload.files[0].field_name == "files[0]"
        assert upload.files[0].data == make_png()
        with Image.open(io.BytesIO(upload.files[0].data)) as image:
            assert image.format == "PNG" and image.size == (64, 48)
        # The attachment the fake returned can be downloaded again by the client.
        assert message["attachments"][0]["size"] == len(upload.files[0].data)


def test_patch_client_refuses_anything_but_loopback() -> None:
    before = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    for url in ("http://discord.com:80", "http://10.0.0.5:8080", "https://127.0.0.1:443", "http://127.0.0.1"):
        with pytest.raises(ValueError):
            point_discord_at(url)
    assert point_discord_from_env({}) is None  # unset: the real Discord stays
    assert before == (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
