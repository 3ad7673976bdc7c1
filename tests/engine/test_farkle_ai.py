"""Dragon Farkle AI: always legal, reproducible, and sensible at the decisions that matter."""

from __future__ import annotations

import pytest

from engine.farkle import new_game
from engine.farkle.ai import HARD_CAUTION, choose_action, continue_value
from engine.farkle.scoring import DEFAULT_TABLE
from engine.registry import get
from tests.engine.farkle_support import setup


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_ai_plays_whole_games_with_legal_actions(level: str) -> None:
    for seed in range(3):
        g = new_game(["p1", "p2", "p3"], seed)
        for k in range(5000):
            if g.is_over:
                break
            p = g.to_act()[0]
            a = choose_action(g, p, level, k)
            assert a in g.legal_actions(p)
            g.play(p, a)
        assert g.is_over


def test_registry_exposes_the_ai_and_it_is_reproducible() -> None:
    info = get("farkle")
    g = new_game(["p1", "p2"], 3)
    p = g.to_act()[0]
    assert info.choose_ai_action(g, p, "hard", 1) == info.choose_ai_action(g, p, "hard", 1)
    with pytest.raises(ValueError):
        choose_action(g, p, "godlike", 1)


def test_value_table_stops_with_few_dice_and_pushes_with_many() -> None:
    assert continue_value(DEFAULT_TABLE, 1, 1000) < 1000  # one die, 1,000 at risk: stop
    assert continue_value(DEFAULT_TABLE, 6, 1000) > 1000  # six dice: 2.3% Farkle, roll on
    assert continue_value(DEFAULT_TABLE, 2, 100) > 100


def test_medium_banks_when_the_bank_reaches_the_keep_and_hard_is_blind_to_the_score() -> None:
    """Army 4,800, 200 banked, four dice to roll: medium banks (the Keep is reached); hard counts
    soldiers only, and rolling four dice on 200 pays far more than its 10 % of caution."""
    g = setup([([1, 1, 2, 3, 4, 6], "blank")], armies={"p1": 4800})
    g.play("p1", "recruit")
    g.play("p1", "keep:1,1")
    assert (g.s["total"], g.s["pool"]) == (200, 4)
    assert continue_value(DEFAULT_TABLE, 4, 200) > 1.1 * 200
    assert choose_action(g, "p1", "medium", 0) == "stop"
    assert choose_action(g, "p1", "hard", 0) == "roll"
    g = setup([([1, 1, 2, 3, 4, 6], "blank")], armies={"p1": 4000})
    g.play("p1", "recruit")
    g.play("p1", "keep:1,1")
    assert choose_action(g, "p1", "medium", 0) == "roll"  # 200 with four dice: below its table


def test_hard_banks_where_rolling_on_pays_less_than_its_caution() -> None:
    """Where the exact turn value of rolling beats the bank by less than HARD_CAUTION, hard banks;
    the expert under other rule options (the exact turn solution, no caution) rolls on."""
    margins = {
        (n, t): continue_value(DEFAULT_TABLE, n, t) / t - 1 for n in range(1, 6) for t in range(100, 1500, 50)
    }
    cautious = [k for k, m in margins.items() if 0.005 < m <= HARD_CAUTION]
    assert len(cautious) >= 3
    for n, t in cautious:
        for level, want in (("hard", "stop"), ("expert", "roll")):
            g = setup([([1, 2, 3, 4, 6, 6], "blank")], armies={"p1": 1000}, dragon_eats="turn")
            g.play("p1", "recruit")
            g.play("p1", "keep:1")
            g.s["total"], g.s["pool"] = t, n  # the state under test: n dice to roll, t banked
            assert choose_action(g, "p1", level, 0) == want, (level, n, t)


def test_hard_rolls_on_with_hot_dice_and_a_small_total() -> None:
    g = setup([([1, 5, 2, 3, 4, 4], "blank")])
    g.play("p1", "recruit")
    assert choose_action(g, "p1", "hard", 0) == "keep:1"  # keep five dice rather than 1 and 5
    g.play("p1", "keep:1")
    assert choose_action(g, "p1", "hard", 0) == "roll"


