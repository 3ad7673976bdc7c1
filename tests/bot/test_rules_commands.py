"""/game rules, /game card and /game help through the real discord.py client against simcord,
as a member: every page of every game's rules reached with the ▶ button and the section select,
the card command for a card of each game, autocomplete, and hostile input."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from simcord.actors import _component_interaction  # send a payload the message does not show

from cogs.rules import BROKEN
from engine import registry
from render import text
from render.rules_pages import PAGE_LIMIT, game_pages, game_sections, option_line, player_count
from sessions import unknown_game
from tests.bot.helpers import private_replies, public_channel_text, texts_of

GAMES = ("farkle", "ninesons", "flagon")
SENTENCE_END = (".", "!", "?", ":", ")", "*")


@pytest.fixture
def world(simcord_env, simcord_bot):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    return simcord_env, channel, alice


def embed_of(message) -> dict:
    """The one embed of a message, as Discord's JSON."""
    (embed,) = message.embeds
    return dict(embed.to_dict() if isinstance(embed, discord.Embed) else embed)


def within_discord_limits(data: dict) -> None:
    assert len(data.get("title", "")) <= text.EMBED_TITLE
    assert len(data.get("description", "")) <= text.EMBED_DESCRIPTION
    total = (
        len(data.get("title", ""))
        + len(data.get("description", ""))
        + len(data.get("footer", {}).get("text", ""))
    )
    total += sum(len(f["name"]) + len(f["value"]) for f in data.get("fields", []))
    assert total <= text.EMBED_TOTAL
    assert text.ELLIPSIS not in data.get("description", "")[-2:], "a page was cut by the fitter"


def source_paragraph_ends(game: str) -> set[str]:
    return {p.strip()[-40:] for s in game_sections(game) for p in s.text.split("\n\n") if p.strip()}


@pytest.mark.parametrize("game", GAMES)
async def test_the_rules_page_through_to_the_end_whole_and_within_limits(world, game):
    env, channel, alice = world
    result = await alice.slash(channel, "game rules", game=game)
    assert result.ephemeral
    message = result.response
    seen: list[str] = []
    ends = source_paragraph_ends(game)
    for _ in range(60):
        data = embed_of(message)
        within_discord_limits(data)
        page = data["description"]
        seen.append(page)
        # Never cut mid-sentence: a page ends where a paragraph of the text ends, or after a sentence.
        assert page.rstrip()[-40:] in ends or page.rstrip().endswith(SENTENCE_END), page[-80:]
        assert re.search(rf"Page {len(seen)} of \d+", data["footer"]["text"])
        nxt = next(c for row in message.components for c in row["components"] if c.get("label") == "▶")
        if nxt.get("disabled"):
            break
        result = await alice.click(message, label="▶")
        assert result.ephemeral or result.response is not None
        message = result.response
    assert len(seen) == len(game_pages(game)) and all(len(p) <= PAGE_LIMIT for p in seen)
    whole = "\n".join(seen)
    cls = registry.get(game).game_class
    for option in cls.OPTIONS:  # every lobby option is named, with its meaning and default
        assert option_line(option) in whole and "Default: `" in option_line(option)
    assert "Spec:" not in whole and "(proposal" not in whole and "(inferred" not in whole  # player language
    assert player_count(cls.MIN_PLAYERS, cls.MAX_PLAYERS) + "." in whole
    assert all(level in whole for level in registry.get(game).ai_levels)
    assert public_channel_text(channel) == ""  # all of it private


async def test_player_counts_are_written_for_people(world):
    env, channel, alice = world
    result = await alice.slash(
        channel, "game rules", game="ninesons", section="Players, AI and lobby options"
    )
    page = embed_of(result.response)["description"]
    assert "**Players:** 2 players." in page and "2–2" not in page
    assert player_count(2, 5) == "2–5 players"


