"""Every worked example of the rulebook and the spec, built as its position."""

from __future__ import annotations

import pytest

from tests.engine.flagon_support import answer, deck, position, step, texts


def rep(g, cid):
    return g.s["chars"][cid]["rep"]


def ch(g, cid):
    return g.s["chars"][cid]


def test_turn_example_asma_tuuli_nari():
    # RB "Perform Actions" example A-D: marker on 5, Asma and Tuuli active, Nari waits on 6.
    g = position(
        {"asma": ("p1", "c5", "N"), "tuuli": ("p1", "h8", "N"), "nari": ("p2", "f9", "N")},
        marker=5,
        chairs=["h8"],
    )
    ch(g, "nari")["token"] = 6
    ch(g, "asma").update(held="mug", slots=["throw"])
    ch(g, "tuuli")["slots"] = ["pickup", "move"]
    g._begin_step()
    g.s["forced_order"] = ["asma", "tuuli"]
    g._advance()
    assert g.to_act() == ["p1"]  # only Asma needs a card
    assert all(a.startswith("plan:asma:2:") for a in g.legal_actions("p1"))
    ev = g.play("p1", "plan:asma:2:move")
    assert "throws the mug at nothing" in texts(ev)
    answer(g, "face:asma:N")
    assert ch(g, "asma")["token"] == 7 and ch(g, "asma")["slots"] == ["move"]
    answer(g, "face:tuuli:N")  # Pick Up took the chair (the only choice)
    assert ch(g, "tuuli")["held"] == "chair" and ch(g, "tuuli")["token"] == 6
    assert g.s["marker"] == 6 and g.s["actives"] == ["nari", "tuuli"]


def test_slash_example_goodheart_hits_nari():
    g = position({"goodheart": ("p1", "e5", "N"), "nari": ("p2", "d4", "S")})
    step(g, {"goodheart": ["slash", "move"]})
    answer(g, "face:goodheart:N")
    assert rep(g, "nari") == 18 and rep(g, "goodheart") == 22


def test_move_example_blocked_squares():
    g = position({"goodheart": ("p1", "e5", "N"), "nari": ("p2", "e4", "S"), "asma": ("p2", "d5", "E")})
    step(g, {"goodheart": ["move", "slash"]})
    opts = {a.split(":")[2] for a in g.legal_actions("p1")}
    # e4 (Nari), e3 (only through Nari), d5 (Asma) and d4 (both paths blocked) are out of reach
    assert opts == {"stay", "f5", "f4"}
    answer(g, "to:goodheart:f4", "face:goodheart:N")
    assert ch(g, "goodheart")["pos"] == "f4" and ch(g, "goodheart")["token"] == 3


def test_move_stay_costs_one():
    g = position({"goodheart": ("p1", "e5", "N"), "nari": ("p2", "a1", "S")})
    step(g, {"goodheart": ["move", "slash"]})
    answer(g, "to:goodheart:stay", "face:goodheart:N")
    assert ch(g, "goodheart")["token"] == 2


def test_daze_example_montero():
    # Montero (one card planned) is hit by a mug (Daze 1), then kicked by a swing (Daze 2): only slot III is left.
    g = position(
        {"thras": ("p1", "f2", "S"), "montero": ("p2", "f5", "N"), "jack": ("p3", "f9", "N")},
        tables={"t": ["f9", "g9"]},
    )
    ch(g, "thras")["held"] = "mug"
    ch(g, "montero").update(slots=["move"], token=9)
    step(g, {"thras": ["throw", "move"], "jack": ["swing", "move"]}, order=["thras", "jack"])
    assert g.to_act() == ["p2"] and g.is_private_action("p2", "daze:montero:slash")
    assert g.s["pending"]["verb"] == "daze"
    answer(g, "daze:montero:slash", "face:thras:S")
    assert ch(g, "montero")["slots"] == ["move", "slash"] and rep(g, "montero") == 18
    answer(g, "to:jack:f4")
    answer(g, "daze:montero:dash")
    assert ch(g, "montero")["slots"] == ["move", "slash", "dash"]
    assert g.s["pending"]["verb"] == "face"  # the second Daze point was ignored
    answer(g, "face:jack:S")
    assert ch(g, "jack")["pos"] == "f4" and rep(g, "montero") == 16


def test_boast_duration_example_nari():
    # Marker on 12, Boast duration 6 -> token on 18; on step 18 Montero is drawn first and Boast still runs.
    g = position(
        {"nari": ("p1", "c3", "N"), "montero": ("p2", "h8", "N")}, tables={"t": ["c3", "d3"]}, marker=12
    )
    step(g, {"nari": ["boast", "move"]})
    answer(g, "face:nari:N")
    assert g.s["statuses"] == [{"char": "nari", "card": "boast", "at": 18}]
    assert "boast" in ch(g, "nari")["faceup"]
    g.s["marker"] = 18
    ch(g, "nari")["slots"] = ["move", "move2"]
    step(g, {"montero": ["move", "slash"], "nari": ["move", "move2"]}, order=["montero", "nari"])
    assert g.s["statuses"]  # still running while Montero acts
    answer(g, "to:montero:stay", "face:montero:N")
    assert g.s["statuses"] == [] and "boast" not in ch(g, "nari")["faceup"]


def test_boast_example_asma_bolt_and_barrel():
    g = position(
        {"asma": ("p1", "e3", "S"), "montero": ("p2", "e7", "N"), "goodheart": ("p3", "a9", "E")},
        tables={"t": ["e3", "f3"]},
        barrels=["b9"],
        marker=12,
    )
    step(g, {"asma": ["boast", "arcane_bolt"]})
    answer(g, "face:asma:S")
    g.s["marker"] = ch(g, "asma")["token"]
    step(g, {"asma": ["arcane_bolt", "move"]})
    answer(g, "face:asma:S")
    assert rep(g, "asma") == 25 and rep(g, "montero") == 15  # 3 + 2 for Boast
    # she steps off the table to d9; Goodheart rolls a barrel into her: 7 + 1 = 8
    ch(g, "asma")["pos"] = "d9"
    g.s["marker"] = 16
    step(g, {"goodheart": ["push_barrel", "move"]})
    answer(g, "face:goodheart:E")
    assert rep(g, "goodheart") == 28 and rep(g, "asma") == 17


