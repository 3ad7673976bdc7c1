"""Rulebook sentences about cancelled actions, movement, the tavern's objects, the Dragon Flagon
and the end of the game (docs/rules-map/flagon.md, FL-16 to FL-23), played through the engine.

Each test quotes the sentences it checks by id; positions are built with flagon_support."""

from __future__ import annotations

from engine.flagon import FlagonGame
from engine.flagon.board import load_layout
from engine.flagon.cards import load_cards
from engine.flagon.geometry import name
from tests.engine.flagon_support import answer, deck, position, step, texts


def ch(g: FlagonGame, cid: str) -> dict:
    return g.s["chars"][cid]  # type: ignore[no-any-return]


def rep(g: FlagonGame, cid: str) -> int:
    return int(ch(g, cid)["rep"])


def to_squares(g: FlagonGame, player: str) -> set[str]:
    return {a.split(":")[2] for a in g.legal_actions(player)}


# ---------------------------------------------------------------- FL-16 cancelled actions


def test_cancel_example_chair_fall_then_prone_swing_costs_one_and_may_turn() -> None:
    """FL-16.5 "EXAMPLE: You have a Swing action planned, but just before your Action came up, you
    were hit with a chair and fell down." FL-16.6 "When you reveal the Swing card you cannot perform
    it, as it has a Purple Header and you are Prone." FL-16.7 "You move your Character Token one
    square on the Time Track, stand up, and may change the direction you are facing if you choose."
    FL-16.1/16.2 (prone + purple header cancels), FL-16.3 (may still change facing), FL-16.4 (token
    moves 1, not the card's time cost)."""
    g = position(
        {"thras": ("p1", "e7", "S"), "goodheart": ("p2", "e9", "N")},
        tables={"t": ["e9", "f9"]},
    )
    ch(g, "thras")["held"] = "chair"
    assert load_cards()["swing"].base_time == 3
    ev = step(g, {"thras": ["throw", "move"], "goodheart": ["swing", "move"]}, order=["thras", "goodheart"])
    assert ch(g, "goodheart")["prone"]  # the chair knocked him down just before his action
    ev += answer(g, "face:thras:S")
    assert "Swing is cancelled: prone (purple header)" in texts(ev)
    assert not ch(g, "goodheart")["prone"]  # he stands up
    assert g.s["pending"]["verb"] == "face"  # he may still turn
    answer(g, "face:goodheart:E")
    gh = ch(g, "goodheart")
    assert gh["facing"] == "E" and gh["pos"] == "e9"  # nothing of the Swing happened
    assert gh["token"] == 2  # 1 time space, not Swing's 3
    assert "swing" in deck(g, "goodheart")  # the cancelled card goes back to the deck


def test_a_red_requirement_not_met_cancels_the_action() -> None:
    """FL-16.1 "If an Action comes up and you do not meet the conditions to do it, the Action is
    Canceled." FL-16.2 "... and not meeting special Action requirements printed in red." FL-16.4
    (a cancelled action moves the token 1): Boast needs a table; off a table it is cancelled."""
    g = position({"nari": ("p1", "c5", "N"), "teo": ("p2", "a1", "S")}, tables={"t": ["c3", "d3"]})
    ev = step(g, {"nari": ["boast", "move"]})
    assert "Boast is cancelled: on table" in texts(ev)
    answer(g, "face:nari:W")
    assert g.s["statuses"] == [] and ch(g, "nari")["token"] == 2 and ch(g, "nari")["facing"] == "W"


def test_an_action_that_can_be_performed_must_be_performed_even_against_a_friend() -> None:
    """FL-16.8 "If you meet the requirements for an Action, you MUST perform it, even if it is not
    to your advantage." Goodheart holds a mug and the only character in his throw lines is his own
    Nari: the throw is not offered as a choice to skip, it hits her, and the points leave the game."""
    g = position(
        {"goodheart": ("p1", "e9", "N"), "nari": ("p1", "e5", "S"), "teo": ("p2", "a1", "S")},
        players=["p1", "p2"],
    )
    ch(g, "goodheart")["held"] = "mug"
    ev = step(g, {"goodheart": ["throw", "move"]})
    assert "throws the mug N" in texts(ev)
    assert g.s["pending"]["verb"] == "daze"  # Nari's owner (p1 again) must add a card
    answer(g, "daze:nari:slash", "face:goodheart:N")
    assert rep(g, "nari") == 18 and rep(g, "goodheart") == 20 and g.s["removed_rep"] == 2
    assert ch(g, "nari")["slots"] == ["slash"]


