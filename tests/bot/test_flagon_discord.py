"""The Dragon & Flagon through the real discord.py client against simcord's in-memory Discord.

Seat layouts follow the engine: 2-4 players control two characters each, 5-8 players one each.
So "a 4-character game" is two humans with two characters each, and "humans with one character
each" needs 5+ seats (two humans + three easy AI seats = 5 characters).

The driver below reads the game from the bot's database only to decide *what* a human would
click; every action goes through Discord: board buttons, private menu selects, DM selects and
the ephemeral "Show my hand / plan" path.
"""

from __future__ import annotations

import io
import re

import discord
import pytest
from PIL import Image

from bot import create_bot
from engine.flagon.cards import load_cards
from render import flagon as flagon_render
from tests.bot.helpers import button_labels, last_board, posted_contents, public_channel_text, texts_of

PLAN_BUTTON = "🔒 Show my hand / plan"
RESOLVED = re.compile(r"(alice|bob|AI \d \(easy\))'s [A-Za-z\- ]+ — ")  # "alice's Nari — Backstab: …"


@pytest.fixture
def world(simcord_env):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("tavern")
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob")}
    return simcord_env, guild, channel, members


def _components(message) -> list[dict]:
    out = []
    for row in message.components:
        row = row.to_dict() if hasattr(row, "to_dict") else row
        out += row.get("components", [])
    return out


def _selects(message) -> list[dict]:
    return [c for c in _components(message) if c.get("type") == 3]


def board_of(channel) -> discord.Message:
    """The one board message (the channel may hold other bot messages)."""
    for message in reversed(channel.history()):
        if message.embeds and "game #" in (message.embeds[0].title or ""):
            return message
    raise AssertionError("no board message")


async def open_game(env, channel, m, *, options: str = "", ai: int = 0, closed_dm: str | None = None) -> int:
    result = await m["alice"].slash(channel, "game new", game="flagon", options=options)
    assert result.ephemeral and "Lobby #" in result.response.content
    lobby = last_board(channel)
    await m["bob"].click(lobby, label="Join")
    gid = int(lobby.embeds[0].title.split("#")[1])
    for _ in range(ai):
        await m["alice"].select(last_board(channel), ["easy"], custom_id=f"dt:{gid}:ai")
    if closed_dm is not None:
        dm = m[closed_dm].user.dm_channel
        env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007,
                         message="Cannot send messages to this user", times=None)
    await m["alice"].click(last_board(channel), label="Start")
    return gid


async def load(env, gid: int):
    return await env.bot.service.load(gid)


def _first_plan(message) -> tuple[str, str]:
    """(custom_id, value) of the first option of the first select in a private prompt."""
    select = _selects(message)[0]
    return select["custom_id"], select["options"][0]["value"]


async def plan_one(env, channel, member, gid: int, *, ephemeral: bool, prefer: dict[str, str] | None = None):
    """Plan one card (or answer a private question) through the member's private prompt."""
    if ephemeral:
        result = await member.click(board_of(channel), label=PLAN_BUTTON)
        assert result.ephemeral, "the Plan button answers privately"
        prompt = result.response
    else:  # the seat message (a member pinged by DM has their pings below it)
        dm = member.user.dm_channel.history()
        prompt = next((message for message in reversed(dm) if _selects(message)), dm[-1])
    assert _selects(prompt), f"no select in the private prompt: {texts_of(prompt)[:300]}"
    custom_id, value = _first_plan(prompt)
    for select in _selects(prompt):
        for option in select["options"]:
            card = option["value"].split(":")[-1]
            if prefer and prefer.get(option["value"].split(":")[1]) == card:
                custom_id, value = select["custom_id"], option["value"]
    if ephemeral:
        return await member.select(prompt, [value], custom_id=custom_id), value
    return await member.user.select(prompt, [value], custom_id=custom_id), value


async def public_step(channel, member) -> None:
    """Answer a public question from the board: the first menu button, then the first option of
    each private select until an action is played."""
    board = board_of(channel)
    labels = [label for label in button_labels(board) if label != PLAN_BUTTON]
    assert labels, f"no public control on the board: {texts_of(board)[:400]}"
    result = await member.click(board, label=labels[0])
    guard = 0
    while result.response is not None and result.ephemeral and _selects(result.response) and guard < 5:
        guard += 1
        select = _selects(result.response)[0]
        result = await member.select(result.response, [select["options"][0]["value"]],
                                     custom_id=select["custom_id"])


