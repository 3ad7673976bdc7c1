"""Being told it is your turn (issue 14, sections 1, 2 and 6), through simcord as members play.

Whole games of each game, two members, every move by `/play`: each time members become ones
who must act, a *new* channel message mentions exactly them (an edit notifies nobody); at most
one ping per game stands; the end leaves at most four game messages in the channel and pings
nobody; each member gets at most one new DM per time they must act privately, plus one.
"""

from __future__ import annotations

import random

import discord
import pytest

from cogs.prompts import must_act_privately
from engine import registry
from tests.bot.helpers import last_board, last_ping, private_replies, public_posts, texts_of

MAX_MOVES = 3000


@pytest.fixture
def world(simcord_env, simcord_bot):
    simcord_bot.service._seed_source = lambda: 4242
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    admin_role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob")}
    members["admin"] = guild.add_member(simcord_env.create_user("admin"), roles=[admin_role])
    return simcord_env, simcord_bot, guild, channel, members


def channel_posts(env, channel) -> list[tuple[str, list[int]]]:
    """(content, users allowed to be pinged) of every message the bot posted in the channel."""
    out = []
    for body in public_posts(env, channel):
        allowed = (body.get("allowed_mentions") or {}).get("users") or []
        out.append((str(body.get("content") or ""), [int(u) for u in allowed]))
    return out


def dm_posts(env, member) -> int:
    dm = member.user.dm_channel
    if dm is None:
        return 0
    return len([r for r in env.http_requests if r.method == "POST" and r.path == f"/channels/{dm.id}/messages"])


def planning_characters(game, seat: str) -> set[str]:
    view = game.view(None)
    owners = {c["id"]: c.get("owner") for c in view.get("characters", []) if isinstance(c, dict)}
    return {c for c in view.get("planning") or [] if owners.get(c) == seat}


async def start(channel, members, kind: str, options: str = ""):
    alice, bob = members["alice"], members["bob"]
    await members["admin"].slash(channel, "config set", setting="images", value="off")
    await alice.slash(channel, "game new", game=kind, options=options)
    await bob.click(last_board(channel), label="Join")
    await alice.click(last_board(channel), label="Start")


async def play_whole_game(env, bot, channel, members, kind: str, options: str = "") -> dict[str, int]:
    """Play to the end by /play (a seeded random legal move for whoever must act), checking the
    pings after every move. Returns counts for the closing note."""
    await start(channel, members, kind, options)
    rec, game = await bot.service.load(1)
    user_of = {s.seat: s.user_id for s in rec.seats}
    member_of = {s.seat: next(m for m in members.values() if m.id == s.user_id) for s in rec.seats}
    rng = random.Random(7)
    # The start asks the first players: pinged like any turn change.
    first = channel_posts(env, channel)
    assert any(set(users) == {user_of[p] for p in game.to_act()} for _, users in first), first
    private_calls = {seat: int(must_act_privately(game, seat)) for seat in user_of}
    was_private = {seat: must_act_privately(game, seat) for seat in user_of}
    was_planning = {seat: planning_characters(game, seat) for seat in user_of}
    turn_changes = pings = 0
    for _ in range(MAX_MOVES):
        rec, game = await bot.service.load(1)
        if game.is_over or rec.status != "active":
            break
        before = set(game.to_act())
        seat = rng.choice(sorted(before))
        action = rng.choice(game.legal_actions(seat))
        posted = len(channel_posts(env, channel))
        result = await member_of[seat].slash(channel, "play", action=action)
        assert [r for r in private_replies(result) if not r.startswith(("✅", "🔒 You have"))] == [], action
        rec, game = await bot.service.load(1)
        new_posts = channel_posts(env, channel)[posted:]
        pinged = {u for _, users in new_posts for u in users}
        after = set(game.to_act()) if not game.is_over else set()
        became = after - before
        if became:
            turn_changes += 1
            pings += 1 if pinged else 0
            # Exactly the members who must act now, in a new message (an edit notifies nobody).
            assert {user_of[p] for p in became} <= pinged, (action, new_posts)
        assert pinged <= {user_of[p] for p in after}, (action, new_posts)
        for s in user_of:
            # A private call to act: the seat must now choose in secret and did not before, or
            # is asked something else in secret (another of its Flagon characters starts
            # planning, a Vision question after a plan).
            now = must_act_privately(game, s)
            planning = planning_characters(game, s) | {a.split(":")[0] for a in game.legal_actions(s)} if now else set()
            if now and (not was_private[s] or planning - was_planning[s]):
                private_calls[s] += 1
            was_private[s], was_planning[s] = now, planning
        # At most one ping per game stands in the channel (the earlier ones were deleted).
        standing = [m for m in channel.history() if not m.embeds and not m.components]
        assert len(standing) <= 1, [m.content for m in standing]
    rec, game = await bot.service.load(1)
    assert rec.status == "finished", f"{kind}: no end in {MAX_MOVES} moves"
    # The end: the board shows the result, one notice says so and pings nobody, the pings are gone.
    notice = last_ping(channel)
    assert notice is not None and notice.content.startswith("🏁") and "is over" in notice.content
    assert channel_posts(env, channel)[-1][1] == []
    remaining = channel.history()
    assert len(remaining) <= 4, [m.content or texts_of(m)[:60] for m in remaining]
    for s, member in ((s, member_of[s]) for s in user_of):
        assert dm_posts(env, member) <= private_calls[s] + 1, (kind, s, dm_posts(env, member), private_calls[s])
    return {"turn changes": turn_changes, "pinged": pings, "messages left": len(remaining),
            **{f"DMs {s}": dm_posts(env, member_of[s]) for s in user_of}}


