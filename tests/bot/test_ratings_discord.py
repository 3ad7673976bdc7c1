"""Ratings as members see them, through simcord: finished games move the leaderboard, which
pages with buttons and always shows your own row; /game profile draws a chart; /game history
lists finished games with the rating change; /game hint answers privately, and in a rated game
only after the asker agrees to give up the rating (the table is told)."""

from __future__ import annotations

import io

import discord
import pytest
from PIL import Image

from cogs.share import SHOW_LABEL as SHOW
from sessions.ratings import display_rating
from tests.bot.helpers import button_labels, last_board, private_replies, public_replies, texts_of


@pytest.fixture
def world(simcord_env, simcord_bot):
    simcord_bot.service._seed_source = lambda: 22
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol")}
    members["admin"] = guild.add_member(simcord_env.create_user("admin"), roles=[admins])
    return simcord_env, simcord_bot, guild, channel, members


async def ninesons_game(channel, host, guest, options: str = "first_player=first"):
    await host.slash(channel, "game new", game="ninesons", options=options)
    await guest.click(last_board(channel), label="Join")
    await host.click(last_board(channel), label="Start")
    return int(last_board(channel).embeds[0].title.split("#")[1].split()[0])


async def won_by(channel, winner, loser) -> int:
    game_id = await ninesons_game(channel, winner, loser)
    await loser.slash(channel, "game resign")
    return game_id


async def test_the_leaderboard_follows_finished_games(world):
    env, bot, guild, channel, m = world
    alice, bob, carol = m["alice"], m["bob"], m["carol"]
    empty = await alice.slash(channel, "game leaderboard", game="ninesons")
    assert "Nobody has a The Nine Sons of the Dragon rating in this server yet" in private_replies(empty)[0]
    await won_by(channel, alice, bob)
    await won_by(channel, alice, bob)
    result = await carol.slash(channel, "game leaderboard", game="ninesons")
    [board] = private_replies(result)  # private: 📣 Show to the channel shares it
    lines = board.splitlines()
    assert lines[0] == "🏆 The Nine Sons of the Dragon — leaderboard"
    assert lines[1].startswith("`# 1` **alice** — ") and "2 games · 100% won" in lines[1]
    assert lines[2].startswith("`# 2` **bob** — ") and "0% won" in lines[2]
    alice_rating = float(lines[1].split(" — ")[1].split(" · ")[0].replace(",", ""))
    assert alice_rating > display_rating(25.0, 25.0 / 3) > float(lines[2].split(" — ")[1].split(" · ")[0].replace(",", ""))
    assert "You No The Nine Sons of the Dragon rating yet: finish a rated game." in board  # carol's own row
    assert "Page 1/1 · 2 rated" in board


async def test_paging_keeps_your_own_row_and_gives_others_their_own_copy(world):
    env, bot, guild, channel, m = world
    alice, bob, carol = m["alice"], m["bob"], m["carol"]
    await won_by(channel, alice, bob)
    # 23 more rated members, all above bob (their ratings written as a finished game would).
    rows = [(guild.id, "ninesons", f"u:{9000 + i}", 9000 + i, f"player {i}", 30.0 + i / 10, 2.0, display_rating(30.0 + i / 10, 2.0),
             5, 4, 0, 1, 2, 0) for i in range(23)]
    await bot.service.db._backend.run_many("INSERT INTO ratings VALUES (" + ", ".join("?" * 14) + ")", rows)
    first = await bob.slash(channel, "game leaderboard", game="ninesons")
    text = private_replies(first)[0]
    assert "Page 1/3 · 25 rated" in text and text.count("`#") == 11  # ten rows, plus bob's own
    assert "`#25` **bob**" in text and "← you" in text
    assert button_labels(first.response) == ["◀", "▶", SHOW]
    second = await bob.click(first.response, label="▶")  # bob turns his own message's page
    page2 = texts_of(second.response or first.response)
    assert "Page 2/3" in page2 and "`#11`" in page2 and "`#20`" in page2 and "`# 1`" not in page2
    # bob shows page 2 to the channel; carol presses ▶ on that public copy: she gets her own
    # private page 3 with her own row; the public copy stays on page 2.
    shown = (await bob.click(second.response or first.response, label=SHOW)).response
    assert not shown.flags.ephemeral and "Page 2/3" in texts_of(shown)
    hers = await carol.click(shown, label="▶")
    [copy] = private_replies(hers)
    assert "Page 3/3" in copy and "You No The Nine Sons of the Dragon rating yet" in copy
    assert "`#21`" in copy and "← you" not in copy
    assert "Page 2/3" in texts_of(shown)