async def drive(env, channel, m, gid: int, *, ephemeral: frozenset[str] = frozenset(),
                until=None, limit: int = 600) -> None:
    """Play every human seat through Discord until the game ends (or ``until(game)`` holds)."""
    by_user = {member.id: name for name, member in m.items()}
    for _ in range(limit):
        rec, game = await load(env, gid)
        if game is None or game.is_over or rec.status != "active" or (until and until(game)):
            return
        seat = next(s for s in rec.seats if not s.is_ai and s.seat in game.to_act())
        name = by_user[seat.user_id]
        if any(game.is_private_action(seat.seat, a) for a in game.legal_actions(seat.seat)):
            await plan_one(env, channel, m[name], gid, ephemeral=name in ephemeral)
        else:
            await public_step(channel, m[name])
    raise AssertionError("the game did not finish")


async def test_four_characters_two_humans_play_to_the_end_by_dm_and_buttons(world):
    env, guild, channel, m = world
    gid = await open_game(env, channel, m)
    board = board_of(channel)
    text = texts_of(board)
    assert "Private prompts by DM: alice, bob" in text
    assert board.attachments and board.attachments[0].filename == "board.png"
    # Character choice: a menu button opening a select; a taken character disappears.
    result = await m["alice"].click(board, label="🎭 Choose a character")
    options = [o["label"] for o in _selects(result.response)[0]["options"]]
    assert len(options) == 9 and "Nari" in options
    await m["alice"].select(result.response, [str(options.index("Nari"))],
                            custom_id=_selects(result.response)[0]["custom_id"])
    assert "alice takes Nari." in texts_of(board_of(channel))
    result = await m["bob"].click(board_of(channel), label="🎭 Choose a character")
    assert "Nari" not in [o["label"] for o in _selects(result.response)[0]["options"]]
    await drive(env, channel, m, gid, until=lambda g: g.s["phase"] == "plan")
    # Planning: one DM per owner, one select per character, each from that character's deck.
    prompt = m["alice"].user.dm_channel.last_message
    selects = _selects(prompt)
    assert len(selects) == 2, "alice controls two characters: one select each"
    decks = [{o["value"].split(":")[3] for o in s["options"]} for s in selects]
    assert "backstab" in set().union(*decks) and decks[0] != decks[1]
    assert "Planning in secret: alice" in texts_of(board_of(channel))
    dms_before = len(m["alice"].user.dm_channel.history())
    await plan_one(env, channel, m["alice"], gid, ephemeral=False)
    # The same DM is edited into the next state; no new DM per card.
    assert len(m["alice"].user.dm_channel.history()) == dms_before
    assert "✅" in m["alice"].user.dm_channel.last_message.content
    await drive(env, channel, m, gid)
    rec, game = await load(env, gid)
    assert game.is_over and rec.status == "finished"
    final = texts_of(board_of(channel))
    assert "GAME OVER" in final and "Result" in final
    # Questions while a card resolves pinged their owner (a board edit notifies nobody).
    pings = [c for c in posted_contents(env, channel) if "your choice —" in c]
    assert pings and all(p.startswith("🔔 <@") for p in pings)
    assert {p.removeprefix("🔔 ").split(">")[0] for p in pings} <= {f"<@{m['alice'].id}", f"<@{m['bob'].id}"}
    # The action log, as a file, privately, to anyone who asks.
    result = await m["bob"].click(board_of(channel), label="📜 Action log")
    message = result.followups[0] if result.followups else result.response
    assert message.flags.ephemeral and message.attachments[0].filename == f"flagon-game-{gid}.txt"
    log_text = (await message.attachments[0].read()).decode()
    assert "alice: Play Nari  `char:nari`" in log_text and "reveals" in log_text
    assert len(log_text.splitlines()) > len(await env.bot.service.db.log.of_game(gid))


