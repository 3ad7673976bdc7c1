"""Rulebook sentences of the last character cards (Sir Goodheart, Nari, Montero, Asma), the team game
and the Plate of Cookies that no earlier test checked (docs/rules-map/flagon.md, FL-32 to FL-39).
Each test quotes the sentences it checks by id."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from engine.flagon.game import FlagonGame
from tests.engine.flagon_support import answer, position, step, texts


def ch(g: FlagonGame, cid: str) -> dict[str, Any]:
    return g.s["chars"][cid]  # type: ignore[no-any-return]


def rep(g: FlagonGame, cid: str) -> int:
    return int(ch(g, cid)["rep"])


def test_earthbond_stops_a_pushed_table_and_ignores_fall() -> None:
    """FL-32.2 "Earthbond: While this is in effect, ignore all Fall or Knock Back effects."
    FL-32.3 "If a table is pushed into you, it does not move, but you still suffer the effects (except
    for Knockback)." """
    g = position({"thras": ("p1", "e8", "N"), "goodheart": ("p2", "e5", "S")}, tables={"t": "d6-f7"})
    g.s["statuses"].append({"char": "goodheart", "card": "earthbond", "at": 9})
    step(g, {"thras": ["push_table", "move"]})
    answer(g, "face:thras:N")
    assert g.s["tables"]["t"] == sorted(["d6", "e6", "f6", "d7", "e7", "f7"])  # the table stops
    assert ch(g, "goodheart")["pos"] == "e5" and rep(g, "goodheart") == 17 and rep(g, "thras") == 23
    # a thrown chair makes others fall, but not Goodheart under Earthbond
    for bound in (False, True):
        g = position({"jack": ("p1", "e9", "N"), "goodheart": ("p2", "e6", "S")})
        ch(g, "jack")["held"] = "chair"
        if bound:
            g.s["statuses"].append({"char": "goodheart", "card": "earthbond", "at": 9})
        step(g, {"jack": ["throw", "move"]})
        answer(g, "face:jack:N")
        assert rep(g, "goodheart") < 20 and ch(g, "goodheart")["prone"] is not bound


def test_god_smack_knocks_a_diagonal_target_diagonally_and_charges_the_chain() -> None:
    """FL-32.9 "The target is knocked back four times, pushing other characters along the way."
    FL-32.10 "A target that is in one of the diagonal squares will be knocked back diagonally."
    FL-32.11 "You gain Reputation from the target as well as other characters that get knocked back as
    result of any chain reaction." """
    g = position({"goodheart": ("p1", "e9", "N"), "nari": ("p2", "f8", "S"), "teo": ("p3", "h6", "S")})
    ch(g, "goodheart")["mat"] = []
    step(g, {"goodheart": ["god_smack", "move"]})
    answer(g, "face:goodheart:N")
    assert ch(g, "nari")["pos"] == "j4" and ch(g, "teo")["pos"] == "k3"
    assert rep(g, "nari") == 17 and rep(g, "teo") == 17 and rep(g, "goodheart") == 26


