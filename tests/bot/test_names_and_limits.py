"""Issue 12, items 5 and 6: hostile display names ping nobody and inject nothing, and replies that
echo long input are cut to Discord's limits instead of vanishing (simcord rejects an oversize
message with the same 400 Discord gives, which the bot used to swallow)."""

from __future__ import annotations

import discord
import pytest

from render import text
from tests.bot.helpers import last_board, last_ping, private_replies, texts_of

EPHEMERAL = 1 << 6


@pytest.fixture
def world(simcord_env, simcord_bot):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    victim = guild.add_member(simcord_env.create_user("victim"))
    hostile = f"``` **x** {{p2}} {{p1}} <@{victim.id}> @everyone <#{channel.id}>"
    members = {
        "mallory": guild.add_member(simcord_env.create_user("mallory"), nick=hostile),
        "bob": guild.add_member(simcord_env.create_user("bob")),
        "admin": guild.add_member(simcord_env.create_user("admin"), roles=[admins]),
        "victim": victim,
    }
    return simcord_env, simcord_bot, guild, channel, members, hostile


def stored(env, message):
    """simcord's own record of a message: what it pinged and what it allowed."""
    return env.backend.get_message(message.channel.id, message.id)


def all_pings(env) -> list[tuple[int, list[int], bool]]:
    return [(m.id, list(m.ping_user_ids), m.mention_everyone)
            for store in env.backend.messages.values() for m in store.values()
            if m.ping_user_ids or m.mention_everyone]


async def test_a_hostile_name_brawls_and_pings_only_the_defender(world):
    env, bot, guild, channel, m, hostile = world
    mallory, bob, victim = m["mallory"], m["bob"], m["victim"]
    await mallory.slash(channel, "game new", game="farkle", options="first_player=lobby")
    lobby = last_board(channel)
    # The lobby lists the name escaped: no mention, no markdown, placeholders left alone.
    seats = texts_of(lobby)
    assert f"<@\u200b{victim.id}>" in seats and f"<@{victim.id}>" not in seats
    assert "\\`\\`\\` \\*\\*x\\*\\* {p2} {p1}" in seats and "@\u200beveryone" in seats
    await bob.click(lobby, label="Join")
    await mallory.click(last_board(channel), label="Start")
    rec = await bot.service.db.games.active_in_channel(channel.id)
    board = next(msg for msg in channel.history() if msg.id == rec.board_message_id)

    # mallory (p1) brawls bob (p2), who holds an item and so may react first: bob is pinged.
    result = await mallory.slash(channel, "play", action="brawl:p2")
    assert private_replies(result) == ["✅ Played `brawl:p2`."]
    ping = last_ping(channel)
    assert ping.id != rec.board_message_id
    record = stored(env, ping)
    assert record.ping_user_ids == [bob.id]  # the intended defender, and nobody else
    assert record.allowed_mentions.users == frozenset({bob.id}) and not record.allowed_mentions.everyone
    assert not record.mention_everyone
    # The attacker's name is in the ping, escaped: {p2} in it did not become "bob".
    assert ping.content.startswith(f"🛡️ <@{bob.id}>, \\`\\`\\` \\*\\*x\\*\\* {{p2}} {{p1}} <@\u200b{victim.id}>")
    assert "bob" not in ping.content.split(",", 1)[1]

    # The board: its code block is whole (the name's backticks are neutralised inside it), and
    # the Recent lines show the name escaped. No message anywhere pinged the victim or everyone.
    board = next(msg for msg in channel.history() if msg.id == rec.board_message_id)
    description = board.embeds[0].description
    assert description.startswith("```\n") and description.count("```") == 2
    assert "ˋˋˋ **x**" in description  # inside the code block markdown does not render anyway
    recent = next(f.value for f in board.embeds[0].fields if f.name == "Recent")
    assert f"<@\u200b{victim.id}>" in recent and "\\*\\*x\\*\\*" in recent
    assert all(victim.id not in users and not everyone for _, users, everyone in all_pings(env)), all_pings(env)
    # Labels render no markdown: bob's button shows his move as it is.
    assert any(":a:" in (c.custom_id or "") or ":t:" in (c.custom_id or "")
               for row in board.components for c in row.children)


async def test_bot_default_pings_nobody(world):
    env, bot, *_ = world
    assert bot.allowed_mentions is not None
    assert bot.allowed_mentions.to_dict() == {"parse": []}


async def test_a_3000_character_option_string_gets_a_short_refusal(world):
    env, bot, guild, channel, m, _ = world
    bob = m["bob"]
    for options in ("x" * 3000, "max_rounds=" + "9" * 3000, "max_rounds=" + "9" * 5000):
        result = await bob.slash(channel, "game new", game="farkle", options=options)
        [reply] = private_replies(result)
        assert reply.startswith("⚠️") and len(reply) < 600 and "x" * 50 not in reply, reply
        assert "💥" not in reply
    # The unknown game name is echoed cut, too.
    result = await bob.slash(channel, "game new", game="g" * 3000)
    [reply] = private_replies(result)
    assert reply.startswith("⚠️ Unknown game `ggg") and "…" in reply and len(reply) < 300
    assert await bot.service.db.games.active_in_channel(channel.id) is None


