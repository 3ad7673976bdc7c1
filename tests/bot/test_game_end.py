"""Every game ends on a true board: a resignation, a cancel, an AFK abandonment and a natural
end all turn the one board message into the final result (who won or who stopped it and why,
the scores, what the rules reveal), with no move controls left but **Rematch**; Rematch opens
a new lobby that pings exactly the other players; /game status finds the ended game.
Everything is driven through simcord as members."""

from __future__ import annotations

import discord
import pytest

from bot import create_bot
from render import text
from tests.bot.helpers import button_labels, last_board, last_ping, private_replies, texts_of

REMATCH = "🔁 Rematch"
REPLAY = "🎞 Replay"
NINESONS = "The Nine Sons of the Dragon"


@pytest.fixture
def world(simcord_env, simcord_bot):
    simcord_bot.service._seed_source = lambda: 22  # the same dice and decks every run
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    admin_role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol")}
    members["admin"] = guild.add_member(simcord_env.create_user("admin"), roles=[admin_role])
    return simcord_env, guild, channel, members


def field(message, name: str) -> str:
    """The value of the board embed's field ``name`` ("" if it has none)."""
    data = message.embeds[0].to_dict()
    return next((f["value"] for f in data.get("fields", []) if f["name"] == name), "")


def footer(message) -> str:
    return message.embeds[0].to_dict().get("footer", {}).get("text", "")


def message(channel, message_id: int):
    """A channel message as it is now (after edits)."""
    return next(msg for msg in channel.history() if msg.id == message_id)


def ids(channel) -> set[int]:
    """The ids of the messages standing in a channel now."""
    return {msg.id for msg in channel.history()}


def old_final(channel):
    """The first final board of the channel (the game a rematch repeats)."""
    return next(msg for msg in channel.history() if "🔁 Rematch" in button_labels(msg))


def stored(env, msg):
    """simcord's record of a posted message: whom it pinged and what it allowed."""
    return env.backend.get_message(msg.channel.id, msg.id)


async def start_ninesons(channel, host, guest, options: str = "first_player=first"):
    await host.slash(channel, "game new", game="ninesons", options=options)
    await guest.click(last_board(channel), label="Join")
    await host.click(last_board(channel), label="Start")
    return last_board(channel)


def assert_final(board, text: str) -> None:
    """What every ended board shares: no turn marker, no move controls, no /play footer."""
    assert "to play" not in text and "▶" not in text, text
    assert button_labels(board) == [REMATCH, REPLAY]
    assert footer(board) == ""


async def test_a_resignation_shows_who_won_and_why_on_the_same_board(world):
    env, guild, channel, m = world
    alice, bob = m["alice"], m["bob"]
    board = await start_ninesons(channel, alice, bob)
    assert footer(board).startswith("move 1 ·")  # moves played, not saves: nothing played yet
    await alice.slash(channel, "play", action="3@b2")
    assert footer(last_board(channel)).startswith("move 2 ·")
    assert "B (bob) to play" in texts_of(last_board(channel))

    result = await bob.slash(channel, "game resign")
    assert private_replies(result) == ["You resigned."]
    final = last_board(channel)
    assert final.id == board.id  # the board itself became the result; no new message
    text = texts_of(final)
    assert_final(final, text)
    outcome = field(final, "Result").splitlines()
    assert outcome[0] == "🏳️ bob resigned — alice wins."
    assert outcome[1].startswith("🥇 alice (") and outcome[2].startswith("🥈 bob (")  # the points so far
    assert "game #1" in text and "bob resigned." in field(final, "Recent")
    # Nothing to play any more.
    result = await alice.slash(channel, "play", action="2@c3")
    assert private_replies(result)[0].startswith("⚠️")


async def test_a_cancel_mid_game_says_who_cancelled_with_the_scores_so_far(world):
    env, guild, channel, m = world
    alice, bob, admin = m["alice"], m["bob"], m["admin"]
    board = await start_ninesons(channel, alice, bob)
    await alice.slash(channel, "play", action="3@b2")
    result = await admin.slash(channel, "game cancel")
    assert private_replies(result) == ["Game #1 was cancelled."]
    final = last_board(channel)
    assert final.id == board.id
    assert_final(final, texts_of(final))
    outcome = field(final, "Result").splitlines()
    assert outcome[0] == "🚫 Cancelled by admin."
    assert outcome[1].startswith("Scores so far: ") and "alice" in outcome[1] and "bob" in outcome[1]


