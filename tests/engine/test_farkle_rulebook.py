"""Dragon Farkle: rulebook sentences that no other test checked (see docs/rules-map/farkle.md).

Each test quotes the sentence of the *Dragon Farkle* rulebook it checks, with its map id."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import handbook
from engine.base import InvalidSetup
from engine.farkle import new_game
from engine.farkle.rules import EVENT_FACES, OPTIONS
from engine.rng import Rng
from render.rules_pages import game_pages
from tests.engine.farkle_support import kinds, setup


def test_event_die_has_a_dragon_a_rally_and_four_blanks() -> None:
    """FA-5.6: "The Event die is a six-sided die that displays a Dragon side, a Rally side,
    and four Blank sides." Each face comes up about as often as a fair die says."""
    assert Counter(EVENT_FACES) == {"blank": 4, "dragon": 1, "rally": 1}
    seen: Counter[str] = Counter()
    for seed in range(1200):
        g = setup()
        g.rng = Rng(seed)  # type: ignore[assignment]
        ev = g.play("p1", "recruit")
        (roll,) = [e for e in ev if e.kind == "roll"]
        seen[next(face for face in ("dragon", "rally", "blank") if face in roll.text.lower())] += 1
    assert 700 < seen["blank"] < 900 and 150 < seen["dragon"] < 260 and 150 < seen["rally"] < 260


def test_two_to_five_players_one_mat_each() -> None:
    """FA-1.5: "5 Player mats" (and FA-1.1: 30 Soldier dice, six each): at most five players."""
    with pytest.raises(InvalidSetup, match="2 to 5 players"):
        new_game(["a", "b", "c", "d", "e", "f"], 1)
    with pytest.raises(InvalidSetup, match="2 to 5 players"):
        new_game(["a"], 1)
    assert len(new_game(["a", "b", "c", "d", "e"], 1).players) == 5


def test_companions_are_inactive_while_defending() -> None:
    """FA-3.2: Companions "can be used anytime during your turn, except as noted." A defence is
    rolled during the attacker's turn, so (our reading) the defender's Minstrel does not turn
    the Rally's double into a triple."""
    g = setup(
        [([5, 2, 3, 4, 6, 6], "blank"), ([1, 2, 3, 4, 6], "rally")],
        armies={"p1": 0, "p2": 0},
        companions={"p2": "minstrel"},
    )
    g.play("p1", "brawl:p2")
    g.play("p1", "keep:5")
    g.play("p1", "stop")
    g.play("p2", "keep:1")
    assert g.describe_action("p2", "rally:double") == "Rally: double (+100)"
    g.play("p2", "rally:double")
    assert g.s["total"] == 200


def test_the_same_companion_works_on_its_owners_turn() -> None:
    """FA-3.2, the other half: on the owner's own turn the Minstrel works."""
    g = setup([([1, 2, 3, 4, 6, 6], "rally")], companions={"p1": "minstrel"})
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    g.play("p1", "rally:double")
    assert g.s["total"] == 300


def test_items_are_discarded_face_up_after_use() -> None:
    """FA-3.4: "Items are discarded after use." The used item leaves the hand for the discard
    pile and everyone reads its name."""
    g = setup([([2, 2, 3, 3, 4, 6], "blank")], hands={"p1": ["lucky_charm"]}, spare=[1, 1, 1, 2, 3, 4])
    g.play("p1", "recruit")
    ev = g.play("p1", "use:lucky_charm")
    assert g.s["hands"]["p1"] == [] and g.s["item_discard"][-1] == "lucky_charm"
    assert any(e.to is None and "Lucky Charm" in e.text for e in ev)


def test_turns_go_round_in_seat_order() -> None:
    """FA-4.5: "Dragon Farkle is played in turns, going clockwise" (the lobby's seat order)."""
    g = setup([([2, 2, 3, 3, 4, 6], "blank")] * 4, players=("p1", "p2", "p3"))
    order = []
    for _ in range(4):
        (who,) = g.to_act()
        order.append(who)
        g.play(who, "recruit")  # every roll Farkles: the turn passes at once
    assert order == ["p1", "p2", "p3", "p1"]


def test_dice_eaten_by_the_dragon_count_for_hot_dice() -> None:
    """FA-6.8: "If, after scoring, you have set aside all your Soldier dice (including those
    eaten by the Dragon side), you may continue your turn by rolling all six Soldier dice…"."""
    g = setup([([1, 1, 1, 2, 3, 4], "blank"), ([1, 5, 5], "dragon"), ([1, 2, 3, 4, 6, 6], "blank")])
    g.play("p1", "recruit")
    g.play("p1", "keep:1,1,1")
    g.play("p1", "roll")
    ev = g.play("p1", "keep:1,5,5")  # eaten: worth nothing, but the dice are set aside
    assert "hot_dice" in kinds(ev) and g.s["total"] == 1000
    assert g.describe_action("p1", "roll") == "Roll 6 dice (hot dice)"
    g.play("p1", "roll")
    assert len(g.s["roll"] or []) == 6