async def test_the_section_select_and_autocomplete_open_a_section(world):
    env, channel, alice = world
    choices = await alice.autocomplete(channel, "game rules", "section", "scoring", game="farkle")
    assert [c["name"] for c in choices] == ["Scoring table"]
    result = await alice.slash(channel, "game rules", game="farkle", section=choices[0]["value"])
    data = embed_of(result.response)
    # The scoring table is a page of its own, with every combination on it.
    assert data["title"] == "🐉 Dragon Farkle — Scoring table"
    for line in (
        "A single 1: **100**",
        "Three 1s: **1,000**",
        "Four of a kind",
        "Three pairs",
        "Six of a kind",
        "1-2-3-4-5-6: **3,000**",
    ):
        assert line in data["description"]
    # The select jumps to another section; the ◀ button goes back one page.
    keep = str(
        next(i for i, s in enumerate(game_sections("farkle")) if s.title.startswith("The Dragon's Keep"))
    )
    result = await alice.select(result.response, [keep])
    data = embed_of(result.response)
    assert data["title"].endswith("The Dragon's Keep: the house reading")
    result = await alice.click(result.response, label="◀")
    assert embed_of(result.response)["title"].endswith("The Final Battle")
    # Game autocomplete lists the three games by title.
    names = [c["name"] for c in await alice.autocomplete(channel, "game rules", "game", "")]
    assert {"Dragon Farkle", "The Dragon & Flagon", "The Nine Sons of the Dragon"} <= set(names)


async def test_farkle_rules_say_the_keep_is_a_house_reading_and_name_the_documented_readings(world):
    env, channel, alice = world
    whole = "\n".join(p.text for p in game_pages("farkle"))
    assert 'stops at the heading "Special Rules for the Dragon\'s Keep"' in whole
    assert "**house reading**" in whole
    assert "**Companions are inactive while defending**" in whole
    assert "the item limit applies to both players, attacker and defender alike" in whole
    flagon = "\n".join(p.text for p in game_pages("flagon"))
    assert "**Many numbers are reconstructions**" in flagon and "reconstruction" in flagon
    nine = "\n".join(p.text for p in game_pages("ninesons"))
    assert "**Points are a reconstruction.**" in nine


async def test_a_plug_in_game_without_a_rules_file_shows_its_summary_and_options(world):
    env, channel, alice = world
    result = await alice.slash(channel, "game rules", game="tally")
    assert "Add 1 or 2 on your turn" in embed_of(result.response)["description"]
    result = await alice.click(result.response, label="▶")
    page = embed_of(result.response)["description"]
    assert "`target`" in page and "Default: `" in page


async def test_unknown_games_and_sections_get_a_private_answer(world):
    env, channel, alice = world
    result = await alice.slash(channel, "game rules", game="chess")
    assert private_replies(result) == [f"⚠️ {unknown_game('chess')}"]
    assert "`farkle`, `flagon`, `ninesons`" in unknown_game("chess")
    result = await alice.slash(channel, "game rules", game="farkle", section="<@1> **`x`**\nsecret")
    (reply,) = private_replies(result)
    assert reply.startswith("⚠️ Dragon Farkle has no section called `<@1> **ˋxˋ** secret`.")
    assert "Sections: Overview, Setup" in reply
    assert public_channel_text(channel) == ""


async def _forge(actor, message, custom_id: str, values: list[str] | None = None):
    """Click ``custom_id`` on ``message`` (a payload a modified client can send)."""
    channel_id = message.channel.id if isinstance(message, discord.Message) else message.channel_id
    stored = actor._env.backend.get_message(int(channel_id), message.id)
    data: dict = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
    if values is not None:
        data["values"] = values
    return await _component_interaction(actor, stored, data)


async def test_forged_rules_controls_get_a_private_message_and_change_nothing(world):
    env, channel, alice = world
    result = await alice.slash(channel, "game rules", game="ninesons")
    message = result.response
    before = embed_of(message)["description"]
    forged = [
        "dtr:",
        "dtr:chess:next:1",
        "dtr:ninesons:next:999",
        "dtr:ninesons:next:-1",
        "dtr:ninesons:next:x",
        "dtr:ninesons:next:١",
        "dtr:ninesons:open:1",
        "dtr:ninesons:next:1:2",
        "dtr:../../etc:next:1",
    ]
    for custom_id in forged:
        result = await _forge(alice, message, custom_id)
        assert private_replies(result) == [BROKEN], custom_id
    for values in (["99"], ["-1"], ["x"], ["0", "1"]):
        result = await _forge(alice, message, "dtr:ninesons:section:", values)
        assert private_replies(result) == [BROKEN], values
    assert embed_of(message)["description"] == before


