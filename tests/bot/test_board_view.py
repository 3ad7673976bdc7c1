"""A click that opens a picker below the board's buttons (Nine Sons' "where to") redraws the
board's controls only (``Presenter.board_view``): they must be exactly the controls of the board
message itself, or the buttons would change under the member's finger."""

from __future__ import annotations

import random

import pytest

from sessions import Actor
from tests.bot import test_outbox
from tests.bot.helpers import last_board

world = test_outbox.world  # two members in one server's channel


@pytest.mark.parametrize("kind", ["ninesons", "farkle", "flagon"])
async def test_the_controls_alone_are_the_board_messages_controls_at_every_move(world, kind):
    env, channel, m = world
    alice, bob = m["alice"], m["bob"]
    await alice.slash(channel, "game new", game=kind)
    await bob.click(last_board(channel), label="Join")
    await alice.click(last_board(channel), label="Start")
    presenter, service = env.bot.presenter, env.bot.service
    gid = int(next(c.custom_id for row in last_board(channel).components for c in row.children).split(":")[1])
    rng = random.Random(kind)
    compared = 0
    for _ in range(60):
        rec, game = await service.load(gid)
        snap = await service.snapshot_of(rec, game)
        whole = (await presenter.board_message(snap))["view"]
        alone = presenter.board_view(snap)
        assert (alone.to_components() if alone else None) == (whole.to_components() if whole else None)
        compared += 1
        if game.is_over or rec.status != "active":
            break
        seat = rng.choice(game.to_act())
        user_id = next(s.user_id for s in rec.seats if s.seat == seat)
        member = alice if user_id == alice.id else bob
        action = rng.choice(game.legal_actions(seat))
        await service.apply(gid, Actor(member.id, member.name), action)
    assert compared > 10