async def test_closed_dms_plan_through_the_board_button_and_plans_stay_secret(world):
    env, guild, channel, m = world
    result = await m["alice"].slash(channel, "game new", game="flagon", options="team=on")
    lobby = last_board(channel)
    await m["bob"].click(lobby, label="Join")
    await m["alice"].select(last_board(channel), ["easy"], custom_id="dt:1:ai")
    assert "The team game needs 4-8 players" in texts_of(last_board(channel))
    await m["alice"].select(last_board(channel), ["easy"], custom_id="dt:1:ai")
    lobby_text = texts_of(last_board(channel))
    assert "Team A alice (2), Easy AI 1 (2)" in lobby_text and "Team B bob (2), Easy AI 2 (2)" in lobby_text
    await m["alice"].click(last_board(channel), label="Cancel")
    gid = await open_game(env, channel, m, ai=3, closed_dm="bob")  # 5 seats: one character each
    assert "DMs closed for bob" in texts_of(board_of(channel))
    await drive(env, channel, m, gid, ephemeral=frozenset({"bob"}), until=lambda g: g.s["phase"] == "plan")
    rec, game = await load(env, gid)
    cards = load_cards()
    # Bob plans through the ephemeral prompt; alice by DM. Nobody has revealed anything yet.
    result, bob_action = await plan_one(env, channel, m["bob"], gid, ephemeral=True)
    assert result.response.flags.ephemeral and _selects(result.response), "bob's prompt: his next card"
    _, alice_action = await plan_one(env, channel, m["alice"], gid, ephemeral=False)
    secret = {cards[a.split(":")[3]].name for a in (bob_action, alice_action)}
    rec, game = await load(env, gid)
    for char in game.s["chars"].values():  # the AI seats' hidden plans too
        secret |= {cards[k].name for k in char["slots"]}
    public = public_channel_text(channel)
    board = board_of(channel)
    public += "\n" + "\n".join(a.description or "" for a in board.attachments)
    leaked = [name for name in secret if name in public]
    assert not leaked, f"planned cards named in public before any reveal: {leaked}"
    assert re.search(r"✍️ (Still planning: (alice|bob)|All plans are in)", public), "who plans shows, not what"
    # Bob places his second card; the button then says there is nothing left for him to plan.
    await plan_one(env, channel, m["bob"], gid, ephemeral=True)
    result = await m["bob"].click(board_of(channel), label=PLAN_BUTTON)
    assert result.ephemeral and not _selects(result.response)
    assert "Nothing to plan right now" in texts_of(result.response)
    assert "Planning in secret: alice" in texts_of(board_of(channel))
    await drive(env, channel, m, gid, ephemeral=frozenset({"bob"}))
    rec, game = await load(env, gid)
    assert game.is_over


async def test_restart_mid_planning_keeps_submitted_plans(world, db_path):
    env, guild, channel, m = world
    gid = await open_game(env, channel, m)
    await drive(env, channel, m, gid, until=lambda g: g.s["phase"] == "plan")
    await plan_one(env, channel, m["alice"], gid, ephemeral=False)
    rec, game = await load(env, gid)
    planned = {cid: list(c["slots"]) for cid, c in game.s["chars"].items()}
    assert sum(map(len, planned.values())) == 1
    await env.restart_bot(create_bot(database_path=db_path))
    rec, game = await load(env, gid)
    assert {cid: list(c["slots"]) for cid, c in game.s["chars"].items()} == planned
    # The DM prompts sent before the restart still work, for alice and for bob.
    await plan_one(env, channel, m["bob"], gid, ephemeral=False)
    await plan_one(env, channel, m["alice"], gid, ephemeral=False)
    rec, game = await load(env, gid)
    assert sum(len(c["slots"]) for c in game.s["chars"].values()) == 3
    await drive(env, channel, m, gid, until=lambda g: g.s["marker"] > 1)
    assert RESOLVED.search(public_channel_text(channel)), "a card was revealed and resolved"


async def test_options_late_night_text_only_board_and_planning_timeout(world):
    env, guild, channel, m = world
    admin_role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[admin_role])
    await admin.slash(channel, "config set", setting="images", value="off")
    gid = await open_game(env, channel, m, options="extended=on late_night=on")
    board = board_of(channel)
    assert not board.attachments, "images are off in this guild: text only"
    description = board.embeds[0].description or ""
    assert description.startswith("```") and "extended, late night" in description
    assert "Game End 27? 28? 29? 30?" in description  # the extended game's Game End spaces
    await drive(env, channel, m, gid, until=lambda g: g.s["phase"] == "plan")
    cards = load_cards()
    _, action = await plan_one(env, channel, m["alice"], gid, ephemeral=False)
    card = cards[action.split(":")[3]].name
    prompt = m["alice"].user.dm_channel.last_message
    assert "face down" in prompt.content and "🂠 face down" in texts_of(prompt)
    assert card not in prompt.content and f"I:{card}" not in texts_of(prompt)
    # Nobody plans any more: at the timeout the AFK policy plans for both and the step runs.
    await env.advance_time(601)
    logged = await env.bot.service.db.log.of_game(gid)
    by_timeout = {row.seat for row in logged if row.source == "timeout" and row.action.startswith("plan:")}
    assert by_timeout == {"p1", "p2"}, "the AFK policy planned the missing cards of both seats"
    assert RESOLVED.search(public_channel_text(channel))  # and the first time step was played


