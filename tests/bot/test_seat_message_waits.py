"""A Flagon seat message whose change only waits (cogs.seat_messages: no event for its owner,
the same controls, no live click to carry it) is edited again as soon as it must be, also when
the game later comes back to the very state that once waited: the message then shows a newer
one (a planning prompt) that must be withdrawn."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

import cogs.seat_messages as seat_messages
from cogs.carrier import LiveInteractions
from cogs.plugins import load_plugins
from storage import SeatMessage

load_plugins()  # Flagon's UI says its hand changes may wait (cogs.ui reveals_can_wait)

CHANNEL, MESSAGE = 501, 502


class FakeBot:
    """What SeatMessages.deliver reaches of the bot; the test says what each state shows."""

    def __init__(self) -> None:
        self.stored: SeatMessage | None = SeatMessage(CHANNEL, MESSAGE, "start", False)
        self.edits: list[str] = []  # the description of each edit that went out
        self.shows: dict[str, Any] = {}
        bot = self

        class Table:
            async def get(self, game_id: int, seat: str) -> SeatMessage | None:
                return bot.stored

            async def set(self, game_id: int, seat: str, message: SeatMessage) -> None:
                bot.stored = message

        class Partial:
            async def edit(self, **kwargs: Any) -> None:
                bot.edits.append(kwargs["embed"].description)

        async def superseded(snap: Any) -> bool:
            return False

        self.db = SimpleNamespace(seat_messages=Table())
        self.service = SimpleNamespace(superseded=superseded)
        self.presenter = SimpleNamespace(
            private_message=lambda rec, game, seat, own, page: self.shows[game.state]
        )
        self.dms = SimpleNamespace(remember=lambda user, channel: None)
        self.get_partial_messageable = lambda channel_id: SimpleNamespace(
            get_partial_message=lambda message_id: Partial()
        )


def hand(text: str, *, prompt: bool) -> dict[str, Any]:
    view = discord.ui.View()
    if prompt:
        view.add_item(
            discord.ui.Select(custom_id="dt:1:x:plan:jack.0", options=[discord.SelectOption(label="Move")])
        )
    return {"content": None, "embed": discord.Embed(description=text), "view": view}


async def test_a_state_that_waited_is_shown_when_the_game_comes_back_to_it_after_a_prompt(monkeypatch):
    bot = FakeBot()
    bot.shows = {
        "revealed": hand("Jack: nothing planned", prompt=False),
        "planning": hand("Jack: plan now", prompt=True),
        "start": hand("Jack: I Swing", prompt=False),
    }
    monkeypatch.setattr(seat_messages, "prompt_key", lambda game, seat, public=None: game.state)
    monkeypatch.setattr(seat_messages, "must_act_privately", lambda game, seat: game.state == "planning")
    monkeypatch.setattr(seat_messages, "private_actions", lambda game, seat: [])
    messages = seat_messages.SeatMessages(bot, LiveInteractions())  # type: ignore[arg-type]
    messages.shown(MESSAGE, bot.shows["start"])
    seat = SimpleNamespace(seat="p1", is_ai=False, user_id=7, private_route="dm")
    record = SimpleNamespace(status="active", id=1, kind="flagon")

    async def deliver(state: str) -> None:
        snap = SimpleNamespace(
            record=record, game=SimpleNamespace(state=state), settings={"hidden_pick_mode": "dm"},
            public_view=lambda: {},
        )
        await messages.deliver(snap, seat, [])  # type: ignore[arg-type]

    await deliver("revealed")
    assert bot.edits == []  # only a card revealed: it waits
    await deliver("planning")
    assert bot.edits == ["Jack: plan now"]  # a prompt: at once, with what waited
    await deliver("revealed")  # the planning is over: the prompt goes, though this state once waited
    assert bot.edits == ["Jack: plan now", "Jack: nothing planned"]
