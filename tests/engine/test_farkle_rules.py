"""Dragon Farkle action flows with scripted dice: Recruit, Brawl, Final Battle, Event die."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.farkle import new_game
from tests.engine.farkle_support import kinds, script, setup

# ---------------------------------------------------------------- Recruit


def test_recruit_keep_stop_banks_the_turn_total() -> None:
    g = setup([([1, 1, 1, 2, 3, 5], "blank"), ([2, 5, 6], "blank")])
    g.play("p1", "recruit")
    assert g.to_act() == ["p1"]
    assert "keep:1,1,1,5" in g.legal_actions("p1")
    assert "keep:2" not in g.legal_actions("p1")
    assert g.describe_action("p1", "keep:1,1,1,5") == "Keep 1 1 1 5 (+1050)"
    g.play("p1", "keep:1,1,1")
    assert g.legal_actions("p1") == ["roll", "stop"]
    assert g.describe_action("p1", "roll") == "Roll 3 dice"
    g.play("p1", "roll")
    assert g.view(None)["roll"] == [2, 5, 6]
    assert g.describe_action("p1", "keep:5") == "Keep 5 (+50)"
    g.play("p1", "keep:5")
    assert g.describe_action("p1", "roll") == "Roll 2 dice"
    g.play("p1", "stop")
    assert g.s["armies"]["p1"] == 1050
    assert g.to_act() == ["p2"]


def test_roll_label_says_die_for_one_die() -> None:
    g = setup([([1, 1, 1, 3, 5, 5], "blank")])
    g.play("p1", "recruit")
    g.play("p1", "keep:1,1,1,5,5")
    assert g.describe_action("p1", "roll") == "Roll 1 die"


def test_legal_actions_list_only_scoring_selections_sorted() -> None:
    g = setup([([1, 2, 2, 3, 4, 5], "blank")])
    g.play("p1", "recruit")
    acts = g.legal_actions("p1")
    assert acts == ["keep:1", "keep:1,5", "keep:5"]
    assert acts == sorted(acts)


def test_illegal_action_changes_nothing() -> None:
    g = setup([([1, 2, 2, 3, 4, 6], "blank")])
    g.play("p1", "recruit")
    before = g.to_dict()
    for bad in ("keep:2", "stop", "battle", "keep:1,1"):
        with pytest.raises(IllegalAction):
            g.play("p1", bad)
    with pytest.raises(IllegalAction):
        g.play("p2", "keep:1")
    assert g.to_dict() == before


def test_farkle_loses_turn_total_but_not_army() -> None:
    g = setup([([1, 2, 2, 3, 4, 6], "blank"), ([2, 3, 4, 6, 6], "blank")], armies={"p1": 700})
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    ev = g.play("p1", "roll")
    assert "farkle" in kinds(ev)
    assert g.s["armies"]["p1"] == 700
    assert g.to_act() == ["p2"]


def test_hot_dice_refill_to_six_and_keep_total() -> None:
    g = setup([([1, 1, 1, 5, 5, 5], "blank"), ([2, 2, 3, 3, 4, 1], "blank")])
    g.play("p1", "recruit")
    ev = g.play("p1", "keep:1,1,1,5,5,5")
    assert "hot_dice" in kinds(ev)
    assert g.describe_action("p1", "roll") == "Roll 6 dice (hot dice)"
    g.play("p1", "roll")
    assert len(g.s["roll"] or []) == 6
    g.play("p1", "keep:1")
    assert g.s["total"] == 1500 + 100


def test_dragon_eats_the_roll_but_dice_are_set_aside() -> None:
    g = setup([([1, 1, 2, 3, 4, 6], "blank"), ([1, 5, 2, 3], "dragon")])
    g.play("p1", "recruit")
    g.play("p1", "keep:1,1")
    assert g.describe_action("p1", "roll") == "Roll 4 dice"
    g.play("p1", "roll")
    assert g.describe_action("p1", "keep:1,5") == "Keep 1 5 (+150, eaten)"
    g.play("p1", "keep:1,5")
    assert g.s["total"] == 200  # the earlier roll survives (dragon_eats = "roll")
    assert g.s["pool"] == 2


def test_dragon_eats_whole_turn_option() -> None:
    g = setup([([1, 1, 2, 3, 4, 6], "blank"), ([1, 5, 2, 3], "dragon")], dragon_eats="turn")
    g.play("p1", "recruit")
    g.play("p1", "keep:1,1")
    g.play("p1", "roll")
    g.play("p1", "keep:1")
    assert g.s["total"] == 0


def test_dragon_cancels_a_farkle_and_same_dice_roll_again() -> None:
    g = setup([([1, 2, 2, 3, 4, 6], "blank"), ([2, 3, 4, 6, 6], "dragon"), ([2, 3, 4, 6, 1], "blank")])
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    ev = g.play("p1", "roll")
    assert "dragon_cancel" in kinds(ev) and "farkle" not in kinds(ev)
    assert g.legal_actions("p1") == ["roll", "stop"]
    g.play("p1", "roll")
    assert len(g.s["roll"] or []) == 5
    g.play("p1", "keep:1")
    g.play("p1", "stop")
    assert g.s["armies"]["p1"] == 200


def test_rally_double_or_item() -> None:
    g = setup([([1, 5, 2, 3, 4, 6], "rally"), ([1, 2, 3, 4], "rally")])
    g.play("p1", "recruit")
    g.play("p1", "keep:1,5")
    assert g.legal_actions("p1") == ["rally:double", "rally:item"]
    assert g.describe_action("p1", "rally:double") == "Rally: double (+150)"
    g.play("p1", "rally:double")
    assert g.s["total"] == 300
    g.play("p1", "roll")
    g.play("p1", "keep:1")
    ev = g.play("p1", "rally:item")
    assert len(g.s["pending"]["p1"]) == 1
    private = [e for e in ev if e.kind == "draw_item_private"]
    assert private and private[0].to == "p1"
    g.play("p1", "stop")
    assert g.s["armies"]["p1"] == 400
    assert len(g.s["hands"]["p1"]) == 1


def test_rally_item_is_lost_on_farkle() -> None:
    g = setup([([1, 2, 2, 3, 4, 6], "rally"), ([2, 3, 4, 6, 6], "blank")])
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    g.play("p1", "rally:item")
    discard_before = len(g.s["item_discard"])
    # the player now holds a pending item, so a Farkle pauses for a possible rescue
    g.play("p1", "roll")
    assert "accept" in g.legal_actions("p1")
    g.play("p1", "accept")
    assert g.s["hands"]["p1"] == [] and g.s["pending"]["p1"] == []
    assert len(g.s["item_discard"]) == discard_before + 1


def test_rally_with_no_scoring_dice_is_a_farkle() -> None:
    g = setup([([2, 2, 3, 3, 4, 6], "rally")])
    ev = g.play("p1", "recruit")
    assert "farkle" in kinds(ev)


# ---------------------------------------------------------------- Brawl


def test_brawl_defender_rolls_five_and_winner_takes_difference_plus_500() -> None:
    g = setup(
        [([1, 1, 1, 2, 3, 4], "blank"), ([5, 2, 3, 4, 6], "blank")],
        armies={"p1": 1000, "p2": 3000},
    )
    g.play("p1", "brawl:p2")
    g.play("p1", "keep:1,1,1")
    assert g.describe_action("p1", "stop") == "Stop: attack score 1000"
    ev = g.play("p1", "stop")
    assert "attack_done" in kinds(ev)
    assert g.to_act() == ["p2"]  # the defender decides during p1's turn
    assert g.s["roll"] == [2, 3, 4, 5, 6]
    g.play("p2", "keep:5")
    g.play("p2", "stop")
    assert g.s["armies"] == {"p1": 1000 + 950 + 500, "p2": 3000 - 950}
    assert g.to_act() == ["p2"] and g.s["phase"] == "choose"


def test_brawl_transfer_is_capped_by_loser_army() -> None:
    g = setup(
        [([1, 1, 1, 2, 3, 4], "blank"), ([2, 3, 4, 6, 6], "blank")],
        armies={"p1": 0, "p2": 200},
    )
    g.play("p1", "brawl:p2")
    g.play("p1", "keep:1,1,1")
    g.play("p1", "stop")  # defender farkles on the auto roll
    assert g.s["armies"] == {"p1": 700, "p2": 0}


def test_brawl_defender_wins_and_attacker_pays() -> None:
    g = setup(
        [([5, 2, 3, 4, 6, 6], "blank"), ([1, 1, 1, 2, 3], "blank")],
        armies={"p1": 2000, "p2": 0},
    )
    g.play("p1", "brawl:p2")
    g.play("p1", "keep:5")
    g.play("p1", "stop")
    g.play("p2", "keep:1,1,1")
    g.play("p2", "stop")
    assert g.s["armies"] == {"p1": 2000 - 950, "p2": 950 + 500}


def test_brawl_tie_moves_nothing_by_default() -> None:
    g = setup([([2, 3, 4, 6, 6, 2], "blank"), ([2, 3, 4, 6, 6], "blank")], armies={"p1": 800, "p2": 900})
    g.play("p1", "brawl:p2")  # both Farkle: 0-0
    assert g.s["armies"] == {"p1": 800, "p2": 900}
    assert g.to_act() == ["p2"]


def test_brawl_tie_defender_option() -> None:
    g = setup(
        [([2, 3, 4, 6, 6, 2], "blank"), ([2, 3, 4, 6, 6], "blank")],
        armies={"p1": 800, "p2": 900},
        brawl_tie="defender",
    )
    g.play("p1", "brawl:p2")
    assert g.s["armies"] == {"p1": 800, "p2": 1400}


def test_defender_hot_dice_rolls_five_again() -> None:
    g = setup(
        [([2, 3, 4, 6, 6, 5], "blank"), ([1, 1, 1, 5, 5], "blank"), ([1, 2, 3, 4, 6], "blank")],
        armies={"p1": 0, "p2": 0},
    )
    g.play("p1", "brawl:p2")
    g.play("p1", "keep:5")
    g.play("p1", "stop")
    g.play("p2", "keep:1,1,1,5,5")
    assert g.describe_action("p2", "roll") == "Roll 5 dice (hot dice)"
    g.play("p2", "roll")
    assert len(g.s["roll"] or []) == 5


def test_brawl_winner_keeps_one_gained_item_loser_loses_theirs() -> None:
    g = setup(
        [
            ([1, 2, 3, 4, 6, 6], "rally"),
            ([1, 2, 3, 4, 6], "rally"),
            ([1, 1, 1, 2, 3], "rally"),
        ],
        armies={"p1": 0, "p2": 0},
    )
    g.s["item_deck"] = ["war_horn", "lucky_charm", "second_wind"]
    g.play("p1", "brawl:p2")
    g.play("p1", "keep:1")
    g.play("p1", "rally:item")  # second_wind
    g.play("p1", "roll")
    g.play("p1", "keep:1")
    g.play("p1", "rally:item")  # lucky_charm
    g.play("p1", "stop")
    g.play("p2", "keep:1,1,1")
    g.play("p2", "rally:item")  # war_horn
    g.play("p2", "stop")  # p2 wins 2000 to 400
    assert g.s["armies"] == {"p1": 0, "p2": 500}  # p1 had nothing to take: only the bonus
    assert g.s["hands"]["p2"] == ["war_horn"]
    assert g.s["hands"]["p1"] == []
    assert g.to_act() == ["p2"]


def test_brawl_claim_when_winner_gained_two_items() -> None:
    g = setup(
        [([1, 2, 3, 4, 6, 6], "rally"), ([1, 2, 3, 4, 6], "rally"), ([2, 3, 4, 6, 6], "blank")],
        armies={"p1": 0, "p2": 0},
    )
    g.s["item_deck"] = ["war_horn", "lucky_charm", "second_wind"]
    g.play("p1", "brawl:p2")
    g.play("p1", "keep:1")
    g.play("p1", "rally:item")
    g.play("p1", "roll")
    g.play("p1", "keep:1")
    g.play("p1", "rally:item")
    g.play("p1", "stop")  # p2 Farkles at once
    assert g.to_act() == ["p1"]
    assert g.legal_actions("p1") == ["claim:lucky_charm", "claim:second_wind"]
    assert g.is_private_action("p1", "claim:lucky_charm")
    g.play("p1", "claim:lucky_charm")
    assert g.s["hands"]["p1"] == ["lucky_charm"]
    assert g.s["armies"]["p1"] == 500


# ---------------------------------------------------------------- Final Battle


def test_battle_needs_5000_at_the_start_of_the_turn() -> None:
    g = setup(armies={"p1": 4950})
    assert "battle" not in g.legal_actions("p1")
    g = setup(armies={"p1": 5000})
    assert "battle" in g.legal_actions("p1")


def test_battle_eligibility_is_not_gained_mid_turn() -> None:
    g = setup([([1, 1, 1, 2, 3, 4], "blank")], armies={"p1": 4500})
    g.play("p1", "recruit")
    g.play("p1", "keep:1,1,1")
    g.play("p1", "stop")
    assert g.s["armies"]["p1"] == 5500
    assert "battle" not in g.legal_actions("p2")


def test_battle_scoring_dice_cost_soldiers_and_faces_deal_damage() -> None:
    g = setup(
        [([1, 5, 2, 3, 4, 4], "dragon"), ([2, 3, 4, 6], "rally")],
        armies={"p1": 5000},
    )
    ev = g.play("p1", "battle")
    assert g.s["armies"]["p1"] == 4850
    assert g.s["damage"] == 1
    assert g.legal_actions("p1") == ["roll"]  # no voluntary stop
    assert g.s["pool"] == 4
    assert "battle_roll" in kinds(ev)
    ev = g.play("p1", "roll")  # no scoring dice but 2 damage: not a Farkle, and wins
    assert g.is_over and g.result is not None
    assert g.result.winners == ["p1"]
    assert g.s["armies"]["p1"] == 4850


def test_battle_damage_without_scoring_rerolls_same_dice() -> None:
    g = setup(
        [([2, 2, 3, 3, 4, 6], "dragon"), ([2, 3, 4, 6, 6, 1], "blank")],
        armies={"p1": 5000},
    )
    g.play("p1", "battle")
    assert g.s["phase"] == "battle" and g.s["pool"] == 6
    g.play("p1", "roll")
    assert g.s["armies"]["p1"] == 4900 and g.s["pool"] == 5


def test_battle_farkle_fails_and_dragon_heals() -> None:
    g = setup(
        [([1, 2, 3, 3, 4, 6], "rally"), ([2, 3, 4, 6, 6], "blank")],
        armies={"p1": 6000},
    )
    g.play("p1", "battle")
    assert g.s["damage"] == 2
    ev = g.play("p1", "roll")
    assert "battle_lost" in kinds(ev) and "dragon_heals" in kinds(ev)
    assert g.s["damage"] == 0 and not g.is_over
    assert g.s["armies"]["p1"] == 5900
    assert g.to_act() == ["p2"]


def test_battle_army_wiped_out_ends_battle() -> None:
    g = setup([([1, 1, 1, 2, 3, 4], "blank")], armies={"p1": 5000})
    g.s["armies"]["p1"] = 800  # lost soldiers after the start of the turn: still in battle
    ev = g.play("p1", "battle")
    assert g.s["armies"]["p1"] == 0
    assert "battle_lost" in kinds(ev) and not g.is_over


def test_battle_win_first_even_if_army_hits_zero() -> None:
    g = setup([([1, 1, 1, 2, 3, 4], "rally"), ([2, 3, 1], "dragon")], armies={"p1": 5000})
    g.play("p1", "battle")
    g.s["armies"]["p1"] = 100
    g.play("p1", "roll")
    assert g.is_over and g.s["armies"]["p1"] == 0 and g.result is not None
    assert g.result.winners == ["p1"]


def test_battle_damage_per_face_is_an_option() -> None:
    g = setup(
        [([2, 2, 3, 3, 4, 6], "dragon")],
        armies={"p1": 5000},
        battle_dragon_damage=3,
    )
    g.play("p1", "battle")
    assert g.is_over


def test_overkill_damage_is_shown_as_the_dragon_slain_not_past_its_hit_points() -> None:
    g = setup([([1, 1, 1, 2, 3, 4], "rally"), ([2, 3, 1], "dragon")], armies={"p1": 5000}, battle_dragon_damage=3)
    g.play("p1", "battle")
    ev = g.play("p1", "roll")  # 1 damage from the Rally, then 3 from the Dragon: 4 of 3
    assert g.is_over
    line = next(e.text for e in ev if e.kind == "battle_roll")
    assert line.endswith("deals 3 damage (dragon 3/3).")
    assert g.view(None)["battle"]["damage"] == 3


def test_battle_choose_scoring_dice_option() -> None:
    g = setup([([1, 5, 2, 3, 4, 4], "dragon")], armies={"p1": 5000}, battle_score_all=False)
    g.play("p1", "battle")
    assert g.legal_actions("p1") == ["keep:1", "keep:1,5", "keep:5"]
    assert g.describe_action("p1", "keep:5") == "Lose 5 (-50)"
    g.play("p1", "keep:5")
    assert g.s["armies"]["p1"] == 4950 and g.s["pool"] == 5


# ---------------------------------------------------------------- items, limits, decks


def test_item_limit_at_end_of_turn_forces_discard() -> None:
    g = setup([([1, 2, 3, 4, 6, 6], "rally")], hands={"p1": ["war_horn"]})
    g.s["item_deck"] = ["lucky_charm"]
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    g.play("p1", "rally:item")
    ev = g.play("p1", "stop")
    assert "item_limit" in kinds(ev)
    assert g.to_act() == ["p1"]
    assert g.legal_actions("p1") == ["discard:lucky_charm", "discard:war_horn"]
    assert g.is_private_action("p1", "discard:war_horn")
    g.play("p1", "discard:war_horn")
    assert g.s["hands"]["p1"] == ["lucky_charm"]
    assert g.to_act() == ["p2"]


def test_sack_of_holding_raises_the_limit() -> None:
    g = setup([([1, 2, 3, 4, 6, 6], "rally")], hands={"p1": ["sack_of_holding", "war_horn"]})
    g.s["item_deck"] = ["lucky_charm"]
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    g.play("p1", "rally:item")
    g.play("p1", "stop")
    assert sorted(g.s["hands"]["p1"]) == ["lucky_charm", "sack_of_holding", "war_horn"]
    assert g.to_act() == ["p2"]


def test_item_deck_reshuffles_discard_pile() -> None:
    g = setup([([1, 2, 3, 4, 6, 6], "rally")])
    g.s["item_deck"] = []
    g.s["item_discard"] = ["war_horn"]
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    ev = g.play("p1", "rally:item")
    assert "reshuffle" in kinds(ev)
    assert g.s["pending"]["p1"] == ["war_horn"]


def test_rally_item_not_offered_when_both_piles_are_empty() -> None:
    g = setup([([1, 2, 3, 4, 6, 6], "rally")])
    g.s["item_deck"] = []
    g.s["item_discard"] = []
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    assert g.legal_actions("p1") == ["rally:double"]


def test_max_rounds_option_ends_with_largest_army() -> None:
    g = setup(
        [([2, 3, 4, 6, 6, 2], "blank"), ([2, 3, 4, 6, 6, 2], "blank")],
        armies={"p1": 100, "p2": 300},
        max_rounds=1,
    )
    g.play("p1", "recruit")
    ev = g.play("p2", "recruit")
    assert "game_over" in kinds(ev)
    assert g.is_over and g.result is not None
    assert g.result.ranking == [["p2"], ["p1"]]


def test_new_game_deals_one_companion_and_one_item_each() -> None:
    g = new_game(["a", "b", "c", "d", "e"], seed=5)
    assert sorted(g.s["players"]) == ["a", "b", "c", "d", "e"]
    assert all(len(g.s["hands"][p]) == 1 for p in g.players)
    assert len(set(g.s["companions"].values())) == 5
    assert len(g.s["item_deck"]) == 20 - 5 and len(g.s["companion_deck"]) == 10 - 5
    assert all(a == 0 for a in g.s["armies"].values())


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="brawl_tie"):
        new_game(["a", "b"], 1, brawl_tie="attacker")
    with pytest.raises(ValueError, match="has no option `colour`"):
        new_game(["a", "b"], 1, colour="red")
    with pytest.raises(ValueError):
        new_game(["a"], 1)
    assert new_game(["a", "b"], 1, five_of_a_kind="2000").opt["five_of_a_kind"] == 2000


def test_lobby_order_option() -> None:
    g = new_game(["x", "y", "z"], 3, first_player="lobby")
    assert g.to_act() == ["x"]


def test_same_seed_same_actions_same_state() -> None:
    def run() -> dict:
        g = new_game(["a", "b"], 42)
        for _ in range(30):
            if g.is_over:
                break
            p = g.to_act()[0]
            g.play(p, g.legal_actions(p)[0])
        return g.to_dict()

    assert run() == run()


def test_scripted_rng_is_not_needed_for_replay() -> None:
    g = new_game(["a", "b"], 9)
    script(g, [])  # make sure the helper swaps the generator only on request
    assert g.to_act()


def test_dragon_eats_turn_option_also_on_a_cancelled_farkle() -> None:
    g = setup([([1, 1, 2, 3, 4, 6], "blank"), ([2, 3, 4, 6], "dragon")], dragon_eats="turn")
    g.play("p1", "recruit")
    g.play("p1", "keep:1,1")
    ev = g.play("p1", "roll")
    assert "dragon_eats" in kinds(ev) and g.s["total"] == 0
    assert g.legal_actions("p1") == ["roll", "stop"]


def test_final_battle_odds_match_the_spec_simulation() -> None:
    """Spec §9.9 (AG): from 5,000 about 40% of battles are won, a won battle costs about
    1,007 soldiers on average, and under 1% end by losing the whole army."""
    from engine.rng import Rng

    n, wins, wiped, lost = 1500, 0, 0, []
    for i in range(n):
        g = setup(armies={"p1": 5000})
        g.rng = Rng(i)
        g.play("p1", "battle")
        while g.s["phase"] == "battle":
            g.play("p1", "roll")
        if g.is_over:
            wins += 1
            lost.append(5000 - g.s["armies"]["p1"])
        elif g.s["armies"]["p1"] == 0:
            wiped += 1
    assert 0.34 < wins / n < 0.46
    assert 900 < sum(lost) / len(lost) < 1110
    assert wiped / n < 0.015


def test_event_faces_work_the_same_in_a_brawl() -> None:
    g = setup(
        [
            ([1, 1, 1, 2, 3, 4], "dragon"),  # attacker: eaten
            ([5, 2, 3], "blank"),
            ([1, 2, 3, 4, 6], "rally"),  # defender: doubled
            ([2, 3, 4, 6], "dragon"),  # defender: Farkle cancelled
        ],
        armies={"p1": 1000, "p2": 1000},
    )
    g.play("p1", "brawl:p2")
    g.play("p1", "keep:1,1,1")
    assert g.s["total"] == 0
    g.play("p1", "roll")
    g.play("p1", "keep:5")
    g.play("p1", "stop")
    assert g.s["attack_score"] == 50
    g.play("p2", "keep:1")
    g.play("p2", "rally:double")
    assert g.s["total"] == 200
    ev = g.play("p2", "roll")
    assert "dragon_cancel" in kinds(ev) and g.to_act() == ["p2"]
    g.play("p2", "stop")
    assert g.s["armies"] == {"p1": 1000 - 150, "p2": 1000 + 150 + 500}


def test_attacker_farkle_scores_zero_and_defender_still_rolls() -> None:
    g = setup([([2, 2, 3, 4, 6, 6], "rally"), ([5, 2, 3, 4, 6], "blank")], armies={"p1": 300, "p2": 0})
    ev = g.play("p1", "brawl:p2")
    assert "farkle" in kinds(ev) and g.s["attack_score"] == 0
    assert g.to_act() == ["p2"]
    g.play("p2", "keep:5")
    g.play("p2", "stop")
    assert g.s["armies"] == {"p1": 250, "p2": 550}


def test_rally_doubles_only_this_roll() -> None:
    g = setup([([1, 1, 1, 2, 3, 4], "blank"), ([5, 2, 3], "rally")])
    g.play("p1", "recruit")
    g.play("p1", "keep:1,1,1")
    g.play("p1", "roll")
    g.play("p1", "keep:5")
    g.play("p1", "rally:double")
    assert g.s["total"] == 1000 + 50 + 50


def test_battle_overkill_wins() -> None:
    g = setup([([2, 2, 3, 3, 4, 6], "rally"), ([2, 2, 3, 3, 4, 6], "rally")], armies={"p1": 5000})
    g.play("p1", "battle")
    assert g.s["damage"] == 2 and not g.is_over
    g.play("p1", "roll")  # 2 more damage with 1 HP left
    assert g.is_over and g.s["winner"] == "p1"


def test_next_battle_starts_with_an_unhurt_dragon() -> None:
    g = setup(
        [([1, 2, 3, 3, 4, 6], "rally"), ([2, 3, 4, 6, 6], "blank"), ([2, 2, 3, 3, 4, 6], "dragon")],
        armies={"p1": 6000, "p2": 6000},
    )
    g.play("p1", "battle")  # 2 damage, then a Farkle
    g.play("p1", "roll")
    g.play("p2", "battle")
    assert g.s["damage"] == 1


# ---------------------------------------------------------------- the phase table


def test_phase_table_lists_every_move_and_names_its_phases() -> None:
    from engine.farkle.phases import MOVES, PHASES

    assert all(name == phase.name for name, phase in PHASES.items())
    assert {head for phase in PHASES.values() for head in phase.moves} == set(MOVES)


@pytest.mark.parametrize("seed", range(8))
def test_every_legal_action_is_a_move_of_its_phase(seed: int) -> None:
    import random

    from engine.farkle.phases import PHASES

    r = random.Random(seed)
    g = new_game(["p1", "p2", "p3"], seed)
    seen = set()
    for _ in range(300):
        if g.is_over:
            break
        phase = PHASES[g.s["phase"]]
        seen.add(phase.name)
        for p in g.players:
            legal = g.legal_actions(p)
            assert bool(legal) == (p in g.to_act())
            assert {a.partition(":")[0] for a in legal} <= set(phase.moves)
        p = g.to_act()[0]
        g.play(p, r.choice(g.legal_actions(p)))
    assert {"choose", "roll", "decide"} <= seen