def test_shadow_step_needs_a_free_landing_square_and_shadow_dash_an_empty_one_behind() -> None:
    """FL-33.6 "Shadow Step: If another character is located in one of the yellow A/B/C squares, you move
    to the matching green lettered square if it does not contain a character."
    FL-33.10 "While Shadow Dash is in effect, any time you play Shadow Step you may instead move directly
    behind any character on the board." FL-33.11 "You ignore all intervening squares, and the final square
    you move to must not contain another character." """
    # Goodheart ahead (B), but Teo stands on the matching green square: no move
    g = position({"nari": ("p1", "e7", "N"), "goodheart": ("p2", "e6", "N"), "teo": ("p3", "e5", "S")})
    ev = step(g, {"nari": ["shadow_step", "move"]})
    answer(g, "face:nari:N")
    assert ch(g, "nari")["pos"] == "e7" and "No shadow to step into." in texts(ev)
    # with Asma in A as well, only A's green square is free: Nari goes there
    g = position(
        {
            "nari": ("p1", "e7", "N"),
            "goodheart": ("p2", "e6", "N"),
            "teo": ("p3", "e5", "S"),
            "asma": ("p3", "d6", "S"),
        }
    )
    step(g, {"nari": ["shadow_step", "move"]})
    answer(g, "face:nari:N")
    assert ch(g, "nari")["pos"] == "c5"
    # Shadow Dash: behind Goodheart (h9) and behind Teo (h8) are taken; behind Asma (b5) is free, far away
    g = position(
        {
            "nari": ("p1", "a1", "S"),
            "goodheart": ("p2", "h8", "N"),
            "teo": ("p3", "h9", "S"),
            "asma": ("p3", "c5", "E"),
        }
    )
    ch(g, "nari")["mat"] = []
    g.s["statuses"].append({"char": "nari", "card": "shadow_dash", "at": 9})
    ch(g, "nari")["faceup"] = ["shadow_dash"]
    step(g, {"nari": ["shadow_step", "move"]})
    answer(g, "face:nari:E")
    assert ch(g, "nari")["pos"] == "b5" and ch(g, "nari")["facing"] == "E"


def test_flunge_moves_like_charge_but_may_step_down_not_up() -> None:
    """FL-34.2 "You must move into the square ahead of you using the same restrictions of Charge, with one
    exception." FL-34.3 "Unlike Charge, you MAY move from a table to the floor during this move."
    FL-34.4 "You may not move up from the floor to a table." """
    # floor to table: cancelled, nothing happens
    g = position({"montero": ("p1", "e6", "N"), "nari": ("p2", "e4", "S")}, tables={"t": ["e5", "f5"]})
    ev = step(g, {"montero": ["flunge", "move"]})
    answer(g, "face:montero:N")
    assert "cancelled" in texts(ev) and ch(g, "montero")["pos"] == "e6" and rep(g, "nari") == 20
    # the square ahead holds a character: cancelled, as for Charge
    g = position({"montero": ("p1", "e6", "N"), "nari": ("p2", "e5", "S")})
    ev = step(g, {"montero": ["flunge", "move"]})
    answer(g, "face:montero:N")
    assert "cancelled" in texts(ev) and ch(g, "montero")["pos"] == "e6" and rep(g, "nari") == 20
    # table to floor: allowed, and he does not fall for it
    g = position({"montero": ("p1", "e6", "N"), "nari": ("p2", "e4", "S")}, tables={"t": ["e6", "f6"]})
    step(g, {"montero": ["flunge", "move"]})
    answer(g, "face:montero:N")
    assert ch(g, "montero")["pos"] == "e5" and not ch(g, "montero")["prone"] and rep(g, "nari") == 17


def test_witty_retort_hits_the_one_character_montero_chooses() -> None:
    """FL-34.8 "Witty Retort: Affect the character of your choice within a highlighted square." """
    g = position({"montero": ("p1", "e6", "N"), "nari": ("p2", "e5", "S"), "teo": ("p3", "d4", "S")})
    step(g, {"montero": ["witty_retort", "move"]})
    assert set(g.legal_actions("p1")) == {"target:montero:nari", "target:montero:teo"}
    answer(g, "target:montero:teo", "daze:teo:slash", "face:montero:N")
    assert rep(g, "teo") == 18 and rep(g, "nari") == 20 and ch(g, "teo")["slots"] == ["slash"]