async def test_profile_and_history(world):
    env, bot, guild, channel, m = world
    alice, bob = m["alice"], m["bob"]
    nothing = await bob.slash(channel, "game profile")
    assert "has no rated games in this server yet" in private_replies(nothing)[0]
    first = await won_by(channel, alice, bob)
    second = await won_by(channel, bob, alice)
    result = await alice.slash(channel, "game profile", member=bob)
    message = result.followups[0] if result.followups else result.response  # the deferred reply, filled in
    text = texts_of(message)
    assert "📈 bob — ratings" in text and "#1 of 2 · 2 games, 1 won (50%), 0 drawn · 1 win in a row\n" in text + "\n"
    assert "(best" not in text and "μ" not in text and "σ" not in text  # no best of one, no symbols
    result = await bob.slash(channel, "game profile", member=alice)
    text = texts_of(result.followups[0] if result.followups else result.response)
    assert "1 loss in a row" in text and "best" not in text
    [chart] = message.attachments
    assert chart.filename == "rating.png"
    image = Image.open(io.BytesIO(await chart.read()))
    assert image.size == (640, 300)

    history = await bob.slash(channel, "game history")
    lines = private_replies(history)[0].splitlines()
    assert lines[0] == "📜 bob's games"
    assert lines[1].startswith(f"`#{second}` ") and "— won · +" in lines[1] and "vs alice" in lines[1]
    assert lines[2].startswith(f"`#{first}` ") and "— resigned · -" in lines[2]
    unrated = await ninesons_game(channel, alice, bob, options="first_player=first rated=off")
    await bob.slash(channel, "game resign")
    newest = private_replies(await bob.slash(channel, "game history")).pop().splitlines()[1]
    assert newest.startswith(f"`#{unrated}` ") and "— resigned · unrated · vs alice" in newest
    only = await bob.slash(channel, "game history", game="farkle")
    assert "No finished games here yet." in private_replies(only)[0]


async def test_hints_are_private_and_cost_the_rating(world):
    env, bot, guild, channel, m = world
    alice, bob = m["alice"], m["bob"]
    await ninesons_game(channel, alice, bob)
    refused = await alice.slash(channel, "game hint")  # default: hints only in unrated games
    assert "Hints are for unrated games in this server, and this game is rated." in private_replies(refused)[0]
    await alice.slash(channel, "game cancel")

    await ninesons_game(channel, alice, bob, options="first_player=first rated=off")
    not_yours = await bob.slash(channel, "game hint")
    assert "It isn't your move" in private_replies(not_yours)[0]
    casual = await alice.slash(channel, "game hint")
    [answer] = private_replies(casual)
    assert answer.startswith("💡 The expert AI would play: **") and "`/play " in answer
    assert "rating" not in answer  # nothing to give up in an unrated game
    await alice.slash(channel, "game cancel")

    admin_perm = await m["admin"].slash(channel, "config set", setting="hints", value="all")
    assert private_replies(admin_perm) or public_replies(admin_perm)
    await ninesons_game(channel, alice, bob)
    ask = await alice.slash(channel, "game hint")
    [question] = private_replies(ask)
    assert "This game is rated. If you take a hint, it no longer counts for your rating" in question
    assert "took a hint" not in texts_of(last_board(channel))  # asking is not taking
    offer = ask.followups[0] if ask.followups else ask.response
    taken = await alice.click(offer, label="Show the hint (unrated for me)")
    shown = texts_of(offer)
    assert "💡 The expert AI would play: **" in "\n".join([shown, *private_replies(taken)])
    assert "💡 alice took a hint: this game no longer counts for their rating." in texts_of(last_board(channel))
    await bob.slash(channel, "game resign")
    leaderboard = private_replies(await bob.slash(channel, "game leaderboard", game="ninesons"))[0]
    assert "**bob**" in leaderboard and "**alice**" not in leaderboard  # alice's game went unrated


