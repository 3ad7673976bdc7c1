"""Nine Sons of the Dragon: rules, notation and every worked example of spec section 11."""

from __future__ import annotations

import pytest

from cogs.plugins import load_plugins
from engine import IllegalAction
from engine.ninesons import NineSonsGame, new_game
from engine.ninesons.cards import load_table, provenance
from engine.ninesons.core import ADJ, CELL_INDEX, CELL_NAMES, GE, ge

P = ["alice", "bob"]  # seat A = alice, seat B = bob
A, B = P


def pos(cells, **kw) -> NineSonsGame:
    return NineSonsGame.from_position(P, cells, **kw)


def stack(g: NineSonsGame, cell: str) -> list[str]:
    return ["AB"[d >> 3] + str(d & 7) for d in g.st.cells[CELL_INDEX[cell]]]


def moves(g: NineSonsGame, start: str | None = None) -> list[str]:
    who = g.to_act()[0]
    out = [a for a in g.legal_actions(who) if "-" in a]
    return [a for a in out if start is None or a.startswith(start + "-")]


# -- geometry and comparison ------------------------------------------------------------------


def test_adjacency_table_matches_spec():
    expected = {
        "a1": "b1 a2", "b1": "a1 c1 b2", "c1": "b1 d1 c2", "d1": "c1 d2",
        "a2": "a1 b2 a3", "b2": "b1 a2 c2 b3", "c2": "c1 b2 d2 c3", "d2": "d1 c2 d3",
        "a3": "a2 b3", "b3": "b2 a3 c3", "c3": "c2 b3 d3", "d3": "d2 c3",
    }  # fmt: skip
    for cell, nb in expected.items():
        assert sorted(CELL_NAMES[j] for j in ADJ[CELL_INDEX[cell]]) == sorted(nb.split())


def test_e1_comparison():
    assert ge(1, 6) and not ge(6, 1) and not ge(1, 2) and ge(2, 1)
    assert ge(6, 5) and ge(3, 3) and ge(1, 1) and ge(6, 6) and not ge(5, 6)
    table = {1: "✓✗✗✗✗✓", 2: "✓✓✗✗✗✗", 3: "✓✓✓✗✗✗", 4: "✓✓✓✓✗✗", 5: "✓✓✓✓✓✗", 6: "✗✓✓✓✓✓"}
    for a, row in table.items():
        for b, mark in enumerate(row, start=1):
            assert GE[a][b] == (mark == "✓"), (a, b)


# -- E2 .. E15 -----------------------------------------------------------------------------------


def test_e2_opening():
    g = new_game(P, 1, first_player="first")
    acts = g.legal_actions(A)
    assert len(acts) == 72 and all("@" in a for a in acts)
    assert acts == sorted(acts)
    g.play(A, "3@b2")
    acts = g.legal_actions(B)
    assert len(acts) == 66 and all("@" in a for a in acts)
    assert g.legal_actions(A) == []


def test_e3_single_moves_and_one_beats_six():
    g = pos(
        {"b2": "A1", "b1": "B2", "a2": "B5", "c2": "B4 B6"},
        reserves=[[2, 3, 4, 5, 6], [1, 3]],
        deck=["BiAn"],
    )
    assert moves(g) == ["b2-b3", "b2-c2"]
    assert len(g.legal_actions(A)) == 42
    g.play(A, "b2-c2")
    assert g.st.score == [1, 0]
    assert [g.cards[c].name for c in g.st.tamed[0]] == ["QiuNiu"]
    assert g.st.reserve == [[1, 2, 3, 4, 5, 6], [1, 3, 4, 6]]
    assert stack(g, "c2") == [] and g.view(None)["slots"][3]["card"]["name"] == "BiAn"
    assert g.to_act() == [B]


def test_e4_multi_step_paths_both_readings():
    cells = {"a1": "B5 A2", "a2": "B4", "c1": "B3", "b2": "A1"}
    g = pos(cells, reserves=[[3, 4, 5, 6], [1, 2, 6]])
    assert moves(g, "a1") == ["a1-b1-b2"]
    assert moves(g, "b2") == ["b2-b1", "b2-b3", "b2-c2"]
    assert len(g.legal_actions(A)) == 36
    g2 = pos(cells, reserves=[[3, 4, 5, 6], [1, 2, 6]], compare_die="dropped_die")
    assert moves(g2, "a1") == ["a1-a2-a3", "a1-a2-b2", "a1-b1-b2"]
    assert len(g2.legal_actions(A)) == 38
    g.play(A, "a1-b1-b2")
    assert stack(g, "b1") == ["B5"] and stack(g, "b2") == ["A1", "A2"] and stack(g, "a1") == []


