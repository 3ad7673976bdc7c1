"""Issue 12, item 1, through the real client: no member can make the bot open a file, and an admin
picks the server's Dragon Farkle cards from the operator's folder with /config."""

from __future__ import annotations

import os

import discord
import pytest

from bot import create_bot
from sessions.environment import ConfigError, load_settings
from tests.bot.helpers import last_board, private_replies, public_channel_text
from tests.doubles import tally
from tests.sessions.test_card_files import GOOD


@pytest.fixture
def cards_dir(tmp_path):
    d = tmp_path / "cards"
    d.mkdir()
    (d / "ogres.toml").write_text(GOOD)
    (d / "broken.toml").write_text('[[companion]]\nid = "x"\npassword = "hunter2"\n')
    os.mkfifo(d / "pipe.toml")
    (d / "zero.toml").symlink_to("/dev/zero")
    (d / "big.toml").write_bytes(b"#" * (64 * 1024 + 1))
    (d / "arrays.toml").write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    (d / "tables.toml").write_text("x = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n")
    return d


@pytest.fixture
def simcord_bot(db_path, cards_dir):
    tally.install()
    return create_bot(database_path=db_path, farkle_cards_dir=cards_dir)


@pytest.fixture
def world(simcord_env):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    admin_role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob")}
    members["admin"] = guild.add_member(simcord_env.create_user("admin"), roles=[admin_role])
    return simcord_env, channel, members


@pytest.mark.parametrize("path", ["/dev/zero", "/etc/passwd"])
async def test_a_member_cannot_name_a_card_file_in_game_options(world, path):
    env, channel, m = world
    result = await m["alice"].slash(channel, "game new", game="farkle", options=f"cards_file={path}")
    [reply] = private_replies(result)
    assert "has no option `cards_file`" in reply
    assert "Lobby #" not in public_channel_text(channel)
    assert await env.bot.service.db.games.active_in_channel(channel.id) is None


async def test_admin_picks_a_card_file_and_games_use_it(world, cards_dir):
    env, channel, m = world
    choices = await m["admin"].autocomplete(channel, "config set", "value", "", setting="farkle_cards")
    # regular files only
    assert {c["value"] for c in choices} == {"house", "ogres.toml", "broken.toml", "arrays.toml", "tables.toml"}
    refusals = {
        "pipe.toml": "is not a regular file",
        "zero.toml": "leads outside the card folder",
        "big.toml": "is larger than 64 KiB",
        "../ogres.toml": "plain name",
        "/etc/passwd": "plain name",
        "broken.toml": "is not a usable card file",
        "arrays.toml": "`arrays.toml` is not a usable card file: arrays.toml: nested too deeply",
        "tables.toml": "`tables.toml` is not a usable card file: tables.toml: nested too deeply",
    }
    for name, reason in refusals.items():
        result = await m["admin"].slash(channel, "config set", setting="farkle_cards", value=name)
        [reply] = private_replies(result)
        assert reply.startswith("⚠️") and reason in reply, (name, reply)
        assert "hunter2" not in reply and "password" not in reply
    result = await m["admin"].slash(channel, "config set", setting="farkle_cards", value="ogres.toml")
    assert private_replies(result) == ["✅ `farkle_cards` is now **ogres.toml**."]
    result = await m["admin"].slash(channel, "config show")
    assert "farkle_cards **ogres.toml**" in private_replies(result)[0]
    (cards_dir / "ogres.toml").unlink()  # chosen cards were stored: Start does not need the file
    await m["alice"].slash(channel, "game new", game="farkle")
    await m["bob"].click(last_board(channel), label="Join")
    await m["alice"].click(last_board(channel), label="Start")
    rec, game = await env.bot.service.load(1)
    assert rec.status == "active" and set(game.s["companions"].values()) == {"ogre"}
    result = await m["admin"].slash(channel, "config reset", setting="farkle_cards")
    assert private_replies(result) == ["✅ `farkle_cards` is back to **house (the bundled house cards)**."]


def test_the_card_folder_comes_from_the_environment(tmp_path):
    assert load_settings({"DISCORD_TOKEN": "t"}).farkle_cards_dir is None
    assert load_settings({"DISCORD_TOKEN": "t", "FARKLE_CARDS_DIR": str(tmp_path)}).farkle_cards_dir == tmp_path
    with pytest.raises(ConfigError, match="FARKLE_CARDS_DIR must name an existing folder"):
        load_settings({"DISCORD_TOKEN": "t", "FARKLE_CARDS_DIR": str(tmp_path / "nope")})
    (tmp_path / "file").write_text("x")
    with pytest.raises(ConfigError, match="FARKLE_CARDS_DIR"):
        load_settings({"DISCORD_TOKEN": "t", "FARKLE_CARDS_DIR": str(tmp_path / "file")})
