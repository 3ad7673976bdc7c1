"""The team game's sides: who is on which team, and how many characters each player controls."""

from __future__ import annotations

from collections.abc import Mapping

from engine.base import InvalidSetup
from engine.flagon.cards import CHARACTER_NAMES

# A side of the team game never fields more than half of the nine characters.
MAX_TEAM_CHARACTERS = len(CHARACTER_NAMES) // 2


def team_sides(players: list[str], picks: Mapping[str, str]) -> dict[str, str]:
    """Each player's team ("A" or "B"): their lobby pick, or else (in seat order) the team
    with fewer players so far, so with no picks at all the seats alternate A, B, A, B."""
    teams = {p: picks[p] for p in players if picks.get(p) in ("A", "B")}
    for p in players:
        if p not in teams:
            size = {t: sum(1 for q in teams.values() if q == t) for t in "AB"}
            teams[p] = "B" if size["B"] < size["A"] else "A"
    return {p: teams[p] for p in players}


def team_quotas(players: list[str], teams: Mapping[str, str]) -> dict[str, int]:
    """How many characters each player controls in the team game. Rulebook: "While the number of
    players on each side may be uneven, the number of characters should not." Even teams keep the
    usual count (two each with 4 players, one each with 5-8). Uneven teams field four characters a
    side, as in the rulebook's five-player example (2+2 against 2+1+1): every player of the smaller
    team controls two, and on the larger team the first players in seat order take a second one.
    Raises InvalidSetup when the sides cannot be balanced with one or two characters a player."""
    members = {t: [p for p in players if teams[p] == t] for t in "AB"}
    small, large = sorted((len(members["A"]), len(members["B"])))
    if small == 0:
        empty = "A" if not members["A"] else "B"
        raise InvalidSetup(f"Team {empty} has no players; both teams need at least one.")
    if small == large:
        per = 2 if len(players) <= 4 else 1
        return {p: per for p in players}
    side = MAX_TEAM_CHARACTERS
    if large > side or 2 * small < side:
        raise InvalidSetup(
            f"Teams of {large} and {small} players cannot field the same number of characters "
            f"(each player controls one or two, at most {side} a side); move a player to the other team."
        )
    quota = {}
    for t in "AB":
        extra = side - len(members[t])
        for i, p in enumerate(members[t]):
            quota[p] = 2 if i < extra else 1
    return {p: quota[p] for p in players}