async def test_the_lobby_says_whether_the_game_is_rated(world):
    env, bot, guild, channel, m = world
    await m["alice"].slash(channel, "game new", game="ninesons")
    assert last_board(channel).embeds[0].footer.text.startswith("Rated game · ")
    await m["alice"].slash(channel, "game cancel")
    await m["alice"].slash(channel, "game new", game="ninesons", options="rated=off")
    lobby = last_board(channel)
    assert lobby.embeds[0].footer.text.startswith("Unrated (rated=off) game · ")
    assert "`rated=off`" in texts_of(lobby)


async def test_answers_are_private_until_shown_to_the_channel(world):
    """leaderboard, profile and history leave nothing in the channel unless the asker presses
    📣 Show to the channel; then one public copy, without that button, turns for its presser."""
    env, bot, guild, channel, m = world
    alice, bob, carol = m["alice"], m["bob"], m["carol"]
    await won_by(channel, alice, bob)
    before = [msg.id for msg in channel.history()]
    board = await carol.slash(channel, "game leaderboard", game="ninesons")
    profile = await carol.slash(channel, "game profile", member=alice)
    history = await carol.slash(channel, "game history", member=bob)
    assert [msg.id for msg in channel.history() if not msg.flags.ephemeral] == before  # nothing public
    profile_reply = profile.followups[0] if profile.followups else profile.response  # deferred, filled in
    asked = [board.response, profile_reply, history.response]
    assert all(SHOW in button_labels(message) for message in asked)

    shown = await carol.click(board.response, label=SHOW)
    [posted] = public_replies(shown)
    assert posted.startswith("🏆 The Nine Sons of the Dragon — leaderboard") and "**alice**" in posted
    assert button_labels(shown.response) == ["◀", "▶"]  # no second Show on the public copy
    shown = await carol.click(profile_reply, label=SHOW)
    public = shown.followups[0] if shown.followups else shown.response
    assert not public.flags.ephemeral and "📈 alice — ratings" in texts_of(public)
    assert [a.filename for a in public.attachments] == ["rating.png"] and button_labels(public) == []
    shown = await carol.click(history.response, label=SHOW)
    assert public_replies(shown)[0].startswith("📜 bob's games")
    after = [msg for msg in channel.history() if not msg.flags.ephemeral and msg.id not in before]
    assert len(after) == 3  # exactly what was shown


async def test_a_feature_tour_leaves_only_the_games_messages(world):
    """Every reading command once, as members do after a game: the channel still holds only the
    game's own messages (its board and its end notice)."""
    env, bot, guild, channel, m = world
    alice, bob, carol = m["alice"], m["bob"], m["carol"]
    game_id = await won_by(channel, alice, bob)
    standing = [msg.id for msg in channel.history() if not msg.flags.ephemeral]
    assert len(standing) == 2  # the final board and the 🏁 notice
    for who, command, options in (
        (carol, "game leaderboard", {"game": "ninesons"}),
        (carol, "game profile", {"member": alice}),
        (bob, "game history", {}),
        (carol, "game replay", {"game": game_id}),
        (carol, "game stats", {}),
        (carol, "game list", {}),
        (carol, "game rules", {"game": "ninesons"}),
        (carol, "game help", {}),
        (carol, "game notify", {}),
    ):
        result = await who.slash(channel, command, **options)
        assert result.acknowledged and not public_replies(result), command
    assert [msg.id for msg in channel.history() if not msg.flags.ephemeral] == standing
