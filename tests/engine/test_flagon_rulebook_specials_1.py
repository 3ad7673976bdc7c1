"""Dragon & Flagon rulebook, "Special & Dragon Actions" of Thras, Two-Eyed Jack, Tuuli, Margalo
and Teo (rules map rows FL-27 to FL-31): the sentences no other test checked yet. Each test quotes
the sentences it checks, by id."""

from __future__ import annotations

from typing import Any

from engine.flagon.game import FlagonGame
from tests.engine.flagon_support import answer, deck, position, step, texts


def _ch(g: FlagonGame, cid: str) -> dict[str, Any]:
    return g.s["chars"][cid]  # type: ignore[no-any-return]


def _rep(g: FlagonGame, cid: str) -> int:
    return int(_ch(g, cid)["rep"])


def _offered(g: FlagonGame) -> set[str]:
    return set(g.legal_actions(g.to_act()[0]))


def _answer_until_face(g: FlagonGame) -> list[Any]:
    """Answer every Daze prompt with the first card offered, up to the facing change."""
    events: list[Any] = []
    while g.s["pending"] and g.s["pending"]["verb"] == "daze":
        events += answer(g, g.s["pending"]["options"][0])
    return events


# ---------------------------------------------------------------------------------------- Thras


def test_flip_table_takes_everything_on_it_away() -> None:
    """FL-27.2 "Flip Table: With a mighty heave, Thras flips a table over along with everything on
    it." The table leaves the board with the mug and chair on it; the Flagon on it goes back to the
    centre; the rider is thrown off and falls."""
    g = position(
        {"thras": ("p1", "e8", "N"), "nari": ("p2", "e7", "S"), "teo": ("p3", "a1", "S")},
        tables={"t": ["e7", "e6"], "u": ["h2", "h3"]},
        mugs=["e6", "h2", "b9"],
        chairs=["e7", "b8"],
        flagon="e6",
    )
    step(g, {"thras": ["flip_table", "move"]})
    answer(g, "face:thras:N")
    assert "t" not in g.s["tables"] and "u" in g.s["tables"]
    assert g.s["mugs"] == {"h2": 1, "b9": 1} and g.s["chairs"] == {"b8": 1}
    assert g.s["prizes"]["flagon"] == g.s["centre"] != "e6"
    assert _ch(g, "nari")["prone"] and _ch(g, "nari")["pos"] != "e7" and _rep(g, "thras") == 23


def test_shove_pushes_one_square_and_stops_on_a_table_rider() -> None:
    """FL-27.10 "Shove: Push a Standing character back one square."
    FL-27.12 "If another character is on the table, stop the slide and resolve as normal when two
    characters are in the same square."
    FL-27.13 "Thras gains 2 Reputation for each square the target moves." """
    g = position({"thras": ("p1", "e9", "N"), "nari": ("p2", "e8", "S")})
    step(g, {"thras": ["shove", "move"]})
    answer(g, "face:thras:N")
    assert _ch(g, "nari")["pos"] == "e7" and _rep(g, "thras") == 22 and _rep(g, "nari") == 18
    # Nari slides over e7 onto e6 where Teo stands on the table: she stops there and Teo is
    # knocked back (off the table, so he falls). Nari moved two squares: Thras gains 4.
    g = position(
        {"thras": ("p1", "e9", "N"), "nari": ("p2", "e8", "S"), "teo": ("p3", "e6", "S")},
        tables={"t": ["e7", "e6"]},
    )
    step(g, {"thras": ["shove", "move"]})
    answer(g, "face:thras:N")
    assert _ch(g, "nari")["pos"] == "e6" and _ch(g, "teo")["pos"] == "e5" and _ch(g, "teo")["prone"]
    assert _rep(g, "thras") == 24 and _rep(g, "nari") == 16 and _rep(g, "teo") == 20


def test_warcry_affects_everyone_in_the_highlighted_squares() -> None:
    """FL-27.14 "Warcry: Effects all characters in highlighted squares." Both characters in the
    cone ahead pay and are Dazed; the one behind Thras is not touched."""
    g = position(
        {
            "thras": ("p1", "e6", "N"),
            "nari": ("p2", "d5", "S"),
            "teo": ("p3", "g4", "S"),
            "asma": ("p4", "e7", "N"),
        }
    )
    step(g, {"thras": ["warcry", "move"]})
    answer(g, "daze:nari:slash", "daze:teo:slash", "face:thras:N")
    assert _rep(g, "nari") == 19 and _rep(g, "teo") == 19 and _rep(g, "asma") == 20 and _rep(g, "thras") == 22
    assert _ch(g, "nari")["slots"] == ["slash"] and _ch(g, "teo")["slots"] == ["slash"]
    assert _ch(g, "asma")["slots"] == []


