"""A keep joined to its follow-up (issue 27, finding 6): ``keep:1,5+roll`` and ``keep:1,5+stop``
play as one action, atomically, are offered by ``shortcuts`` and described like the board's
one-click buttons."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from tests.engine.farkle_support import setup


def test_a_keep_and_roll_is_the_two_actions_in_one():
    rolls = [([1, 5, 2, 3, 4, 6], "blank"), ([1, 2, 3, 4], "blank")]
    joined, apart = setup(rolls), setup(rolls)
    joined.play("p1", "recruit")
    apart.play("p1", "recruit")
    events = joined.play("p1", "keep:1,5+roll")
    expected = apart.play("p1", "keep:1,5") + apart.play("p1", "roll")
    assert joined.to_dict() == apart.to_dict()
    assert [e.text for e in events] == [e.text for e in expected]
    assert joined.view(None)["roll"] == [1, 2, 3, 4]


def test_a_keep_and_stop_banks():
    g = setup([([1, 5, 2, 3, 4, 6], "blank")], armies={"p1": 1000})
    g.play("p1", "recruit")
    assert g.describe_action("p1", "keep:1,5+stop") == "Keep 1 5 (+150) & bank 150"
    assert g.describe_action("p1", "keep:1,5+roll") == "Keep 1 5 (+150) & roll 4 dice"
    g.play("p1", "keep:1,5+stop")
    assert g.s["armies"]["p1"] == 1150 and g.to_act() == ["p2"]


def test_shortcuts_list_each_keep_with_each_legal_follow_up_and_are_not_legal_actions():
    g = setup([([1, 5, 2, 2, 3, 6], "blank")])
    g.play("p1", "recruit")
    assert g.shortcuts("p1") == [
        f"{k}+{f}" for k in ("keep:1", "keep:1,5", "keep:5") for f in ("roll", "stop")
    ]
    assert not any("+" in a for a in g.legal_actions("p1"))
    assert g.shortcuts("p2") == []  # not p2's move


def test_a_follow_up_that_is_not_legal_after_the_keep_changes_nothing():
    g = setup([([1, 2, 3, 4, 6, 6], "rally")])
    g.play("p1", "recruit")
    before = g.to_dict()
    # A keep on a Rally face asks "double or item?" first: no roll or stop may follow at once.
    assert g.shortcuts("p1") == []
    with pytest.raises(IllegalAction, match="cannot follow `keep:1`"):
        g.play("p1", "keep:1+roll")
    assert g.to_dict() == before


@pytest.mark.parametrize(
    "action", ["keep:5+roll", "keep:1+bank", "roll+keep:1", "keep:1+roll+stop", "keep:1+"]
)
def test_a_malformed_or_illegal_joined_move_is_refused_and_changes_nothing(action):
    g = setup([([1, 2, 3, 4, 6, 6], "blank")])
    g.play("p1", "recruit")
    before = g.to_dict()
    with pytest.raises(IllegalAction):
        g.play("p1", action)
    assert g.to_dict() == before


def test_a_brawl_stop_reads_like_the_buttons():
    g = setup([([1, 5, 2, 3, 4, 6], "blank"), ([5, 2, 3, 4, 6], "blank")], armies={"p1": 1000, "p2": 3000})
    g.play("p1", "brawl:p2")
    assert g.describe_action("p1", "keep:1,5+stop") == "Keep 1 5 (+150) & stop: attack score 150"
    g.play("p1", "keep:1,5+stop")
    assert g.describe_action("p2", "keep:5+stop") == "Keep 5 (+50) & stop: defence score 50"
    g.play("p2", "keep:5")
    assert g.describe_action("p2", "stop") == "Stop: defence score 50"