@pytest.mark.parametrize("length, protected", [(3, True), (2, False)])
def test_riposte_timing_example(length, protected):
    # Montero ripostes on step 12; Thras (next to him) berserks on step 14.
    g = position(
        {"montero": ("p1", "e5", "W"), "thras": ("p2", "d5", "E"), "nari": ("p3", "d4", "S")}, marker=12
    )
    step(g, {"montero": ["riposte", "move"]})
    answer(g, f"time:montero:{length}", "face:montero:W")
    assert ch(g, "montero")["token"] == 12 + length and ch(g, "montero")["riposte"]
    g.s["marker"] = 14
    plans = (
        {"montero": ["move", "slash"], "thras": ["berserk", "move"]}
        if length == 2
        else {"thras": ["berserk", "move"]}
    )
    step(g, plans, order=["montero", "thras"] if length == 2 else ["thras"])
    if length == 2:
        answer(g, "to:montero:stay", "face:montero:W")
    if protected:
        answer(g, "daze:thras:slash", "daze:thras:dash")
        answer(g, "face:thras:E")
        assert rep(g, "montero") == 27 and rep(g, "thras") == 13 + 3  # paid 7, still took 3 from Nari
        assert ch(g, "thras")["slots"] == ["move", "slash", "dash"]
    else:
        answer(g, "face:thras:E")
        assert rep(g, "montero") == 17 and rep(g, "thras") == 26


def test_riposte_does_not_stop_non_weapon_attacks():
    g = position({"goodheart": ("p1", "e6", "N"), "montero": ("p2", "e5", "S")})
    ch(g, "montero").update(riposte=True, faceup=["riposte"], token=9)
    step(g, {"goodheart": ["shield_bash", "move"]})
    answer(g, "daze:montero:slash", "face:goodheart:N")
    assert rep(g, "goodheart") == 22 and ch(g, "montero")["pos"] == "e4"


def test_charge_examples():
    # Goodheart charges Nari two squares ahead and ends one square forward.
    g = position({"goodheart": ("p1", "e8", "N"), "nari": ("p2", "e6", "S")})
    step(g, {"goodheart": ["charge", "move"]})
    answer(g, "face:goodheart:N")
    assert ch(g, "goodheart")["pos"] == "e7" and rep(g, "nari") == 17 and ch(g, "nari")["pos"] == "e5"
    # Nari in the next square: cancelled, time 1.
    g = position({"goodheart": ("p1", "e8", "N"), "nari": ("p2", "e7", "S")})
    ev = step(g, {"goodheart": ["charge", "move"]})
    answer(g, "face:goodheart:N")
    assert "cancelled" in texts(ev) and ch(g, "goodheart")["token"] == 2
    # Thras on the floor facing a table: cancelled. Asma table to table: fine.
    g = position({"thras": ("p1", "c5", "E"), "asma": ("p2", "d7", "E"), "montero": ("p3", "f7", "W")},
                 tables={"a": ["d5", "d6"], "b": ["d7", "e7"]})  # fmt: skip
    ev = step(g, {"thras": ["charge", "move"], "asma": ["charge", "move"]}, order=["thras", "asma"])
    assert "cancelled" in texts(ev)
    answer(g, "face:thras:E", "face:asma:E")
    assert ch(g, "asma")["pos"] == "e7" and rep(g, "montero") == 17


def test_dash_examples():
    g = position(
        {"margalo": ("p1", "c3", "E"), "tuuli": ("p2", "a8", "E")},
        tables={"long": "c3-e4", "small": ["d8", "e8"]},
    )
    step(g, {"margalo": ["dash", "move"], "tuuli": ["dash", "move"]}, order=["margalo", "tuuli"])
    assert {a.split(":")[2] for a in g.legal_actions("p1")} == {"d3", "e3"}  # stays on the table
    answer(g, "to:margalo:e3", "face:margalo:E")
    # Tuuli on the floor can only reach the square before the table (b8, c8 but not d8)
    assert {a.split(":")[2] for a in g.legal_actions("p2")} == {"b8", "c8"}


def test_push_barrel_examples():
    # rolls towards a table; Nari beyond it is hit (7 + knockback)
    g = position(
        {"goodheart": ("p1", "b5", "E"), "nari": ("p2", "g5", "W")},
        tables={"t": ["d5", "e5"]},
        barrels=["c5"],
    )
    step(g, {"goodheart": ["push_barrel", "move"]})
    answer(g, "face:goodheart:E")
    assert rep(g, "nari") == 13 and ch(g, "nari")["pos"] == "h5"
    assert not set(g.s["barrels"]) & {"d5", "e5"}
    # Nari on the table: the barrel passes under and rolls to the wall
    g = position(
        {"goodheart": ("p1", "b5", "E"), "nari": ("p2", "e5", "W")},
        tables={"t": ["d5", "e5"]},
        barrels=["c5"],
    )
    step(g, {"goodheart": ["push_barrel", "move"]})
    answer(g, "face:goodheart:E")
    assert rep(g, "nari") == 20 and g.s["barrels"] == ["k5"]
    # Nari shares the barrel's square: not affected
    g = position({"goodheart": ("p1", "b5", "E"), "nari": ("p2", "c5", "W")}, barrels=["c5"], chairs=["f5"])
    step(g, {"goodheart": ["push_barrel", "move"]})
    answer(g, "face:goodheart:E")
    assert rep(g, "nari") == 20 and g.s["barrels"] == ["k5"] and g.s["chairs"] == {}  # chairs smashed


def test_barrel_stops_before_a_table_against_the_wall():
    g = position(
        {"goodheart": ("p1", "b5", "E"), "nari": ("p2", "a1", "S")},
        tables={"t": ["j5", "k5"]},
        barrels=["c5"],
    )
    step(g, {"goodheart": ["push_barrel", "move"]})
    answer(g, "face:goodheart:E")
    assert g.s["barrels"] == ["i5"]