async def test_120_allowed_channels_are_saved_and_confirmed_within_limits(world):
    env, bot, guild, channel, m, _ = world
    admin = m["admin"]
    ids = [channel.id] + [10**17 + i for i in range(119)]
    result = await admin.slash(channel, "config set", setting="allowed_channels", value=" ".join(map(str, ids)))
    [reply] = private_replies(result)
    assert reply.startswith("✅ `allowed_channels` is now") and "and 100 more (120 channels)" in reply
    assert len(reply) <= text.CONTENT
    assert (await bot.service.settings(guild.id))["allowed_channels"] == sorted(ids)
    result = await admin.slash(channel, "config show")
    shown = result.response.embeds[0]
    assert len(shown) <= text.EMBED_TOTAL and "120 channels" in texts_of(result.response)
    # A 5,000-digit "channel id" is refused with the rule, not with Python's integer error.
    result = await admin.slash(channel, "config set", setting="allowed_channels", value="1" * 5000)
    assert private_replies(result) == ["⚠️ `allowed_channels` takes channel mentions (#games) or ids, or `all`."]
    result = await admin.slash(channel, "config set", setting="afk_strikes", value="9" * 4000)
    [reply] = private_replies(result)
    assert reply.startswith("⚠️ `afk_strikes` must be from 1 to 10") and len(reply) < 200


async def test_play_refuses_huge_input_clearly(world):
    env, bot, guild, channel, m, _ = world
    bob = m["bob"]
    await bob.slash(channel, "game new", game="ninesons")
    await m["mallory"].click(last_board(channel), label="Join")
    await bob.click(last_board(channel), label="Start")
    result = await bob.slash(channel, "play", action="7" * 5000)
    [reply] = private_replies(result)
    assert reply.startswith("⚠️ `777") and "is not a move" in reply and len(reply) < 200
    result = await bob.slash(channel, "play", action="3@b2", game=2**53 - 1)
    assert private_replies(result) == [f"⚠️ There is no game #{2**53 - 1}."]


async def test_a_32_character_markdown_name_plays_fine(simcord_env, simcord_bot):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    name = "**__~~||#> [x](y) @here `z` ||~~"
    assert len(name) == 32
    fancy = guild.add_member(simcord_env.create_user("fancy"), nick=name)
    other = guild.add_member(simcord_env.create_user("other"))
    await fancy.slash(channel, "game new", game="ninesons")
    await other.click(last_board(channel), label="Join")
    shown = texts_of(last_board(channel))  # the lobby lists the seats in markdown
    assert text.shown_name(name) in shown and name not in shown
    await fancy.click(last_board(channel), label="Start")
    board = last_board(channel)
    assert board.embeds[0].description.count("```") == 2 and "**__~~||#> [" in board.embeds[0].description
    rec = await simcord_bot.service.db.games.active_in_channel(channel.id)
    assert rec.status == "active" and rec.seats[0].display_name == name  # stored raw


# -- render.text on its own -------------------------------------------------------------------
def test_fill_names_is_single_pass():
    names = {"p1": "{p2}", "p2": "bob"}
    assert text.fill_names("{p1} attacks {p2}", names) == "{p2} attacks bob"
    assert text.fill_names("{actor} left.", {"actor": "{p1}"}) == "{p1} left."


def test_shown_name_forms():
    raw = "<@123> @everyone <@&4> <#5> `x` **b**"
    md = text.shown_name(raw)
    assert "<@123>" not in md and "@everyone" not in md and "<#5>" not in md and "**" not in md
    assert text.shown_name(raw, "code") == raw.replace("`", "ˋ")
    assert text.shown_name(raw, "plain") == raw
    assert text.shown_name("# big") == "\\# big" and text.shown_name("1. x") == "1\\. x"


def test_fit_and_echo():
    assert text.fit("a" * 10, 5) == "aaaa…"
    cut = text.fit("```\n" + "a" * 3000 + "\n```", 100)
    assert len(cut) <= 100 and cut.count("```") == 2
    assert text.echo("a`b\nc" * 100, 10) == "aˋb caˋb …"
    assert len(text.echo("x" * 5000)) == text.ECHO


def test_fit_embed_and_view():
    embed = discord.Embed(title="t" * 300, description="d" * 5000)
    for _ in range(30):
        embed.add_field(name="n" * 300, value="v" * 2000)
    embed.set_footer(text="f" * 3000)
    text.fit_embed(embed)
    assert len(embed) <= text.EMBED_TOTAL and len(embed.fields) <= text.FIELDS
    assert len(embed.title or "") <= text.EMBED_TITLE and len(embed.footer.text or "") <= text.FOOTER
    assert all(len(f.name or "") <= text.FIELD_NAME and len(f.value or "") <= text.FIELD_VALUE for f in embed.fields)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="b" * 120, custom_id="b"))
    view.add_item(discord.ui.Select(custom_id="s", placeholder="p" * 200, options=[
        discord.SelectOption(label=f"{i}" * 150, value=f"{i}" * 150, description="d" * 200) for i in range(10)]))
    text.fit_view(view)
    button, select = view.children
    assert isinstance(button, discord.ui.Button) and isinstance(select, discord.ui.Select)
    assert button.label is not None and select.placeholder is not None
    assert len(button.label) == text.BUTTON_LABEL and button.label.endswith("…")
    assert len(select.placeholder) == text.PLACEHOLDER
    assert all(len(o.label) <= 100 and len(o.value) <= 100 and len(o.description or "") <= 100 for o in select.options)
