"""Ratings: a finished game moves openskill ratings exactly as openskill itself would, for
duels, free-for-alls with ties, teams and AI levels; it is written with the game's end, once;
and rebuilding every rating from the saved games gives the same numbers."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from cogs.plugins import load_plugins
from sessions.maintenance import ratings_fingerprint
from sessions.ratings import DISPLAY_ALPHA, DISPLAY_TARGET, display_rating, new_rating, rate_game
from storage import FinishedGame, SeatRecord, StoredRating
from tests.sessions.conftest import ALICE, BOB, CAROL

MODEL = PlackettLuce()
load_plugins(ui=False)


def seats(*specs: tuple[str, int | None, str | None]) -> list[SeatRecord]:
    return [SeatRecord(seat, i, user, ai, f"name {seat}") for i, (seat, user, ai) in enumerate(specs)]


def finished(ranking, *, players=None, teams=None, options=None, unrated=(), resigned=(), game_id=1):
    players = players or seats(*[(p, int(p[1:]), None) for place in ranking for p in place])
    result = {"scores": {}, "ranking": ranking, "reason": ""}
    if teams:
        result["teams"] = teams
    return FinishedGame(game_id, 1, "farkle", options or {}, result, 100.0, players, set(unrated), set(resigned))


def by_player(changes):
    return {c.after.player: c for c in changes}


# ------------------------------------------------------------------ the rule, against openskill


def test_a_duel_moves_both_ratings_as_openskill_does():
    changes = by_player(rate_game(finished([["p1"], ["p2"]]), {}))
    [[win], [loss]] = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])
    assert changes["u:1"].after.mu == pytest.approx(win.mu) and changes["u:1"].after.sigma == pytest.approx(win.sigma)
    assert changes["u:2"].after.mu == pytest.approx(loss.mu)
    assert changes["u:1"].outcome == "win" and changes["u:2"].outcome == "loss"
    assert changes["u:1"].after.rating > DISPLAY_TARGET > changes["u:2"].after.rating
    # The shown number is openskill's ordinal, scaled: a newcomer shows 1000.
    assert new_rating("u:9", 9).rating == pytest.approx(DISPLAY_TARGET)
    assert changes["u:1"].after.rating == pytest.approx(win.ordinal(3.0, DISPLAY_ALPHA, DISPLAY_TARGET))


def test_known_numbers_pin_the_model():
    """openskill's Plackett-Luce with its defaults, on a 1-v-1 from the start: the numbers are
    the library's (if a new openskill changed the model, every stored rating would shift)."""
    changes = by_player(rate_game(finished([["p1"], ["p2"]]), {}))
    assert changes["u:1"].after.mu == pytest.approx(27.6353894931)
    assert changes["u:2"].after.mu == pytest.approx(22.3646105068)
    assert changes["u:1"].after.sigma == pytest.approx(8.0659014135)


def test_existing_ratings_are_the_starting_point():
    strong = StoredRating("u:1", 1, "alice", 32.0, 3.0, display_rating(32.0, 3.0), 40, 30, 0, 2, 5, 0)
    changes = by_player(rate_game(finished([["p2"], ["p1"]]), {"u:1": strong}))
    [[loser], [winner]] = MODEL.rate([[MODEL.rating(mu=32.0, sigma=3.0)], [MODEL.rating()]], ranks=[2, 1])
    assert changes["u:1"].after.mu == pytest.approx(loser.mu)
    assert changes["u:2"].after.mu == pytest.approx(winner.mu)
    assert changes["u:1"].before == strong
    after = changes["u:1"].after
    assert (after.games, after.wins, after.streak, after.best_streak) == (41, 30, -1, 5)


def test_a_three_player_game_with_a_tie_for_second():
    changes = by_player(rate_game(finished([["p1"], ["p2", "p3"]]), {}))
    rated = MODEL.rate([[MODEL.rating()] for _ in range(3)], ranks=[1, 2, 2])
    for player, expected in zip(("u:1", "u:2", "u:3"), rated, strict=True):
        assert changes[player].after.mu == pytest.approx(expected[0].mu)
    assert changes["u:2"].after.mu == pytest.approx(changes["u:3"].after.mu)
    assert [changes[p].outcome for p in ("u:1", "u:2", "u:3")] == ["win", "loss", "loss"]