def test_push_table_example():
    # Goodheart pushes the table north: Asma rides along, Nari (floor, in the way) is knocked back, Tuuli not affected.
    g = position(
        {
            "goodheart": ("p1", "e8", "N"),
            "asma": ("p2", "e6", "S"),
            "nari": ("p3", "e5", "S"),
            "tuuli": ("p3", "g5", "W"),
        },
        tables={"t": "d6-f7"},
        mugs=["d6", "d5"],
    )
    step(g, {"goodheart": ["push_table", "move"]})
    answer(g, "target:goodheart:asma", "face:goodheart:N")
    assert sorted(g.s["tables"]["t"]) == sorted(["d5", "e5", "f5", "d6", "e6", "f6"])
    assert ch(g, "asma")["pos"] == "e5" and ch(g, "nari")["pos"] == "e4" and ch(g, "tuuli")["pos"] == "g5"
    assert rep(g, "asma") == 17 and rep(g, "nari") == 17 and rep(g, "tuuli") == 20
    assert g.s["mugs"] == {"d5": 1, "d4": 1}  # riding mug moved, floor mug shoved
    assert not ch(g, "asma")["prone"]


def test_push_table_into_wall_is_cancelled():
    g = position({"goodheart": ("p1", "e3", "N"), "asma": ("p2", "e2", "S")}, tables={"t": "d1-f2"})
    ev = step(g, {"goodheart": ["push_table", "move"]})
    answer(g, "face:goodheart:N")
    assert "cancelled" in texts(ev) and g.s["tables"]["t"] == sorted(["d1", "e1", "f1", "d2", "e2", "f2"])
    assert ch(g, "goodheart")["token"] == 2 and rep(g, "asma") == 20


def test_push_table_chain():
    g = position(
        {"goodheart": ("p1", "e8", "N"), "nari": ("p2", "e4", "S")},
        tables={"a": ["e6", "e7"], "b": ["e5", "f5"]},
    )
    step(g, {"goodheart": ["push_table", "move"]})
    answer(g, "face:goodheart:N")
    assert g.s["tables"]["a"] == ["e5", "e6"] and g.s["tables"]["b"] == ["e4", "f4"]
    assert ch(g, "nari")["pos"] == "e3" and rep(g, "nari") == 17


def test_swing_example_goodheart():
    # From a table Goodheart swings 5, kicking Nari and Teo; he lands on Teo, who is pushed on.
    g = position(
        {"goodheart": ("p1", "e9", "N"), "nari": ("p2", "e7", "S"), "teo": ("p3", "e4", "S")},
        tables={"t": ["e9", "f9"]},
    )
    step(g, {"goodheart": ["swing", "move"]})
    assert {a.split(":")[2] for a in g.legal_actions("p1")} == {"e6", "e5", "e4"}
    answer(g, "to:goodheart:e4", "daze:nari:slash", "daze:nari:dash", "daze:teo:slash", "daze:teo:dash")
    answer(g, "face:goodheart:S")  # turns back to face Nari
    assert ch(g, "goodheart")["pos"] == "e4" and ch(g, "teo")["pos"] == "e3"
    assert rep(g, "goodheart") == 24 and rep(g, "nari") == 18 and rep(g, "teo") == 18


def test_cancel_example_prone_swing():
    g = position({"goodheart": ("p1", "e9", "N"), "nari": ("p2", "a1", "S")}, tables={"t": ["e9", "f9"]})
    ch(g, "goodheart")["prone"] = True
    ev = step(g, {"goodheart": ["swing", "move"]})
    assert "cancelled" in texts(ev) and not ch(g, "goodheart")["prone"]
    answer(g, "face:goodheart:W")
    assert ch(g, "goodheart")["token"] == 2 and ch(g, "goodheart")["facing"] == "W"
    assert "swing" not in ch(g, "goodheart")["faceup"]


def test_prone_non_purple_card_is_performed_standing():
    g = position({"goodheart": ("p1", "e5", "N"), "nari": ("p2", "a1", "S")})
    ch(g, "goodheart")["prone"] = True
    step(g, {"goodheart": ["move", "slash"]})
    answer(g, "to:goodheart:e3", "face:goodheart:N")
    assert ch(g, "goodheart")["pos"] == "e3" and not ch(g, "goodheart")["prone"]


def test_throw_targets_example():
    # Thras faces north: Nari 2 ahead, Montero 4 along the diagonal, Goodheart and Asma beside/behind.
    pos = {"thras": ("p1", "e8", "N"), "nari": ("p2", "e6", "S"), "montero": ("p2", "a4", "E"),
           "goodheart": ("p3", "f8", "W"), "asma": ("p3", "e10", "N")}  # fmt: skip
    g = position(pos)
    ch(g, "thras")["held"] = "mug"
    step(g, {"thras": ["throw", "move"]})
    assert set(g.legal_actions("p1")) == {"dir:thras:N", "dir:thras:NW"}
    g = position(pos)
    ch(g, "thras")["held"] = "chair"
    step(g, {"thras": ["throw", "move"]})
    assert g.s["pending"]["verb"] == "face"  # only Nari: no choice
    assert rep(g, "nari") == 17 and ch(g, "nari")["prone"] and ch(g, "thras")["held"] is None


def test_throw_without_item_is_cancelled():
    g = position({"thras": ("p1", "e8", "N"), "nari": ("p2", "e6", "S")})
    ev = step(g, {"thras": ["throw", "move"]})
    assert "cancelled: holding throwable" in texts(ev)


def test_yank_rug_example():
    g = position(
        {
            "asma": ("p1", "a6", "E"),
            "thras": ("p2", "c6", "N"),
            "nari": ("p3", "e5", "S"),
            "goodheart": ("p3", "b9", "S"),
        },
        rugs={"r": "b5-d8"},
        tables={"t": ["d5", "e5"]},
    )
    step(g, {"asma": ["yank_rug", "move"], "goodheart": ["yank_rug", "move"]}, order=["asma", "goodheart"])
    ev = answer(g, "face:asma:E")
    assert ch(g, "thras")["prone"] and ch(g, "nari")["prone"] and rep(g, "asma") == 24
    assert "Yank Rug is cancelled" in texts(ev)