def test_brawl_targets_are_the_other_players() -> None:
    """FA-7.3: "To begin, select another Wannabe to fight against." """
    g = setup(players=("p1", "p2", "p3"))
    brawls = [a for a in g.legal_actions("p1") if a.startswith("brawl:")]
    assert brawls == ["brawl:p2", "brawl:p3"]


def test_attacker_farkle_discards_the_items_drawn_in_the_brawl() -> None:
    """FA-7.10: "If, during any roll, you cannot set aside any scoring dice, you Farkle, and your
    Brawl attack score is zero: discard any Magic Items…"."""
    g = setup(
        [([1, 2, 3, 4, 6, 6], "rally"), ([2, 3, 4, 6, 6], "blank"), ([2, 3, 4, 6, 6], "blank")],
        armies={"p1": 300, "p2": 300},
    )
    g.s["item_deck"] = ["war_horn"]
    g.play("p1", "brawl:p2")
    g.play("p1", "keep:1")
    g.play("p1", "rally:item")
    g.play("p1", "roll")  # Farkle with a drawn item: the bot offers a rescue first
    ev = g.play("p1", "accept")  # the defender then Farkles too: 0 to 0, nothing moves
    assert "farkle" in kinds(ev)
    assert g.s["armies"] == {"p1": 300, "p2": 300}
    assert g.s["pending"]["p1"] == [] and g.s["hands"]["p1"] == []
    assert g.s["item_discard"][-1] == "war_horn"


def test_item_limit_after_a_brawl_applies_to_the_winning_defender() -> None:
    """FA-7.17: the winner keeps one item gained in the Brawl "(remember, a Wannabe can only have
    one Magic Item at the end of any turn)". Our reading: the limit is checked for the defender
    too, who chooses privately which item to discard."""
    g = setup(
        [([5, 2, 3, 4, 6, 6], "blank"), ([1, 1, 1, 2, 3], "rally")],
        armies={"p1": 1000, "p2": 0},
        hands={"p2": ["lucky_charm"]},
    )
    g.s["item_deck"] = ["war_horn"]
    g.play("p1", "brawl:p2")
    g.play("p2", "pass")  # the defender holding an item is asked whether to react first
    g.play("p1", "keep:5")
    g.play("p1", "stop")
    g.play("p2", "keep:1,1,1")
    g.play("p2", "rally:item")
    ev = g.play("p2", "stop")
    assert "item_limit" in kinds(ev)
    assert g.s["armies"] == {"p1": 50, "p2": 1450}
    assert g.to_act() == ["p2"]
    assert g.legal_actions("p2") == ["discard:lucky_charm", "discard:war_horn"]
    assert g.is_private_action("p2", "discard:war_horn")
    g.play("p2", "discard:lucky_charm")
    assert g.s["hands"]["p2"] == ["war_horn"]


def test_item_limit_after_a_brawl_applies_to_a_winner_who_already_held_one() -> None:
    """FA-3.6: "Players may only have one Magic Item at the end of any turn": a winning attacker
    who held an item before the Brawl keeps only one of the two."""
    g = setup(
        [([1, 1, 1, 2, 3, 4], "rally"), ([2, 3, 4, 6, 6], "blank")],
        armies={"p1": 0, "p2": 2000},
        hands={"p1": ["second_wind"]},
    )
    g.s["item_deck"] = ["war_horn"]
    g.play("p1", "brawl:p2")
    g.play("p1", "keep:1,1,1")
    g.play("p1", "rally:item")
    g.play("p1", "stop")  # the defender Farkles: p1 wins and claims War Horn
    assert g.s["armies"]["p1"] == 1500
    assert g.legal_actions("p1") == ["discard:second_wind", "discard:war_horn"]
    g.play("p1", "discard:second_wind")
    assert g.s["hands"]["p1"] == ["war_horn"] and g.to_act() == ["p2"]


def _section(title: str) -> str:
    (text,) = [s.text for s in handbook.rules_sections("farkle") if s.title == title]
    return text


def test_the_rules_players_read_label_our_readings() -> None:
    """/game rules farkle says which reading is in force where the rulebook is silent or
    ambiguous: Rally "double", Companions while defending, the item limit after a Brawl, and the
    Dragon's Keep (FA-9.0: the rulebook stops at its heading)."""
    event_die, brawl, keep = (
        _section("The Event die"),
        _section("Brawling"),
        _section("The Dragon's Keep: the house reading"),
    )
    assert '"you can double your score or draw Magic Items"' in event_die
    assert "**Our reading**" in event_die and "`rally_double=turn`" in event_die
    assert "**Companions are inactive while defending**" in brawl
    assert (
        "Item limit after a Brawl" in brawl
        and "applies to both players, attacker and defender alike" in brawl
    )
    assert keep.startswith("**House reading, not the rulebook.**")
    pages = "\n".join(p.text for p in game_pages("farkle"))
    assert "rally_double" in pages and "Companions are inactive while defending" in pages
    (rally,) = [o for o in OPTIONS if o.name == "rally_double"]
    assert "our reading" in rally.help and "literally" in rally.help and rally.default == "roll"