def test_blade_waltz_goes_on_after_a_riposte_and_never_touches_an_unfaced_character() -> None:
    """FL-34.16 "If another character is Riposting during Blade Waltz, Montero must give them Reputation as
    normal, but may still continue moving/attacking." FL-34.12 "You must move using the normal move rules."
    FL-34.22 "Asma is unaffected." (the rulebook example: a character next to Montero's path whom he never
    faces takes nothing)."""
    g = position(
        {
            "montero": ("p1", "e6", "N"),
            "thras": ("p2", "e5", "S"),
            "goodheart": ("p3", "c6", "E"),
            "asma": ("p3", "d7", "N"),
            "nari": ("p2", "f6", "S"),
        }
    )
    ch(g, "montero")["mat"] = []
    ch(g, "thras").update(riposte=True, faceup=["riposte"], token=9)
    step(g, {"montero": ["blade_waltz", "move"]})
    answer(g, "daze:montero:slash", "daze:montero:dash")  # Riposte: Montero pays 7 and is Dazed 2
    # Move rules: Nari's square f6 is not offered, nor f5 (both ways there pass Thras or Nari); d5 is,
    # through the free d6
    assert set(g.legal_actions("p1")) == {"to:montero:stay", "to:montero:d6", "to:montero:d5"}
    answer(g, "to:montero:d6", "turn:montero:W")  # he goes on: Goodheart is ahead
    answer(g, "to:montero:stay", "turn:montero:N", "face:montero:N")
    assert rep(g, "thras") == 27 and rep(g, "goodheart") == 17 and rep(g, "montero") == 16
    assert rep(g, "asma") == 20 and rep(g, "nari") == 20


def test_arc_lightning_must_go_on_but_asma_picks_the_path() -> None:
    """FL-35.2 "Then, it affects another character, of Asma's choice, that is in one of the 8 squares
    relative to the character affected." FL-35.3 "Repeat this process until no more targets are
    available." FL-35.4 "No character may be affected more than once." FL-35.5 "Asma may not choose herself
    as a target." FL-35.6 "Arc Lightning must continue affecting characters as long as targets are
    available." FL-35.7 "But Asma does not need to select them in an order that will maximize the number of
    targets." """
    chars = {
        "asma": ("p1", "e5", "N"),
        "nari": ("p2", "e4", "S"),
        "thras": ("p2", "d3", "S"),
        "teo": ("p3", "f3", "S"),
        "margalo": ("p3", "c2", "S"),
    }
    g = position(chars)
    step(g, {"asma": ["arc_lightning", "move"]})
    # Nari is the only first target; from her, Thras or Teo (never Asma herself, next to Nari; no "stop")
    assert set(g.legal_actions("p1")) == {"target:asma:thras", "target:asma:teo"}
    answer(g, "target:asma:teo", "face:asma:N")  # the short path: Thras and Margalo are spared
    assert [rep(g, c) for c in ("nari", "teo", "thras", "margalo", "asma")] == [17, 19, 20, 20, 24]
    g = position(chars)
    step(g, {"asma": ["arc_lightning", "move"]})
    answer(g, "target:asma:thras")  # next to Thras: Nari (already hit) and Margalo: Margalo must follow
    answer(g, "face:asma:N")
    assert [rep(g, c) for c in ("nari", "teo", "thras", "margalo", "asma")] == [17, 20, 19, 19, 25]


def test_familiar_is_removed_by_a_character_passing_through_and_can_be_moved() -> None:
    """FL-35.14 "The Familiar Token is removed if a character or object moves into the same square as the
    familiar." FL-35.16 "A character may freely continue to move after entering the square with the
    familiar." FL-35.17 "If you play the Familiar action again, you may move the Familiar Token to a new
    square and/or new facing, whether it is on the board or on your Character Mat." """
    g = position({"nari": ("p1", "e9", "N"), "asma": ("p2", "a1", "S")})
    g.s["familiar"] = {"at": "e8", "facing": "N"}
    step(g, {"nari": ["dash", "move"]})
    assert "to:nari:e6" in g.legal_actions("p1")  # the Familiar does not stop her
    answer(g, "to:nari:e6", "face:nari:N")
    assert ch(g, "nari")["pos"] == "e6" and g.s["familiar"] is None
    g = position({"nari": ("p1", "e9", "N"), "asma": ("p2", "a1", "S")})
    g.s["familiar"] = {"at": "e8", "facing": "N"}
    step(g, {"nari": ["move", "slash"]})
    answer(g, "to:nari:e8", "face:nari:N")
    assert g.s["familiar"] is None
    g = position({"asma": ("p1", "a1", "S"), "nari": ("p2", "h5", "S")})
    g.s["familiar"] = {"at": "h8", "facing": "N"}
    step(g, {"asma": ["familiar", "move"]})
    answer(g, "at:asma:b2", "turn:asma:E", "face:asma:S")
    assert g.s["familiar"] == {"at": "b2", "facing": "E"}