@pytest.mark.parametrize("path", ["c2-c1-d1", "c2-c1-b1"])
@pytest.mark.parametrize("compare", ["hand_top", "dropped_die"])
def test_e5_make_the_opponent_tame_yazi(path, compare):
    g = pos({"c2": "B6 A4", "c1": "A2 B3"}, slots={"S2": "YaZi"}, deck=["BiAn", "FuXi"], compare_die=compare)
    assert path in moves(g)
    events = g.play(A, path)
    assert g.st.score == [0, -2]
    assert [g.cards[c].name for c in g.st.tamed[1]] == ["YaZi"]
    assert stack(g, "c1") == [] and stack(g, "d1") == []
    assert 2 in g.st.reserve[0]
    if path.endswith("d1"):
        assert 4 in g.st.reserve[0]  # A4 was on the tamed card
    else:
        assert stack(g, "b1") == ["A4"]  # A4 ended on S1, off the tamed card
    assert 3 in g.st.reserve[1] and 6 in g.st.reserve[1]
    assert any(e.kind == "tame" and "{bob} tames YaZi" in e.text for e in events)


def test_e6_suanni_unlocked_by_the_other_player():
    cells = {"a1": "A1 B2 A5", "b1": "B3"}
    g = pos(cells, slots={"S1": "SuanNi"}, deck=["BiAn"], turn=1)
    g.play(B, "b1-c1")
    assert g.st.score == [2, 0]
    assert [g.cards[c].name for c in g.st.tamed[0]] == ["SuanNi"]
    base = pos(cells, slots={"S1": "SuanNi"}, deck=["BiAn"], turn=1)
    for act in [a for a in base.legal_actions(B) if "@" in a]:
        h = pos(cells, slots={"S1": "SuanNi"}, deck=["BiAn"], turn=1)
        h.play(B, act)
        assert h.st.score == [0, 0] and stack(h, "a1") == ["A1", "B2", "A5"], act


@pytest.mark.parametrize("turn,place", [(0, "1@b2"), (1, "3@b2")])
def test_e7_baxia_unlocked_by_a_placement(turn, place):
    g = pos({"a2": "B1 B2 A6"}, slots={"S3": "BaXia"}, deck=["BiAn"], turn=turn)
    g.play(P[turn], place)
    assert g.st.score == [2, 0]
    assert [g.cards[c].name for c in g.st.tamed[0]] == ["BaXia"]


def test_e8_chaofeng_blocked_and_open():
    g = pos({"c2": "A5 B6 A4"}, slots={"S4": "ChaoFeng"}, turn=1)
    g.play(B, "1@a1")
    assert stack(g, "c2") == ["A5", "B6", "A4"] and g.st.score == [0, 0]
    ms = moves(g, "c2")
    assert ms and all(len(m.split("-")) == 4 for m in ms)
    h = pos({"c2": "A4 A5 B6"}, slots={"S4": "ChaoFeng"}, deck=["BiAn"])
    h.play(A, "1@a1")
    assert h.st.score == [0, 2]


def test_e9_two_three_stacks_contested_tamer():
    cells = {"c2": "B4 A6", "c3": "B1 B2", "d3": "A3 B5"}
    g = pos(cells, deck=["BiAn"])
    g.play(A, "c2-c3-d3")
    assert g.to_act() == [A]
    assert g.legal_actions(A) == ["tame:S6:c3", "tame:S6:d3"]
    assert g.view(None)["pending"]["options"] == ["tame:S6:c3", "tame:S6:d3"]
    assert g.describe_action(A, "tame:S6:c3").endswith("B tames")
    g.play(A, "tame:S6:d3")
    assert g.st.score == [1, 0]
    assert all(not c for c in g.st.cells)
    assert sorted(g.st.reserve[0]) == [1, 2, 3, 4, 5, 6] and sorted(g.st.reserve[1]) == [1, 2, 3, 4, 5, 6]
    assert g.to_act() == [B]
    # the other choice hands the card to B
    g = pos(cells, deck=["BiAn"])
    g.play(A, "c2-c3-d3")
    g.play(A, "tame:S6:c3")
    assert g.st.score == [0, 1]
    # ChaoFeng: only d3 (top 6) qualifies
    g = pos(cells, slots={"S6": "ChaoFeng"}, deck=["BiAn"])
    g.play(A, "c2-c3-d3")
    assert g.st.pending is None and g.st.score == [2, 0]
    # SuanNi: 6 dice on the card, nothing is tamed
    g = pos(cells, slots={"S6": "SuanNi"}, deck=["BiAn"])
    g.play(A, "c2-c3-d3")
    assert (
        g.st.score == [0, 0] and stack(g, "c3") == ["B1", "B2", "B4"] and stack(g, "d3") == ["A3", "B5", "A6"]
    )


