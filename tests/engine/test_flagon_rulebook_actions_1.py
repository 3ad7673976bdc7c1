"""The rulebook's Card Almanac, first part (FL-25.1 to FL-25.65): Boast, Charge, Dash, Move,
Pick Up/Drop, Push Barrel and Push Table, played through the engine. The worked examples of these
cards are in test_flagon_examples.py; these tests check the general sentences around them."""

from __future__ import annotations

from typing import Any

from engine.flagon.game import FlagonGame
from tests.engine.flagon_support import answer, position, step, texts


def ch(g: FlagonGame, cid: str) -> dict[str, Any]:
    char: dict[str, Any] = g.s["chars"][cid]
    return char


def rep(g: FlagonGame, cid: str) -> int:
    return int(ch(g, cid)["rep"])


def options(g: FlagonGame, player: str) -> set[str]:
    """The third field of every legal action (the square / item / target offered)."""
    return {a.split(":")[2] for a in g.legal_actions(player)}


def next_step(g: FlagonGame, cid: str) -> None:
    """Move the time marker to ``cid``'s token, so ``cid`` is active again."""
    g.s["marker"] = ch(g, cid)["token"]


# ------------------------------------------------------------------ Boast


def test_boast_needs_a_table_and_changes_every_gain_and_loss_while_it_lasts() -> None:
    """FL-25.2 "You must be standing on a table in order to Boast, so everyone can see you."
    FL-25.3 "While Boast is in effect, any time you gain Reputation gain two more, and any time you
    lose Reputation you lose one more." """
    # on the floor: cancelled (time 1), no Boast status
    g = position({"asma": ("p1", "e5", "N"), "nari": ("p2", "e4", "S")})
    ev = step(g, {"asma": ["boast", "slash"]})
    answer(g, "face:asma:N")
    assert "Boast is cancelled" in texts(ev)
    assert g.s["statuses"] == [] and ch(g, "asma")["token"] == 2
    # on a table: Boast runs; her Slash gains 2 + 2, Nari's Slash takes 2 + 1 from her
    g = position({"asma": ("p1", "e5", "N"), "nari": ("p2", "e4", "S")}, tables={"t": ["e5", "f5"]})
    step(g, {"asma": ["boast", "slash"]})
    answer(g, "face:asma:N")
    assert g.s["statuses"] == [{"char": "asma", "card": "boast", "at": 7}]
    next_step(g, "asma")
    step(g, {"asma": ["slash", "move"]})
    answer(g, "face:asma:N")
    assert rep(g, "asma") == 24 and rep(g, "nari") == 16
    step(g, {"nari": ["slash", "move"]})
    answer(g, "face:nari:S")
    assert rep(g, "asma") == 21 and rep(g, "nari") == 19
    # once Boast has ended (space 7), gains are normal again
    g.s["marker"] = 7
    step(g, {"asma": ["slash", "move"]})
    answer(g, "face:asma:N")
    assert g.s["statuses"] == [] and rep(g, "asma") == 23 and rep(g, "nari") == 17


# ------------------------------------------------------------------ Charge