def test_a_shared_first_place_is_a_draw():
    changes = by_player(rate_game(finished([["p1", "p2"]]), {}))
    assert {c.outcome for c in changes.values()} == {"draw"}
    assert changes["u:1"].after.mu == pytest.approx(25.0)  # equal players drawing: mu stays
    assert changes["u:1"].after.draws == 1 and changes["u:1"].after.streak == 0


def test_teams_are_rated_as_teams():
    game = finished([["p1", "p3"], ["p2", "p4"]], teams=[["p1", "p3"], ["p2", "p4"]])
    changes = by_player(rate_game(game, {}))
    [[a1, a2], [b1, b2]] = MODEL.rate([[MODEL.rating(), MODEL.rating()], [MODEL.rating(), MODEL.rating()]],
                                      ranks=[1, 2])
    assert changes["u:1"].after.mu == pytest.approx(a1.mu) and changes["u:3"].after.mu == pytest.approx(a2.mu)
    assert changes["u:2"].after.mu == pytest.approx(b1.mu)
    assert {changes[p].outcome for p in ("u:1", "u:3")} == {"win"}  # teammates share the win, not a draw
    # Without `teams` the same ranking is two ties of two: a different result.
    ffa = by_player(rate_game(finished([["p1", "p3"], ["p2", "p4"]]), {}))
    assert ffa["u:1"].outcome == "draw" and ffa["u:1"].after.mu != pytest.approx(a1.mu)


def test_ai_levels_are_rated_identities_but_not_twice_in_one_game():
    players = seats(("p1", 1, None), ("p2", None, "hard"), ("p3", None, "easy"), ("p4", None, "easy"))
    changes = by_player(rate_game(finished([["p2"], ["p1"], ["p3"], ["p4"]], players=players), {}))
    assert set(changes) == {"u:1", "ai:hard"}  # the easy AI sat twice: not updated by this game
    assert changes["ai:hard"].after.user_id is None and changes["ai:hard"].outcome == "win"


def test_a_seat_the_ai_took_over_is_still_its_member():
    players = seats(("p1", 1, "easy"), ("p2", 2, None))  # alice timed out; the easy AI played on
    changes = by_player(rate_game(finished([["p1"], ["p2"]], players=players), {}))
    assert set(changes) == {"u:1", "u:2"} and changes["u:1"].outcome == "win"


def test_unrated_games_and_seats():
    assert rate_game(finished([["p1"], ["p2"]], options={"rated": False}), {}) == []
    hinted = by_player(rate_game(finished([["p1"], ["p2"], ["p3"]], unrated={"p1"}), {}))
    assert set(hinted) == {"u:2", "u:3"}
    # The others are rated as in the full game (the hinted player still took first place).
    full = by_player(rate_game(finished([["p1"], ["p2"], ["p3"]]), {}))
    assert hinted["u:2"].after.mu == pytest.approx(full["u:2"].after.mu)
    # Nobody rated: an AI does not gain from a game no member is rated in.
    players = seats(("p1", 1, None), ("p2", None, "hard"))
    assert rate_game(finished([["p2"], ["p1"]], players=players, unrated={"p1"}), {}) == []


def test_a_resigner_ranks_below_everyone_else():
    # bob resigned; the AI that took his seat played on and finished first.
    players = seats(("p1", 1, None), ("p2", 2, "easy"), ("p3", 3, None))
    changes = by_player(rate_game(finished([["p2"], ["p1"], ["p3"]], players=players, resigned={"p2"}), {}))
    assert changes["u:2"].rank == 3 and changes["u:2"].outcome == "loss"
    assert changes["u:1"].rank == 1 and changes["u:1"].outcome == "win"


