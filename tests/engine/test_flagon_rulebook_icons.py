"""Rulebook sections "Action Cards" (FL-14) and "Action Card Effect Icons" (FL-15): the sentences
the worked examples in test_flagon_examples.py do not already check, played through the engine."""

from __future__ import annotations

from typing import Any

from engine.flagon.cards import CHARACTERS, deck_of, dragon_of, load_cards
from engine.flagon.game import FlagonGame
from tests.engine.flagon_support import answer, deck, position, step


def ch(g: FlagonGame, cid: str) -> dict[str, Any]:
    return g.s["chars"][cid]  # type: ignore[no-any-return]


def rep(g: FlagonGame, cid: str) -> int:
    return int(ch(g, cid)["rep"])


def plan_options(g: FlagonGame, player: str, cid: str) -> set[str]:
    """The cards ``cid`` may plan now (the card part of ``plan:<cid>:<slot>:<card>``)."""
    return {a.split(":")[3] for a in g.legal_actions(player) if a.startswith(f"plan:{cid}:")}


def test_deck_is_13_common_4_special_1_dragon_with_the_card_features():
    """FL-14.1 "Each character has a deck of 18 Action Cards." FL-14.2 "There are 13 Common Action
    Cards that every character has, 4 gold Special cards, and 1 red Dragon card." FL-14.3 "The
    Special and Dragon cards are unique to each character." FL-14.4/14.5 the common features (name,
    time cost, affected squares/weapon, description, purple header, duration, effect, requirement).
    FL-14.34 the clock icon: Boast's duration is 6."""
    cards = load_cards()
    commons = {k for k, c in cards.items() if c.owner == "common"}
    assert len(commons) == 13
    seen: set[str] = set()
    for cid in CHARACTERS:
        d = deck_of(cid)
        assert len(d) == 18 and len(set(d)) == 18
        own = [k for k in d if k not in commons]
        assert commons <= set(d)
        assert sorted(cards[k].kind for k in own) == ["dragon", "special", "special", "special", "special"]
        assert all(cards[k].owner == cid for k in own) and dragon_of(cid) in own
        assert not seen & set(own)  # nobody else has these cards
        seen |= set(own)
    for c in cards.values():
        assert c.name and c.text and c.effect
        assert c.base_time >= 1
        for f in ("squares", "weapon", "purple", "duration", "requires", "rep", "daze", "fall", "knockback"):
            assert f in c.fields
    assert cards["boast"]["duration"] == 6 and cards["slash"]["weapon"] and cards["slash"]["purple"]


def test_affected_squares_are_drawn_from_the_characters_square_and_facing():
    """FL-14.17 "Many cards show a diagram indicating which squares can be affected." FL-14.18 "The
    location of the character is always indicated by the red triangle, facing in the direction the
    triangle is pointing." Slash's three squares are in front of Goodheart whichever way he faces."""
    chars = {"goodheart": ("p1", "e5", "E"), "nari": ("p2", "f6", "S"), "teo": ("p2", "d4", "S")}
    g = position(chars)
    step(g, {"goodheart": ["slash", "move"]})
    answer(g, "face:goodheart:E")
    assert rep(g, "nari") == 18 and rep(g, "teo") == 20  # f6 is front-right when facing east; d4 is not
    chars["goodheart"] = ("p1", "e5", "N")
    g = position(chars)
    step(g, {"goodheart": ["slash", "move"]})
    answer(g, "face:goodheart:N")
    assert rep(g, "nari") == 20 and rep(g, "teo") == 18  # facing north: d4 is front-left


def test_orange_squares_hit_every_character_in_them():
    """FL-14.20 "Orange means that multiple characters are affected": Slash (orange) takes 2 from
    each character in its three squares (yellow cards hitting one: see test_throw_targets_example)."""
    g = position({"goodheart": ("p1", "e5", "N"), "nari": ("p2", "d4", "S"), "teo": ("p2", "f4", "S")})
    step(g, {"goodheart": ["slash", "move"]})
    answer(g, "face:goodheart:N")
    assert rep(g, "nari") == 18 and rep(g, "teo") == 18 and rep(g, "goodheart") == 24