def test_charge_moves_one_square_then_strikes_the_next_and_is_cancelled_by_height_or_a_wall() -> None:
    """FL-25.10 "The square in front of you must be empty, and on the same level as your character
    (i.e. if you are on the floor you must not be facing a table."
    FL-25.11 "If on a table, you can only charge into another table square)."
    FL-25.12 "If it is, you first move into that square, and then perform the attack."
    FL-25.15 "If there is another character or a space on a different elevation directly ahead of
    you the Action is Cancelled."
    FL-25.16 "If there is no character in the second square to be attacked, but you are eligible to
    make the move, you still do the move, and there is no attack." (also FL-25.14, Teo)"""
    # Teo: nobody two squares ahead -> he still moves one square, nobody is affected
    g = position({"teo": ("p1", "e8", "N"), "nari": ("p2", "a1", "S")})
    ev = step(g, {"teo": ["charge", "move"]})
    answer(g, "face:teo:N")
    assert "cancelled" not in texts(ev)
    assert ch(g, "teo")["pos"] == "e7" and rep(g, "teo") == 20 and rep(g, "nari") == 20
    assert ch(g, "teo")["token"] == 1 + 3  # the card's full time, not the cancel's 1
    # on a table facing the floor: cancelled, Asma stays on her table and Montero is untouched
    g = position({"asma": ("p1", "e5", "N"), "montero": ("p2", "e3", "S")}, tables={"t": ["e5", "f5"]})
    ev = step(g, {"asma": ["charge", "move"]})
    answer(g, "face:asma:N")
    assert "Charge is cancelled" in texts(ev)
    assert ch(g, "asma")["pos"] == "e5" and rep(g, "montero") == 20 and ch(g, "asma")["token"] == 2
    # facing the wall: nowhere to move, cancelled
    g = position({"teo": ("p1", "e1", "N"), "nari": ("p2", "a5", "S")})
    ev = step(g, {"teo": ["charge", "move"]})
    answer(g, "face:teo:N")
    assert "Charge is cancelled" in texts(ev) and ch(g, "teo")["pos"] == "e1"


def test_charge_is_a_weapon_attack_so_riposte_stops_it() -> None:
    """FL-25.9 "Charge: Charge is a weapon attack that affects a character two squares directly in
    front of you." A Riposte (weapon attacks only) stops it after the move."""
    g = position({"goodheart": ("p1", "e8", "N"), "montero": ("p2", "e6", "S")})
    ch(g, "montero").update(riposte=True, faceup=["riposte"], token=9)
    step(g, {"goodheart": ["charge", "move"]})
    answer(g, "daze:goodheart:slash", "daze:goodheart:dash", "face:goodheart:N")
    assert ch(g, "goodheart")["pos"] == "e7"  # the move happened, the attack failed
    assert rep(g, "montero") == 27 and rep(g, "goodheart") == 13
    assert ch(g, "montero")["pos"] == "e6"  # no knockback


# ------------------------------------------------------------------ Dash


def test_dash_goes_up_to_four_squares_straight_ahead_on_one_level() -> None:
    """FL-25.20 "Dash: Dash allows you to move up to four squares directly forward."
    FL-25.21 "However you cannot change elevation (i.e. move on or off a table) during this move." """
    g = position({"tuuli": ("p1", "e9", "N"), "nari": ("p2", "a1", "S")})
    step(g, {"tuuli": ["dash", "move"]})
    assert options(g, "p1") == {"e8", "e7", "e6", "e5"}  # one to four, never five, never sideways
    answer(g, "to:tuuli:e5", "face:tuuli:N")
    assert ch(g, "tuuli")["pos"] == "e5"
    # at the edge of a table, facing the floor: she may not step down, so she cannot dash at all
    g = position({"tuuli": ("p1", "e5", "N"), "nari": ("p2", "a1", "S")}, tables={"t": ["e5", "e6"]})
    ev = step(g, {"tuuli": ["dash", "move"]})
    answer(g, "face:tuuli:N")
    assert "cannot dash anywhere" in texts(ev) and ch(g, "tuuli")["pos"] == "e5"


# ------------------------------------------------------------------ Move


def test_move_offers_the_six_card_squares_or_staying_and_costs_one_or_two() -> None:
    """FL-25.25 "Move: MOVE can be used to move into any of the highlighted squares."
    FL-25.26 "If you remain in the same square, the action takes 1 Time Point."
    FL-25.27 "Otherwise it takes 2." """
    g = position({"nari": ("p1", "e5", "N"), "teo": ("p2", "a1", "S")}, tables={"t": ["d5", "d6"]})
    step(g, {"nari": ["move", "slash"]})
    # forward 1 and 2, left and right, and the two forward diagonals (MOVE6), or stay
    assert options(g, "p1") == {"stay", "e4", "e3", "d5", "f5", "d4", "f4"}
    answer(g, "to:nari:d5", "face:nari:N")  # a highlighted square on a table: she stands on it
    assert ch(g, "nari")["pos"] == "d5" and not ch(g, "nari")["prone"]
    assert ch(g, "nari")["token"] == 1 + 2
    next_step(g, "nari")
    step(g, {"nari": ["move", "slash"]})
    answer(g, "to:nari:stay", "face:nari:N")
    assert ch(g, "nari")["pos"] == "d5" and ch(g, "nari")["token"] == 3 + 1


