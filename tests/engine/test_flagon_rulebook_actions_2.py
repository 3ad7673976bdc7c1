"""The rulebook's explanations of the common action cards, second part: Riposte, Swing, Slash,
Throw and Yank Rug (FL-25.66 to FL-25.121 of docs/rules-map/flagon.md). The rulebook's worked
examples for these cards are played in test_flagon_examples.py; these tests check the general
sentences around them."""

from __future__ import annotations

from typing import Any

from engine.base import Event
from engine.flagon.game import FlagonGame
from tests.engine.flagon_support import answer, position, step, texts


def ch(g: FlagonGame, cid: str) -> dict[str, Any]:
    char: dict[str, Any] = g.s["chars"][cid]
    return char


def rep(g: FlagonGame, cid: str) -> int:
    return int(ch(g, cid)["rep"])


def viewed(g: FlagonGame, cid: str) -> dict[str, Any]:
    """What everyone sees of one character."""
    return next(c for c in g.view(None)["characters"] if c["id"] == cid)


def daze_until_facing(g: FlagonGame) -> list[Event]:
    """Answer every Daze question with the first card offered, up to the next facing question."""
    out: list[Event] = []
    while g.s["pending"] and g.s["pending"]["verb"] == "daze":
        out += answer(g, sorted(g.legal_actions(g.to_act()[0]))[0])
    return out


# ---------------------------------------------------------------------------------------- Riposte


def test_riposte_lasts_the_chosen_one_to_three_steps_with_its_card_left_up_and_no_status_token():
    """FL-25.68 "When you perform the Action, choose whether it lasts for 1, 2, or 3 Time Steps, and
    move your Character Token that number of spaces forward."
    FL-25.69 "Note that there is no Status Token for Riposte, since it always ends the next time your
    character is Active."
    FL-25.70 "Leave the Riposte card up as a reminder that you are performing the Action."
    FL-25.73 "When you take your next Action Riposte expires."
    """
    g = position({"montero": ("p1", "e5", "N"), "thras": ("p2", "e4", "S")}, marker=12)
    step(g, {"montero": ["riposte", "move"]})
    assert set(g.legal_actions("p1")) == {"time:montero:1", "time:montero:2", "time:montero:3"}
    answer(g, "time:montero:1", "face:montero:N")
    assert ch(g, "montero")["token"] == 13
    assert g.s["statuses"] == [] and g.view(None)["time"]["status_tokens"] == []
    seen = viewed(g, "montero")
    assert seen["riposte"] and "riposte" in seen["faceup"]
    # Step 13: Montero is active again, so the Riposte ends before his next card ...
    g.s["marker"] = 13
    ev = step(g, {"montero": ["move", "slash"], "thras": ["slash", "move"]}, order=["montero", "thras"])
    assert "Riposte ends" in texts(ev)
    assert not ch(g, "montero")["riposte"] and "riposte" not in ch(g, "montero")["faceup"]
    answer(g, "to:montero:stay", "face:montero:N")
    # ... and Thras's Slash from a Riposte square now lands.
    answer(g, "face:thras:S")
    assert rep(g, "montero") == 18 and rep(g, "thras") == 22


def test_riposte_stops_several_weapon_attacks_from_its_squares_only():
    """FL-25.71 "If you are the subject of what would normally be a successful Weapon attack, and the
    character attacking you is in one of the highlighted squares on the Riposte card, the attack fails
    instead."
    FL-25.72 "In addition, you gain 7 Reputation from the would-be attacker, and they are Dazed for two
    actions."
    FL-25.74 "It is possible for Riposte to stop multiple attacks before it expires."
    FL-25.96 "Slash: Slash is a weapon attack."
    """
    g = position(
        {
            "montero": ("p1", "e5", "N"),
            "thras": ("p2", "e4", "S"),  # in front of Montero: a Riposte square
            "nari": ("p3", "d4", "S"),  # front-left: a Riposte square
            "goodheart": ("p3", "e6", "N"),  # behind Montero: not a Riposte square
        },
        marker=5,
    )
    ch(g, "montero").update(riposte=True, faceup=["riposte"], token=9)
    ev = step(
        g,
        {"thras": ["slash", "move"], "nari": ["slash", "move"], "goodheart": ["slash", "move"]},
        order=["thras", "nari", "goodheart"],
    )
    ev += daze_until_facing(g)
    assert len(ch(g, "thras")["slots"]) == 3  # Dazed for two actions
    ev += answer(g, "face:thras:S")
    ev += daze_until_facing(g)
    assert len(ch(g, "nari")["slots"]) == 3
    answer(g, "face:nari:S")
    assert texts(ev).count("ripostes") == 2
    assert ch(g, "montero")["riposte"]  # still up after two attacks
    answer(g, "face:goodheart:N")  # from behind: the Slash lands
    assert rep(g, "thras") == 13 and rep(g, "nari") == 13
    assert rep(g, "goodheart") == 22 and rep(g, "montero") == 20 + 7 + 7 - 2


