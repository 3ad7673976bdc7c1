"""Menus of moves as a tree, for games with many legal actions.

A game's UI module maps each action to a path of labels, e.g. ``3@b2`` -> ["Place", "3",
"b2"]. The board shows the first level as buttons; each click opens a private select for the
next level, until a leaf (one action) is chosen. Nodes are addressed by indices ("0.2"), which
are stable for one game version, so the whole navigation state fits in a custom_id.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cogs import routing

PathFunction = Callable[[str], Sequence[str]]


@dataclass
class Node:
    label: str
    children: list[Node] = field(default_factory=list)
    action: str | None = None  # set on leaves

    def child(self, label: str) -> Node:
        for c in self.children:
            if c.label == label and c.action is None:
                return c
        node = Node(label)
        self.children.append(node)
        return node

    @property
    def only_action(self) -> str | None:
        """The one action below this node, if there is exactly one."""
        if self.action is not None:
            return self.action
        if len(self.children) == 1:
            return self.children[0].only_action
        return None


def build(actions: Sequence[str], path_of: PathFunction) -> Node:
    """The menu of ``actions``; an action whose path is empty is left out (the game's own
    board rows offer it, e.g. Farkle's dice)."""
    root = Node("")
    for action in actions:
        labels = list(path_of(action))
        if not labels:
            continue
        node = root
        for label in labels[:-1]:
            node = node.child(label)
        node.children.append(Node(labels[-1], action=action))
    return root


def find(root: Node, address: str) -> Node | None:
    """The node at "i.j.k" (empty address: the root); None if the address is stale."""
    node = root
    if not address:
        return node
    for part in address.split("."):
        index = routing.number(part, limit=len(node.children) - 1)
        if index is None:
            return None
        node = node.children[index]
    return node