# ------------------------------------------------------------------ Pick Up / Drop


def test_pick_up_takes_one_object_from_the_own_square_and_drop_leaves_it_there() -> None:
    """FL-25.28 "Pick Up/Drop: You may pick up an object that is in the same square as you."
    FL-25.29 "You may pick up Chairs, Mugs, and the Flagon."
    FL-25.30 "You may only carry one object at a time, so if you are carrying something you must
    drop it to pick up something new."
    FL-25.31 "If you drop something it is placed in the same location as the character (EXCEPTION:
    The Flagon is always returned to the center of the board after being dropped)."
    FL-25.32 "Barrels may not be picked up." """
    g = position(
        {"tuuli": ("p1", "c3", "E"), "nari": ("p2", "a9", "S")},
        chairs=["c3"],
        mugs=["c3", "c4"],  # the mug on c4 is beside her, not in her square
        barrels=["c3"],
    )
    step(g, {"tuuli": ["pickup", "move"]})
    assert options(g, "p1") == {"chair", "mug"}  # no barrel, nothing from another square
    answer(g, "item:tuuli:chair", "face:tuuli:E")
    assert ch(g, "tuuli")["held"] == "chair" and g.s["chairs"] == {} and ch(g, "tuuli")["token"] == 2
    # holding the chair: taking the mug drops the chair into her square (one object at a time)
    next_step(g, "tuuli")
    step(g, {"tuuli": ["pickup", "move"]})
    assert options(g, "p1") == {"mug", "drop"}
    answer(g, "item:tuuli:mug", "face:tuuli:E")
    assert ch(g, "tuuli")["held"] == "mug" and g.s["chairs"] == {"c3": 1} and g.s["mugs"] == {"c4": 1}
    # she walks away and drops the mug: it lies where she stands
    ch(g, "tuuli")["pos"] = "h8"
    next_step(g, "tuuli")
    step(g, {"tuuli": ["pickup", "move"]})
    answer(g, "face:tuuli:E")  # dropping was the only choice
    assert ch(g, "tuuli")["held"] is None and g.s["mugs"] == {"c4": 1, "h8": 1}
    assert g.s["barrels"] == ["c3"]  # the barrel never moved
    # the Flagon: picked up in her square, dropped -> back to the centre, not her square
    g = position({"tuuli": ("p1", "b2", "E"), "nari": ("p2", "a9", "S")}, flagon="b2")
    step(g, {"tuuli": ["pickup", "move"]})
    answer(g, "face:tuuli:E")  # the Flagon was the only choice
    assert ch(g, "tuuli")["held"] == "flagon" and g.s["prizes"]["flagon"] is None
    next_step(g, "tuuli")
    step(g, {"tuuli": ["pickup", "move"]})
    answer(g, "face:tuuli:E")  # only "drop" is possible
    assert ch(g, "tuuli")["held"] is None and g.s["prizes"]["flagon"] == g.s["centre"] == "f6"
    # alone with a barrel: nothing to pick up
    g = position({"tuuli": ("p1", "b2", "E"), "nari": ("p2", "a9", "S")}, barrels=["b2"], flagon="f6")
    ev = step(g, {"tuuli": ["pickup", "move"]})
    answer(g, "face:tuuli:E")
    assert "finds nothing to pick up" in texts(ev) and ch(g, "tuuli")["held"] is None


# ------------------------------------------------------------------ Push Barrel


def test_push_barrel_needs_a_barrel_in_the_square_or_just_ahead() -> None:
    """FL-25.33 "Push Barrel: You must be in the same square as a barrel or directly facing one." """
    for barrel, works in [("c5", True), ("b5", True), ("d5", False), ("b4", False)]:
        g = position({"goodheart": ("p1", "b5", "E"), "nari": ("p2", "a1", "S")}, barrels=[barrel])
        ev = step(g, {"goodheart": ["push_barrel", "move"]})
        answer(g, "face:goodheart:E")
        if works:
            assert g.s["barrels"] == ["k5"], barrel
        else:
            assert "Push Barrel is cancelled" in texts(ev) and g.s["barrels"] == [barrel]


