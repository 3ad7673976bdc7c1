"""A small seeded random generator whose whole state is one JSON-safe integer.

Python's ``random.Random`` state is a 625-word tuple and its algorithms may change between
versions; games must replay byte for byte from a saved state, so they use this instead.
The generator is SplitMix64 (Steele, Lea & Flood 2014): fast, well mixed, trivially portable.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


class Rng:
    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` (rejection sampling, so no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def randint(self, a: int, b: int) -> int:
        """Uniform integer in ``[a, b]`` inclusive, like ``random.randint``."""
        return a + self.below(b - a + 1)

    def die(self, sides: int = 6) -> int:
        return self.randint(1, sides)

    def random(self) -> float:
        return (self.next_u64() >> 11) / float(1 << 53)

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def to_dict(self) -> int:
        return self.state

    @classmethod
    def from_state(cls, state: int) -> Rng:
        rng = cls(0)
        rng.state = state & _MASK
        return rng
