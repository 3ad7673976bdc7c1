"""Games nobody plays and games played slowly (issue 27, findings 4 and 8), through simcord with
virtual time: a game whose last human seat times out for good is abandoned, not won by the AIs;
turn timeouts reach a week with reminders that fit them; /game mine lists, privately, every
game in which a member must act, in every server, with a link to each board."""

from __future__ import annotations

import pytest

from tests.bot.helpers import last_board, last_ping, posted_contents, private_replies, table_world, texts_of

DAY = 86400


@pytest.fixture
def world(simcord_env, simcord_bot):
    guild, channel, members = table_world(simcord_env, simcord_bot, admin=True)
    return simcord_env, simcord_bot, guild, channel, members


def field(message, name: str) -> str:
    data = message.embeds[0].to_dict()
    return next((f["value"] for f in data.get("fields", []) if f["name"] == name), "")


async def start(channel, host, guest, kind: str = "ninesons", options: str = "first_player=first rated=off"):
    await host.slash(channel, "game new", game=kind, options=options)
    await guest.click(last_board(channel), label="Join")
    await host.click(last_board(channel), label="Start")
    return last_board(channel)


# -- finding 4: nobody left at the table ---------------------------------------------------------


async def test_a_game_nobody_plays_is_abandoned_when_the_last_player_times_out_for_good(world):
    env, bot, _guild, channel, m = world
    await m["admin"].slash(channel, "config set", setting="turn_timeout.ninesons", value="60")
    board = await start(channel, m["alice"], m["bob"])
    # alice and bob time out in turn; the third time each, an AI takes the seat.
    for _ in range(5):  # alice 1, bob 1, alice 2, bob 2, alice 3 (an AI takes her seat)
        await env.advance_time(61)
    rec, game = await bot.service.load(1)
    assert rec.status == "active" and [s.is_ai for s in rec.seats] == [True, False]
    # bob's third timeout would leave nobody: his ping and the board say so beforehand.
    assert "then the game is abandoned (no player would be left)" in last_ping(channel).content
    assert "no player would be left" in texts_of(last_board(channel))
    await env.advance_time(61)
    rec, game = await bot.service.load(1)
    assert rec.status == "abandoned" and not game.is_over
    final = last_board(channel)
    assert final.id == board.id
    result = field(final, "Result").splitlines()
    assert result[0] == "⌛ Abandoned: bob timed out 3 times in a row and no player was left."
    assert "won" not in texts_of(final) and "🥇" not in texts_of(final)
    notice = posted_contents(env, channel)[-1]
    assert notice.startswith("🏁 **The Nine Sons of the Dragon** #1 is over: it was abandoned."), notice
    assert "won" not in notice
    assert await bot.db.ratings.leaderboard(_guild.id, "ninesons", 0, 10) == []
    assert await bot.service.db.timers.pending(game_id=1) == []  # nothing left to fire
    await env.advance_time(600)
    assert (await bot.db.games.load(1)).version == rec.version  # and nothing moved afterwards


async def test_a_rated_game_left_alone_is_never_rated(world):
    env, bot, guild, channel, m = world
    await m["admin"].slash(channel, "config set", setting="turn_timeout.ninesons", value="60")
    await m["admin"].slash(channel, "config set", setting="afk_strikes", value="1")
    await start(channel, m["alice"], m["bob"], options="first_player=first")
    await env.advance_time(61)  # alice: an AI plays on for her
    assert (await bot.db.games.load(1)).status == "active"
    await env.advance_time(61)  # bob: nobody left
    assert (await bot.db.games.load(1)).status == "abandoned"
    assert await bot.db.ratings.leaderboard(guild.id, "ninesons", 0, 10) == []


async def test_one_member_against_an_ai_who_walks_away_abandons_the_game(world):
    env, bot, _guild, channel, m = world
    alice = m["alice"]
    await m["admin"].slash(channel, "config set", setting="turn_timeout.ninesons", value="60")
    await m["admin"].slash(channel, "config set", setting="afk_strikes", value="2")
    await alice.slash(channel, "game new", game="ninesons", options="first_player=first")
    await alice.select(last_board(channel), ["easy"], custom_id="dt:1:ai")
    await alice.click(last_board(channel), label="Start")
    await env.advance_time(61)
    assert (await bot.db.games.load(1)).status == "active"
    await env.advance_time(61)
    rec = await bot.db.games.load(1)
    assert rec.status == "abandoned" and rec.result["ranking"] == []


# -- finding 8: slow games ------------------------------------------------------------------------


