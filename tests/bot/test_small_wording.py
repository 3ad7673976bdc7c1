"""The small things of issue 27, finding 7, as members see them through simcord: whole AI names,
`/game rules` sections before a game is picked, a profile streak that means something, a
leaderboard footer in words."""

from __future__ import annotations

import pytest

from cogs.ratings import RATING_NOTE
from cogs.ratings_text import streak_text
from render.rules_pages import game_sections
from tests.bot.helpers import last_board, table_world, texts_of


@pytest.fixture
def world(simcord_env, simcord_bot):
    guild, channel, members = table_world(simcord_env, simcord_bot)
    return simcord_env, simcord_bot, guild, channel, members


async def test_an_ai_seat_name_is_shown_whole_on_the_text_board(world):
    env, bot, guild, channel, m = world
    alice = m["alice"]
    await alice.slash(channel, "game new", game="farkle", options="first_player=lobby")
    await alice.select(last_board(channel), ["medium"], custom_id="dt:1:ai")
    await alice.click(last_board(channel), label="Start")
    rec = await bot.db.games.load(1)
    assert [s.display_name for s in rec.seats] == ["alice", "Medium AI 1"]
    board = texts_of(last_board(channel))
    assert "Medium AI 1" in board and "Medium AI…" not in board and "…" not in board.split("```")[1]


async def test_rules_sections_are_offered_before_a_game_is_picked(world):
    env, bot, guild, channel, m = world
    alice = m["alice"]
    choices = await alice.autocomplete(channel, "game rules", "section", "")
    assert len(choices) == 25 and choices[0]["name"].startswith("Dragon Farkle › ")
    # With a game running in the channel, its sections come first.
    await alice.slash(channel, "game new", game="ninesons")
    choices = await alice.autocomplete(channel, "game rules", "section", "")
    first = game_sections("ninesons")[0].title
    assert choices[0]["name"] == f"The Nine Sons of the Dragon › {first}"
    # A typed word narrows them, over every game; the value opens that section once a game is picked.
    choices = await alice.autocomplete(channel, "game rules", "section", "scoring")
    assert "Dragon Farkle › Scoring table" in [c["name"] for c in choices]
    value = next(c["value"] for c in choices if c["name"] == "Dragon Farkle › Scoring table")
    result = await alice.slash(channel, "game rules", game="farkle", section=value)
    assert result.response.embeds[0].to_dict()["title"] == "🐉 Dragon Farkle — Scoring table"


def test_a_streak_shows_a_best_only_beside_a_shorter_run_of_wins():
    assert streak_text(1, 1) == "1 win in a row"
    assert streak_text(2, 5) == "2 wins in a row (best 5)"
    assert streak_text(-1, 1) == "1 loss in a row"
    assert streak_text(-3, 4) == "3 losses in a row"
    assert streak_text(0, 2) == "no streak"


def test_the_rating_note_speaks_words_not_symbols():
    assert not any(symbol in RATING_NOTE for symbol in ("μ", "σ", "openskill", "Plackett"))
    assert "1,000" in RATING_NOTE
