"""Issue 29: the Dragon & Flagon readings a player who knows the rulebook could dispute. Each is named
on a "How the bot reads this" line of the players' rules and listed as a reading in the rules map
(docs/rules-map/flagon.md); where a table might choose the other reading, a lobby option offers it."""

from __future__ import annotations

from typing import Any

from engine.base import STATE_VERSION_KEY
from engine.flagon.game import FlagonGame
from tests.engine.flagon_support import answer, position, step, texts, under_eyes_of_gaia


def _ch(g: FlagonGame, cid: str) -> dict[str, Any]:
    return g.s["chars"][cid]


# ------------------------------------------------------------------ a barrel and a table


def _barrel_at_a_table_with_nari_just_past_it(**options: Any) -> FlagonGame:
    """Goodheart on b5 pushes the barrel on c5 east; the table d5-e5 lies ahead and Nari stands
    on the floor at f5, where the barrel would have to stop under the table to reach her."""
    g = position(
        {"goodheart": ("p1", "b5", "E"), "nari": ("p2", "f5", "W")},
        tables={"t": ["d5", "e5"]},
        barrels=["c5"],
        **options,
    )
    step(g, {"goodheart": ["push_barrel", "move"]})
    answer(g, "face:goodheart:E")
    return g


def test_a_barrel_stops_before_a_table_and_still_hits_the_character_just_past_it():
    # RB: "Nothing may ever be under a table." / the barrel stops "when it hits a character".
    g = _barrel_at_a_table_with_nari_just_past_it()
    assert g.s["barrels"] == ["c5"]  # never under the table
    assert _ch(g, "nari")["rep"] == 13 and _ch(g, "nari")["pos"] == "g5"  # 7 and knocked back


def test_barrel_table_shields_option_lets_the_table_protect_her():
    g = _barrel_at_a_table_with_nari_just_past_it(barrel_table_shields=True)
    assert g.s["barrels"] == ["c5"]
    assert _ch(g, "nari")["rep"] == 20 and _ch(g, "nari")["pos"] == "f5"


def test_a_rolling_barrel_passes_under_chairs_standing_on_a_table():
    # RB: "It destroys any chairs in squares it enters, and keeps moving." Under a table it never
    # enters the table's square on the floor where chairs stand, so chairs on the table survive.
    g = position(
        {"goodheart": ("p1", "b5", "E"), "nari": ("p2", "a1", "S")},
        tables={"t": ["d5", "e5"]},
        barrels=["c5"],
        chairs=["e5", "g5"],
    )
    step(g, {"goodheart": ["push_barrel", "move"]})
    answer(g, "face:goodheart:E")
    assert g.s["barrels"] == ["k5"]
    assert g.s["chairs"] == {"e5": 1}  # the floor chair on g5 is smashed, the one on the table is not


# ------------------------------------------------------------------ the Flagon thrown as a mug


def _thras_throws_the_flagon(**options: Any) -> tuple[FlagonGame, str]:
    g = position({"thras": ("p1", "c11", "N"), "nari": ("p2", "c2", "S")}, **options)
    _ch(g, "thras")["held"] = "flagon"
    g.s["prizes"]["flagon"] = None
    ev = step(g, {"thras": ["throw", "move"]})
    return g, texts(ev)


def test_the_flagon_is_thrown_like_a_mug_by_default():
    # RB: "Other than noted, above, the Flagon is treated exactly like a Mug."
    g, _ = _thras_throws_the_flagon()
    answer(g, "daze:nari:slash", "face:thras:N")
    assert _ch(g, "nari")["rep"] == 18 and _ch(g, "thras")["held"] is None
    assert g.s["prizes"]["flagon"] == g.s["centre"]


def test_flagon_not_thrown_option_cancels_a_throw_while_holding_it():
    g, said = _thras_throws_the_flagon(flagon_not_thrown=True)
    assert "cancelled: holding throwable" in said
    answer(g, "face:thras:N")
    assert _ch(g, "nari")["rep"] == 20 and _ch(g, "thras")["held"] == "flagon"
    assert _ch(g, "thras")["token"] == 2  # a cancelled action costs 1 time
    # a mug is still thrown as usual under the option
    g = position({"thras": ("p1", "c11", "N"), "nari": ("p2", "c2", "S")}, flagon_not_thrown=True)
    _ch(g, "thras")["held"] = "mug"
    step(g, {"thras": ["throw", "move"]})
    answer(g, "daze:nari:slash", "face:thras:N")
    assert _ch(g, "nari")["rep"] == 18


