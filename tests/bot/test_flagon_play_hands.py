"""Dragon & Flagon played by ``/play`` only: what each member's hand (their seat message, a DM)
shows, and what keeping it up to date costs (issue 25).

A member who plays by ``/play`` never clicks in their DM, so no interaction can edit their hand:
every edit goes through the DM channel, inside the bot's global limit of 50 requests/s. A change
that neither tells them a secret nor changes what they may do there (a card of theirs revealed
on the board, back in their deck) waits for the next edit that must go out; whenever they must
plan, their hand shows the game as it is.
"""

from __future__ import annotations

import random
import re

import discord
import pytest

from cogs.prompts import must_act_privately
from tests.bot.helpers import _children, table_world
from tests.bot.test_farkle_clicks import SEED
from tests.bot.test_request_budget import open_game

_DM_EDIT = re.compile(r"^/channels/(\d+)/messages/(\d+)$")


@pytest.fixture
def table(simcord_env, simcord_bot):
    """The request budget test's world: #games, alice, bob, carol and an admin."""
    _, channel, members = table_world(
        simcord_env, simcord_bot, ("alice", "bob", "carol"), seed=SEED, admin=True
    )
    return simcord_env, simcord_bot, channel, members


def _embed(message) -> dict:
    embed = message.embeds[0]
    return dict(embed.to_dict()) if isinstance(embed, discord.Embed) else dict(embed)


def _shown(embed: dict, components: list[dict]) -> tuple:
    """What a hand shows of its owner's own: their characters' plans and decks, what they may
    choose (not the "For you" lines of the events that caused an edit; nor the board drawn above,
    which the channel's board keeps current: a hand is not edited for others' public moves)."""
    fields = [(f["name"], f["value"]) for f in embed.get("fields", []) if f["name"] != "For you"]
    controls = [(c.get("custom_id"), [o["value"] for o in c.get("options", [])]) for c in components]
    own = embed.get("description", "").split("Your characters (only you see this):")[-1]
    return own, fields, embed.get("footer", {}).get("text"), controls


def _controls(body: dict) -> list:
    return [c for row in body.get("components") or [] for c in row.get("components", [])]


async def test_a_play_members_hand_is_edited_through_the_channel_only_to_ask_or_tell_them_something(table):
    env, bot, channel, m = table
    gid, _ = await open_game(table, "flagon", ["alice", "bob", "carol"])
    by_user = {member.id: member for member in m.values()}
    dm_channels = {str(c) for c in env.backend.dm_channels.values()}
    last_body: dict[str, dict] = {}  # hand message id -> the body of its last edit
    reveals_only: list[str] = []  # channel edits that asked and told nothing new
    checked = 0
    rng = random.Random(7)
    for _ in range(600):
        rec, game = await bot.service.load(gid)
        if game.is_over or rec.status != "active":
            break
        seat = rng.choice([s for s in rec.seats if not s.is_ai and s.seat in game.to_act()])
        since = len(env.http_requests)
        await by_user[seat.user_id].slash(channel, "play", action=rng.choice(game.legal_actions(seat.seat)))
        for r in env.http_requests[since:]:
            found = _DM_EDIT.match(r.path)
            if r.method != "PATCH" or not found or found.group(1) not in dm_channels:
                continue
            body, previous = r.json or {}, last_body.get(found.group(2))
            tells = any(f["name"] == "For you" for e in body.get("embeds") or [] for f in e.get("fields", []))
            if previous is not None and _controls(body) == _controls(previous) and not tells:
                reveals_only.append(f"after {r.path}: {(body.get('embeds') or [{}])[0].get('fields')}")
            last_body[found.group(2)] = body
        rec, game = await bot.service.load(gid)
        for s in rec.seats:  # whoever must plan now reads the game as it is in their hand
            if game.is_over or not must_act_privately(game, s.seat):
                continue
            stored = await bot.db.seat_messages.get(gid, s.seat)
            assert stored is not None
            hand = next(x for x in by_user[s.user_id].user.dm_channel.history() if x.id == stored.message_id)
            now = bot.presenter.private_message(rec, game, s.seat, [], page=0)
            expected = _shown(
                now["embed"].to_dict(), [c for row in now["view"].to_components() for c in row["components"]]
            )
            assert _shown(_embed(hand), _children(hand)) == expected, (s.seat, game.to_act())
            checked += 1
    rec, game = await bot.service.load(gid)
    assert game.is_over
    assert checked > 30  # many planning moments were looked at
    assert reveals_only == [], reveals_only[:3]
    for member in (m["alice"], m["bob"], m["carol"]):  # the end edits every hand, waiting or not
        [hand] = member.user.dm_channel.history()
        assert hand.content.startswith("🏁 The game is over") and not _children(hand)