def test_flip_table_examples():
    # Nari on the table is thrown past Goodheart, who stands against the far side.
    g = position(
        {"thras": ("p1", "e8", "N"), "nari": ("p2", "e7", "S"), "goodheart": ("p3", "e5", "S")},
        tables={"t": ["e7", "e6"]},
    )
    step(g, {"thras": ["flip_table", "move"]})
    answer(g, "target:thras:nari", "face:thras:N")
    assert "t" not in g.s["tables"] and ch(g, "nari")["pos"] == "e4" and ch(g, "goodheart")["pos"] == "e5"
    assert ch(g, "nari")["prone"] and ch(g, "goodheart")["prone"] and rep(g, "thras") == 26
    # Nari at the far end lands on Goodheart, who is knocked back.
    g = position(
        {"thras": ("p1", "e8", "N"), "nari": ("p2", "e6", "S"), "goodheart": ("p3", "e5", "S")},
        tables={"t": ["e7", "e6"]},
    )
    step(g, {"thras": ["flip_table", "move"]})
    answer(g, "target:thras:nari", "face:thras:N")
    assert ch(g, "nari")["pos"] == "e5" and ch(g, "goodheart")["pos"] == "e4"
    # The short way: only Goodheart (beyond the short side) is affected.
    g = position(
        {"thras": ("p1", "d6", "E"), "goodheart": ("p3", "f6", "W"), "nari": ("p2", "a1", "S")},
        tables={"t": ["e6", "e7"]},
    )
    step(g, {"thras": ["flip_table", "move"]})
    answer(g, "face:thras:N")
    assert rep(g, "goodheart") == 17 and ch(g, "goodheart")["pos"] == "f6" and g.s["tables"] == {}


def test_shove_slides_across_table():
    g = position({"thras": ("p1", "e9", "N"), "nari": ("p2", "e8", "S")}, tables={"t": ["e7", "e6"]})
    step(g, {"thras": ["shove", "move"]})
    answer(g, "face:thras:N")
    assert ch(g, "nari")["pos"] == "e5" and rep(g, "thras") == 26  # 3 squares x 2


def test_shove_needs_standing_target():
    g = position({"thras": ("p1", "e9", "N"), "nari": ("p2", "e8", "S")})
    ch(g, "nari")["prone"] = True
    step(g, {"thras": ["shove", "move"]})
    answer(g, "face:thras:N")
    assert ch(g, "nari")["pos"] == "e8" and rep(g, "thras") == 20


def test_flagon_example_battle_frenzy_kept_after_drop():
    g = position({"thras": ("p1", "f7", "N"), "asma": ("p2", "d3", "E")})
    ch(g, "thras")["held"] = "mug"
    step(g, {"thras": ["pickup", "move"]})
    answer(g, "item:thras:flagon", "face:thras:N")
    assert ch(g, "thras")["held"] == "flagon" and g.s["mugs"] == {"f7": 1}
    assert "battle_frenzy" not in ch(g, "thras")["mat"]
    ch(g, "thras")["pos"] = "e4"
    g.s["marker"] = 10
    step(g, {"asma": ["arc_lightning", "move"]})
    answer(g, "face:asma:E")
    assert g.s["prizes"]["flagon"] == "f6" and ch(g, "thras")["held"] is None
    assert "battle_frenzy" in deck(g, "thras")  # kept, still unplanned


def test_battle_frenzy_pays_after_every_action_and_ends_on_daze():
    g = position({"thras": ("p1", "e5", "N"), "nari": ("p2", "e4", "S"), "asma": ("p3", "d6", "N")})
    ch(g, "thras")["mat"] = []
    step(g, {"thras": ["battle_frenzy", "move"]})
    answer(g, "face:thras:N")
    assert rep(g, "thras") == 24  # 2 from Nari and 2 from Asma at the end of the Frenzy action itself
    g.s["marker"] = 2
    step(g, {"thras": ["move", "slash"]})
    answer(g, "to:thras:stay", "face:thras:N")
    assert rep(g, "thras") == 28
    ch(g, "nari")["held"] = "mug"
    g.s["marker"] = ch(g, "thras")["token"]
    step(g, {"nari": ["throw", "move"], "thras": ["move", "slash"]}, order=["nari", "thras"])
    answer(g, "daze:thras:dash", "face:nari:S")
    assert not any(st["card"] == "battle_frenzy" for st in g.s["statuses"])
    assert "battle_frenzy" in ch(g, "thras")["mat"]


def test_bite_example_nari_skips_action():
    g = position({"margalo": ("p1", "e5", "N"), "nari": ("p2", "e4", "S")})
    step(g, {"margalo": ["bite", "move"], "nari": ["slash", "move"]}, order=["margalo", "nari"])
    ev = answer(g, "face:margalo:N")
    assert (
        rep(g, "nari") == 16 and ch(g, "nari")["token"] == 3 and ch(g, "nari")["slots"] == ["slash", "move"]
    )
    assert "Nari was pushed along the time track and does not act." in texts(ev)


def test_ice_cone_pushes_token_one():
    g = position({"asma": ("p1", "e7", "N"), "nari": ("p2", "e4", "S")})
    step(g, {"asma": ["ice_cone", "move"], "nari": ["slash", "move"]}, order=["asma", "nari"])
    answer(g, "face:asma:N")
    assert rep(g, "nari") == 18 and ch(g, "nari")["token"] == 2 and g.s["marker"] == 2


def test_blade_waltz_example():
    # Thras ahead; then Goodheart; then Nari from the table; then facing Thras again: stop.
    g = position(
        {
            "montero": ("p1", "e6", "N"),
            "thras": ("p2", "e5", "S"),
            "goodheart": ("p3", "c6", "E"),
            "nari": ("p3", "c4", "S"),
        },
        tables={"t": ["c4", "c5"]},
    )
    ch(g, "montero")["mat"] = []
    step(g, {"montero": ["blade_waltz", "move"]})
    answer(g, "to:montero:d6", "turn:montero:W")  # (1) attacks Goodheart next
    answer(g, "to:montero:c5", "turn:montero:N")  # (2) onto the table, facing Nari
    answer(g, "to:montero:d5", "turn:montero:E")  # (3) off the table, facing Thras again: stop
    answer(g, "face:montero:N")
    assert (
        rep(g, "thras") == 17
        and rep(g, "goodheart") == 17
        and rep(g, "nari") == 17
        and rep(g, "montero") == 29
    )
    assert "blade_waltz" in ch(g, "montero")["mat"] and ch(g, "montero")["token"] == 5