async def test_a_turn_may_last_up_to_a_week_written_as_a_duration(world):
    env, bot, guild, channel, m = world
    admin = m["admin"]
    result = await admin.slash(channel, "config set", setting="turn_timeout.ninesons", value="7d")
    assert private_replies(result) == ["✅ `turn_timeout.ninesons` is now **7 days**."]
    result = await admin.slash(channel, "config set", setting="turn_timeout.farkle", value="12h")
    assert private_replies(result) == ["✅ `turn_timeout.farkle` is now **12 hours**."]
    for value, why in (
        ("8d", "must be from 30 seconds to 7 days (got 8 days)"),
        ("1.5d", "takes seconds or a duration such as 90m, 12h or 2d"),
        ("29", "must be from 30 seconds to 7 days (got 29 seconds)"),
    ):
        [reply] = private_replies(
            await admin.slash(channel, "config set", setting="turn_timeout.flagon", value=value)
        )
        assert reply.startswith("⚠️") and why in reply, reply
    shown = texts_of((await admin.slash(channel, "config show")).response)
    assert "7 days" in shown and "12 hours" in shown and "30 seconds to 7 days" in shown
    await start(channel, m["alice"], m["bob"])
    deadline = await bot.db.timers.deadline(1, "turn")
    assert deadline == pytest.approx(bot.service._clock() + 7 * DAY, abs=5)
    assert f"<t:{int(deadline)}:R>" in last_ping(channel).content


async def test_a_day_long_turn_is_reminded_at_half_time_and_near_its_end(world):
    env, bot, guild, channel, m = world
    alice = m["alice"]
    await m["admin"].slash(channel, "config set", setting="turn_timeout.ninesons", value="1d")
    await start(channel, alice, m["bob"])
    reminder = f"⏰ Reminder: <@{alice.id}>"

    def reminders() -> int:
        return sum(1 for c in posted_contents(env, channel) if c.startswith(reminder))

    await env.advance_time(12 * 3600 - 60)
    assert reminders() == 0
    await env.advance_time(120)  # half time
    assert reminders() == 1
    await env.advance_time(9 * 3600 - 120)  # 21 h: 3 hours (an eighth of a day) are left
    assert reminders() == 1
    await env.advance_time(120)
    assert reminders() == 2
    ping = last_ping(channel).content
    assert ping.startswith(reminder) and f"<t:{int(await bot.db.timers.deadline(1, 'turn'))}:R>" in ping
    # Only the humans who still owe a move are reminded, and only twice: then the time runs out.
    await env.advance_time(3 * 3600)
    rec, game = await bot.service.load(1)
    assert reminders() == 2 and rec.seats[0].timeouts_in_a_row == 1 and game.to_act() == ["p2"]


async def test_a_short_turn_gets_one_reminder_only(world):
    env, bot, guild, channel, m = world
    alice = m["alice"]
    await m["admin"].slash(channel, "config set", setting="turn_timeout.ninesons", value="10m")
    await start(channel, alice, m["bob"])
    await env.advance_time(599)
    assert sum(1 for c in posted_contents(env, channel) if c.startswith("⏰ Reminder:")) == 1


async def test_game_mine_lists_privately_every_game_waiting_for_the_member_in_every_server(world):
    env, bot, guild, channel, m = world
    alice, bob = m["alice"], m["bob"]
    await m["admin"].slash(channel, "config set", setting="turn_timeout.ninesons", value="1d")
    nothing = await alice.slash(channel, "game mine")
    assert private_replies(nothing) == [
        "You are not playing in any running game. Start one with `/game new`."
    ]
    # Game 1 here: alice moves first. Game 2 in another server: bob moves first.
    board_1 = await start(channel, alice, bob)
    other = env.create_guild(name="Far Tavern")
    far = other.create_text_channel("slow-games")
    alice_far, bob_far = other.add_member(alice.user), other.add_member(bob.user)
    board_2 = await start(far, bob_far, alice_far)
    result = await alice.slash(channel, "game mine")
    [reply] = private_replies(result)
    deadline = int(await bot.db.timers.deadline(1, "turn"))
    assert reply.splitlines()[0] == "⏳ **It is your move in 1 game**"
    assert reply.splitlines()[1] == (
        f"• **The Nine Sons of the Dragon** #1 in <#{channel.id}> (Test Guild): place a die or move a stack"
        f" · time runs out <t:{deadline}:R> · "
        f"[go to the board](https://discord.com/channels/{guild.id}/{channel.id}/{board_1.id})"
    )
    assert reply.splitlines()[2] == (
        f"Waiting for the others: [The Nine Sons of the Dragon #2](https://discord.com/channels/"
        f"{other.id}/{far.id}/{board_2.id})"
    )
    # bob, asked from the other server, sees game 2 waiting for him (and game 1 for alice).
    [bobs] = private_replies(await bob_far.slash(far, "game mine"))
    assert (
        "#2 in" in bobs.splitlines()[1]
        and "(Far Tavern)" in bobs
        and f"/{board_2.id})" in bobs.splitlines()[1]
    )
    assert bobs.splitlines()[2].startswith("Waiting for the others: [The Nine Sons of the Dragon #1]")
    # After alice moves, game 1 waits for bob: alice has nothing to do.
    _, game = await bot.service.load(1)
    await alice.slash(channel, "play", action=game.legal_actions("p1")[0])
    [after] = private_replies(await alice.slash(channel, "game mine"))
    assert after.splitlines()[0] == "✅ No game is waiting for your move."
    assert "#1" in after and "#2" in after