async def test_two_members_read_a_card_of_their_deck_with_its_picture_in_a_game_with_the_new_options(world):
    """Issue 29, played as two members: the new table readings are lobby options; mid-game a player
    looks up a card of a character they chose with /game card and sees its printed marks and its
    picture; the planning prompt says how many cards to place."""
    import io

    from PIL import Image

    env, guild, channel, m = world
    gid = await open_game(env, channel, m, options="flagon_not_thrown=on barrel_table_shields=on")
    rec, game = await load(env, gid)
    assert game.s["options"]["flagon_not_thrown"] and game.s["options"]["barrel_table_shields"]
    await drive(env, channel, m, gid, until=lambda g: g.s["phase"] == "plan")
    rec, game = await load(env, gid)
    bob_seat = next(s.seat for s in rec.seats if s.user_id == m["bob"].id)
    mine = game.chars_of(bob_seat)
    prompt = m["bob"].user.dm_channel.last_message
    placeholders = [s.get("placeholder", "") for s in _selects(prompt)]
    assert placeholders and all("(2 to place)" in p for p in placeholders)
    cards = load_cards()
    special = next(c for c in cards.values() if c.owner == mine[0] and c.kind == "special")
    result = await m["bob"].slash(channel, "game card", name=special.name)
    assert result.ephemeral
    shown = texts_of(result.response)
    assert special.text in shown and "Header:" in shown and "Requires (red):" in shown
    assert "Weapon icon:" in shown
    (picture,) = result.response.attachments
    image = Image.open(io.BytesIO(await picture.read()))
    assert picture.filename == "card.png" and image.width == 360
    # nothing of bob's card lookup reached the channel: it was private
    assert special.text not in public_channel_text(channel)


async def test_under_eyes_of_gaia_the_public_board_names_the_card_played_last(world):
    """Issue 29: the card Margalo played last under Eyes of Gaia is face up (the rulebook's
    reminder), so the public board names it, in its text and its picture; the card she has
    planned next stays secret until it is revealed."""
    env, guild, channel, m = world
    gid = await open_game(env, channel, m)
    result = await m["alice"].click(board_of(channel), label="🎭 Choose a character")
    options = [o["label"] for o in _selects(result.response)[0]["options"]]
    await m["alice"].select(
        result.response, [str(options.index("Margalo"))], custom_id=_selects(result.response)[0]["custom_id"]
    )
    await drive(env, channel, m, gid, until=lambda g: g.s["phase"] == "plan")
    # The set-up: her Dragon card is in her deck (as if she had picked up the Flagon).
    rec, game = await load(env, gid)
    game.s["chars"]["margalo"]["mat"] = []
    await env.bot.service.db.games.save(gid, rec.version, state=game.to_dict())
    plain = Image.open(io.BytesIO(await board_of(channel).attachments[0].read())).height
    await plan_one(env, channel, m["alice"], gid, ephemeral=True, prefer={"margalo": "eyes_of_gaia"})

    def margalo(g) -> dict:
        return g.s["chars"]["margalo"]

    def gaia_line(message) -> str:
        return next((line for line in texts_of(message).splitlines() if "Last card played" in line), "")

    await drive(env, channel, m, gid, until=lambda g: margalo(g)["gaia_last"] == "eyes_of_gaia")
    board = board_of(channel)
    assert gaia_line(board).strip() == "Last card played: Eyes of Gaia — not allowed next"
    picture = Image.open(io.BytesIO(await board.attachments[0].read()))
    assert picture.height == plain + flagon_render.GAIA_ROW, "the picture has the reminder's line"
    # Her next card under Eyes of Gaia is planned face down: the board still names the last one.
    await drive(env, channel, m, gid, until=lambda g: bool(margalo(g)["slots"]))
    rec, game = await load(env, gid)
    planned = load_cards()[margalo(game)["slots"][0]].name
    assert planned != "Eyes of Gaia" and "Eyes of Gaia —" in gaia_line(board_of(channel))
    assert planned not in gaia_line(board_of(channel))
    # Once revealed and played, it is the one the board names.
    await drive(env, channel, m, gid, until=lambda g: margalo(g)["gaia_last"] not in (None, "eyes_of_gaia"))
    assert gaia_line(board_of(channel)).strip() == f"Last card played: {planned} — not allowed next"