async def test_a_name_in_the_result_stays_plain_text(world):
    """The canceller's name is filled in once, escaped: no markdown, no mention, no placeholder."""
    env, guild, channel, m = world
    raw = "**mal** <@1> {p2}"
    host = guild.add_member(env.create_user(raw))
    await start_ninesons(channel, host, m["bob"])
    await host.slash(channel, "game cancel")
    outcome = field(last_board(channel), "Result").splitlines()
    assert outcome[0] == f"🚫 Cancelled by {text.shown_name(raw)}."
    assert "**mal**" not in outcome[0] and "<@1>" not in outcome[0] and "{p2}" in outcome[0]


async def test_an_afk_abandonment_ends_the_board_and_game_status_finds_it_afterwards(world):
    env, guild, channel, m = world
    alice, bob, carol, admin = m["alice"], m["bob"], m["carol"], m["admin"]
    result = await carol.slash(channel, "game status")
    assert private_replies(result) == ["⚠️ There is no game in this channel. Start one with `/game new`."]
    await admin.slash(channel, "config set", setting="afk_strikes", value="1")
    await admin.slash(channel, "config set", setting="afk_action", value="abandon")
    await admin.slash(channel, "config set", setting="turn_timeout.ninesons", value="60")
    board = await start_ninesons(channel, alice, bob)
    await env.advance_time(59)
    assert "to play" in texts_of(last_board(channel))
    await env.advance_time(2)  # alice's turn ran out: the game is abandoned
    final = last_board(channel)
    assert final.id == board.id
    assert_final(final, texts_of(final))
    outcome = field(final, "Result").splitlines()
    assert outcome[0] == "⌛ Abandoned: alice timed out once."
    assert "alice timed out once: the game is abandoned." in field(final, "Recent")
    assert outcome[1].startswith("Scores so far: ")

    # /game status with nothing running: the last ended game's board, again at the bottom.
    result = await carol.slash(channel, "game status")
    assert private_replies(result) == ["Game #1 has ended; its final board is below."]
    reposted = last_board(channel)
    assert reposted.id != board.id and field(reposted, "Result") == field(final, "Result")
    assert_final(reposted, texts_of(reposted))


async def test_a_farkle_game_that_ends_reveals_the_items_still_held(world):
    env, guild, channel, m = world
    alice = m["alice"]
    bot = env.bot
    await alice.slash(channel, "game new", game="farkle", options="max_rounds=1 first_player=lobby")
    await alice.select(last_board(channel), ["easy"], custom_id="dt:1:ai")
    await alice.click(last_board(channel), label="Start")
    seen = []
    for _ in range(60):  # alice recruits, keeps what she must and banks at once
        rec, game = await bot.service.load(1)
        if game.is_over:
            break
        seen.append(texts_of(message(channel, rec.board_message_id)))
        legal = game.legal_actions("p1")
        action = next((a for a in legal if a == "stop"), None) or next(
            (a for a in legal if a.startswith(("recruit", "keep", "rally"))), legal[0]
        )
        await alice.slash(channel, "play", action=action)
    rec, game = await bot.service.load(1)
    assert game.is_over and rec.status == "finished"
    held = {seat: [i["name"] for i in game.view(seat)["my_items"]] for seat in ("p1", "p2")}
    assert held["p1"] and held["p2"], held  # both still hold the item dealt at the start
    final = message(channel, rec.board_message_id)  # the last message may be a Brawl ping
    assert_final(final, texts_of(final))
    outcome = field(final, "Result")
    assert outcome.startswith("🥇 ") and "largest army wins" in outcome
    revealed = outcome.split("🔓 Revealed at the end:\n", 1)[1].splitlines()
    assert revealed == [
        f"alice: Magic Items: {', '.join(held['p1'])}",
        f"Easy AI 1: Magic Items: {', '.join(held['p2'])}",
    ]
    # Before the end no board showed a held item.
    assert not any(name in text for text in seen for names in held.values() for name in names)