# ------------------------------------------------------------------------------------------ Swing


def test_swing_from_the_floor_is_cancelled():
    """FL-25.85 "Swing: In order to Swing from the rafters you must be standing on a table."
    FL-25.86 "If you are on the floor you cannot Swing."
    """
    g = position({"goodheart": ("p1", "e9", "N"), "nari": ("p2", "e7", "S")}, tables={"t": ["h9", "i9"]})
    ev = step(g, {"goodheart": ["swing", "move"]})
    assert "Swing is cancelled" in texts(ev)
    answer(g, "face:goodheart:N")
    assert ch(g, "goodheart")["pos"] == "e9" and ch(g, "goodheart")["token"] == 2
    assert rep(g, "nari") == 20 and rep(g, "goodheart") == 20


# ------------------------------------------------------------------------------------------ Slash


def test_slash_hits_every_character_in_its_squares():
    """FL-25.97 "All characters in the highlighted squares are affected." """
    g = position(
        {
            "goodheart": ("p1", "e5", "N"),
            "nari": ("p2", "d4", "S"),
            "teo": ("p2", "e4", "S"),
            "asma": ("p3", "f4", "S"),
            "thras": ("p3", "e3", "S"),  # two squares ahead: not a Slash square
        }
    )
    step(g, {"goodheart": ["slash", "move"]})
    answer(g, "face:goodheart:N")
    assert [rep(g, c) for c in ("nari", "teo", "asma")] == [18, 18, 18]
    assert rep(g, "thras") == 20 and rep(g, "goodheart") == 26


# ------------------------------------------------------------------------------------------ Throw


def test_throw_must_hit_the_first_character_on_the_line_even_a_friend():
    """FL-25.103 "If there is a target that you can hit, you must hit it, even if that is a friendly
    character or someone that you do not wish to hit."
    FL-25.104 "If there are multiple characters along the direction you are throwing, you must hit the
    first one the object reaches."
    """
    pos = {
        "thras": ("p1", "e8", "N"),
        "asma": ("p1", "e6", "S"),  # Thras's own other character, first on the straight line
        "nari": ("p2", "e4", "S"),  # behind Asma on the same line
    }
    g = position(pos)
    ch(g, "thras")["held"] = "mug"
    step(g, {"thras": ["throw", "move"]})
    daze_until_facing(g)  # the mug's Daze on Asma
    assert g.s["pending"]["verb"] == "face"  # one line with a target: no choice, not even "nothing"
    assert rep(g, "asma") == 18 and rep(g, "nari") == 20
    # With a second line open the thrower chooses the line, never "nothing" and never Nari.
    g = position({**pos, "montero": ("p2", "g6", "W")})
    ch(g, "thras")["held"] = "mug"
    step(g, {"thras": ["throw", "move"]})
    assert set(g.legal_actions("p1")) == {"dir:thras:N", "dir:thras:NE"}
    answer(g, "dir:thras:N")
    daze_until_facing(g)
    answer(g, "face:thras:N")
    assert rep(g, "asma") == 18 and rep(g, "nari") == 20 and rep(g, "montero") == 20


def test_thrown_mugs_fly_any_distance_chairs_three_and_both_leave_the_game():
    """FL-25.101 "Chairs can hit something up to three squares away."
    FL-25.102 "Mugs can be thrown any distance."
    FL-25.105 "After an object is thrown it is removed from the game."
    FL-25.106 "If there are no targets you throw the mug or chair at nothing, and still must remove the
    object from the game."
    """
    # A mug crosses the whole tavern.
    g = position({"thras": ("p1", "e11", "N"), "nari": ("p2", "e1", "S")})
    ch(g, "thras")["held"] = "mug"
    step(g, {"thras": ["throw", "move"]})
    daze_until_facing(g)
    answer(g, "face:thras:N")
    assert rep(g, "nari") == 18 and ch(g, "thras")["held"] is None and g.s["mugs"] == {}
    # A chair reaches three squares ...
    g = position({"thras": ("p1", "e8", "N"), "nari": ("p2", "e5", "S")})
    ch(g, "thras")["held"] = "chair"
    step(g, {"thras": ["throw", "move"]})
    answer(g, "face:thras:N")
    assert ch(g, "nari")["prone"] and ch(g, "thras")["held"] is None and g.s["chairs"] == {}
    # ... but not four: it is thrown at nothing and is gone all the same.
    g = position({"thras": ("p1", "e8", "N"), "nari": ("p2", "e4", "S")})
    ch(g, "thras")["held"] = "chair"
    ev = step(g, {"thras": ["throw", "move"]})
    assert "throws the chair at nothing" in texts(ev)
    answer(g, "face:thras:N")
    assert not ch(g, "nari")["prone"] and rep(g, "nari") == 20
    assert ch(g, "thras")["held"] is None and g.s["chairs"] == {} and g.s["mugs"] == {}
    assert ch(g, "thras")["token"] == 3  # still a Throw (2 time), not cancelled


