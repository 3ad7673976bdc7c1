"""Issue 12, item 2, through the real client: a lobby whose options cannot start with the seats
it has is refused with a sentence (no "💥 Something went wrong"), and stays a lobby."""

from __future__ import annotations

from tests.bot.helpers import button_labels, last_board, private_replies, texts_of


async def test_start_of_a_team_game_with_two_players_says_why(simcord_env):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    await alice.slash(channel, "game new", game="flagon", options="team=on")
    await bob.click(last_board(channel), label="Join")
    result = await alice.click(last_board(channel), label="Start")
    assert private_replies(result) == [
        "⚠️ The Dragon & Flagon can't start like this: The team game needs 4-8 players; 2 are seated."
    ]
    lobby = last_board(channel)
    assert "lobby #1" in texts_of(lobby) and "Start" in button_labels(lobby)
    rec = await simcord_env.bot.service.db.games.load(1)
    assert rec.status == "lobby" and rec.state is None