def test_battle_frenzy_ends_when_its_duration_ends() -> None:
    """FL-27.16 "Battle Frenzy continues until the Duration ends, or until Thras suffers a Daze
    result, whichever comes first." (The Daze end: test_battle_frenzy_pays_after_every_action_and_
    ends_on_daze.) When the Duration is up, Thras's next action pays nothing and the Dragon card
    goes back under the mat."""
    g = position({"thras": ("p1", "e5", "N"), "nari": ("p2", "e4", "S")})
    _ch(g, "thras")["mat"] = []
    step(g, {"thras": ["battle_frenzy", "move"]})
    answer(g, "face:thras:N")
    assert _rep(g, "thras") == 22
    until = next(st["at"] for st in g.s["statuses"] if st["card"] == "battle_frenzy")
    g.s["marker"] = until
    step(g, {"thras": ["move", "slash"]})
    answer(g, "to:thras:stay", "face:thras:N")
    assert _rep(g, "thras") == 22 and _rep(g, "nari") == 18
    assert not g.s["statuses"] and "battle_frenzy" in _ch(g, "thras")["mat"]


# ------------------------------------------------------------------------------ Two-Eyed Jack


def test_chug_needs_a_mug_or_the_flagon() -> None:
    """FL-28.4 "Chug: Must be holding a mug or Flagon to perform." Empty-handed it is cancelled
    (time 1, no effect); holding the Flagon it works (the mug: test_chug_three_cards_and_smaller_
    losses)."""
    g = position({"jack": ("p1", "e5", "N"), "nari": ("p2", "a1", "S")})
    ev = step(g, {"jack": ["chug", "move"]})
    ev += answer(g, "face:jack:N")
    assert "Chug is cancelled" in texts(ev)
    assert not g.s["statuses"] and _ch(g, "jack")["token"] == 2 and "chug" in deck(g, "jack")
    g = position({"jack": ("p1", "e5", "N"), "nari": ("p2", "a1", "S")})
    _ch(g, "jack")["held"] = "flagon"
    g.s["prizes"]["flagon"] = None
    step(g, {"jack": ["chug", "move"]})
    answer(g, "face:jack:N")
    assert [st["card"] for st in g.s["statuses"]] == ["chug"] and "chug" in _ch(g, "jack")["faceup"]


def test_hand_cannon_starts_loaded_and_unloads_even_when_it_misses() -> None:
    """FL-28.8 "It starts the game LOADED (Place the token on the Loaded side on the Character Mat)."
    FL-28.9 "When you perform the Hand Cannon action, whether a character is affected or not, flip
    the token over to the UNLOADED side."
    FL-28.10-28.12 "The next time you do Hand Cannon, do not fire it." "Instead, flip the token back
    to the Loaded side." "Then the next time you perform Hand Cannon it may affect other characters." """
    g = FlagonGame.new(["p1", "p2"], 3)
    g.play("p1", "char:jack")
    jack = next(c for c in g.view("p1")["characters"] if c["id"] == "jack")
    assert g.s["chars"]["jack"]["loaded"] and jack["hand_cannon"] == "loaded"
    # Fired at an empty line: nobody hit, but the cannon is now unloaded.
    g = position({"jack": ("p1", "e9", "N"), "nari": ("p2", "a1", "S")})
    step(g, {"jack": ["hand_cannon", "move"]})
    answer(g, "face:jack:N")
    assert not _ch(g, "jack")["loaded"] and _rep(g, "nari") == 20
    assert next(c for c in g.view("p1")["characters"] if c["id"] == "jack")["hand_cannon"] == "unloaded"
    # Next time: Nari is in the line but the cannon only reloads.
    _ch(g, "nari")["pos"] = "e3"
    g.s["marker"] = _ch(g, "jack")["token"]
    step(g, {"jack": ["hand_cannon", "move"]})
    answer(g, "face:jack:N")
    assert _ch(g, "jack")["loaded"] and _rep(g, "nari") == 20
    # And the time after that it fires again.
    g.s["marker"] = _ch(g, "jack")["token"]
    step(g, {"jack": ["hand_cannon", "move"]})
    answer(g, "face:jack:N")
    assert not _ch(g, "jack")["loaded"] and _rep(g, "nari") == 16


