"""Team game setup (issue 15, broken rule 3): who is on which team and how many characters each
player controls, checked against the rulebook's "Team Play" sentences."""

from __future__ import annotations

import pytest

from engine.base import InvalidSetup
from engine.flagon.game import FlagonGame


def seats(n: int) -> list[str]:
    return [f"p{i}" for i in range(1, n + 1)]


def side_totals(game: FlagonGame) -> dict[str, int]:
    teams = game.s["teams"]
    quota = game.character_quota()
    return {t: sum(q for p, q in quota.items() if teams[p] == t) for t in "AB"}


def test_five_players_field_four_characters_a_side() -> None:
    # Rulebook: "in a five player game, one team will have two players, and one will have three. On the
    # two player team each will have two characters, for a total of four. On the three player team, one
    # player will control two characters, and each of the other two will control one, so there will also
    # be four characters."
    game = FlagonGame.new(seats(5), seed=1, team=True)
    teams = game.s["teams"]
    quota = game.character_quota()
    by_team = {t: sorted((quota[p] for p in quota if teams[p] == t), reverse=True) for t in "AB"}
    assert sorted(by_team.values()) == [[2, 1, 1], [2, 2]]
    assert side_totals(game) == {"A": 4, "B": 4}


def test_players_choose_their_teams() -> None:
    # Rulebook: "Players should divide up into two teams in whatever fashion they choose."
    picks = {"p1": "A", "p2": "A", "p3": "B"}
    game = FlagonGame.new(seats(5), seed=1, team=True, teams=picks)
    teams = game.s["teams"]
    assert teams["p1"] == teams["p2"] == "A" and teams["p3"] == "B"
    # the unpicked players join the team short of players (a tie goes to A)
    assert teams["p4"] == "B" and teams["p5"] == "A"
    assert game.character_quota() == {"p1": 2, "p2": 1, "p3": 2, "p4": 2, "p5": 1}


def test_unpicked_players_alternate_by_seat() -> None:
    game = FlagonGame.new(seats(6), seed=3, team=True)
    assert game.s["teams"] == {"p1": "A", "p2": "B", "p3": "A", "p4": "B", "p5": "A", "p6": "B"}


@pytest.mark.parametrize(
    ("sizes", "per_side"),
    [((2, 2), 4), ((3, 2), 4), ((4, 2), 4), ((3, 3), 3), ((4, 3), 4), ((4, 4), 4)],
)
def test_every_balanced_split_has_equal_characters(sizes: tuple[int, int], per_side: int) -> None:
    # Rulebook: "While the number of players on each side may be uneven, the number of characters should
    # not." and "If there are 2-4 players, each controls 2 characters. If there are 5-8 players, each
    # controls 1 character." (kept whenever the teams are even).
    a, b = sizes
    players = seats(a + b)
    picks = {p: ("A" if i < a else "B") for i, p in enumerate(players)}
    game = FlagonGame.new(players, seed=2, team=True, teams=picks)
    assert side_totals(game) == {"A": per_side, "B": per_side}
    assert set(game.character_quota().values()) <= {1, 2}
    # every character chosen in setup belongs to the player whose quota it fills
    chooses = [p for kind, p in game.s["queue"] if kind == "choose"]
    assert {p: chooses.count(p) for p in players} == game.character_quota()


@pytest.mark.parametrize(
    ("sizes", "words"),
    [
        ((5, 0), "Team B has no players"),
        ((3, 1), "Teams of 3 and 1"),
        ((4, 1), "Teams of 4 and 1"),
        ((5, 2), "Teams of 5 and 2"),
        ((5, 3), "Teams of 5 and 3"),
    ],
)
def test_impossible_splits_are_refused_with_a_sentence(sizes: tuple[int, int], words: str) -> None:
    a, b = sizes
    players = seats(a + b)
    picks = {p: ("A" if i < a else "B") for i, p in enumerate(players)}
    with pytest.raises(InvalidSetup, match=words):
        FlagonGame.new(players, seed=2, team=True, teams=picks)


def test_team_picks_do_not_leak_into_the_options() -> None:
    game = FlagonGame.new(seats(4), seed=2, team=True, teams={"p1": "B"})
    assert "teams" not in game.s["options"]