def test_the_active_player_orders_an_orange_attack_when_a_riposte_can_drain_him():
    """FL-14.22 "If multiple characters are affected the active player decides the order." The order
    changes the result when a weapon attack also meets a Riposte and the attacker cannot pay it in
    full: with 3 reputation Goodheart pays Montero less if he takes Nari's 2 first."""
    chars = {"goodheart": ("p1", "e5", "N"), "nari": ("p2", "d4", "S"), "montero": ("p3", "f4", "S")}
    results = {}
    for first in ("nari", "montero"):
        g = position(chars)
        ch(g, "goodheart")["rep"] = 3
        ch(g, "montero").update(riposte=True, faceup=["riposte"], token=9)
        step(g, {"goodheart": ["slash", "move"]})
        assert g.to_act() == ["p1"] and set(g.legal_actions("p1")) == {
            "target:goodheart:montero",
            "target:goodheart:nari",
        }
        answer(g, f"target:goodheart:{first}", "daze:goodheart:dash", "daze:goodheart:boast")
        answer(g, "face:goodheart:N")
        results[first] = (rep(g, "goodheart"), rep(g, "montero"), rep(g, "nari"))
    assert results["nari"] == (0, 25, 18)  # +2 first, then all 5 to Montero
    assert results["montero"] == (2, 23, 18)  # all 3 to Montero, then +2 from Nari


def test_a_rich_attacker_is_not_asked_the_order():
    """FL-14.22 as the bot reads it (docs/flagon.md): the order is asked only when it can change
    the result; with 20 reputation Goodheart pays the Riposte in full whatever the order."""
    g = position({"goodheart": ("p1", "e5", "N"), "nari": ("p2", "d4", "S"), "montero": ("p3", "f4", "S")})
    ch(g, "montero").update(riposte=True, faceup=["riposte"], token=9)
    step(g, {"goodheart": ["slash", "move"]})
    assert g.s["pending"]["verb"] == "daze"  # straight to the Riposte's Daze 2: no order question
    answer(g, "daze:goodheart:dash", "daze:goodheart:boast", "face:goodheart:N")
    assert (rep(g, "goodheart"), rep(g, "montero"), rep(g, "nari")) == (15, 27, 18)


def test_choices_are_made_when_the_card_is_performed_not_when_planned():
    """FL-14.29 "Many cards give players choices of what to do." FL-14.30 "Move lets you move to six
    different squares, or stay in the same square." FL-14.31 "You don't have to decide what you
    want to do when you first place the card down." FL-14.32 "You can decide the moment you actually
    perform the Action." Planning names only the card; Goodheart's squares are offered when his Move
    is revealed, after Nari has moved into one of them."""
    g = position({"goodheart": ("p1", "e5", "N"), "nari": ("p2", "d4", "E")})
    g._begin_step()
    g.s["forced_order"] = ["nari", "goodheart"]
    g._advance()
    assert all(len(a.split(":")) == 4 for a in g.legal_actions("p1"))  # plan:<char>:<slot>:<card>
    assert "move" in plan_options(g, "p1", "goodheart")
    g.play("p1", "plan:goodheart:1:move")
    g.play("p1", "plan:goodheart:2:slash")
    g.play("p2", "plan:nari:1:move")
    g.play("p2", "plan:nari:2:slash")
    assert g.s["pending"]["verb"] == "to" and g.s["pending"]["char"] == "nari"
    answer(g, "to:nari:e4", "face:nari:E")
    opts = {a.split(":")[2] for a in g.legal_actions("p1")}
    assert "e4" not in opts and "e3" not in opts and {"stay", "d4", "f5"} <= opts
    answer(g, "to:goodheart:d4", "face:goodheart:N")
    assert ch(g, "goodheart")["pos"] == "d4" and ch(g, "goodheart")["token"] == 3


def test_a_lasting_card_stays_face_up_and_cannot_be_planned_until_it_ends():
    """FL-14.35 "place the matching token on the time track a number of spaces equal to the
    Duration, and leave the Action Card FACE UP as a reminder." FL-14.41 "Note that this means you
    will not be able to plan the action again until the Duration expires." FL-14.38 it expires when
    the marker reaches the token's space, and Boast can be planned again."""
    g = position(
        {"nari": ("p1", "c3", "N"), "montero": ("p2", "h8", "N")}, tables={"t": ["c3", "d3"]}, marker=4
    )
    step(g, {"nari": ["boast", "move"]})
    answer(g, "face:nari:N")
    assert g.s["statuses"] == [{"char": "nari", "card": "boast", "at": 10}]
    assert ch(g, "nari")["faceup"] == ["boast"] and "boast" not in deck(g, "nari")
    g.s["marker"] = 6
    ch(g, "nari").update(token=6, slots=[])
    g._begin_step()
    g._advance()
    options = plan_options(g, "p1", "nari")
    assert "boast" not in options and "slash" in options
    g.s["marker"] = 10
    ch(g, "nari").update(token=10, slots=[])
    ch(g, "montero")["token"] = 12
    g._begin_step()
    g._advance()
    assert "boast" not in plan_options(g, "p1", "nari")  # Nari is active: it ends when she is drawn
    g.play("p1", "plan:nari:1:move")
    g.play("p1", "plan:nari:2:slash")
    assert g.s["statuses"] == [] and ch(g, "nari")["faceup"] == [] and "boast" in deck(g, "nari")