def test_lure_counts_distance_orthogonally_and_knocks_back_an_occupant() -> None:
    """FL-28.14 "Distance is not counted diagonally, and the target may not be moved diagonally."
    FL-28.15 "If the character is moved into the same square as another character, resolve as
    Knockback." """
    # Nari two squares across and two up is four squares away, out of reach: Teo (one across, two
    # up: three squares) is the only target, and he is pulled across or down, never diagonally.
    g = position({"jack": ("p1", "e5", "N"), "nari": ("p2", "g3", "S"), "teo": ("p3", "f3", "S")})
    step(g, {"jack": ["lure", "move"]})
    assert _offered(g) == {"to:jack:e3", "to:jack:f4"}
    answer(g, "to:jack:e3", "face:jack:N")
    assert _ch(g, "teo")["pos"] == "e3" and _ch(g, "nari")["pos"] == "g3" and _rep(g, "nari") == 20
    # Nari pulled west onto Teo's square: Teo is knocked back one square west.
    g = position({"jack": ("p1", "e5", "N"), "nari": ("p2", "g4", "S"), "teo": ("p3", "f4", "S")})
    step(g, {"jack": ["lure", "move"]})
    answer(g, "target:jack:nari")
    assert _offered(g) == {"to:jack:f4", "to:jack:g5"}
    answer(g, "to:jack:f4", "face:jack:N")
    assert _ch(g, "nari")["pos"] == "f4" and _ch(g, "teo")["pos"] == "e4"
    assert _rep(g, "nari") == 18 and _rep(g, "teo") == 20


def test_cannon_barrage_marker_goes_on_any_square() -> None:
    """FL-28.18 "Place the Cannon Barrage marker on any square on the board." Every square is
    offered, the far corners and the squares under tables included."""
    g = position({"jack": ("p1", "e5", "N"), "nari": ("p2", "a1", "S")}, tables={"t": ["h2", "h3"]})
    _ch(g, "jack")["mat"] = []
    step(g, {"jack": ["cannon_barrage", "move"]})
    offered = _offered(g)
    assert len(offered) == g.s["width"] * g.s["height"]
    assert {"at:jack:a1", "at:jack:h2", "at:jack:e5"} <= offered


# -------------------------------------------------------------------------------------- Tuuli


def test_divine_inspiration_puts_tuuli_first_while_it_lasts() -> None:
    """FL-29.4 "Divine Inspiration: For the duration of the effect, Tuuli always goes first when
    Active." FL-29.5 "Do not shuffle her token in with the others." FL-29.6 "Just leave it face up
    and have her go first." Played from the card; once it has expired she takes her turn in the
    drawn order again."""
    g = position({"tuuli": ("p1", "e5", "N"), "nari": ("p2", "a1", "S")})
    _ch(g, "tuuli")["mat"] = []
    step(g, {"tuuli": ["divine_inspiration", "move"]})
    answer(g, "face:tuuli:N")
    until = next(st["at"] for st in g.s["statuses"] if st["card"] == "divine_inspiration")
    g.s["marker"] = _ch(g, "tuuli")["token"]
    step(g, {"nari": ["move", "slash"], "tuuli": ["move", "slash"]}, order=["nari", "tuuli"])
    assert g.s["order"] == ["tuuli", "nari"]
    answer(g, "to:tuuli:stay", "face:tuuli:N", "to:nari:stay", "face:nari:S")
    g.s["marker"] = until  # her status ends when her token comes up on that step
    step(g, {"tuuli": ["move", "slash"]})
    answer(g, "to:tuuli:stay", "face:tuuli:N")
    assert not g.s["statuses"]
    g.s["marker"] = _ch(g, "tuuli")["token"]
    step(g, {"nari": ["move", "slash"], "tuuli": ["move", "slash"]}, order=["nari", "tuuli"])
    assert g.s["order"] == ["nari", "tuuli"]