def test_blade_waltz_cannot_hit_same_character_twice():
    g = position({"montero": ("p1", "e6", "N"), "thras": ("p2", "e5", "S")})
    ch(g, "montero")["mat"] = []
    step(g, {"montero": ["blade_waltz", "move"]})
    answer(g, "to:montero:stay", "turn:montero:N", "face:montero:N")
    assert rep(g, "thras") == 17


def test_shadow_step_example_behind_goodheart():
    g = position({"nari": ("p1", "e7", "N"), "goodheart": ("p2", "e6", "N")})
    step(g, {"nari": ["shadow_step", "move"]})
    answer(g, "face:nari:S")  # the single destination e5 needs no prompt; she turns to face his back
    assert ch(g, "nari")["pos"] == "e5" and ch(g, "nari")["token"] == 2


def test_shadow_dash_anywhere_behind():
    g = position({"nari": ("p1", "a1", "S"), "goodheart": ("p2", "h8", "N")})
    ch(g, "nari")["mat"] = []
    g.s["statuses"].append({"char": "nari", "card": "shadow_dash", "at": 9})
    ch(g, "nari")["faceup"] = ["shadow_dash"]
    step(g, {"nari": ["shadow_step", "move"]})
    answer(g, "face:nari:N")
    assert ch(g, "nari")["pos"] == "h9"


def test_eyes_of_gaia():
    g = position({"margalo": ("p1", "e5", "N"), "nari": ("p2", "a1", "S")})
    ch(g, "margalo")["mat"] = []
    step(g, {"margalo": ["eyes_of_gaia", "slash", "dash"]})
    answer(g, "face:margalo:N")
    m = ch(g, "margalo")
    assert m["slots"] == [] and "eyes_of_gaia" in m["faceup"]
    assert g.need("margalo") == 1  # only one card now
    g._begin_step()
    acts = g.legal_actions("p1")
    assert "plan:margalo:1:slash" in acts and "plan:margalo:1:eyes_of_gaia" not in acts
    # Daze and Fall are ignored
    step(g, {"nari": ["move", "slash"]})
    answer(g, "to:nari:stay", "face:nari:S")
    ch(g, "nari")["held"] = "chair"
    ch(g, "nari")["pos"] = "e3"
    g.s["marker"] = m["token"]
    m["slots"] = ["slash"]
    step(g, {"nari": ["throw", "move"], "margalo": ["slash"]}, order=["nari", "margalo"])
    answer(g, "face:nari:S")
    assert not ch(g, "margalo")["prone"]
    answer(g, "face:margalo:N")
    # the same card may not be played twice in a row
    g.s["marker"] = ch(g, "margalo")["token"]
    g._begin_step()
    assert "plan:margalo:1:slash" not in g.legal_actions("p1")


def test_tie_break_example():
    g = position(
        {
            "goodheart": ("p1", "a1", "S"),
            "nari": ("p2", "c1", "S"),
            "tuuli": ("p3", "e1", "S"),
            "asma": ("p4", "g1", "S"),
        },
        marker=22,
    )
    for cid, r, tok, seq in [
        ("goodheart", 25, 23, 5),
        ("nari", 25, 24, 7),
        ("tuuli", 18, 24, 6),
        ("asma", 12, 25, 8),
    ]:
        ch(g, cid).update(rep=r, token=tok, seq=seq)
    g._finish("Town Guard")
    assert g.result is not None
    assert g.result.ranking[0] == ["p1"] and g.result.ranking[1] == ["p2"]
    ch(g, "goodheart")["rep"], ch(g, "tuuli")["rep"] = 18, 25
    g.s["result"] = None
    g._finish("Town Guard")
    assert g.result is not None
    assert g.result.ranking[0] == ["p3"]  # Tuuli is lower in the stack on 24


def test_town_guard_ends_the_game_after_the_step():
    g = position({"goodheart": ("p1", "a1", "S"), "nari": ("p2", "c1", "S")}, marker=22)
    g.s["game_end"] = [{"space": 22, "guard": True, "revealed": False}]
    step(g, {"goodheart": ["move", "slash"]})
    answer(g, "to:goodheart:stay", "face:goodheart:S")
    assert g.result is not None
    assert g.is_over and "22" in g.result.reason


def test_arc_lightning_chain_and_boast_does_not_boost_the_ones():
    g = position(
        {
            "asma": ("p1", "e5", "N"),
            "nari": ("p2", "e4", "S"),
            "thras": ("p2", "f3", "S"),
            "teo": ("p3", "g2", "S"),
        }
    )
    g.s["statuses"].append({"char": "asma", "card": "boast", "at": 9})
    ch(g, "asma")["faceup"] = ["boast"]
    step(g, {"asma": ["arc_lightning", "move"]})
    answer(g, "face:asma:N")
    assert rep(g, "nari") == 15 and rep(g, "thras") == 19 and rep(g, "teo") == 19 and rep(g, "asma") == 27


def test_tithe():
    g = position(
        {
            "tuuli": ("p1", "e5", "N"),
            "nari": ("p2", "e4", "S"),
            "thras": ("p1", "f6", "S"),
            "teo": ("p3", "j10", "S"),
        }
    )
    ch(g, "tuuli")["mat"] = []
    ch(g, "nari")["rep"] = 10
    ch(g, "thras")["rep"] = 25
    step(g, {"tuuli": ["tithe", "move"]})
    answer(g, "face:tuuli:N")
    assert rep(g, "nari") == 12 and rep(g, "thras") == 20 and rep(g, "tuuli") == 23  # friends: real transfer


def test_god_smack_four_knockbacks_with_chain():
    g = position({"goodheart": ("p1", "e9", "N"), "nari": ("p2", "e8", "S"), "teo": ("p3", "e6", "S")})
    ch(g, "goodheart")["mat"] = []
    step(g, {"goodheart": ["god_smack", "move"]})
    answer(g, "face:goodheart:N")
    assert ch(g, "nari")["pos"] == "e4" and ch(g, "teo")["pos"] == "e3"
    assert rep(g, "goodheart") == 26 and "god_smack" in ch(g, "goodheart")["mat"]