def test_riposte_has_no_token_and_ends_at_its_owners_next_action():
    """FL-14.36 "(EXCEPTION: There is no token for Riposte." FL-14.37 "See Riposte later for
    details)." The card stays face up with no status token until Montero acts again."""
    g = position({"montero": ("p1", "e5", "N"), "nari": ("p2", "a1", "S")})
    step(g, {"montero": ["riposte", "move"]})
    answer(g, "time:montero:2", "face:montero:N")
    assert g.s["statuses"] == [] and ch(g, "montero")["riposte"] and ch(g, "montero")["faceup"] == ["riposte"]
    assert "riposte" not in deck(g, "montero")
    g.s["marker"] = 3
    step(g, {"montero": ["move", "slash"]})
    assert not ch(g, "montero")["riposte"] and "riposte" in deck(g, "montero")


def test_a_lasting_dragon_card_goes_back_under_the_mat():
    """FL-14.40 "...the effect stops and the token is returned from the Time Track back to the
    Character Mat, and the Action Card is returned to the deck (EXCEPTION: Dragon cards are placed
    back under the Character Mat)." Nari's Shadow Dash (a Dragon card with a duration) ends as her
    token is drawn, before her action, and goes under the mat, not into the deck."""
    g = position({"nari": ("p1", "e5", "N"), "montero": ("p2", "a1", "S")})
    ch(g, "nari")["mat"] = []
    step(g, {"nari": ["shadow_dash", "move"]})
    answer(g, "face:nari:N")
    (st,) = g.s["statuses"]
    assert st["card"] == "shadow_dash" and ch(g, "nari")["faceup"] == ["shadow_dash"]
    g.s["marker"] = st["at"]
    step(g, {"nari": ["move", "slash"]})
    assert g.s["pending"]["verb"] == "to"  # her Move is being performed: the status has already ended
    assert g.s["statuses"] == [] and ch(g, "nari")["faceup"] == []
    assert ch(g, "nari")["mat"] == ["shadow_dash"] and "shadow_dash" not in deck(g, "nari")


def test_daze_cards_come_from_the_deck_as_normal():
    """FL-15.7 "the controlling player must immediately place a number of Action Cards equal to the
    Daze number." FL-15.8 "These are selected by the player from the character deck as normal."
    Nari's owner is asked, privately, before Goodheart's action ends, and may choose only cards in
    her deck (not her planned Move, her face-up Boast or her Dragon card)."""
    g = position({"goodheart": ("p1", "e5", "N"), "nari": ("p2", "e4", "S")})
    ch(g, "nari").update(slots=["move"], faceup=["boast"], token=9)
    step(g, {"goodheart": ["shield_bash", "move"]})
    assert g.to_act() == ["p2"] and g.s["pending"]["verb"] == "daze"
    offered = {a.split(":")[2] for a in g.legal_actions("p2")}
    assert offered == set(deck(g, "nari")) and not offered & {"move", "boast", "shadow_dash"}
    assert all(g.is_private_action("p2", a) for a in g.legal_actions("p2"))
    answer(g, "daze:nari:slash", "face:goodheart:N")
    assert ch(g, "nari")["slots"] == ["move", "slash"]


def test_a_daze_with_full_slots_adds_nothing():
    """FL-15.9 "However a character never needs to plot beyond slot III." FL-15.10 "If a Daze
    result would result in more cards being placed, simply ignore the excess." """
    g = position({"goodheart": ("p1", "e5", "N"), "nari": ("p2", "e4", "S")})
    ch(g, "nari").update(slots=["move", "slash", "dash"], token=9)
    step(g, {"goodheart": ["shield_bash", "move"]})
    assert g.s["pending"]["verb"] == "face"  # nobody is asked for a Daze card
    answer(g, "face:goodheart:N")
    assert ch(g, "nari")["slots"] == ["move", "slash", "dash"] and ch(g, "nari")["pos"] == "e3"