def test_vision_offers_the_deck_and_may_be_cancelled_for_one_time() -> None:
    """FL-29.8 "Vision: When this Action comes up you may replace it with any Action from your
    character deck." FL-29.10 "You may also voluntarily CANCEL this Action, in which case it takes
    one Time Point." """
    g = position({"tuuli": ("p1", "e5", "N"), "nari": ("p2", "e4", "S")})
    step(g, {"tuuli": ["vision", "move"]})
    offered = _offered(g)
    in_deck = {f"vision:tuuli:{k}" for k in deck(g, "tuuli") if k != "vision"}
    assert offered == {"vision:tuuli:cancel", *in_deck}
    assert "vision:tuuli:arise" in offered and "vision:tuuli:move" not in offered  # Move is planned
    answer(g, "vision:tuuli:cancel", "face:tuuli:N")
    assert _ch(g, "tuuli")["token"] == 2 and _rep(g, "nari") == 20 and "vision" in deck(g, "tuuli")


def test_smackdown_and_wildstyle_are_weapon_attacks() -> None:
    """FL-29.7 "Smackdown of Justice: Normal weapon attack." FL-30.15 "Wildstyle: Normal weapon
    attack, except Margalo takes an immediate Daze result." As weapon attacks, a Riposte stops them:
    the attacker pays the 7 instead (Berserk: test_riposte_timing_example)."""
    for attacker, card in (("tuuli", "smackdown"), ("margalo", "wildstyle")):
        g = position({attacker: ("p1", "e6", "N"), "montero": ("p2", "e5", "S")})
        _ch(g, "montero").update(riposte=True, faceup=["riposte"], token=9)
        ev = step(g, {attacker: [card, "move"]})
        ev += _answer_until_face(g)
        assert "ripostes" in texts(ev) and len(_ch(g, attacker)["slots"]) == 3, card  # Dazed 2
        answer(g, f"face:{attacker}:N")
        assert _rep(g, "montero") == 27 and _rep(g, attacker) == 13 and not _ch(g, "montero")["prone"], card


# ------------------------------------------------------------------------------------ Margalo


def test_living_wood_needs_a_table_and_spares_margalo_on_one() -> None:
    """FL-30.8 "Margalo must be in the same square as a table or facing one to be able to perform
    this action." FL-30.9 "All other characters on tables are affected." FL-30.10 "Margalo is NOT
    affected if she is on a table." """
    g = position(
        {"margalo": ("p1", "e8", "N"), "nari": ("p2", "h5", "S")},
        tables={"u": ["h5", "h6"]},
    )
    ev = step(g, {"margalo": ["living_wood", "move"]})
    ev += answer(g, "face:margalo:N")
    assert "Living Wood is cancelled" in texts(ev)
    assert _rep(g, "nari") == 20 and not _ch(g, "nari")["prone"] and _ch(g, "margalo")["token"] == 2
    g = position(
        {"margalo": ("p1", "e6", "N"), "nari": ("p2", "h5", "S"), "teo": ("p3", "b2", "S")},
        tables={"t": ["e6", "f6"], "u": ["h5", "h6"]},
    )
    step(g, {"margalo": ["living_wood", "move"]})
    answer(g, "face:margalo:N")
    assert _ch(g, "nari")["prone"] and _rep(g, "nari") == 18 and _rep(g, "margalo") == 22
    assert not _ch(g, "margalo")["prone"] and not _ch(g, "teo")["prone"] and _rep(g, "teo") == 20