def test_pushed_barrel_rolls_straight_through_tables_smashing_chairs_until_a_character() -> None:
    """FL-25.34 "The barrel moves as far as it can in a straight line."
    FL-25.35 "It stops when it hits a character or a wall."
    FL-25.36 "It does not stop moving when it moves into a table square, whether it enters via the
    short or long side of the table."
    FL-25.37 "It destroys any chairs in squares it enters, and keeps moving."
    FL-25.40 "Pushed barrels are not removed from the game." FL-25.41 "They remain in the square
    they stop." """
    # a table met on its short side (d5-e5 along the row) and one met on its long side (g4-g5)
    g = position(
        {"goodheart": ("p1", "b5", "E"), "nari": ("p2", "j5", "W")},
        tables={"short": ["d5", "e5"], "long": ["g4", "g5"]},
        barrels=["c5"],
        chairs=["f5", "h5", "h5", "b5"],
    )
    step(g, {"goodheart": ["push_barrel", "move"]})
    answer(g, "face:goodheart:E")
    assert g.s["barrels"] == ["i5"]  # still on the board, in the square before Nari
    assert g.s["chairs"] == {"b5": 1}  # f5 and h5 smashed; the chair behind the barrel stays
    assert rep(g, "nari") == 13 and rep(g, "goodheart") == 27 and ch(g, "nari")["pos"] == "k5"
    # nobody in the way: it rolls all the way to the wall and stays there
    g = position({"goodheart": ("p1", "e9", "N"), "nari": ("p2", "a1", "S")}, barrels=["e8"])
    step(g, {"goodheart": ["push_barrel", "move"]})
    answer(g, "face:goodheart:N")
    assert g.s["barrels"] == ["e1"] and rep(g, "nari") == 20


# ------------------------------------------------------------------ Push Table


def test_push_table_needs_a_standing_pusher_facing_a_table() -> None:
    """FL-25.46 "Push Table: You must be standing and directly facing a table to do this action." """
    # prone (Push Table has a purple header): cancelled, even though she faces the table
    g = position({"thras": ("p1", "e8", "N"), "nari": ("p2", "a1", "S")}, tables={"t": ["e7", "f7"]})
    ch(g, "thras")["prone"] = True
    ev = step(g, {"thras": ["push_table", "move"]})
    answer(g, "face:thras:N")
    assert "Push Table is cancelled" in texts(ev) and g.s["tables"]["t"] == ["e7", "f7"]
    # a table diagonally ahead is not "directly facing" one
    g = position({"thras": ("p1", "d8", "N"), "nari": ("p2", "a1", "S")}, tables={"t": ["e7", "f7"]})
    ev = step(g, {"thras": ["push_table", "move"]})
    answer(g, "face:thras:N")
    assert "Push Table is cancelled" in texts(ev) and g.s["tables"]["t"] == ["e7", "f7"]