def test_fall_lays_the_character_down_in_its_facing():
    """FL-15.15 "Some Actions cause Fall as an effect." FL-15.16 "If this occurs, lay the standee
    down with the top pointing in the current facing." FL-15.17 "This is referred to as being
    Prone." A chair hit knocks Nari down; she keeps her facing and everyone sees her prone."""
    g = position({"thras": ("p1", "e8", "N"), "nari": ("p2", "e6", "W")})
    ch(g, "thras")["held"] = "chair"
    step(g, {"thras": ["throw", "move"]})
    answer(g, "face:thras:N")
    assert ch(g, "nari")["prone"] and ch(g, "nari")["facing"] == "W" and ch(g, "nari")["pos"] == "e6"
    seen = {c["id"]: c for c in g.view(None)["characters"]}
    assert seen["nari"]["prone"] and seen["nari"]["facing"] == "W" and not seen["thras"]["prone"]


def test_knockback_goes_diagonally_when_the_source_is_diagonal():
    """FL-15.21 "Knockback moves a character one square directly away from the source of the
    effect." FL-15.22 "This may move a character diagonally, if the source is located diagonally
    from the character." Goodheart's Divine Hurl (a throw with knockback) hits Nari diagonally."""
    g = position({"goodheart": ("p1", "e8", "N"), "nari": ("p2", "g6", "S")})
    ch(g, "goodheart")["held"] = "chair"
    step(g, {"goodheart": ["divine_hurl", "move"]})
    answer(g, "face:goodheart:N")
    assert ch(g, "nari")["pos"] == "h5"


def test_a_knockback_chain_costs_only_the_target_and_lands_on_a_table():
    """FL-15.23 "If a character is Knocked Back into another character, that character also suffers
    Knockback, although they do not have to lose any Reputation." FL-15.24 "A chain of Knockbacks
    can happen in this way." FL-15.27 knocked onto a table "they fall down", and FL-15.29 "This
    applies whether they were the initial target of the Knockback or got caught in a chain
    reaction." Shield Bash on Nari pushes Teo onto the table behind him: Teo pays nothing and falls."""
    g = position(
        {"goodheart": ("p1", "e7", "N"), "nari": ("p2", "e6", "S"), "teo": ("p3", "e5", "S")},
        tables={"t": ["e4", "f4"]},
    )
    step(g, {"goodheart": ["shield_bash", "move"]})
    answer(g, "daze:nari:slash", "face:goodheart:N")
    assert ch(g, "nari")["pos"] == "e5" and ch(g, "teo")["pos"] == "e4"
    assert rep(g, "nari") == 18 and rep(g, "teo") == 20 and rep(g, "goodheart") == 22
    assert ch(g, "teo")["prone"] and not ch(g, "nari")["prone"]


def test_knocked_off_a_table_falls():
    """FL-15.28 "Similarly, if they are moved off of a table, they also fall down." """
    g = position({"goodheart": ("p1", "e7", "N"), "nari": ("p2", "e6", "S")}, tables={"t": ["e6", "f6"]})
    step(g, {"goodheart": ["shield_bash", "move"]})
    answer(g, "daze:nari:slash", "face:goodheart:N")
    assert ch(g, "nari")["pos"] == "e5" and ch(g, "nari")["prone"]


def test_a_diagonal_knockback_into_a_wall_slides_along_it():
    """FL-15.25 "If the character is Knocked Back into a wall, instead move the character left or
    right along the wall instead (even if the source entered diagonally)." FL-15.26 "The player
    controlling the character decides which way to move." Nari on the north wall is hit
    diagonally by Goodheart's Divine Hurl; her player picks the square along the wall."""
    for pick in ("b1", "d1"):
        g = position({"goodheart": ("p1", "e3", "N"), "nari": ("p2", "c1", "S")})
        ch(g, "goodheart")["held"] = "chair"
        step(g, {"goodheart": ["divine_hurl", "move"]})
        assert g.to_act() == ["p2"] and set(g.legal_actions("p2")) == {"slide:nari:b1", "slide:nari:d1"}
        answer(g, f"slide:nari:{pick}", "face:goodheart:N")
        assert ch(g, "nari")["pos"] == pick