def test_eyes_of_gaia_one_card_plans_no_daze_and_two_cards_after() -> None:
    """FL-30.16 "Eyes of Gaia: Take back all cards from your Action slots into Margalo's deck."
    FL-30.18 "So when the Time Marker reaches the same space as your token, plan an Action as
    normal, and it will be performed that step when your Time Marker is selected."
    FL-30.19 "Ignore all Daze and Fall effects for the duration of this effect." (Daze here; Fall:
    test_eyes_of_gaia.)
    FL-30.22 "After Eyes of Gaia expires you will have no planned Actions."
    FL-30.23 "The next time Margalo becomes Active you will have to play cards into your Action
    slots until you have two cards face down as normal." """
    g = position({"margalo": ("p1", "e5", "N"), "nari": ("p2", "e2", "S")})
    _ch(g, "margalo")["mat"] = []
    step(g, {"margalo": ["eyes_of_gaia", "slash", "dash"]})
    answer(g, "face:margalo:N")
    assert _ch(g, "margalo")["slots"] == [] and {"slash", "dash"} <= set(deck(g, "margalo"))
    # Her next step: she plans one card and it is performed that step.
    g.s["marker"] = _ch(g, "margalo")["token"]
    g._begin_step()
    assert g.to_act() == ["p1"] and all(a.startswith("plan:margalo:1:") for a in g.legal_actions("p1"))
    ev = g.play("p1", "plan:margalo:1:dash")
    assert "reveals Dash" in texts(ev)
    answer(g, "to:margalo:e4", "face:margalo:N")
    assert _ch(g, "margalo")["pos"] == "e4" and _ch(g, "margalo")["slots"] == []
    # A mug in the face: she pays but is not Dazed.
    _ch(g, "nari")["held"] = "mug"
    g.s["marker"] = _ch(g, "margalo")["token"]
    _ch(g, "margalo")["slots"] = ["slash"]
    step(g, {"nari": ["throw", "move"], "margalo": ["slash"]}, order=["nari", "margalo"])
    assert g.s["pending"]["verb"] == "face" and g.s["pending"]["char"] == "nari"
    answer(g, "face:nari:S")
    assert (
        _rep(g, "margalo") == 18 and _ch(g, "margalo")["slots"] == []
    )  # the Slash was performed, nothing added
    answer(g, "face:margalo:N")
    # The step the effect expires: one card planned, performed, then nothing is left planned.
    until = next(st["at"] for st in g.s["statuses"] if st["card"] == "eyes_of_gaia")
    g.s["marker"] = until
    step(g, {"margalo": ["move"]})
    answer(g, "to:margalo:stay", "face:margalo:N")
    assert (
        not g.s["statuses"]
        and _ch(g, "margalo")["slots"] == []
        and "eyes_of_gaia" in _ch(g, "margalo")["mat"]
    )
    g.s["marker"] = _ch(g, "margalo")["token"]
    g._begin_step()
    assert g.need("margalo") == 2
    g.play("p1", "plan:margalo:1:move")
    assert g.to_act() == ["p1"] and "plan:margalo:2:slash" in g.legal_actions("p1")


# ---------------------------------------------------------------------------------------- Teo


def test_leap_lands_on_a_free_square_over_anything_in_between() -> None:
    """FL-31.1 "Leap: Move to any of the indicated squares." FL-31.2 "The square moved to may not
    contain another character." FL-31.3 "But you may ignore characters and objects in all
    intervening squares." Teo leaps over Nari standing on a table; Asma's square is not offered."""
    g = position(
        {"teo": ("p1", "e9", "N"), "nari": ("p2", "e8", "S"), "asma": ("p3", "e6", "S")},
        tables={"t": ["d8", "e8"]},
        barrels=["f8"],
    )
    step(g, {"teo": ["leap", "move"]})
    assert _offered(g) == {f"to:teo:{q}" for q in ("e7", "d7", "f7", "c9", "g9")}
    answer(g, "to:teo:e7", "face:teo:N")
    assert _ch(g, "teo")["pos"] == "e7" and _ch(g, "nari")["pos"] == "e8" and not _ch(g, "teo")["prone"]
    assert _rep(g, "nari") == 20 and g.s["barrels"] == ["f8"]


def test_sixth_sense_turn_before_or_after_and_normally_only_after() -> None:
    """FL-31.5 "For the duration of this effect Teo may change facing either BEFORE or AFTER
    performing an Action, but not both." FL-31.6 "Normally you can only change facing after an
    action." (Turning before, and then not again: test_sixth_sense_turn_before_acting.)"""
    g = position({"teo": ("p1", "e5", "N"), "nari": ("p2", "f5", "S")})
    step(g, {"teo": ["move", "slash"]})
    assert g.s["pending"]["verb"] == "to"  # no question before the card without Sixth Sense
    answer(g, "to:teo:stay")
    assert g.s["pending"]["verb"] == "face"
    g = position({"teo": ("p1", "e5", "N"), "nari": ("p2", "f5", "S")})
    g.s["statuses"].append({"char": "teo", "card": "sixth_sense", "at": 9})
    step(g, {"teo": ["touch_of_death", "move"]})
    assert _offered(g) == {"preface:teo:after", *(f"preface:teo:{f}" for f in "NESW")}
    answer(g, "preface:teo:after")
    assert _rep(g, "teo") == 20 and g.s["pending"]["verb"] == "face"  # Nari was not ahead
    answer(g, "face:teo:E")
    assert _ch(g, "teo")["facing"] == "E"