# ---------------------------------------------------------------- FL-17, 19, 20, 21 movement and objects


def test_objects_and_rugs_never_block_movement() -> None:
    """FL-17.4 "Objects (Mugs, Chairs, Barrels, Flagon, and the Rugs) do not affect movement."
    FL-20.1 "Rugs do not affect movement in any way." FL-21.2 "Objects do not block movement into
    their squares." Every Move square is full of objects or rug, and all of them stay reachable,
    including the far square whose only path leads through them."""
    g = position(
        {"goodheart": ("p1", "e5", "N"), "nari": ("p2", "a1", "S")},
        rugs={"r": "d3-f5"},
        chairs=["e4", "d5"],
        mugs=["e4", "f4", "e3"],
        barrels=["e4", "f5"],
        flagon="d4",
    )
    step(g, {"goodheart": ["move", "slash"]})
    assert to_squares(g, "p1") == {"stay", "e4", "e3", "d5", "f5", "d4", "f4"}
    answer(g, "to:goodheart:e3", "face:goodheart:N")
    assert ch(g, "goodheart")["pos"] == "e3" and g.s["barrels"] == ["e4", "f5"]


def test_moving_onto_a_table_puts_you_on_top_where_table_cards_work() -> None:
    """FL-19.1 "If a character moves into a square with a table they are placed on top of the
    table." FL-19.2 "Some Actions, like Swing or Boast, require the character to be on a table."
    Nari walks onto the table and her Boast, cancelled on the floor, now works."""
    g = position({"nari": ("p1", "c4", "N"), "teo": ("p2", "a1", "S")}, tables={"t": ["c3", "d3"]})
    step(g, {"nari": ["move", "boast"]})
    assert "c3" in to_squares(g, "p1")
    answer(g, "to:nari:c3", "face:nari:N")
    assert not ch(g, "nari")["prone"]  # walking onto a table is no fall
    g.s["marker"] = ch(g, "nari")["token"]
    ev = step(g, {"nari": ["boast", "move"]})
    assert "cancelled" not in texts(ev)
    assert [st["card"] for st in g.s["statuses"]] == ["boast"]


def test_nothing_ends_up_under_a_pushed_table() -> None:
    """FL-19.3 "Nothing may ever be under a table." FL-19.4 "Cards that may result in this (like Push
    Table) have explanations of how to deal with this situation in their special rules." FL-22.11
    "The Flagon can never be removed from the game for any reason." The table is pushed against the
    wall over a barrel, a chair and the Flagon: barrel and chair are crushed (not left under it), the
    Flagon ends on the table top."""
    g = position(
        {"goodheart": ("p1", "e4", "N"), "nari": ("p2", "a9", "S")},
        tables={"t": "d2-f3"},
        barrels=["d1"],
        chairs=["e1"],
        flagon="f1",
    )
    step(g, {"goodheart": ["push_table", "move"]})
    answer(g, "face:goodheart:N")
    table = set(g.s["tables"]["t"])
    assert table == {"d1", "e1", "f1", "d2", "e2", "f2"}
    assert g.s["barrels"] == [] and g.s["chairs"] == {}
    assert g.s["prizes"]["flagon"] == "f1"  # on top of the table, still in the game


def test_chairs_and_mugs_are_picked_up_barrels_never() -> None:
    """FL-21.1 "There may be any number of chairs, mugs, and barrels in a square." FL-21.3 "Chairs
    and mugs are picked up by playing the Pick Up/Drop Action." FL-21.5 "Barrels may not be picked
    up or thrown." """
    g = position(
        {"thras": ("p1", "e5", "N"), "nari": ("p2", "a1", "S")},
        chairs=["e5", "e5"],
        mugs=["e5", "e5"],
        barrels=["e5"],
    )
    step(g, {"thras": ["pickup", "move"]})
    assert set(g.legal_actions("p1")) == {"item:thras:mug", "item:thras:chair"}  # no barrel
    answer(g, "item:thras:mug", "face:thras:N")
    assert ch(g, "thras")["held"] == "mug"
    assert g.s["mugs"] == {"e5": 1} and g.s["chairs"] == {"e5": 2} and g.s["barrels"] == ["e5"]
    # alone with a barrel: nothing to pick up, and Throw with nothing in hand is cancelled
    g = position({"thras": ("p1", "e5", "N"), "nari": ("p2", "e3", "S")}, barrels=["e5"])
    ev = step(g, {"thras": ["pickup", "throw"]})
    assert "finds nothing to pick up" in texts(ev)
    ev = answer(g, "face:thras:N")
    assert ch(g, "thras")["held"] is None
    g.s["marker"] = ch(g, "thras")["token"]
    ev = step(g, {"thras": ["throw", "move"]})
    assert "Throw is cancelled: holding throwable" in texts(ev)