def test_push_table_moves_one_square_in_a_chain_carrying_riders_and_objects() -> None:
    """FL-25.47 "The table is pushed one square directly away from you."
    FL-25.48 "Any characters standing on or hit by the table are affected."
    FL-25.49 "Characters on the table travel with the table."
    FL-25.50 "If the table is pushed into another table, that table is also pushed, and characters
    on or behind it are also affected." FL-25.51 "This chain reaction can continue to other tables."
    FL-25.57 "Any objects or characters on a pushed table move with the table."
    FL-25.58 "Characters on the floor who are hit by a pushed table also suffer Knockback."
    FL-25.59 "The character pushing the table stays in the square they began in."
    FL-25.60 "They do not move with the Table." """
    g = position(
        {
            "thras": ("p1", "e9", "N"),
            "asma": ("p2", "e6", "S"),  # rides the second table
            "nari": ("p3", "e3", "S"),  # on the floor behind the third table
            "teo": ("p3", "g5", "W"),  # beside the chain: not affected
        },
        tables={"a": ["e7", "e8"], "b": ["e6"], "c": ["e4", "e5"]},
        chairs=["e8"],
        mugs=["e5"],
    )
    step(g, {"thras": ["push_table", "move"]})
    answer(g, "target:thras:asma", "face:thras:N")
    assert g.s["tables"] == {"a": ["e6", "e7"], "b": ["e5"], "c": ["e3", "e4"]}
    assert ch(g, "thras")["pos"] == "e9"  # the pusher stays
    assert ch(g, "asma")["pos"] == "e5" and not ch(g, "asma")["prone"]  # travels with table b
    assert ch(g, "nari")["pos"] == "e2"  # hit by table c and knocked back
    assert rep(g, "asma") == 17 and rep(g, "nari") == 17 and rep(g, "thras") == 26
    assert ch(g, "teo")["pos"] == "g5" and rep(g, "teo") == 20
    assert g.s["chairs"] == {"e7": 1} and g.s["mugs"] == {"e4": 1}  # objects on the tables ride


def test_push_table_shoves_objects_and_destroys_them_against_a_wall_or_table_but_not_the_flagon() -> None:
    """FL-25.53 "If a table is pushed into a square with an object (except for a Rug) it pushes them
    back." FL-25.54 "If they would get pushed into a wall or another table, they are eliminated."
    FL-25.55 "(EXCEPTION: The Flagon can never be eliminated." FL-25.56 "Just place it on top of the
    table in the same square)." """
    # table d3-f3 pushed north into d2 (a mug), e2 (a barrel) and f2 (a chair, with table f1 behind it)
    g = position(
        {"thras": ("p1", "e4", "N"), "nari": ("p2", "a9", "S")},
        tables={"t": ["d3", "e3", "f3"], "other": ["f1"]},
        rugs={"r": ["d2", "e2"]},
        mugs=["d2"],
        barrels=["e2"],
        chairs=["f2"],
        flagon="f6",
    )
    step(g, {"thras": ["push_table", "move"]})
    answer(g, "face:thras:N")
    assert g.s["tables"]["t"] == ["d2", "e2", "f2"]
    assert g.s["mugs"] == {"d1": 1} and g.s["barrels"] == ["e1"]  # shoved one square back
    assert g.s["chairs"] == {}  # f1 holds another table: the chair is eliminated
    assert g.s["rugs"]["r"] == ["d2", "e2"]  # the rug is not pushed
    # against the wall: the mug is eliminated, the Flagon ends up on the table top
    g = position(
        {"thras": ("p1", "e3", "N"), "nari": ("p2", "a9", "S")},
        tables={"t": ["d2", "e2"]},
        mugs=["d1"],
        flagon="e1",
    )
    ev = step(g, {"thras": ["push_table", "move"]})
    answer(g, "face:thras:N")
    assert "cancelled" not in texts(ev) and g.s["tables"]["t"] == ["d1", "e1"]
    assert g.s["mugs"] == {} and g.s["prizes"]["flagon"] == "e1"


def test_push_table_chain_that_would_hit_the_wall_moves_no_table() -> None:
    """FL-25.52 "However if tables cannot be pushed because they would be pushed into a wall the
    action is Canceled and no tables are pushed." Only the last table of the chain touches the
    wall; the first one does not move either."""
    g = position(
        {"thras": ("p1", "e8", "N"), "asma": ("p2", "e6", "S"), "nari": ("p3", "a9", "S")},
        tables={"a": ["e6", "e7"], "b": ["e4", "e5"], "c": ["e1", "e2", "e3"]},
    )
    ev = step(g, {"thras": ["push_table", "move"]})
    answer(g, "face:thras:N")
    assert "Push Table is cancelled" in texts(ev)
    assert g.s["tables"] == {"a": ["e6", "e7"], "b": ["e4", "e5"], "c": ["e1", "e2", "e3"]}
    assert ch(g, "asma")["pos"] == "e6" and rep(g, "asma") == 20
    assert ch(g, "thras")["token"] == 1 + 1  # a cancelled action costs 1