E10_SLOTS = ["QiuNiu", "ChiWen", "BiAn", "FuXi", "SuanNi", None]


def test_e10_game_ends_in_the_middle_of_a_double_tame():
    cells = {"b2": "A3 A5", "b1": "B1 B2", "c1": "B3 B4"}
    g = pos(cells, slots=E10_SLOTS)
    g.play(A, "b2-b1-c1")
    assert g.legal_actions(A) == ["tame:S1", "tame:S2"]
    events = g.play(A, "tame:S1")
    assert g.result is not None
    assert g.is_over and g.end_reason == "cards" and g.result.winners == [A]
    assert g.st.score == [1, 0] and stack(g, "c1") == ["B3", "B4", "A5"]
    assert g.cards[g.st.slots[1]].name == "ChiWen"
    assert events[-1].kind == "game_over"
    g = pos(cells, slots=E10_SLOTS)
    g.play(A, "b2-b1-c1")
    g.play(A, "tame:S2")
    assert g.is_over and g.st.score == [3, 0] and g.st.removed == [[5], []]
    assert g.cards[g.st.slots[0]].name == "QiuNiu" and stack(g, "b1") == ["B1", "B2", "A3"]


E11 = {"a1": "A1 B1", "b1": "A2 B2", "c1": "A3 B3", "d1": "A4 B4", "a2": "A5 B5", "b2": "A6 B6"}


def test_e11_unable_to_act_loses():
    g = pos(E11, reserves=[[], []])
    assert g.result is not None
    assert g.is_over and g.end_reason == "no_action" and g.result.winners == [B]
    # the same reached through play: B buries A's last free die
    cells = dict(E11)
    cells["b2"] = "A6"
    cells["c2"] = "B6"
    g = pos(cells, reserves=[[], []], turn=1)
    assert not g.is_over
    events = g.play(B, "c2-b2")
    assert g.is_over and g.result.winners == [B] and g.result.ranking == [[B], [A]]
    assert events[-1].kind == "game_over"


def test_e12_pulao_turns_the_tamers_dice_to_one():
    g = pos({"a1": "B2 A6", "c1": "A5 A3 A1"}, slots={"S1": "PuLao"}, deck=["BiAn"], turn=0)
    g.play(A, "c1-b1-a1-a2")
    assert g.st.score == [3, 0]
    assert stack(g, "a2") == ["A1"]
    assert g.st.reserve[0] == [1, 1, 1, 2, 4]
    assert 2 in g.st.reserve[1]
    g.play(B, "1@d3")
    places = [a for a in g.legal_actions(A) if "@" in a]
    assert sorted({a.split("@")[0] for a in places}) == ["1", "2", "4"]


def test_e13_chiwen_removes_the_taming_die():
    g = pos({"c1": "B1 B5", "c2": "A6"}, slots={"S2": "ChiWen"}, deck=["BiAn"])
    g.play(A, "c2-c1")
    assert g.st.score == [3, 0] and g.st.removed == [[6], []]
    assert g.st.reserve[0] == [1, 2, 3, 4, 5]
    owned = len(g.st.reserve[0]) + sum(1 for c in g.st.cells for d in c if d >> 3 == 0)
    assert owned == 5
    assert 1 in g.st.reserve[1] and 5 in g.st.reserve[1]


def test_e14_third_repetition_ends_the_game():
    g = pos({"a1": "B3", "c3": "A3"}, turn=0)
    g.play(A, "c3-d3")  # reaches P0 (B to move) after an action: count 1
    cycle = [(B, "a1-b1"), (A, "d3-c3"), (B, "b1-a1"), (A, "c3-d3")]
    for _ in range(2):
        for who, act in cycle:
            assert not g.is_over
            g.play(who, act)
    assert g.is_over and g.end_reason == "repetition"
    assert g.result is not None
    assert g.result.ranking == [[A, B]]  # full tie: a draw
    assert len(g.log) == 9