async def test_rematch_opens_a_lobby_that_pings_exactly_the_other_players_who_join(world):
    env, guild, channel, m = world
    alice, bob, carol = m["alice"], m["bob"], m["carol"]
    old_board = await start_ninesons(channel, alice, bob)
    await bob.slash(channel, "game resign")
    old_board = last_board(channel)

    # A spectator may not ask for the rematch of someone else's game.
    result = await carol.click(old_board, label=REMATCH)
    assert private_replies(result) == ["⚠️ Only the players of game #1 can ask for a rematch."]

    posted = len(list(channel.history()))
    result = await bob.click(old_board, label=REMATCH)
    assert private_replies(result) == [
        "Lobby #2 is open for the rematch; 1 player was invited. Press **Start** when everyone is in."
    ]
    new = list(channel.history())[posted:]
    new.sort(key=lambda msg: msg.id)
    assert len(new) == 2  # the lobby, then the one invitation
    lobby, invite = new
    lobby_text = texts_of(lobby)
    assert "lobby #2" in lobby_text and "1. bob (host)" in lobby_text and "first_player=first" in lobby_text
    assert invite.content.startswith(f"🔁 <@{alice.id}>: bob asks for a rematch of {NINESONS} (game #1).")
    record = stored(env, invite)
    assert record.ping_user_ids == [alice.id]  # alice only: not bob himself, not carol
    assert record.allowed_mentions.users == frozenset({alice.id}) and not record.mention_everyone
    assert stored(env, lobby).ping_user_ids == []

    # alice does the natural thing and presses Rematch too: she joins the rematch lobby.
    result = await alice.click(old_board, label=REMATCH)
    assert private_replies(result) == [
        "You joined lobby #2, the rematch: everyone is in, so its host can press **Start**."
    ]
    lobby = message(channel, lobby.id)
    assert "2. alice" in texts_of(lobby)
    # The invitation gave way to one line that pings the host to start.
    assert invite.id not in ids(channel)
    call = last_ping(channel)
    assert call.content == (f"✅ Everyone from game #1 is in lobby #2: <@{bob.id}>, press **Start** when you "
                            "are ready.")
    assert stored(env, call).ping_user_ids == [bob.id]
    result = await bob.click(old_board, label=REMATCH)  # bob presses it again: nothing new
    assert private_replies(result) == ["You host lobby #2, the rematch: everyone is in, press **Start**."]
    assert last_ping(channel).id == call.id

    await bob.click(lobby, label="Start")
    board = message(channel, lobby.id)  # the lobby became the board
    assert "game #2" in texts_of(board) and "A (bob) to play" in texts_of(board)
    assert call.id not in ids(channel)  # the lobby's lines go when it starts
    assert not any("rematch" in m.content for m in channel.history())
    result = await alice.click(old_board, label=REMATCH)
    assert private_replies(result) == ["⚠️ The rematch of game #1 is already being played (game #2)."]


async def test_a_rematch_invitation_goes_when_its_lobby_closes_after_a_restart_too(world, db_path):
    env, guild, channel, m = world
    alice, bob = m["alice"], m["bob"]
    await start_ninesons(channel, alice, bob)
    await bob.slash(channel, "game resign")
    await bob.click(last_board(channel), label=REMATCH)
    invite = last_ping(channel)
    assert invite.content.startswith(f"🔁 <@{alice.id}>: bob asks for a rematch")
    await env.restart_bot(create_bot(database_path=db_path))
    await bob.click(last_board(channel), label="Cancel")
    assert "This lobby was cancelled" in texts_of(last_board(channel))
    assert invite.id not in ids(channel)

    # A rematch lobby nobody starts closes on time, and its invitation goes with it.
    await bob.click(old_final(channel), label=REMATCH)
    invite = last_ping(channel)
    await env.advance_time(3601)
    assert "nobody started it" in texts_of(last_board(channel))
    assert invite.id not in ids(channel)


async def test_rematch_against_the_ai_brings_the_ai_seat_back_and_pings_nobody(world):
    env, guild, channel, m = world
    alice = m["alice"]
    await alice.slash(channel, "game new", game="ninesons")
    await alice.select(last_board(channel), ["hard"], custom_id="dt:1:ai")
    await alice.click(last_board(channel), label="Start")
    await alice.slash(channel, "game resign")
    final = last_board(channel)
    assert field(final, "Result").splitlines()[0] == "🏳️ alice resigned — Hard AI 1 wins."
    result = await alice.click(final, label=REMATCH)
    assert private_replies(result) == [
        "Lobby #2 is open for the rematch. Press **Start** when everyone is in."
    ]
    lobby = last_board(channel)
    assert "lobby #2" in texts_of(lobby) and "2. Hard AI 1" in texts_of(lobby)
    assert stored(env, lobby).ping_user_ids == []


async def test_rematch_is_refused_to_a_member_at_the_lobby_limit(world):
    env, guild, channel, m = world
    alice, bob, admin = m["alice"], m["bob"], m["admin"]
    other = guild.create_text_channel("more-games")
    await admin.slash(channel, "config set", setting="max_lobbies_per_member", value="1")
    await start_ninesons(channel, alice, bob)
    await bob.slash(channel, "game resign")
    final = last_board(channel)
    await alice.slash(other, "game new", game="farkle")
    posted = len(list(channel.history()))
    result = await alice.click(final, label=REMATCH)
    [reply] = private_replies(result)
    assert reply.startswith("⚠️ You already host 1 open lobby in this server")
    assert len(list(channel.history())) == posted  # no lobby, no invitation
    assert await env.bot.service.channel_game(channel.id) is None