def test_throw_ranges_and_thrown_objects_leave_the_game() -> None:
    """FL-21.4 "Using the Throw action, chairs can be thrown up to three squares, and mugs can be
    thrown any distance." FL-21.6 "A thrown chair or mug is removed from the game." """
    # a chair does not reach 4 squares: it flies at nothing and is gone
    g = position({"thras": ("p1", "e10", "N"), "nari": ("p2", "e6", "S")})
    ch(g, "thras")["held"] = "chair"
    ev = step(g, {"thras": ["throw", "move"]})
    assert "throws the chair at nothing" in texts(ev) and rep(g, "nari") == 20
    assert ch(g, "thras")["held"] is None and g.s["chairs"] == {}
    # 3 squares is in range: Nari falls
    g = position({"thras": ("p1", "e10", "N"), "nari": ("p2", "e7", "S")})
    ch(g, "thras")["held"] = "chair"
    step(g, {"thras": ["throw", "move"]})
    assert ch(g, "nari")["prone"] and rep(g, "nari") < 20 and g.s["chairs"] == {}
    # a mug reaches across the whole tavern (9 squares) and is gone too
    g = position({"thras": ("p1", "e11", "N"), "nari": ("p2", "e2", "S")})
    ch(g, "thras")["held"] = "mug"
    step(g, {"thras": ["throw", "move"]})
    answer(g, "daze:nari:slash", "face:thras:N")
    assert rep(g, "nari") == 18 and ch(g, "nari")["slots"] == ["slash"]
    assert g.s["mugs"] == {} and ch(g, "thras")["held"] is None


# ---------------------------------------------------------------- FL-22 the Dragon Flagon


