"""Private prompts (issue 14, section 2), through simcord: an out-of-date prompt changes nothing
and shows the current one; a player whose DMs are closed is shown a secret choice when it
opens, never told to answer by DM; each player keeps one private message per game."""

from __future__ import annotations

import secrets

import pytest

import engine.farkle.game as farkle_game
from tests.bot.helpers import last_board, private_replies, texts_of


def seed_with_item(item: str) -> int:
    """A game seed that deals ``item`` to the first seat."""
    return next(seed for seed in range(1, 10_000)
                if farkle_game.FarkleGame.new(["p1", "p2"], seed, first_player="lobby").s["hands"]["p1"] == [item])


@pytest.fixture
def world(simcord_env, simcord_bot):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob")}
    return simcord_env, simcord_bot, channel, members


def selects(message) -> list[dict]:
    return [c for row in message.components for c in (row.to_dict() if hasattr(row, "to_dict") else row)[
        "components"] if c.get("type") == 3]


async def start_farkle(env, channel, host, guest, *, host_dms_closed: bool) -> None:
    await host.slash(channel, "game new", game="farkle", options="first_player=lobby")
    await guest.click(last_board(channel), label="Join")
    if host_dms_closed:
        env.inject_error("POST", f"/channels/{host.user.dm_channel.id}/messages", status=403, code=50007,
                         message="Cannot send messages to this user", times=None)
    await host.click(last_board(channel), label="Start")


async def test_an_old_item_prompt_does_not_act_on_a_new_roll(world, monkeypatch):
    env, bot, channel, m = world
    monkeypatch.setattr(secrets, "randbits", lambda bits: seed_with_item("loaded_die"))
    bob, alice = m["bob"], m["alice"]
    await start_farkle(env, channel, bob, alice, host_dms_closed=True)
    # bob (DMs closed) recruits: his roll is out, and his Loaded Die may change a die now. He is
    # shown that privately right away (no "answer in your DM"), with the choices.
    result = await bob.click(last_board(channel), label="Recruit soldiers")
    offers = [r for r in private_replies(result) if r.startswith("🔒 You have a private choice now")]
    assert len(offers) == 1 and "Loaded Die" in offers[0]
    assert not any("DM" in r for r in private_replies(result))
    opened = await bob.click(last_board(channel), label="🔒 Show my hand / plan")
    old_prompt = opened.response
    [item_select] = selects(old_prompt)
    choice = item_select["options"][0]["value"]
    assert choice.startswith("use:loaded_die:")
    # bob keeps dice and rolls again: a new roll.
    rec, game = await bot.service.load(1)
    keep = next(a for a in game.legal_actions("p1") if a.startswith("keep:"))
    await bob.slash(channel, "play", action=keep)
    rec, game = await bot.service.load(1)
    roll_action = next((a for a in game.legal_actions("p1") if a.startswith("roll")), None)
    if roll_action is None:
        pytest.skip("the seeded game left no roll again")
    await bob.slash(channel, "play", action=roll_action)
    before, before_game = await bot.service.load(1)
    # The old prompt's choice is refused: nothing is played, the message shows the current one.
    answer = await bob.select(old_prompt, [choice])
    after, after_game = await bot.service.load(1)
    assert after.version == before.version and after_game.view(None) == before_game.view(None)
    shown = answer.response if answer.response is not None else old_prompt
    assert "out of date" in (shown.content or "") and "only you see this" in texts_of(shown)


async def test_one_private_message_per_game_edited_in_place(world, monkeypatch):
    env, bot, channel, m = world
    monkeypatch.setattr(secrets, "randbits", lambda bits: seed_with_item("loaded_die"))
    alice, bob = m["alice"], m["bob"]
    await start_farkle(env, channel, alice, bob, host_dms_closed=False)
    dm = alice.user.dm_channel
    assert len(dm.history()) == 1 and "This message becomes your hand" in dm.history()[0].content
    await alice.click(last_board(channel), label="Recruit soldiers")
    # The same message now shows her hand and the item she may use on this roll.
    [hand] = dm.history()
    assert "Loaded Die" in texts_of(hand) and selects(hand)
    for _ in range(6):  # her turn goes on by /play; the hand follows, no new DM piles up
        rec, game = await bot.service.load(1)
        if "p1" not in game.to_act():
            break
        public = [a for a in game.legal_actions("p1") if not game.is_private_action("p1", a)]
        await alice.slash(channel, "play", action=public[0])
    assert len(dm.history()) == 1