def test_the_two_new_options_are_off_by_default_and_old_saves_keep_them_off():
    g = FlagonGame.new(["p1", "p2"], 1)
    assert g.s["options"]["flagon_not_thrown"] is False and g.s["options"]["barrel_table_shields"] is False
    saved = g.to_dict()
    saved[STATE_VERSION_KEY] = 3
    for name in ("flagon_not_thrown", "barrel_table_shields"):
        del saved["options"][name]
    old = FlagonGame.from_dict(saved)
    assert (
        old.s["options"]["flagon_not_thrown"] is False and old.s["options"]["barrel_table_shields"] is False
    )


# ------------------------------------------------------------------ the Familiar


def test_the_familiar_cannot_be_placed_on_a_table_square():
    # RB: "Place the Familiar Token on any empty square on the board": a table square is not empty.
    g = position({"asma": ("p1", "a1", "S"), "nari": ("p2", "h5", "S")}, tables={"t": ["c3", "d3"]})
    step(g, {"asma": ["familiar", "move"]})
    offered = {a.split(":")[2] for a in g.legal_actions("p1") if a.startswith("at:")}
    assert "b3" in offered and not offered & {"c3", "d3", "h5", "a1"}


def _nari_passes_the_familiar(card: str, to: str, *, facing: str = "N") -> FlagonGame:
    """Nari on e9 goes to ``to`` with ``card``; the Familiar waits on e8, on her way."""
    g = position({"nari": ("p1", "e9", facing), "asma": ("p2", "a1", "S"), "thras": ("p2", "e4", "S")})
    g.s["familiar"] = {"at": "e8", "facing": "N"}
    step(g, {"nari": [card, "move"]})
    return g


def test_a_dash_through_the_familiar_removes_it_but_move_leap_and_dragon_kick_pass_it():
    # RB: "The Familiar Token is removed if a character or object moves into the same square as the
    # familiar." A Dash runs square by square straight ahead; a Move goes by any shortest path (so
    # it need not enter the Familiar's square), a Leap ignores the squares in between, and a Dragon
    # Kick ends on its target: only the Dash certainly enters the Familiar's square.
    g = _nari_passes_the_familiar("dash", "e6")
    answer(g, "to:nari:e6", "face:nari:N")
    assert _ch(g, "nari")["pos"] == "e6" and g.s["familiar"] is None
    g = _nari_passes_the_familiar("move", "e7")
    answer(g, "to:nari:e7", "face:nari:N")
    assert _ch(g, "nari")["pos"] == "e7" and g.s["familiar"] == {"at": "e8", "facing": "N"}
    g = position({"teo": ("p1", "e9", "N"), "asma": ("p2", "a1", "S")})
    g.s["familiar"] = {"at": "e8", "facing": "N"}
    step(g, {"teo": ["leap", "move"]})
    answer(g, "to:teo:e7", "face:teo:N")
    assert _ch(g, "teo")["pos"] == "e7" and g.s["familiar"] == {"at": "e8", "facing": "N"}
    g = position({"teo": ("p1", "e9", "N"), "asma": ("p2", "a1", "S"), "thras": ("p2", "e6", "S")})
    _ch(g, "teo")["mat"] = []
    g.s["familiar"] = {"at": "e8", "facing": "N"}
    step(g, {"teo": ["dragon_kick", "move"]})
    answer(g, "to:teo:e6", "face:teo:N")
    assert _ch(g, "teo")["pos"] == "e6" and g.s["familiar"] == {"at": "e8", "facing": "N"}


# ------------------------------------------------------------------ changes to a transfer


def test_a_boasting_loser_pays_the_extra_point_only_up_to_what_she_has():
    # RB: "any time you lose Reputation you lose one more"; "If they don't have enough to give you,
    # they give you all they have." The bot adds every change first and caps the loss last.
    g = position(
        {"asma": ("p1", "e3", "S"), "goodheart": ("p2", "e6", "N")}, tables={"t": ["e3", "f3"]}, marker=12
    )
    step(g, {"asma": ["boast", "move"]})
    answer(g, "face:asma:S")
    _ch(g, "asma").update(pos="d5", rep=2)
    g.s["marker"] = 13
    step(g, {"goodheart": ["slash", "move"]})
    answer(g, "face:goodheart:N")
    assert _ch(g, "asma")["rep"] == 0 and _ch(g, "goodheart")["rep"] == 22
    _ch(g, "asma")["rep"] = 5
    g.s["marker"] = _ch(g, "goodheart")["token"]
    step(g, {"goodheart": ["slash", "move"]})
    answer(g, "face:goodheart:N")
    assert _ch(g, "asma")["rep"] == 2 and _ch(g, "goodheart")["rep"] == 25  # 2 + 1 for her Boast