def test_flagon_starts_on_the_red_centre_square_of_every_layout() -> None:
    """FL-22.1 "At the beginning of the game, the Dragon Flagon is placed in the center of the
    board." """
    for layout in ("first-game", "open-hall", "cellar"):
        g = FlagonGame.new(["p1", "p2"], 3, layout=layout)
        lay = load_layout(layout)
        assert lay.centre == ((lay.width - 1) // 2, (lay.height - 1) // 2)
        assert g.s["prizes"]["flagon"] == g.s["centre"] == name(lay.centre)


def test_flagon_picked_up_on_its_square_or_facing_it_brings_the_dragon_card() -> None:
    """FL-22.2 "Any character may pick it up by playing the Pick Up/Drop action, and either being in
    the same square as the Flagon or facing it." FL-22.3 "If a character picks up the Flagon, place it
    on the Character Mat as normal and add the character's Dragon Card to their deck." FL-22.4 "They
    may play it at any future point, just like a normal card." FL-22.9 "It can be voluntarily dropped
    with the PICK UP/DROP action." """
    # beside the Flagon but not facing it: nothing to pick up
    g = position({"nari": ("p1", "f7", "E"), "teo": ("p2", "a1", "S")})
    ev = step(g, {"nari": ["pickup", "move"]})
    assert "finds nothing to pick up" in texts(ev) and g.s["prizes"]["flagon"] == "f6"
    # on the Flagon's own square
    g = position({"nari": ("p1", "f6", "W"), "teo": ("p2", "a1", "S")})
    g._begin_step()
    assert not any(a.endswith(":shadow_dash") for a in g.legal_actions("p1"))  # not in the deck yet
    step(g, {"nari": ["pickup", "move"]})
    answer(g, "face:nari:W")
    assert ch(g, "nari")["held"] == "flagon" and g.s["prizes"]["flagon"] is None
    assert "shadow_dash" in deck(g, "nari") and "shadow_dash" not in ch(g, "nari")["mat"]
    g.s["marker"] = ch(g, "nari")["token"]
    ch(g, "nari")["slots"] = []
    g._begin_step()
    assert "plan:nari:1:shadow_dash" in g.legal_actions("p1")
    # FL-22.9: dropped on purpose with Pick Up/Drop, it goes back to the centre; the card stays
    step(g, {"nari": ["pickup", "move"]})
    answer(g, "face:nari:W")
    assert ch(g, "nari")["held"] is None and g.s["prizes"]["flagon"] == "f6"
    assert "shadow_dash" in deck(g, "nari")
    # facing it from the next square (north of it, facing south)
    g = position({"teo": ("p1", "f5", "S"), "nari": ("p2", "a1", "S")})
    step(g, {"teo": ["pickup", "move"]})
    answer(g, "face:teo:S")
    assert ch(g, "teo")["held"] == "flagon" and "dragon_kick" in deck(g, "teo")


def test_flagon_dropped_on_a_fall_or_a_daze_returns_to_the_centre_and_can_be_taken_again() -> None:
    """FL-22.5 "If the character suffers any Reputation loss, Falls, or is Dazed, they drop the Dragon
    Flagon." FL-22.6 "It returns to the center square on the board, where it started, and it can be
    picked up again." Nari has no reputation left to lose, so only the Fall (chair) or the Daze (mug)
    makes her drop it."""
    for item in ("chair", "mug"):
        g = position({"thras": ("p1", "b9", "N"), "nari": ("p2", "b7", "S")})
        ch(g, "nari").update(held="flagon", rep=0, mat=[])
        g.s["prizes"]["flagon"] = None
        ch(g, "thras")["held"] = item
        step(g, {"thras": ["throw", "move"]})
        if item == "mug":
            answer(g, "daze:nari:slash")
        answer(g, "face:thras:N")
        assert rep(g, "nari") == 0  # no reputation was lost
        assert ch(g, "nari")["held"] is None and g.s["prizes"]["flagon"] == "f6", item
        assert "shadow_dash" in deck(g, "nari")  # the Dragon card is kept
    # and anyone can take it again from the centre
    g.s["marker"] = 5
    ch(g, "thras").update(pos="f7", facing="N")
    step(g, {"thras": ["pickup", "move"]})
    answer(g, "face:thras:N")
    assert ch(g, "thras")["held"] == "flagon" and "battle_frenzy" in deck(g, "thras")


def test_the_flagon_is_thrown_and_drunk_like_a_mug_but_always_returns_to_the_centre() -> None:
    """FL-22.7 "Other than noted, above, the Flagon is treated exactly like a Mug." FL-22.8 "Any action
    that uses a Mug can use the Flagon instead, and is resolved the same way." FL-22.10 "If the
    character loses the Flagon due to an Action, return it back to the center square." FL-22.11 "The
    Flagon can never be removed from the game for any reason." Thrown across the tavern it hits like a
    mug (Daze 1, mug reputation) and goes back to the centre; Jack may Chug from it."""
    g = position({"thras": ("p1", "c11", "N"), "nari": ("p2", "c2", "S")})
    ch(g, "thras")["held"] = "flagon"
    g.s["prizes"]["flagon"] = None
    step(g, {"thras": ["throw", "move"]})
    answer(g, "daze:nari:slash", "face:thras:N")
    assert rep(g, "nari") == 18 and ch(g, "nari")["slots"] == ["slash"]  # the mug's 2 and Daze 1
    assert ch(g, "thras")["held"] is None and g.s["prizes"]["flagon"] == "f6"
    # Chug needs a drink in hand: the Flagon is one
    g = position({"jack": ("p1", "c9", "N"), "nari": ("p2", "a1", "S")})
    ch(g, "jack")["held"] = "flagon"
    g.s["prizes"]["flagon"] = None
    ev = step(g, {"jack": ["chug", "move"]})
    assert "cancelled" not in texts(ev)
    # Flip Table removes a table from the game, but not the Flagon on it
    g = position(
        {"thras": ("p1", "d6", "E"), "nari": ("p2", "a1", "S")}, tables={"t": ["e6", "e7"]}, flagon="e6"
    )
    step(g, {"thras": ["flip_table", "move"]})
    answer(g, "face:thras:N")
    assert g.s["tables"] == {} and g.s["prizes"]["flagon"] == g.s["centre"]


def test_flagon_example_battle_frenzy_goes_under_the_mat_when_it_expires() -> None:
    """FL-22.23 "Once the Duration of Battle Frenzy expires the card will be placed back under her mat,
    and Thras will have to pick up the Flagon again to regain that card." Also FL-22.12 "After a Dragon
    action is executed, it is NOT returned to the character's deck." FL-22.13 "Instead place it back
    under the Character Mat." FL-22.14 "It may be added to the deck again if the character again picks
    up the Flagon." FL-22.15/22.16 (dropping the Flagon does not take the card away; it goes under the
    mat only after the action). The rulebook example continued: Thras, who dropped the Flagon, plays
    Battle Frenzy later; also the first part, FL-22.17-22.22 (Asma really Slashes her here)."""
    g = position({"thras": ("p1", "f7", "N"), "asma": ("p2", "d3", "E")})
    ch(g, "thras")["held"] = "mug"
    step(g, {"thras": ["pickup", "move"]})
    answer(g, "item:thras:flagon", "face:thras:N")  # facing the Flagon; the mug is dropped
    assert ch(g, "thras")["held"] == "flagon" and g.s["mugs"] == {"f7": 1}
    assert "battle_frenzy" in deck(g, "thras")
    ch(g, "thras")["pos"] = "e4"  # she moves a few squares away ...
    g.s["marker"] = 10
    step(g, {"asma": ["slash", "move"]})  # ... and is Slashed by Asma
    answer(g, "face:asma:E")
    assert rep(g, "thras") == 18
    assert g.s["prizes"]["flagon"] == "f6" and "battle_frenzy" in deck(g, "thras")  # dropped, card kept
    g.s["marker"] = 12
    step(g, {"thras": ["battle_frenzy", "move"]})
    answer(g, "face:thras:N")
    assert "battle_frenzy" in ch(g, "thras")["faceup"] and "battle_frenzy" not in deck(g, "thras")
    (status,) = g.s["statuses"]
    g.s["marker"] = status["at"]
    step(g, {"thras": ["move", "slash"]})  # it expires as her token is drawn, before she acts
    assert g.s["statuses"] == [] and ch(g, "thras")["mat"] == ["battle_frenzy"]
    assert "battle_frenzy" not in deck(g, "thras")
    answer(g, "to:thras:stay", "face:thras:N")
    # back at the Flagon: picking it up again brings the card back into the deck
    ch(g, "thras").update(pos="f7", facing="N")
    g.s["marker"] = ch(g, "thras")["token"]
    step(g, {"thras": ["pickup", "move"]})
    answer(g, "item:thras:flagon", "face:thras:N")  # her old mug still lies on f7
    assert "battle_frenzy" in deck(g, "thras") and ch(g, "thras")["mat"] == []


# ---------------------------------------------------------------- FL-23 game end and victory


def test_game_end_token_is_turned_over_after_all_active_characters_have_acted() -> None:
    """FL-23.1 "After all Active characters have taken their Action, if there is a GAME END token in
    the Time Space, turn it over." FL-23.2 "If it shows the Town Guard icon, the game immediately
    ends." A blank token lets the game go on."""
    g = position({"goodheart": ("p1", "a1", "S"), "nari": ("p2", "c1", "S")}, marker=22)
    g.s["game_end"] = [{"space": 22, "guard": True, "revealed": False}]
    step(g, {"goodheart": ["move", "slash"], "nari": ["move", "slash"]}, order=["goodheart", "nari"])
    answer(g, "to:goodheart:stay", "face:goodheart:S")
    assert not g.is_over and not g.s["game_end"][0]["revealed"]  # Nari has not acted yet
    ev = answer(g, "to:nari:stay", "face:nari:S")
    assert g.is_over and g.s["game_end"][0]["revealed"] and g.s["marker"] == 22
    assert "Town Guard" in texts(ev)
    assert g.legal_actions("p1") == [] and g.legal_actions("p2") == []
    # a blank token: turned over, and the brawl goes on
    g = position({"goodheart": ("p1", "a1", "S"), "nari": ("p2", "c1", "S")}, marker=22)
    g.s["game_end"] = [
        {"space": 22, "guard": False, "revealed": False},
        {"space": 23, "guard": True, "revealed": False},
    ]
    step(g, {"goodheart": ["move", "slash"]})
    ev = answer(g, "to:goodheart:stay", "face:goodheart:S")
    assert "blank" in texts(ev) and not g.is_over
    assert g.s["game_end"][0]["revealed"] and not g.s["game_end"][1]["revealed"]
    assert g.s["marker"] == 23


def test_each_player_adds_up_all_their_characters_and_the_highest_total_wins() -> None:
    """FL-23.3 "Each player adds the total Reputation for all the characters they control." FL-23.4
    "The highest total wins." p2 owns the single richest character, but p1's two add up to more."""
    g = position(
        {
            "goodheart": ("p1", "a1", "S"),
            "nari": ("p1", "c1", "S"),
            "asma": ("p2", "e1", "S"),
            "tuuli": ("p2", "g1", "S"),
        },
        marker=22,
    )
    for cid, r in [("goodheart", 16), ("nari", 15), ("asma", 26), ("tuuli", 3)]:
        ch(g, cid)["rep"] = r
    g.s["game_end"] = [{"space": 22, "guard": True, "revealed": False}]
    step(g, {"asma": ["move", "slash"]})
    answer(g, "to:asma:stay", "face:asma:S")
    assert g.result is not None
    assert g.result.scores == {"p1": 31.0, "p2": 29.0}
    assert g.result.ranking == [["p1"], ["p2"]]
