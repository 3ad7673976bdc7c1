"""Issue 23, "also check": rating farming. A member who plays a second account of theirs and
resigns it over and over gains exactly what openskill's Plackett–Luce update gives for those
wins (no bonus for streaks, the update shrinks as the system grows sure), and whoever resigns
ranks last every time, in two-player games and in bigger ones an AI plays on for them. What the
bot cannot tell (two accounts of one person) is in docs/admins/README.md."""

from __future__ import annotations

from itertools import pairwise

import pytest
from openskill.models import PlackettLuce

from sessions.ratings import display_rating
from tests.bot.helpers import last_board
from tests.bot.test_ratings_discord import won_by, world  # noqa: F401 (fixture)

GAMES = 12


async def _rating(bot, guild, member, kind: str):
    found = await bot.db.ratings.rating_and_rank(guild.id, kind, f"u:{member.id}")
    assert found is not None
    return found[0]


async def test_farming_an_alt_account_gains_what_openskill_gives_and_no_more(world):  # noqa: F811
    env, bot, guild, channel, m = world
    main, alt = m["alice"], m["bob"]
    model = PlackettLuce()
    expected_main, expected_alt = model.rating(), model.rating()
    gains: list[float] = []
    for _ in range(GAMES):
        before = (
            (await _rating(bot, guild, main, "ninesons")).rating if gains else display_rating(25.0, 25.0 / 3)
        )
        await won_by(channel, main, alt)  # the alt resigns at once
        [[expected_main], [expected_alt]] = model.rate([[expected_main], [expected_alt]], ranks=[1.0, 2.0])
        mine = await _rating(bot, guild, main, "ninesons")
        gains.append(mine.rating - before)
        assert mine.mu == pytest.approx(expected_main.mu) and mine.sigma == pytest.approx(expected_main.sigma)
        assert mine.rating == pytest.approx(display_rating(expected_main.mu, expected_main.sigma))
        theirs = await _rating(bot, guild, alt, "ninesons")
        assert theirs.mu == pytest.approx(expected_alt.mu) and theirs.sigma == pytest.approx(
            expected_alt.sigma
        )
    assert mine.games == GAMES and mine.wins == GAMES and mine.streak == GAMES
    assert all(later < earlier for earlier, later in pairwise(gains))  # each win is worth less
    history = await bot.db.ratings.member_games(guild.id, alt.id, "ninesons", 0, GAMES)
    assert [(g.place, g.outcome) for g in history] == [(2, "resigned")] * GAMES


async def test_a_resigner_ranks_last_every_time_even_when_the_ai_wins_their_seat(world):  # noqa: F811
    env, bot, guild, channel, m = world
    alice, bob, carol = m["alice"], m["bob"], m["carol"]
    for _ in range(3):
        await carol.slash(channel, "game new", game="tally", options="target=12")
        await alice.click(last_board(channel), label="Join")
        await bob.click(last_board(channel), label="Join")
        await carol.click(last_board(channel), label="Start")
        rec, game = await bot.service.load((await bot.service.db.games.active_in_channel(channel.id)).id)
        by_seat = {s.seat: next(x for x in (alice, bob, carol) if x.id == s.user_id) for s in rec.seats}
        carol_seat = rec.seat_of_user(carol.id).seat
        while carol_seat not in game.to_act():  # carol takes the lead first, then resigns
            await by_seat[game.to_act()[0]].click(last_board(channel), label="Add 1")
            rec, game = await bot.service.load(rec.id)
        await carol.click(last_board(channel), label="Add 2")
        await carol.slash(channel, "game resign")  # an AI plays her seat on, leading
        while True:
            rec, game = await bot.service.load(rec.id)
            if rec.status != "active":
                break
            await by_seat[game.to_act()[0]].click(last_board(channel), label="Add 1")
        [last] = await bot.db.ratings.member_games(guild.id, carol.id, "tally", 0, 1)
        assert last.game_id == rec.id and (last.place, last.outcome) == (3, "resigned")
        assert last.rating_delta is not None and last.rating_delta < 0
    history = await bot.db.ratings.member_games(guild.id, carol.id, "tally", 0, 10)
    assert [(g.place, g.outcome) for g in history] == [(3, "resigned")] * 3