def test_the_marker_turns_over_a_game_end_token_on_a_space_nobody_stands_on():
    # RB: "move the Time Marker to the next space on the Time Track". Nari moves from space 1 to 3;
    # the Town Guard lies on space 2, where no token stands: the marker passes it and it ends the game.
    g = position({"nari": ("p1", "e9", "N"), "asma": ("p2", "a1", "S")})
    g.s["game_end"] = [{"space": 2, "guard": True, "revealed": False}]
    step(g, {"nari": ["move", "move"]})
    answer(g, "to:nari:e8", "face:nari:N")
    assert g.s["game_end"][0]["revealed"] and g.is_over


# ------------------------------------------------------------------ how many cards to place


def test_the_engine_says_how_many_cards_each_character_places_and_the_view_carries_it():
    g = position({"jack": ("p1", "e5", "N"), "nari": ("p2", "e3", "S")})
    g._begin_step()
    assert g.s["phase"] == "plan"
    assert (g.cards_to_place("jack"), g.cards_to_place("nari")) == (2, 2)
    g.play("p1", "plan:jack:1:move")
    assert g.cards_to_place("jack") == 1
    view = {c["id"]: c for c in g.view(None)["characters"]}
    assert view["jack"]["to_place"] == 1 and view["nari"]["to_place"] == 2
    # Chug: three cards in all. A character who is not active places none.
    g = position({"jack": ("p1", "e5", "N"), "nari": ("p2", "e3", "S")})
    _ch(g, "jack")["held"] = "mug"
    step(g, {"jack": ["chug", "move"]})
    answer(g, "face:jack:N")
    assert g.cards_to_place("nari") == 0
    g.s["marker"] = _ch(g, "jack")["token"]
    g._begin_step()
    assert g.cards_to_place("jack") == 2  # Move is still planned: two more make three


def test_under_eyes_of_gaia_one_card_is_placed_and_the_view_names_the_card_played_last():
    g = under_eyes_of_gaia()
    g.s["marker"] = _ch(g, "margalo")["token"]
    g._begin_step()
    assert g.cards_to_place("margalo") == 1
    margalo = next(c for c in g.view("p2")["characters"] if c["id"] == "margalo")
    assert margalo["gaia_last"] == "Eyes of Gaia" and margalo["to_place"] == 1
    g.play("p1", "plan:margalo:1:move")
    answer(g, "to:margalo:stay", "face:margalo:N")
    g.s["marker"] = _ch(g, "margalo")["token"]
    g._begin_step()
    margalo = next(c for c in g.view("p2")["characters"] if c["id"] == "margalo")
    assert margalo["gaia_last"] == "Move" and "plan:margalo:1:move" not in g.legal_actions("p1")


def test_the_public_view_names_only_revealed_cards_under_eyes_of_gaia_and_forgets_at_expiry():
    """FL-30.21 "Keep the last one played face up as a reminder.": face up, so the public view
    (view(None), what the board is drawn from) names it; a card planned but not yet revealed
    never replaces it there."""
    g = under_eyes_of_gaia()

    def public() -> dict[str, Any]:
        return next(c for c in g.view(None)["characters"] if c["id"] == "margalo")

    assert public()["gaia_last"] == "Eyes of Gaia"
    until = next(st["at"] for st in g.s["statuses"] if st["card"] == "eyes_of_gaia")
    g.s["marker"] = _ch(g, "margalo")["token"]
    _ch(g, "nari")["token"] = g.s["marker"]  # Nari plans too: Margalo's card waits face down
    g._begin_step()
    g.play("p1", "plan:margalo:1:dash")
    assert _ch(g, "margalo")["slots"] == ["dash"] and public()["gaia_last"] == "Eyes of Gaia"
    assert "dash" not in str(public()).lower()  # her public entry holds nothing of the plan
    while g.s["phase"] == "plan":
        g.play("p2", next(a for a in g.legal_actions("p2") if a.startswith("plan:nari:")))
    for _ in range(20):  # this step's questions (where to dash, which way to face)
        if _ch(g, "margalo")["gaia_last"] == "dash":
            break
        answer(g, g.legal_actions(g.to_act()[0])[0])
    assert public()["gaia_last"] == "Dash"
    # The step Eyes of Gaia expires: the reminder goes with it.
    while g.s["pending"]:
        answer(g, g.legal_actions(g.to_act()[0])[0])
    g.s["marker"] = until
    step(g, {"margalo": ["move"]})
    answer(g, "to:margalo:stay", "face:margalo:N")
    assert not g.s["statuses"] and public()["gaia_last"] is None