def test_touch_of_death_and_backstab():
    g = position({"teo": ("p1", "e6", "N"), "nari": ("p2", "e5", "N")})
    step(g, {"teo": ["touch_of_death", "move"]})
    answer(g, "face:teo:N")
    assert rep(g, "teo") == 27
    g = position({"teo": ("p1", "e6", "N"), "nari": ("p2", "e5", "E")})
    step(g, {"teo": ["touch_of_death", "move"]})
    answer(g, "face:teo:N")
    assert rep(g, "teo") == 22
    g = position({"nari": ("p1", "e6", "N"), "teo": ("p2", "f5", "E")})
    step(g, {"nari": ["backstab", "move"]})
    answer(g, "face:nari:N")
    assert rep(g, "nari") == 25
    g = position({"nari": ("p1", "e6", "N"), "teo": ("p2", "f5", "S")})
    step(g, {"nari": ["backstab", "move"]})
    answer(g, "face:nari:N")
    assert rep(g, "nari") == 21


def test_wall_slide_is_chosen_by_the_victims_controller():
    g = position({"goodheart": ("p1", "e3", "N"), "nari": ("p2", "e2", "S"), "teo": ("p3", "e1", "S")})
    step(g, {"goodheart": ["shield_bash", "move"]})
    answer(g, "daze:nari:slash")
    assert g.to_act() == ["p3"] and set(g.legal_actions("p3")) == {"slide:teo:d1", "slide:teo:f1"}
    answer(g, "slide:teo:f1", "face:goodheart:N")
    assert ch(g, "teo")["pos"] == "f1" and ch(g, "nari")["pos"] == "e1"


def test_knockback_onto_table_falls():
    g = position({"goodheart": ("p1", "e7", "N"), "nari": ("p2", "e6", "S")}, tables={"t": ["e5", "f5"]})
    step(g, {"goodheart": ["shield_bash", "move"]})
    answer(g, "daze:nari:slash", "face:goodheart:N")
    assert ch(g, "nari")["pos"] == "e5" and ch(g, "nari")["prone"]


def test_friendly_fire_removes_points():
    g = position({"goodheart": ("p1", "e5", "N"), "nari": ("p1", "e4", "S"), "teo": ("p2", "a1", "S")})
    step(g, {"goodheart": ["slash", "move"]})
    answer(g, "face:goodheart:N")
    assert rep(g, "nari") == 18 and rep(g, "goodheart") == 20 and g.s["removed_rep"] == 2


def test_reputation_transfer_capped():
    g = position({"goodheart": ("p1", "e5", "N"), "nari": ("p2", "e4", "S")})
    ch(g, "nari")["rep"] = 1
    step(g, {"goodheart": ["slash", "move"]})
    answer(g, "face:goodheart:N")
    assert rep(g, "nari") == 0 and rep(g, "goodheart") == 21


def test_mark_prey_adds_two_once():
    g = position({"margalo": ("p1", "e5", "N"), "nari": ("p2", "e4", "S")})
    step(g, {"margalo": ["mark_prey", "bite"]})
    answer(g, "face:margalo:N")
    assert g.s["mark"] == {"by": "margalo", "on": "nari"}
    g.s["marker"] = 2
    step(g, {"margalo": ["bite", "slash"]})
    answer(g, "face:margalo:N")
    assert rep(g, "margalo") == 26 and g.s["mark"] is None


def test_chug_three_cards_and_smaller_losses():
    g = position({"jack": ("p1", "e5", "N"), "nari": ("p2", "e3", "S")})
    ch(g, "jack")["held"] = "mug"
    step(g, {"jack": ["chug", "move"]})
    answer(g, "face:jack:N")
    assert g.need("jack") == 2  # one card left, three wanted
    ch(g, "nari")["pos"] = "e4"
    g.s["marker"] = 5
    step(g, {"nari": ["slash", "move"]})
    answer(g, "face:nari:S")
    assert rep(g, "jack") == 19


def test_hand_cannon_loaded_then_reload():
    g = position({"jack": ("p1", "e9", "N"), "nari": ("p2", "e3", "S")})
    step(g, {"jack": ["hand_cannon", "hand_cannon"]})
    answer(g, "face:jack:N")
    assert rep(g, "nari") == 16 and ch(g, "nari")["pos"] == "e2" and not ch(g, "jack")["loaded"]
    g.s["marker"] = ch(g, "jack")["token"]
    step(g, {"jack": ["hand_cannon", "move"]})
    answer(g, "face:jack:N")
    assert rep(g, "nari") == 16 and ch(g, "jack")["loaded"]


def test_lure_of_the_sea_pulls_orthogonally():
    g = position({"jack": ("p1", "e5", "N"), "nari": ("p2", "f3", "S")})
    step(g, {"jack": ["lure", "move"]})
    assert set(g.legal_actions("p1")) == {"to:jack:e3", "to:jack:f4"}
    answer(g, "to:jack:f4", "face:jack:N")
    assert ch(g, "nari")["pos"] == "f4" and rep(g, "jack") == 22


def test_cannon_barrage_resolves_before_jacks_next_action():
    g = position({"jack": ("p1", "e5", "N"), "nari": ("p2", "h8", "S"), "teo": ("p3", "a1", "S")})
    ch(g, "jack")["mat"] = []
    step(g, {"jack": ["cannon_barrage", "move"]})
    answer(g, "at:jack:h7", "face:jack:N")
    assert g.s["barrage"] == {"at": "h7", "owner": "jack"} and rep(g, "nari") == 20
    ch(g, "jack")["pos"] = "g6"
    g.s["marker"] = ch(g, "jack")["token"]
    step(g, {"jack": ["move", "slash"]})
    assert rep(g, "nari") == 16 and rep(g, "jack") == 20 and g.s["removed_rep"] == 4


def test_divine_inspiration_goes_first():
    g = position({"tuuli": ("p1", "e5", "N"), "nari": ("p2", "a1", "S")})
    g.s["statuses"].append({"char": "tuuli", "card": "divine_inspiration", "at": 9})
    ch(g, "tuuli")["faceup"] = ["divine_inspiration"]
    step(g, {"nari": ["move", "slash"], "tuuli": ["move", "slash"]}, order=["nari", "tuuli"])
    assert g.s["order"][0] == "tuuli"