def test_e15_hole_adjacency():
    g = pos({"a1": "A2 A4", "c2": "A5"}, slots=["QiuNiu", "BiAn", None, "FuXi", "SuanNi", "BaXia"])
    acts = g.legal_actions(A)
    assert not any(a.endswith(("@a2", "@b2")) for a in acts)
    assert moves(g, "a1") == ["a1-b1-c1"]
    assert moves(g, "c2") == ["c2-c1", "c2-c3", "c2-d2"]
    assert g.view(None)["slots"][2]["hole"] is True


# -- more rules ------------------------------------------------------------------------------------


def test_stack_moves_drop_bottom_first_and_cannot_stop_early():
    g = pos({"b2": "B1 A3 A6"})
    for m in moves(g, "b2"):
        assert len(m.split("-")) == 4
    g.play(A, "b2-b1-c1-d1")
    assert stack(g, "b1") == ["B1"] and stack(g, "c1") == ["A3"] and stack(g, "d1") == ["A6"]


def test_cannot_enter_full_cell_or_own_path():
    g = pos({"b1": "A1 A2", "a1": "B1 B2 B3", "b2": "B6 B6 B6"}, reserves=[[3, 4, 5, 6], []])
    assert moves(g, "b1") == ["b1-c1-c2", "b1-c1-d1"]


def test_chiwen_choice_between_two_own_stacks():
    g = pos(
        {"b1": "B2 A6", "c2": "A4 A5", "d2": "B2 B1", "c1": "A2 B5"}, slots={"S2": "ChiWen"}, deck=["BiAn"]
    )
    g.play(A, "b1-c1-d1")
    # c1 = [A2, B5, B2], d1 = [A6]: one 3-stack only (B's) -> B tames ChiWen automatically
    assert g.st.score == [0, 3] and g.st.removed == [[], [2]]


def test_contested_same_owner_chiwen_asks_for_the_stack():
    g = pos({"c1": "B1 B2", "d1": "B3 B4", "c2": "A3 A5"}, slots={"S2": "ChiWen"}, deck=["BiAn"])
    g.play(A, "c2-c1-d1")
    assert g.legal_actions(A) == ["tame:S2:c1", "tame:S2:d1"]
    g.play(A, "tame:S2:c1")
    assert g.st.removed == [[3], []] and g.st.score == [3, 0]


def test_same_owner_green_double_stack_needs_no_choice():
    g = pos({"c1": "B1 B2", "d1": "B3 B4", "c2": "A3 A5"}, deck=["BiAn"])
    g.play(A, "c2-c1-d1")
    assert g.st.pending is None and g.st.score == [1, 0]


def test_game_ends_at_win_points():
    g = pos({"c1": "B1 B2", "c2": "A6"}, slots={"S2": "PuLao"}, deck=["BiAn"], scores=[5, 0])
    g.play(A, "c2-c1")
    assert g.result is not None
    assert g.is_over and g.end_reason == "points" and g.result.winners == [A]
    # The reason is a sentence for people: why it ended and what each player tamed, with
    # {player} placeholders the bot fills with display names.
    assert g.result is not None
    assert g.result.reason == "{alice} reached 7 points. {alice} tamed PuLao; {bob} tamed no card."
    assert g.view(None)["result_text"].startswith("Game over ({alice} reached 7 points): {alice} wins.")


def test_tie_break_on_number_of_cards():
    g = pos({"c1": "B1 B2", "c2": "A6"}, slots=E10_SLOTS, scores=[0, 1])
    g.st.tamed = [[], [g._index["BiAn"]]]
    g.st.slots[5] = -1
    g.play(A, "c2-c1")  # A tames ChiWen (+3): 5 cards -> 4, the game ends, 3 v 1 points
    assert g.result is not None
    assert g.is_over and g.result.winners == [A]
    h = pos({"a1": "B1 B2", "a2": "A6"}, slots=E10_SLOTS, scores=[0, 1])
    h.st.tamed = [[], [h._index["BiAn"]]]
    h.play(A, "a2-a1")  # A tames QiuNiu: 1 point each, 1 card each -> draw
    assert h.result is not None
    assert h.is_over and h.end_reason == "cards" and h.result.ranking == [[A, B]]


def test_illegal_actions_are_refused_with_reasons():
    g = new_game(P, 3, first_player="first")
    with pytest.raises(IllegalAction, match="not your turn"):
        g.play(B, "1@a1")
    with pytest.raises(IllegalAction, match="not a cell"):
        g.play(A, "1@z9")
    g.play(A, "1@a1")
    with pytest.raises(IllegalAction, match="not empty"):
        g.play(B, "2@a1")
    with pytest.raises(IllegalAction, match="not yours"):
        g.play(B, "a1-a2")
    before = g.to_dict()
    with pytest.raises(IllegalAction):
        g.play(B, "nonsense")
    assert g.to_dict() == before


