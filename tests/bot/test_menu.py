from __future__ import annotations

from cogs import menu


def path(action: str) -> list[str]:
    if "@" in action:
        value, cell = action.split("@")
        return ["Place", value, cell]
    return ["Move", action.split("-")[0], action]


def find(root: menu.Node, address: str) -> menu.Node:
    """menu.find for an address that must exist."""
    node = menu.find(root, address)
    assert node is not None, address
    return node


def test_menu_tree_groups_actions_and_finds_leaves():
    actions = ["1@a1", "1@b1", "3@a1", "a2-a1", "a2-b2", "c3-c2"]
    root = menu.build(actions, path)
    assert [c.label for c in root.children] == ["Place", "Move"]
    place = menu.find(root, "0")
    assert place is not None and [c.label for c in place.children] == ["1", "3"]
    assert find(root, "0.1").only_action == "3@a1"  # one leaf below: played at once
    assert find(root, "1.1").only_action == "c3-c2"
    assert find(root, "1.0").only_action is None
    assert find(root, "1.0.1").action == "a2-b2"
    assert menu.find(root, "7") is None and menu.find(root, "x") is None  # stale addresses


def test_a_forged_address_with_unicode_digits_is_stale_not_a_crash():
    root = menu.build(["a", "b"], lambda action: [action])
    # "²".isdigit() is true but int("²") fails: a forged custom_id must read as out of date.
    assert menu.find(root, "²") is None and menu.find(root, "0.²") is None
    assert menu.find(root, "1") is not None