def test_ice_cone_and_arc_lightning_may_start_from_the_familiar() -> None:
    """FL-35.13 "While it is on the board, the other Asma Special Actions (Arc Lightning, Arcane Bolt, and
    Ice Cone) may originate from this square instead, as if Asma was there." """
    for card, lost in (("ice_cone", 2), ("arc_lightning", 3)):
        g = position({"asma": ("p1", "a1", "S"), "nari": ("p2", "h5", "S")})
        g.s["familiar"] = {"at": "h6", "facing": "N"}
        step(g, {"asma": [card, "move"]})
        assert set(g.legal_actions("p1")) == {"from:asma:self", "from:asma:familiar"}
        answer(g, "from:asma:familiar", "face:asma:S")
        assert rep(g, "nari") == 20 - lost, card


def test_arcano_convergence_ends_when_asma_is_dazed_or_falls() -> None:
    """FL-35.22 "This effect expires at the end of the Duration, or if Asma is Dazed or Falls." """
    g = position({"goodheart": ("p1", "e6", "N"), "asma": ("p2", "e5", "S")})
    ch(g, "asma").update(mat=[], faceup=["arcano"])
    g.s["statuses"].append({"char": "asma", "card": "arcano", "at": 9})
    step(g, {"goodheart": ["shield_bash", "move"]})
    answer(g, "daze:asma:slash", "face:goodheart:N")
    assert g.s["statuses"] == [] and ch(g, "asma")["mat"] == ["arcano"] and ch(g, "asma")["faceup"] == []
    g = position({"jack": ("p1", "e9", "N"), "asma": ("p2", "e6", "S")})
    ch(g, "jack")["held"] = "chair"
    ch(g, "asma").update(mat=[], faceup=["arcano"])
    g.s["statuses"].append({"char": "asma", "card": "arcano", "at": 9})
    step(g, {"jack": ["throw", "move"]})
    answer(g, "face:jack:N")
    assert ch(g, "asma")["prone"] and g.s["statuses"] == [] and ch(g, "asma")["mat"] == ["arcano"]


def test_a_random_team_starts_and_the_teams_alternate_choosing_and_placing() -> None:
    """FL-37.10 "Select one team at random." FL-37.11 "That team chooses which character they want to place
    and a starting location." FL-37.12 "Teams then alternate placing characters in available locations." """
    starters = set()
    for seed in range(1, 13):
        g = FlagonGame.new(["p1", "p2", "p3", "p4", "p5"], seed=seed, team=True)
        teams, queue = g.s["teams"], g.s["queue"]
        assert [k for k, _ in queue] == ["choose", "place_last"] * 8  # choose one, then place it at once
        assert all(queue[i][1] == queue[i + 1][1] for i in range(0, 16, 2))
        sides = [teams[p] for _, p in queue[::2]]
        assert all(a != b for a, b in pairwise(sides))
        starters.add(sides[0])
    assert starters == {"A", "B"}
    g = FlagonGame.new(["p1", "p2", "p3", "p4"], seed=1, team=True)
    p = g.to_act()[0]
    cid = g.legal_actions(p)[0].split(":")[1]
    g.play(p, f"char:{cid}")
    assert g.to_act() == [p] and all(a.startswith("start:") for a in g.legal_actions(p))