# ---------------------------------------------------------------------------------------- Yank Rug


def test_yank_rug_from_a_square_of_that_rug_is_cancelled():
    """FL-25.111 "Yank Rug: To yank a rug you must be directly facing it and not be in a square of
    that rug." (The rulebook example shows the facing part; this is the standing-on-it part.)"""
    g = position({"asma": ("p1", "b6", "E"), "thras": ("p2", "c6", "N")}, rugs={"r": "b5-d8"})
    ev = step(g, {"asma": ["yank_rug", "move"]})
    assert "Yank Rug is cancelled" in texts(ev)
    answer(g, "face:asma:E")
    assert not ch(g, "thras")["prone"] and rep(g, "thras") == 20 and ch(g, "asma")["token"] == 2


def test_yank_rug_affects_only_that_rug_which_stays_put():
    """FL-25.112 "Any characters that are on the rug, or on a table that has at least one square over
    the rug is affected."
    FL-25.113 "The rug does not actually move on the board."
    FL-25.115 "The two rugs are separate."
    FL-25.116 "Yanking one rug does not affect the other."
    """
    rugs: dict[str, list[str] | str] = {"r1": "b5-d8", "r2": "g5-i8"}
    g = position(
        {
            "asma": ("p1", "a6", "E"),
            "thras": ("p2", "d8", "N"),  # on the yanked rug
            "nari": ("p2", "e5", "S"),  # on the table end off the rug; the table's d5 is over the rug
            "montero": ("p3", "h6", "W"),  # on the other rug
            "teo": ("p3", "j2", "S"),  # on a table over no rug
            "tuuli": ("p3", "e6", "S"),  # on the floor next to the rug
        },
        rugs=rugs,
        tables={"over": ["d5", "e5"], "far": ["j2", "k2"]},
    )
    before = {k: list(v) for k, v in g.s["rugs"].items()}
    step(g, {"asma": ["yank_rug", "move"]})
    answer(g, "face:asma:E")
    assert ch(g, "thras")["prone"] and ch(g, "nari")["prone"]
    assert rep(g, "thras") == 18 and rep(g, "nari") == 18 and rep(g, "asma") == 24
    for cid in ("montero", "teo", "tuuli"):
        assert not ch(g, cid)["prone"] and rep(g, cid) == 20, cid
    assert g.s["rugs"] == before
    assert ch(g, "thras")["pos"] == "d8" and ch(g, "nari")["pos"] == "e5"


def test_swing_passes_through_characters_where_dash_stops_before_them():
    """FL-25.91 "This is the only common card that allows you to move through the same space as
    another character and keep going." Dash stops in front of a character (Move and Charge: see
    test_flagon_examples.py, test_move_example_blocked_squares and test_charge_examples); Swing flies
    on past one."""
    g = position({"teo": ("p1", "e9", "N"), "nari": ("p2", "e6", "S")})
    step(g, {"teo": ["dash", "move"]})
    assert {a.split(":")[2] for a in g.legal_actions("p1")} == {"e8", "e7"}  # not e5 or e4 beyond Nari
    g = position({"teo": ("p1", "e9", "N"), "nari": ("p2", "e7", "S")}, tables={"t": ["e9", "f9"]})
    step(g, {"teo": ["swing", "move"]})
    assert {a.split(":")[2] for a in g.legal_actions("p1")} == {"e6", "e5", "e4"}
    answer(g, "to:teo:e4")
    daze_until_facing(g)
    answer(g, "face:teo:N")
    assert ch(g, "teo")["pos"] == "e4" and ch(g, "nari")["pos"] == "e7" and rep(g, "nari") == 18
