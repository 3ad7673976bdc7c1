"""KeyedLocks: one action at a time per key, other keys never wait, and no lock is kept once
nobody holds or waits for it (the SQLite game locks, PostgreSQL's local queue, the service's
one-lobby-at-a-time per member)."""

from __future__ import annotations

import asyncio

from storage.keyed_locks import KeyedLocks


async def test_one_holder_per_key_and_nothing_kept_afterwards():
    locks: KeyedLocks[int] = KeyedLocks()
    inside: list[int] = []
    overlap = False

    async def act(key: int) -> None:
        nonlocal overlap
        async with locks.hold(key):
            overlap = overlap or key in inside
            inside.append(key)
            await asyncio.sleep(0.001)
            inside.remove(key)

    await asyncio.gather(*(act(key) for key in [1, 1, 2, 1, 2, 3] * 5))
    assert not overlap and len(locks) == 0


async def test_another_key_does_not_wait_and_a_failure_releases():
    locks: KeyedLocks[str] = KeyedLocks()
    async with locks.hold("a"), asyncio.timeout(1), locks.hold("b"):
        assert len(locks) == 2
    try:
        async with locks.hold("a"):
            raise ValueError("an action that failed")
    except ValueError:
        pass
    async with asyncio.timeout(1), locks.hold("a"):
        pass
    assert len(locks) == 0