def test_streaks_count_wins_and_losses_in_a_row():
    rating: dict[str, StoredRating] = {}
    outcomes = []
    for game_id, ranking in enumerate([[["p1"], ["p2"]]] * 3 + [[["p2"], ["p1"]]] * 2 + [[["p1", "p2"]]], 1):
        change = by_player(rate_game(finished(ranking, game_id=game_id), rating))["u:1"]
        rating["u:1"] = change.after
        rating["u:2"] = by_player(rate_game(finished(ranking, game_id=game_id), rating))["u:2"].after
        outcomes.append((change.after.streak, change.after.best_streak))
    assert outcomes == [(1, 1), (2, 2), (3, 3), (-1, 3), (-2, 3), (0, 3)]
    assert rating["u:1"].games == 6 and rating["u:1"].wins == 3 and rating["u:1"].draws == 1


# ------------------------------------------------------------------ through the session service


async def play_out(service, rec_id, humans, rnd):
    """Random legal moves for the humans until the game ends (AI seats move by themselves)."""
    for _ in range(3000):
        rec, game = await service.load(rec_id)
        if rec.status != "active":
            return rec
        seat = next(s for s in rec.seats if s.seat in game.to_act() and not s.is_ai)
        actor = humans[seat.user_id]
        await service.apply(rec_id, actor, rnd.choice(game.legal_actions(seat.seat)))
    raise AssertionError("the game did not end")


async def test_a_finished_game_is_rated_once_with_its_end(service):
    rec = await service.create("ninesons", guild_id=1, channel_id=10, host=ALICE)
    await service.add_ai(rec.id, ALICE, "easy")
    await service.start(rec.id, ALICE)
    end = await play_out(service, rec.id, {ALICE.user_id: ALICE}, random.Random(3))
    assert end.status == "finished"
    alice = await service.db.ratings.rating_and_rank(1, "ninesons", "u:1")
    ai = await service.db.ratings.rating_and_rank(1, "ninesons", "ai:easy")
    assert alice is not None and ai is not None
    assert alice[0].games == ai[0].games == 1
    winner_is_alice = end.result["ranking"][0] == [next(s.seat for s in end.seats if s.user_id == 1)]
    assert (alice[0].wins == 1) == winner_is_alice and (alice[1] == 1) == winner_is_alice
    history = await service.db.ratings.member_games(1, ALICE.user_id, None, 0, 10)
    assert [h.game_id for h in history] == [rec.id]
    assert history[0].rating_delta == pytest.approx(alice[0].rating - new_rating("u:1", 1).rating)


async def test_rated_off_and_the_rebuild(service, clock):
    rnd = random.Random(5)
    humans = {ALICE.user_id: ALICE, BOB.user_id: BOB, CAROL.user_id: CAROL}
    for number in range(4):
        options = "rated=off" if number == 2 else ""
        rec = await service.create("ninesons", guild_id=1, channel_id=10, host=ALICE, options_text=options)
        await service.join(rec.id, BOB if number % 2 else CAROL)
        await service.start(rec.id, ALICE)
        await play_out(service, rec.id, humans, rnd)
        clock.now += 60
    assert (await service.db.ratings.rating_and_rank(1, "ninesons", "u:1"))[0].games == 3  # the unrated one left out
    before = await ratings_fingerprint(service.db)
    assert await service.rebuild_ratings() == (3, 3)
    assert await ratings_fingerprint(service.db) == before
    # A wrong rating is put right by the rebuild.
    await service.db._backend.run("UPDATE ratings SET mu = 1, rating = 1 WHERE player = 'u:1'")
    assert await ratings_fingerprint(service.db) != before
    await service.rebuild_ratings()
    assert await ratings_fingerprint(service.db) == before


async def test_the_rated_option_is_kept_from_the_engine(service):
    rec = await service.create("ninesons", guild_id=1, channel_id=10, host=ALICE, options_text="rated=off")
    assert rec.options == {"rated": False}
    await service.join(rec.id, BOB)
    out = await service.start(rec.id, ALICE)  # new_game would refuse an option it does not know
    assert out.record.status == "active"