def test_notation_is_forgiving_about_case_and_arrows():
    g = pos({"b1": "A3"})
    g.play(A, "B1→C1")
    assert stack(g, "c1") == ["A3"]


def test_describe_action_labels():
    g = new_game(P, 2, first_player="first")
    assert g.describe_action(A, "3@b2") == "Place 3 on b2"
    assert g.describe_action(A, "b1-b2-c2") == "Move b1→b2→c2"


def test_first_player_option():
    assert new_game(P, 5, first_player="second").to_act() == [B]
    assert new_game(P, 5, first_player="first").to_act() == [A]
    firsts = {new_game(P, s).to_act()[0] for s in range(20)}
    assert firsts == {A, B}
    with pytest.raises(ValueError):
        new_game(P, 1, compare_die="sideways")
    with pytest.raises(ValueError):
        new_game(P, 1, win_points=0)
    assert new_game(P, 1, win_points="9").rules.win_points == 9
    assert new_game(P, 1).describe_action(A, "tame:Sx") == "tame:Sx"


def test_view_hides_the_deck_order_only():
    g = new_game(P, 11)
    v = g.view(A)
    order = [g.cards[c].name for c in g.st.deck]
    assert v["deck"]["count"] == 3 and v["deck"]["contents"] == sorted(order)
    import json

    text = json.dumps(v)
    assert json.dumps(order) not in text or order == sorted(order)
    for key in (
        "cells",
        "slots",
        "reserves",
        "tamed",
        "points",
        "turn",
        "last_action",
        "pending",
        "is_over",
        "result",
    ):
        assert key in v
    assert v == g.view(B) | {"viewer": A}


def test_cards_data_file_is_tagged():
    table = load_table()
    assert len(table["card"]) == 9
    prov = provenance()
    for c in table["card"]:
        assert c["points_status"] == "proposed"
        assert c["name_status"] in ("confirmed", "inferred")
    assert {n for n, p in prov.items() if p["name_status"] == "inferred"} == {"QiuNiu", "BiAn", "FuXi"}
    pts = {c["name"]: c["points"] for c in table["card"]}
    assert pts == {
        "QiuNiu": 1,
        "BiAn": 1,
        "FuXi": 1,
        "SuanNi": 2,
        "BaXia": 2,
        "ChaoFeng": 2,
        "PuLao": 3,
        "YaZi": -2,
        "ChiWen": 3,
    }


def test_registered_in_the_registry():
    from engine import registry

    load_plugins(ui=False)
    info = registry.get("ninesons")
    assert info.game_class is NineSonsGame
    g = info.new_game(P, 1)
    a = info.choose_ai_action(g, g.to_act()[0], "easy", 1)
    assert a in g.legal_actions(g.to_act()[0])


def test_legal_by_origin_groups_every_legal_action_by_what_it_picks_up():
    g = NineSonsGame.from_position(P, {"a1": "A2", "b1": "B6", "c2": "B1 A3"})
    groups = g.legal_by_origin(A)
    assert groups["a1"] == ["a1-a2"]  # a 2 cannot enter bob's 6 on b1
    assert groups["c2"] == sorted(a for a in g.legal_actions(A) if a.startswith("c2-"))
    assert set(groups) == {"a1", "c2", "1@", "4@", "5@", "6@"}  # alice's 2 and 3 are on the board
    assert sorted(a for group in groups.values() for a in group) == g.legal_actions(A)
    g.play(A, "a1-a2")
    assert g.legal_by_origin(A) == {} and "b1" in g.legal_by_origin(B)  # a new ply, not the cached one


def test_a_tie_on_points_decided_by_tamed_cards_says_so():
    from engine.ninesons import core

    g = new_game(P, 1, first_player="first")
    st = g.st
    st.score = [2, 2]
    st.tamed = [[0, 1], [2, 3, 4]]
    core.end_normal(st, core.CARDS)
    assert g.result is not None and g.result.winners == [B]
    assert "Tied on 2 points: {" + B + "} tamed more cards (3 to 2). " in g.result.reason
    # Different points, or a real draw: no tie-break sentence.
    st.tamed = [[0, 1], [2, 3]]
    core.end_normal(st, core.CARDS)
    assert "a draw" in g.result.reason and "Tied on" not in g.result.reason
    st.score = [3, 2]
    core.end_normal(st, core.CARDS)
    assert "Tied on" not in g.result.reason