async def test_rules_buttons_work_after_a_restart(world, db_path):
    from bot import create_bot

    env, channel, alice = world
    result = await alice.slash(channel, "game rules", game="flagon")
    message = result.response
    await env.restart_bot(create_bot(database_path=db_path))
    result = await alice.click(message, label="▶")
    assert embed_of(result.response)["footer"]["text"].startswith("Page 2 of ")


# -- /game card ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "game", "expect"),
    [
        ("sack", "Dragon Farkle", "House design"),
        ("yazi", "The Nine Sons of the Dragon", "Reconstruction: no public source gives its points."),
        ("backst", "The Dragon & Flagon", "Reconstruction: the printed card was not available"),
    ],
)
async def test_a_card_of_each_game_through_autocomplete(world, typed, game, expect):
    env, channel, alice = world
    choices = await alice.autocomplete(channel, "game card", "name", typed)
    assert choices and all(typed in c["name"].lower() for c in choices)
    result = await alice.slash(channel, "game card", name=choices[0]["value"])
    assert result.ephemeral
    shown = texts_of(result.response)
    assert game in shown and expect in shown
    within_discord_limits(embed_of(result.response))


async def test_a_card_by_its_typed_name_shows_its_full_text_and_values(world):
    env, channel, alice = world
    from engine.flagon.cards import load_cards

    longest = max(load_cards().values(), key=lambda c: len(c.text))
    assert len(longest.text) > text.OPTION_LABEL  # the one a select description would cut
    result = await alice.slash(channel, "game card", name=f"  {longest.name.upper()} ")
    shown = texts_of(result.response)
    assert longest.text in shown and "Time:" in shown
    result = await alice.slash(channel, "game card", name="Sack of Holding")
    assert "the name Sack of Holding is real" in texts_of(result.response)


async def test_a_flagon_card_shows_its_header_requirements_weapon_and_squares_in_text_and_picture(world):
    """Issue 29: everything printed on a card, the icons that decide cancelling included."""
    import io

    from PIL import Image

    env, channel, alice = world
    result = await alice.slash(channel, "game card", name="Slash")
    assert result.ephemeral
    shown = texts_of(result.response)
    assert "Header: **purple**, so it is cancelled if you are prone" in shown
    assert "Requires (red): nothing" in shown
    assert "Weapon icon: **yes**, a weapon attack (a Riposte stops it)" in shown
    assert "■ ■ ■\n· ▲ ·" in shown  # the three squares in front of you
    data = embed_of(result.response)
    within_discord_limits(data)
    assert data["image"]["url"] == "attachment://card.png"
    (picture,) = result.response.attachments
    assert picture.filename == "card.png"
    image = Image.open(io.BytesIO(await picture.read()))
    assert image.width == 360 and 200 < image.height < 700
    assert image.getpixel((180, 20)) == (112, 58, 150)  # a purple header
    # A plain card with a red requirement, and a card of another game stays text only.
    shown = texts_of((await alice.slash(channel, "game card", name="Throw")).response)
    assert "Requires (red): hold a mug, a chair or the Flagon, else it is cancelled" in shown
    assert "Weapon icon: no" in shown
    move = await alice.slash(channel, "game card", name="Move")
    image = Image.open(io.BytesIO(await move.response.attachments[0].read()))
    assert image.getpixel((180, 20)) == (124, 88, 52)  # plain header
    assert not (await alice.slash(channel, "game card", name="Sack of Holding")).response.attachments