@pytest.mark.parametrize(("kind", "options"), [
    ("ninesons", "first_player=first"),
    ("farkle", "first_player=lobby max_rounds=2"),
    ("flagon", ""),
])
async def test_every_turn_change_of_a_whole_game_pings_exactly_who_must_act(world, kind, options):
    env, bot, _guild, channel, members = world
    counts = await play_whole_game(env, bot, channel, members, kind, options)
    print(f"\n{registry.get(kind).title}: {counts}")
    assert counts["turn changes"] == counts["pinged"] > 0


async def test_a_ping_names_the_game_the_question_the_deadline_and_links_the_board(world):
    env, bot, _guild, channel, members = world
    await start(channel, members, "ninesons", "first_player=first")
    ping = last_ping(channel)
    board = last_board(channel)
    alice = members["alice"]
    assert ping.content.startswith(f"🔔 <@{alice.id}>, it's your turn in **The Nine Sons of the Dragon** #1: "
                                   "place a die or move a stack.")
    deadline = await bot.db.timers.deadline(1, "turn")
    assert f"<t:{int(deadline)}:R>" in ping.content and "then the AI plays for you" in ping.content
    assert f"/{channel.id}/{board.id})" in ping.content  # the link to the board
    # The board shows the deadline too, and whose move it is.
    assert f"<t:{int(deadline)}:R>, then the AI plays for you" in texts_of(board)
    assert f"▶ <@{alice.id}>" in texts_of(board)


async def test_an_abandon_policy_is_what_the_deadline_says(world):
    env, bot, _guild, channel, members = world
    await members["admin"].slash(channel, "config set", setting="afk_action", value="abandon")
    await members["admin"].slash(channel, "config set", setting="afk_strikes", value="1")
    await start(channel, members, "ninesons", "first_player=first")
    assert "then the game is abandoned" in last_ping(channel).content


async def test_notify_dm_sends_the_ping_by_dm_and_off_sends_none(world):
    env, bot, _guild, channel, members = world
    alice, bob = members["alice"], members["bob"]
    result = await bob.slash(channel, "game notify", where="dm")
    assert result.ephemeral and "direct message" in result.response.content
    result = await alice.slash(channel, "game notify", where="off")
    assert "nothing" in result.response.content
    assert "off" in (await alice.slash(channel, "game notify")).response.content
    await start(channel, members, "ninesons", "first_player=first")
    assert last_ping(channel) is None  # alice (to move) chose off: no ping at all
    await alice.slash(channel, "play", action=(await bot.service.load(1))[1].legal_actions("p1")[0])
    # bob's turn: a DM, not a channel ping; it names the game, the channel and links the board.
    assert last_ping(channel) is None
    dm = bob.user.dm_channel.last_message
    assert "It's your turn in **The Nine Sons of the Dragon** #1" in dm.content and f"<#{channel.id}>" in dm.content
    # Closed DMs: the channel takes over.
    bob_dm = bob.user.dm_channel
    env.inject_error("POST", f"/channels/{bob_dm.id}/messages", status=403, code=50007,
                     message="Cannot send messages to this user", times=None)
    await bob.slash(channel, "play", action=(await bot.service.load(1))[1].legal_actions("p2")[0])
    await alice.slash(channel, "play", action=(await bot.service.load(1))[1].legal_actions("p1")[0])
    assert last_ping(channel).content.startswith(f"🔔 <@{bob.id}>")


async def test_a_reminder_at_half_the_turn_time_pings_who_still_owes_and_survives_a_restart(world, db_path):
    env, bot, _guild, channel, members = world
    await members["admin"].slash(channel, "config set", setting="turn_timeout.ninesons", value="600")
    await start(channel, members, "ninesons", "first_player=first")
    first = last_ping(channel)
    deadline = await bot.db.timers.deadline(1, "turn")
    assert await bot.service.db.timers.deadline(1, "remind") == pytest.approx(deadline - 300, abs=2)
    from bot import create_bot

    await env.restart_bot(create_bot(database_path=db_path))
    await env.advance_time(310)
    reminder = last_ping(channel)
    assert reminder.id != first.id and reminder.content.startswith(f"⏰ Reminder: <@{members['alice'].id}>")
    assert [m.id for m in channel.history() if not m.embeds] == [reminder.id]  # the first ping was deleted


async def test_an_ai_seat_is_never_pinged_and_a_finished_game_pings_nobody(world):
    env, bot, _guild, channel, members = world
    alice = members["alice"]
    await members["admin"].slash(channel, "config set", setting="images", value="off")
    await alice.slash(channel, "game new", game="ninesons", options="first_player=second")
    await alice.select(last_board(channel), ["easy"], custom_id="dt:1:ai")
    await alice.click(last_board(channel), label="Start")
    for _ in range(200):
        rec, game = await bot.service.load(1)
        if rec.status != "active":
            break
        await alice.slash(channel, "play", action=game.legal_actions("p1")[0])
    posts = channel_posts(env, channel)
    assert all(users in ([], [alice.id]) for _, users in posts)
    assert posts[-1][0].startswith("🏁") and posts[-1][1] == []