def test_every_level_attacks_the_dragon_when_it_may_and_only_the_expert_brawls_a_threat() -> None:
    """Nobody throws away a chance at the win (easy used to forget it one turn in five); medium
    and hard mind their own army; the expert, where its win table does not apply, brawls a
    rival about to attack the dragon."""
    for level in ("easy", "medium", "hard"):
        for seed in range(20):
            assert choose_action(setup(armies={"p1": 5000}), "p1", level, seed) == "battle", (level, seed)
    assert choose_action(setup(armies={"p1": 5000}, dragon_eats="turn"), "p1", "expert", 0) == "battle"
    threat = {"p1": 1000, "p2": 5200}
    assert choose_action(setup(armies=threat, dragon_eats="turn"), "p1", "expert", 0) == "brawl:p2"
    for level in ("medium", "hard"):
        assert choose_action(setup(armies=threat), "p1", level, 0) == "recruit"
    g = setup(armies={"p1": 1000, "p2": 1500}, dragon_eats="turn")
    assert choose_action(g, "p1", "expert", 0) == "recruit"


def test_easy_rolls_hot_dice_and_banks_a_little_otherwise() -> None:
    """A beginner rolls six fresh dice while the turn is under 300, whatever its mood; with dice
    to spare it banks once the turn holds 150 (its boldest mood)."""
    g = setup([([1, 5, 2, 2, 3, 4], "blank"), ([1, 1, 5, 5], "blank")])
    g.play("p1", "recruit")
    g.play("p1", "keep:1,5")
    assert g.s["total"] == 150
    assert {choose_action(g, "p1", "easy", seed) for seed in range(20)} == {"stop"}
    g.play("p1", "roll")
    g.s["total"] = 100
    g.play("p1", "keep:1,1,5,5")
    assert (g.s["pool"], g.s["total"]) == (0, 400)
    g.s["total"] = 250  # hot dice under 300
    assert {choose_action(g, "p1", "easy", seed) for seed in range(20)} == {"roll"}


def test_medium_plays_the_dice_not_the_cards() -> None:
    """A Rally is always doubled and the Hedge Wizard stays home; hard uses both well."""
    g = setup([([1, 2, 3, 3, 4, 6], "rally")])
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    assert choose_action(g, "p1", "medium", 0) == "rally:double"
    assert choose_action(g, "p1", "hard", 0) == "rally:item"
    g = setup([([1, 1, 1, 2, 3, 4], "dragon")], companions={"p1": "hedge_wizard"})
    g.play("p1", "recruit")
    assert choose_action(g, "p1", "medium", 0).startswith("keep:")
    assert choose_action(g, "p1", "hard", 0) == "companion"


def test_defender_rolls_until_ahead_then_stops() -> None:
    g = setup([([1, 1, 1, 2, 3, 4], "blank"), ([1, 2, 3, 4, 6], "blank"), ([1, 1, 1, 2], "blank")])
    g.play("p1", "brawl:p2")
    g.play("p1", "keep:1,1,1")
    g.play("p1", "stop")
    g.play("p2", "keep:1")
    assert choose_action(g, "p2", "hard", 0) == "roll"  # 100 < 1000
    g.play("p2", "roll")
    g.play("p2", "keep:1,1,1")
    assert choose_action(g, "p2", "hard", 0) == "stop"  # 1100 > 1000


def test_hard_uses_items_when_they_help() -> None:
    g = setup([([1, 2, 2, 3, 4, 6], "blank"), ([2, 3, 4, 6, 6], "blank")], hands={"p1": ["second_wind"]})
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    g.play("p1", "roll")
    assert choose_action(g, "p1", "hard", 0) == "use:second_wind"
    g = setup(hands={"p2": ["smoke_bomb"]})
    g.play("p1", "brawl:p2")
    assert choose_action(g, "p2", "hard", 0) == "use:smoke_bomb"


def test_rally_choice_weighs_the_roll() -> None:
    g = setup([([1, 2, 3, 3, 4, 6], "rally")])
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    assert choose_action(g, "p1", "hard", 0) == "rally:item"  # +100 is worth less than an item
    g = setup([([1, 1, 1, 3, 4, 6], "rally")])
    g.play("p1", "recruit")
    g.play("p1", "keep:1,1,1")
    assert choose_action(g, "p1", "hard", 0) == "rally:double"


def test_ai_discards_the_least_useful_item() -> None:
    g = setup([([2, 2, 3, 3, 4, 6], "blank")], hands={"p1": ["cursed_idol"], "p2": ["second_wind"]})
    g.play("p1", "use:cursed_idol:p2")
    g.play("p1", "recruit")  # a Farkle ends the turn; p2 is over the limit
    assert choose_action(g, "p2", "hard", 0) == "discard:cursed_idol"


def test_hard_uses_the_hedge_wizard_against_a_hungry_dragon() -> None:
    g = setup([([1, 1, 1, 2, 3, 4], "dragon")], companions={"p1": "hedge_wizard"})
    g.play("p1", "recruit")
    assert choose_action(g, "p1", "hard", 0) == "companion"