def test_vision_costs_one_more():
    g = position({"tuuli": ("p1", "e5", "N"), "nari": ("p2", "e4", "S")})
    step(g, {"tuuli": ["vision", "move"]})
    assert "vision:tuuli:cancel" in g.legal_actions("p1")
    answer(g, "vision:tuuli:slash", "face:tuuli:N")
    assert rep(g, "nari") == 18 and ch(g, "tuuli")["token"] == 4


def test_daggerang_hit_removes_the_card():
    g = position({"nari": ("p1", "e9", "N"), "teo": ("p2", "e3", "S")})
    step(g, {"nari": ["daggerang", "move"]})
    answer(g, "face:nari:N")
    assert rep(g, "teo") == 17 and ch(g, "nari")["removed"] == ["daggerang"]
    assert not any(a.endswith(":daggerang") for a in g.legal_actions("p1"))


def test_familiar_and_arcano_convergence():
    g = position({"asma": ("p1", "a1", "S"), "nari": ("p2", "h5", "S")})
    ch(g, "asma")["mat"] = []
    step(g, {"asma": ["arcano", "familiar"]})
    answer(g, "face:asma:S")
    g.s["marker"] = ch(g, "asma")["token"]
    step(g, {"asma": ["familiar", "arcane_bolt"]})
    answer(g, "at:asma:h8", "turn:asma:N", "face:asma:S")
    assert g.s["familiar"] == {"at": "h8", "facing": "N"} and ch(g, "asma")["token"] == 3  # Familiar costs 1
    g.s["marker"] = 3
    step(g, {"asma": ["arcane_bolt", "move"]})
    answer(g, "from:asma:familiar", "face:asma:S")
    assert rep(g, "nari") == 17 and ch(g, "asma")["token"] == 4


def test_snatch_flagon_gives_shadow_dash():
    g = position({"nari": ("p1", "e5", "N"), "teo": ("p2", "e4", "S")})
    ch(g, "teo")["held"] = "flagon"
    g.s["prizes"]["flagon"] = None
    ch(g, "teo")["mat"] = []
    step(g, {"nari": ["snatch", "move"]})
    answer(g, "face:nari:N")
    assert ch(g, "nari")["held"] == "flagon" and "shadow_dash" not in ch(g, "nari")["mat"]


def test_flagon_dropped_on_reputation_loss():
    g = position({"goodheart": ("p1", "e5", "N"), "nari": ("p2", "e4", "S")})
    ch(g, "nari")["held"] = "flagon"
    g.s["prizes"]["flagon"] = None
    step(g, {"goodheart": ["slash", "move"]})
    answer(g, "face:goodheart:N")
    assert ch(g, "nari")["held"] is None and g.s["prizes"]["flagon"] == "f6"


def test_earthbond_ignores_knockback_and_fall():
    g = position({"thras": ("p1", "e9", "N"), "goodheart": ("p2", "e8", "S")})
    g.s["statuses"].append({"char": "goodheart", "card": "earthbond", "at": 9})
    step(g, {"thras": ["shove", "move"]})
    answer(g, "face:thras:N")
    assert ch(g, "goodheart")["pos"] == "e8" and rep(g, "thras") == 20


def test_radiance_only_hits_those_facing_him():
    g = position({"goodheart": ("p1", "e5", "N"), "nari": ("p2", "e4", "S"), "teo": ("p3", "f5", "E")})
    step(g, {"goodheart": ["radiance", "move"]})
    answer(g, "daze:nari:slash", "face:goodheart:N")
    assert rep(g, "nari") == 18 and rep(g, "teo") == 20


def test_sixth_sense_turn_before_acting():
    g = position({"teo": ("p1", "e5", "N"), "nari": ("p2", "f5", "S")})
    g.s["statuses"].append({"char": "teo", "card": "sixth_sense", "at": 9})
    step(g, {"teo": ["touch_of_death", "move"]})
    assert g.s["pending"]["verb"] == "preface"
    answer(g, "preface:teo:E")
    assert rep(g, "teo") == 22 and g.s["chars"]["teo"]["facing"] == "E"
    assert g.s["pending"] is None or g.s["pending"]["verb"] != "face"  # no second facing change


def test_dragon_kick_lands_on_target():
    g = position({"teo": ("p1", "e9", "N"), "nari": ("p2", "e5", "S")})
    ch(g, "teo")["mat"] = []
    step(g, {"teo": ["dragon_kick", "move"]})
    answer(g, "to:teo:e5", "face:teo:N")
    assert ch(g, "teo")["pos"] == "e5" and ch(g, "nari")["pos"] == "e4" and rep(g, "teo") == 25


def test_arise_and_leap():
    g = position({"tuuli": ("p1", "e5", "N"), "nari": ("p2", "e4", "S"), "teo": ("p1", "f6", "S")})
    ch(g, "nari")["prone"] = True
    ch(g, "teo")["prone"] = True
    step(g, {"tuuli": ["arise", "move"]})
    answer(g, "face:tuuli:N")
    assert (
        rep(g, "tuuli") == 23
        and rep(g, "teo") == 20
        and not ch(g, "nari")["prone"]
        and not ch(g, "teo")["prone"]
    )
    g = position({"teo": ("p1", "e9", "N"), "nari": ("p2", "e8", "S")})
    step(g, {"teo": ["leap", "move"]})
    assert "to:teo:e7" in g.legal_actions("p1")


def test_living_wood_and_wildstyle():
    g = position(
        {"margalo": ("p1", "e6", "N"), "nari": ("p2", "e5", "S"), "teo": ("p3", "h5", "S")},
        tables={"t": "e5-f5", "u": ["h5", "h6"]},
    )
    step(g, {"margalo": ["living_wood", "move"]})
    answer(g, "face:margalo:N")
    assert rep(g, "margalo") == 24 and ch(g, "nari")["prone"] and ch(g, "teo")["prone"]
    g = position({"margalo": ("p1", "e6", "N"), "nari": ("p2", "e5", "S")})
    step(g, {"margalo": ["wildstyle", "move"]})
    answer(g, "daze:margalo:dash")
    assert rep(g, "margalo") == 23 and ch(g, "margalo")["slots"] == ["move", "dash"]


