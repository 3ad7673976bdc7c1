"""A map that keeps only its most recently written keys: what the Discord layer remembers per
game or per message (pictures, digests) must not grow for as long as the bot runs."""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class RecentMap(OrderedDict[K, V]):
    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)
