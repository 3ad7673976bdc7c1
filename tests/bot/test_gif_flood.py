"""The replay's 🎞 GIF button pressed in a flood (issue 23, finding 1): one drawing per finished
game, private answers for the presses that wait, and the work other games need (AI moves,
board pictures) never queued behind a GIF.

The drawing is held by a blocking event, so "while a GIF is being drawn" is a fact of the test,
not a race. The presses go straight to the button's handler with a small recording interaction:
simcord joins all of the bot's work after every click, so it could not click while a drawing
is held. Before and after the drawing, members click through simcord as usual.
"""

from __future__ import annotations

import asyncio
import io
import random
import threading
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
from PIL import Image

import sessions.replay
from cogs import routing
from cogs.gifs import ReplayGifs
from cogs.replay import GIF_VERB, on_send_gif
from sessions import Actor
from sessions.heavywork import TooBusy
from tests.bot.helpers import last_board, private_replies
from tests.bot.test_replay_discord import current, play_to_the_end, start_against_ai

PRESSES = 12
PROMPTLY_S = 10.0  # a move and its board take ~0.1 s; before the fix they waited for the drawings


class RecordingInteraction:
    """What a GIF handler needs of a discord.Interaction, recording what it answers."""

    def __init__(self, user_id: int, guild_id: int) -> None:
        self.user = SimpleNamespace(id=user_id)
        self.guild_id = guild_id
        self.answers: list[dict[str, Any]] = []  # ("defer" | "message" | "followup", text, files)
        outer = self

        class Response:
            def is_done(self) -> bool:
                return bool(outer.answers)

            async def defer(self, **kwargs: Any) -> None:
                outer.answers.append({"how": "defer", **kwargs})

            async def send_message(self, content: str = "", **kwargs: Any) -> None:
                outer.answers.append({"how": "message", "text": content, **kwargs})

        class Followup:
            async def send(self, content: str = "", **kwargs: Any) -> None:
                outer.answers.append({"how": "followup", "text": content, **kwargs})

        self.response = Response()
        self.followup = Followup()


async def press_gif(bot: Any, interaction: RecordingInteraction, game_id: int) -> None:
    """The 🎞 GIF button's handler, as cogs.router calls it."""
    route = routing.parse(routing.make(game_id, GIF_VERB))
    assert route is not None
    await on_send_gif(SimpleNamespace(bot=bot), cast(discord.Interaction, interaction), route)


async def until(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    """Wait (real time) until ``condition()``, failing the test after ``seconds``."""
    deadline = time.perf_counter() + seconds
    while not condition():
        assert time.perf_counter() < deadline, "the presses never got that far"
        await asyncio.sleep(0.01)


@pytest.fixture
def world(simcord_env, simcord_bot):
    simcord_bot.service._seed_source = lambda: 22  # the same games every run
    guild = simcord_env.create_guild()
    other_server = simcord_env.create_guild()
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "carol", "dave")}
    bob = other_server.add_member(simcord_env.create_user("bob"))
    return simcord_env, guild, guild.create_text_channel("games"), other_server, bob, members


@pytest.fixture
def held_drawing(monkeypatch, simcord_bot):
    """GIF drawings wait for ``release``; ``calls`` counts them. The GIF lane's worker is a
    thread here (the bot's is a process), so the test can hold it with an event."""
    simcord_bot.gifs = ReplayGifs(processes=False)
    held = SimpleNamespace(entered=threading.Event(), release=threading.Event(), calls=0)
    real = sessions.replay.animate

    def slow_animate(*args: Any) -> Any:
        held.calls += 1
        held.entered.set()
        held.release.wait(60)
        return real(*args)

    monkeypatch.setattr(sessions.replay, "animate", slow_animate)
    yield held
    held.release.set()  # never leave a thread waiting, whatever failed