def test_the_team_with_the_highest_total_wins() -> None:
    """FL-37.18 "The highest total wins the game." """
    g = position(
        {
            "goodheart": ("p1", "a1", "S"),
            "nari": ("p2", "c1", "S"),
            "tuuli": ("p3", "e1", "S"),
            "asma": ("p4", "g1", "S"),
        },
        players=["p1", "p2", "p3", "p4"],
        team=True,
        marker=22,
    )
    # team A = p1 + p3 (12 + 30 = 42), team B = p2 + p4 (28 + 10 = 38): no single character decides
    for cid, r in (("goodheart", 12), ("tuuli", 30), ("nari", 28), ("asma", 10)):
        ch(g, cid)["rep"] = r
    g._finish("Town Guard")
    assert g.result is not None
    assert g.result.ranking == [["p1", "p3"], ["p2", "p4"]]
    assert g.result.scores == {"p1": 42.0, "p2": 38.0, "p3": 42.0, "p4": 38.0}


def test_the_plate_of_cookies_follows_the_flagon_rules() -> None:
    """FL-39.3 "If used, the Plate of Cookies uses the same rules as the Dragon Flagon." FL-39.5 "Both start
    in the center square, and if either is picked up you gain your Dragon Action." """
    g = FlagonGame.new(["p1", "p2"], seed=1, cookies="with")
    assert g.s["prizes"] == {"flagon": g.s["centre"], "cookies": g.s["centre"]}
    g = position({"goodheart": ("p1", "e5", "N"), "nari": ("p2", "e4", "S")}, cookies="with")
    ch(g, "nari")["held"] = "cookies"
    g.s["prizes"]["cookies"] = None
    step(g, {"goodheart": ["slash", "move"]})
    answer(g, "face:goodheart:N")
    assert ch(g, "nari")["held"] is None and g.s["prizes"]["cookies"] == "f6"  # dropped like the Flagon
    g = position({"nari": ("p1", "f7", "N"), "teo": ("p2", "a1", "S")}, cookies="with")
    step(g, {"nari": ["pickup", "move"]})
    answer(g, "item:nari:flagon", "face:nari:N")
    assert ch(g, "nari")["held"] == "flagon" and ch(g, "nari")["mat"] == []


def test_blade_waltz_example_with_asma_standing_by() -> None:
    """FL-34.17 to FL-34.22, the Blade Waltz example: "Montero plays Blade Waltz. He is facing Thras, and so
    does the first attack. He then moves to (1), and attacks Sir Goodheart. From there he moves onto the
    table (2) and attacks Nari. Finally he moves off the table facing Thras (3), but can't attack since the
    same character cannot be hit twice. Asma is unaffected." (the same position as test_blade_waltz_example
    in test_flagon_examples.py, with Asma next to Montero's path)"""
    g = position(
        {
            "montero": ("p1", "e6", "N"),
            "thras": ("p2", "e5", "S"),
            "goodheart": ("p3", "c6", "E"),
            "nari": ("p3", "c4", "S"),
            "asma": ("p2", "d7", "N"),
        },
        tables={"t": ["c4", "c5"]},
    )
    ch(g, "montero")["mat"] = []
    step(g, {"montero": ["blade_waltz", "move"]})
    answer(g, "to:montero:d6", "turn:montero:W")  # (1): Goodheart ahead
    answer(g, "to:montero:c5", "turn:montero:N")  # (2): onto the table, Nari ahead
    assert ch(g, "montero")["pos"] == "c5" and not ch(g, "montero")["prone"]
    answer(g, "to:montero:d5", "turn:montero:E")  # (3): off the table, facing Thras again: the waltz ends
    assert all(a.startswith("face:montero:") for a in g.legal_actions("p1"))  # no further attack
    answer(g, "face:montero:E")
    assert [rep(g, c) for c in ("thras", "goodheart", "nari", "asma", "montero")] == [17, 17, 17, 20, 29]
