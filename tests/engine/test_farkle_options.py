"""Each named option (the spec's open points) changes the game the way its name says."""

from __future__ import annotations

from typing import Any

from engine.farkle import FarkleGame
from tests.engine.farkle_support import setup


def _attack_then_defend(g: FarkleGame) -> None:
    g.play("p1", "brawl:p2")
    g.play("p1", "keep:5")
    g.play("p1", "stop")


def test_defender_dice_option() -> None:
    g = setup([([5, 2, 3, 4, 6, 6], "blank"), ([1, 2, 3, 4, 6, 6], "blank")], defender_dice=6)
    _attack_then_defend(g)
    assert len(g.s["roll"] or []) == 6


def test_defender_hot_dice_option() -> None:
    g = setup(
        [([5, 2, 3, 4, 6, 6], "blank"), ([1, 1, 1, 5, 5], "blank"), ([1, 2, 3, 4, 6, 6], "blank")],
        defender_hot_dice=6,
    )
    _attack_then_defend(g)
    g.play("p2", "keep:1,1,1,5,5")
    g.play("p2", "roll")
    assert len(g.s["roll"] or []) == 6


def test_battle_rally_item_option() -> None:
    g = setup([([2, 2, 3, 3, 4, 6], "rally")], armies={"p1": 5000}, battle_rally_item=True)
    g.play("p1", "battle")
    assert len(g.s["pending"]["p1"]) == 1
    g = setup([([2, 2, 3, 3, 4, 6], "rally")], armies={"p1": 5000})
    g.play("p1", "battle")
    assert g.s["pending"]["p1"] == []


def test_battle_companion_option() -> None:
    rolls = [([2, 2, 3, 3, 4, 6], "blank"), ([2, 2, 3, 3, 4, 6], "blank")]
    g = setup(rolls, companions={"p1": "scout"}, armies={"p1": 5000}, battle_companion=False)
    g.play("p1", "battle")
    assert g.to_act() == ["p2"]  # the Scout did not save the Farkle


def test_pending_items_usable_option() -> None:
    g = setup([([1, 2, 3, 4, 6, 6], "rally"), ([2, 3, 4, 6, 6], "blank")], pending_items_usable=False)
    g.s["item_deck"] = ["second_wind"]
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    g.play("p1", "rally:item")
    g.play("p1", "roll")  # a Farkle: the pending Second Wind cannot be used, so no pause
    assert g.to_act() == ["p2"]
    g = setup([([1, 2, 3, 4, 6, 6], "rally"), ([2, 3, 4, 6, 6], "blank")])
    g.s["item_deck"] = ["second_wind"]
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    g.play("p1", "rally:item")
    g.play("p1", "roll")
    assert "use:second_wind" in g.legal_actions("p1")


def test_item_limit_and_sack_extra_options() -> None:
    g = setup([([1, 2, 3, 4, 6, 6], "rally")], hands={"p1": ["war_horn"]}, item_limit=2)
    g.s["item_deck"] = ["lucky_charm"]
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    g.play("p1", "rally:item")
    g.play("p1", "stop")
    assert g.to_act() == ["p2"] and len(g.s["hands"]["p1"]) == 2
    g = setup([([1, 2, 3, 4, 6, 6], "rally")], hands={"p1": ["sack_of_holding", "war_horn"]}, sack_extra=0)
    g.s["item_deck"] = ["lucky_charm"]
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    g.play("p1", "rally:item")
    g.play("p1", "stop")
    assert g.s["phase"] == "discard"


def test_five_of_a_kind_and_quad_pair_options_reach_the_game() -> None:
    g = setup([([2, 2, 2, 2, 2, 3], "blank")], five_of_a_kind=2000)
    g.play("p1", "recruit")
    assert "keep:2,2,2,2,2" in g.legal_actions("p1")
    g = setup([([2, 2, 2, 2, 6, 6], "blank")], quad_plus_pair=False)
    g.play("p1", "recruit")
    assert "keep:2,2,2,2,6,6" not in g.legal_actions("p1")
    assert "keep:2,2,2,2" in g.legal_actions("p1")