async def test_a_gif_flood_draws_once_answers_privately_and_never_holds_up_another_server(
    world, held_drawing
):
    env, guild, channel, other_server, bob, m = world
    alice, carol, dave = m["alice"], m["carol"], m["dave"]
    gid = await play_to_the_end(env, channel, alice)
    # Another server plays against the AI meanwhile.
    other = await start_against_ai(env, other_server.create_text_channel("games"), bob, "ninesons")
    shown = (await carol.slash(channel, "game replay", game=gid)).response
    presses = [RecordingInteraction(carol.id, guild.id) for _ in range(PRESSES)]
    tasks = [asyncio.create_task(press_gif(env.bot, press, gid)) for press in presses]
    await until(lambda: held_drawing.entered.is_set() and all(p.answers for p in presses))
    await asyncio.sleep(0.05)

    # While the GIF is held, the other server's AI answers a move and its board is drawn.
    async def move_and_board() -> None:
        _, game = await env.bot.service.load(other.id)
        action = random.Random(1).choice(game.legal_actions(game.to_act()[0]))
        outcome = await env.bot.service.apply(other.id, Actor(bob.id, "bob"), action)
        assert outcome.changed
        message = await env.bot.presenter.board_message(
            await env.bot.service.snapshot_of(outcome.record, outcome.game))
        assert message["attachments"], "the board has its picture"

    try:
        await asyncio.wait_for(move_and_board(), PROMPTLY_S)
    finally:
        held_drawing.release.set()
    await asyncio.wait_for(asyncio.gather(*tasks), 60)

    assert held_drawing.calls == 1  # one drawing for the twelve presses
    answers = [a for p in presses for a in p.answers if a["how"] != "defer"]
    sent = [a for a in answers if a.get("file") is not None]
    assert len(sent) == 1 and sent[0]["ephemeral"] and sent[0]["file"].filename == f"game-{gid}.gif"
    waiting = [a for a in answers if a.get("file") is None]
    assert len(waiting) == PRESSES - 1
    assert all(a["ephemeral"] and "being drawn; it will be posted here" in a["text"] for a in waiting)

    # Once sent, carol waits before the next one; dave gets the same file, not a new drawing.
    again = await carol.click(current(env, shown), label="🎞 GIF")
    assert (
        private_replies(again)
        and "GIF was just sent to you; you can ask for another <t:" in private_replies(again)[0]
    )
    assert not again.response.attachments
    # (the replay answers its asker alone: dave opens his own)
    dave_shown = (await dave.slash(channel, "game replay", game=gid)).response
    daves = await dave.click(current(env, dave_shown), label="🎞 GIF")
    file = (daves.followups[-1] if daves.followups else daves.response).attachments[0]
    assert file.filename == f"game-{gid}.gif" and held_drawing.calls == 1
    assert getattr(Image.open(io.BytesIO(await file.read())), "n_frames", 1) > 10
    assert last_board(channel) is not None


async def test_a_full_gif_lane_refuses_politely_and_starts_nothing(world, held_drawing):
    env, guild, channel, other_server, bob, m = world
    alice = m["alice"]
    gids = [await play_to_the_end(env, channel, alice, seed) for seed in (3, 4, 5, 6)]
    lane = env.bot.gifs.work
    members = [guild.add_member(env.create_user(f"m{i}")) for i in range(len(gids))]
    presses = [RecordingInteraction(member.id, guild.id) for member in members]
    tasks = [
        asyncio.create_task(press_gif(env.bot, press, gid))
        for press, gid in zip(presses[: lane.max_jobs], gids, strict=False)
    ]
    await until(lambda: lane.queued == lane.max_jobs)
    with pytest.raises(TooBusy, match="drawing other GIFs right now"):
        await press_gif(env.bot, presses[-1], gids[-1])
    assert not presses[-1].answers and lane.queued == lane.max_jobs  # nothing started for it
    held_drawing.release.set()
    await asyncio.wait_for(asyncio.gather(*tasks), 120)
    assert held_drawing.calls == lane.max_jobs