def test_sword_dance_flunge_wave_hat_witty_retort_warcry_berserk_smackdown():
    g = position({"montero": ("p1", "e6", "N"), "nari": ("p2", "e5", "S")})
    step(g, {"montero": ["sword_dance", "move"]})
    answer(g, "to:montero:d6", "face:montero:N")
    assert rep(g, "montero") == 22 and ch(g, "montero")["pos"] == "d6"
    g = position({"montero": ("p1", "e6", "N"), "nari": ("p2", "d4", "S")}, tables={"t": ["e6", "f6"]})
    step(g, {"montero": ["flunge", "move"]})
    answer(g, "face:montero:N")
    assert ch(g, "montero")["pos"] == "e5" and rep(g, "montero") == 23
    for card, expect in (("wave_hat", 19), ("witty_retort", 18), ("smackdown", 16)):
        owner = "tuuli" if card == "smackdown" else "montero"
        g = position({owner: ("p1", "e6", "N"), "nari": ("p2", "e5", "S")})
        step(g, {owner: [card, "move"]})
        answer(g, *(["daze:nari:slash"] if card != "smackdown" else []), f"face:{owner}:N")
        assert rep(g, "nari") == expect, card
    g = position({"thras": ("p1", "e6", "N"), "nari": ("p2", "d4", "S"), "teo": ("p3", "e7", "N")})
    step(g, {"thras": ["warcry", "berserk"]})
    answer(g, "daze:nari:slash", "face:thras:N")
    assert rep(g, "nari") == 19 and rep(g, "teo") == 20


def test_vision_into_a_cancelled_card_costs_one():
    g = position({"tuuli": ("p1", "e5", "N"), "nari": ("p2", "e4", "S")})
    step(g, {"tuuli": ["vision", "move"]})
    answer(g, "vision:tuuli:throw", "face:tuuli:N")  # nothing in hand: the Throw is cancelled
    assert ch(g, "tuuli")["token"] == 2 and rep(g, "nari") == 20


def test_arrr_flies_diagonally_and_kicks_only_that_line():
    g = position(
        {"jack": ("p1", "c9", "N"), "nari": ("p2", "d8", "S"), "teo": ("p3", "c8", "S")},
        tables={"t": ["c9", "c10"]},
    )
    step(g, {"jack": ["arrr", "move"]})
    assert "to:jack:f6" in g.legal_actions("p1") and "to:jack:c6" in g.legal_actions("p1")
    answer(g, "to:jack:f6", "daze:nari:slash", "daze:nari:dash", "face:jack:N")
    assert ch(g, "jack")["pos"] == "f6" and rep(g, "nari") == 18 and rep(g, "teo") == 20


def test_monkey_throw_any_direction_and_divine_hurl_knockback():
    g = position({"teo": ("p1", "e5", "N"), "nari": ("p2", "e8", "N")})
    ch(g, "teo")["held"] = "mug"
    step(g, {"teo": ["monkey_throw", "move"]})
    answer(g, "daze:nari:slash", "face:teo:N")  # straight behind him: only Monkey Throw reaches
    assert rep(g, "nari") == 18 and ch(g, "teo")["held"] is None and g.s["mugs"] == {}
    g = position({"goodheart": ("p1", "e8", "N"), "nari": ("p2", "e5", "S")})
    ch(g, "goodheart")["held"] = "chair"
    step(g, {"goodheart": ["divine_hurl", "move"]})
    answer(g, "face:goodheart:N")
    assert rep(g, "nari") == 17 and ch(g, "nari")["pos"] == "e4" and ch(g, "nari")["prone"]


def test_flagon_picked_up_while_facing_it_and_dropped_to_the_centre():
    g = position({"nari": ("p1", "f7", "N"), "teo": ("p2", "a1", "S")}, cookies="with")
    assert set(g.s["prizes"]) == {"flagon", "cookies"}
    g.s["prizes"] = {"flagon": "f6", "cookies": "f6"}
    step(g, {"nari": ["pickup", "move"]})
    assert set(g.legal_actions("p1")) == {"item:nari:cookies", "item:nari:flagon"}
    answer(g, "item:nari:cookies", "face:nari:N")
    assert ch(g, "nari")["held"] == "cookies" and "shadow_dash" in deck(g, "nari")
    g.s["marker"] = ch(g, "nari")["token"]
    step(g, {"nari": ["pickup", "move"]})
    answer(g, "item:nari:drop", "face:nari:N")
    assert g.s["prizes"]["cookies"] == "f6" and ch(g, "nari")["held"] is None
    assert "shadow_dash" in deck(g, "nari")  # the Dragon card stays until it is played


def test_daggerang_miss_returns_to_the_deck():
    g = position({"nari": ("p1", "e9", "N"), "teo": ("p2", "a1", "S")})
    step(g, {"nari": ["daggerang", "move"]})
    answer(g, "face:nari:N")
    assert ch(g, "nari")["removed"] == [] and "daggerang" in deck(g, "nari")


def test_dragon_card_goes_under_the_mat_after_use():
    g = position({"teo": ("p1", "e9", "N"), "nari": ("p2", "a1", "S")})
    ch(g, "teo")["mat"] = []
    step(g, {"teo": ["dragon_kick", "move"]})
    answer(g, "to:teo:stay", "face:teo:N")
    assert ch(g, "teo")["mat"] == ["dragon_kick"] and "dragon_kick" not in deck(g, "teo")


def test_status_of_inactive_character_expires_after_the_step():
    g = position({"nari": ("p1", "c3", "N"), "montero": ("p2", "h8", "N")}, marker=18)
    g.s["statuses"].append({"char": "nari", "card": "boast", "at": 18})
    ch(g, "nari")["faceup"] = ["boast"]
    step(g, {"montero": ["move", "slash"]})
    assert g.s["statuses"]  # Montero is acting: Nari's Boast still runs
    answer(g, "to:montero:stay", "face:montero:N")
    assert g.s["statuses"] == [] and ch(g, "nari")["faceup"] == []