def _recruit_1000_then_rally_on_a_5(**options: Any) -> FarkleGame:
    """Recruit: three 1s (1,000) on a blank, then a single 5 on the Rally face."""
    g = setup([([1, 1, 1, 2, 3, 4], "blank"), ([5, 2, 3], "rally")], **options)
    g.play("p1", "recruit")
    g.play("p1", "keep:1,1,1")
    g.play("p1", "roll")
    g.play("p1", "keep:5")
    return g


def test_rally_double_roll_reading_is_the_default() -> None:
    """Rulebook: "you can double your score or draw Magic Items". Our reading (default
    rally_double=roll): only this roll's soldiers are doubled."""
    g = _recruit_1000_then_rally_on_a_5()
    assert g.describe_action("p1", "rally:double") == "Rally: double (+50)"
    g.play("p1", "rally:double")
    assert g.s["total"] == 1000 + 50 + 50
    g.play("p1", "stop")
    assert g.s["armies"]["p1"] == 1100


def test_rally_double_turn_reading_doubles_the_turn_total() -> None:
    """rally_double=turn takes "double your score" literally: the whole turn total so far."""
    g = _recruit_1000_then_rally_on_a_5(rally_double="turn")
    assert g.describe_action("p1", "rally:double") == "Rally: double (+1050)"
    g.play("p1", "rally:double")
    assert g.s["total"] == 2100
    g.play("p1", "stop")
    assert g.s["armies"]["p1"] == 2100


def test_rally_double_turn_reading_doubles_the_brawl_attack_score() -> None:
    """In a Brawl the turn total is the Brawl attack score: the turn reading doubles all of it."""
    g = setup(
        [([1, 1, 1, 2, 3, 4], "blank"), ([5, 2, 3], "rally"), ([2, 3, 4, 6, 6], "blank")],
        armies={"p1": 0, "p2": 5000},
        rally_double="turn",
    )
    g.play("p1", "brawl:p2")
    g.play("p1", "keep:1,1,1")
    g.play("p1", "roll")
    g.play("p1", "keep:5")
    g.play("p1", "rally:double")
    g.play("p1", "stop")  # the defender Farkles: 2,100 to 0
    assert g.s["armies"] == {"p1": 2100 + 500, "p2": 5000 - 2100}


def test_minstrel_triples_the_turn_under_the_turn_reading() -> None:
    g = _recruit_1000_then_rally_on_a_5(rally_double="turn", companions={"p1": "minstrel"})
    assert g.describe_action("p1", "rally:double") == "Rally: triple (+2100)"
    g.play("p1", "rally:double")
    assert g.s["total"] == 3 * 1050


def test_rally_double_option_refuses_other_values() -> None:
    import pytest

    from engine.farkle import new_game

    with pytest.raises(ValueError, match="rally_double"):
        new_game(["a", "b"], 1, rally_double="game")


def test_a_game_saved_before_rally_double_restores_with_the_roll_reading() -> None:
    """A state saved by the engine before the option existed (version 1, no rally_double)
    restores and doubles only the roll, as it did when it was saved."""
    g = _recruit_1000_then_rally_on_a_5(rally_double="turn")
    old = g.to_dict()
    old["version"] = 1
    del old["options"]["rally_double"]
    restored = FarkleGame.from_dict(old)
    assert "rally_double" not in old["options"]  # the saved dict itself is not changed
    assert restored.opt["rally_double"] == "roll"
    assert restored.to_dict()["version"] == FarkleGame.STATE_VERSION
    assert restored.describe_action("p1", "rally:double") == "Rally: double (+50)"


def test_options_that_make_a_game_nobody_can_win_are_refused():
    import pytest as _pytest

    from engine import InvalidSetup
    from engine.farkle.rules import check_options

    with _pytest.raises(InvalidSetup, match="be slain"):
        check_options({"battle_dragon_damage": 0, "battle_rally_damage": 0, "max_rounds": 0})
    assert check_options({"battle_dragon_damage": 0, "battle_rally_damage": 0, "max_rounds": 5})["max_rounds"] == 5