async def test_unknown_cards_get_a_did_you_mean_with_the_name_made_safe(world):
    env, channel, alice = world
    result = await alice.slash(channel, "game card", name="Lucky Charn")
    assert private_replies(result) == [
        "⚠️ There is no card called `Lucky Charn`. Did you mean **Lucky Charm**? "
        "Type a few letters and pick from the list."
    ]
    result = await alice.slash(channel, "game card", name="@everyone `rm` ../../etc/passwd " + "x" * 300)
    (reply,) = private_replies(result)
    assert reply.startswith("⚠️ There is no card called `@everyone ˋrmˋ ../../etc/passwd xxx")
    assert len(reply) < 400
    assert await alice.autocomplete(channel, "game card", "name", "zzzz") == []
    assert len(await alice.autocomplete(channel, "game card", "name", "")) == text.CHOICES
    assert public_channel_text(channel) == ""


async def test_help_explains_playing_on_discord_privately(world):
    env, channel, alice = world
    result = await alice.slash(channel, "game help")
    shown = texts_of(result.response)
    assert result.ephemeral and "/game new" in shown and "/game rules" in shown and "/game card" in shown


# -- The Dragon & Flagon: full card texts from the planning prompt, and who a ping names -----


async def test_flagon_planning_prompt_opens_the_full_card_texts_privately(simcord_env):
    from engine.flagon.cards import deck_of, dragon_of, load_cards
    from tests.bot.test_flagon_discord import drive, open_game

    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("tavern")
    m = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol")}
    gid = await open_game(simcord_env, channel, m)
    await drive(simcord_env, channel, m, gid, until=lambda g: g.s["phase"] == "plan")
    prompt = m["alice"].user.dm_channel.last_message
    rec, game = await simcord_env.bot.service.load(gid)
    mine = sorted(game.chars_of("p1"))
    # The selects cut long texts at 100 characters; the button shows every card in full.
    cards = load_cards()
    deck = [cards[k] for cid in mine for k in (*deck_of(cid), dragon_of(cid))]
    longest = max(deck, key=lambda c: len(c.text))
    assert len(longest.text) > text.OPTION_LABEL
    result = await m["alice"].user.click(prompt, label="📖 Card texts")
    assert result.ephemeral
    shown = texts_of(result.response)
    assert longest.text in shown and all(f"**{cards[dragon_of(cid)].name}**" in shown for cid in mine)
    within_discord_limits(embed_of(result.response))
    # The list is the whole decks, so it cannot tell what is planned; nothing reaches the channel.
    assert "slot" not in shown.lower() and "Card texts" not in public_channel_text(channel)
    # Someone not in the game gets a private refusal (a forged click on the board).
    board = next(
        msg for msg in reversed(channel.history()) if msg.embeds and "game #" in (msg.embeds[0].title or "")
    )
    result = await _forge(m["carol"], board, f"dt:{gid}:x:texts")
    assert private_replies(result) == ["⚠️ You are not playing in this game."]


def test_a_flagon_ping_names_the_pinged_players_own_character():
    """A Daze or a wall slide asks the owner of the character it hits, during another
    player's card: the ping must name that character, not the one whose card it is."""
    from types import SimpleNamespace

    from cogs.ui import flagon as ui
    from engine import Event
    from engine.flagon.cards import CHARACTER_NAMES
    from tests.bot.test_flagon_ui import until

    g = until(
        lambda g: (
            bool(g.s["pending"]) and g.s["chars"][g.s["pending"]["char"]]["owner"] != g.s["pending"]["player"]
        )
    )
    pending = g.view(None)["pending"]
    seats = [
        SimpleNamespace(seat=p, display_name=n, is_ai=False, user_id=i, private_route="dm")
        for i, (p, n) in enumerate((("p1", "alice"), ("p2", "bob")), 1)
    ]
    rec: Any = SimpleNamespace(id=1, seats=seats)  # the little of a GameRecord that announce reads
    ping = ui.announce(rec, g, [Event("reveal", "x reveals y.")])
    assert ping is not None
    about, acting = CHARACTER_NAMES[pending["char"]], CHARACTER_NAMES[pending["acting"]]
    assert g.s["chars"][pending["char"]]["owner"] == pending["player"]  # the one who must answer
    assert ping.startswith(f"🔔 {{@{pending['player']}}} {about} (hit by {acting}'s card): your choice")
