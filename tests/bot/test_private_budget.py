"""Private messages cost Discord requests only when what they show changes (issue 25).

A whole Dragon & Flagon game through simcord, as members play it (bench.playthrough's driver:
the "medium" AI chooses, a member clicks the board or selects in their private prompt): alice
is pinged in the channel (the default), bob chose `/game notify dm`, carol's DMs are closed.

* alice's only DM is the one at the start, which becomes her seat message ("your hand") and is
  edited in place each planning phase (never deleted and sent again); the channel ping is what
  tells her to plan;
* bob's DMs are that seat message plus his turn pings (one notification per turn change, not two);
* no `GET /users/{id}`; no DM edit repeats what the message already shows;
* a board picture is uploaded only when its PNG changed.
"""

from __future__ import annotations

import re

import pytest

import render
from bench.playthrough import Table, Tally
from cogs.prompts import must_act_privately

_DM_MESSAGE = re.compile(r"^/channels/(\d+)/messages(?:/(\d+))?$")
_FOLLOWUP = re.compile(r"^/webhooks/\d+/([^/]+)$")
_ORIGINAL = re.compile(r"^/webhooks/\d+/([^/]+)/messages/@original$")


@pytest.fixture
async def played(simcord_env, simcord_bot, monkeypatch):
    env, bot = simcord_env, simcord_bot
    bot.service._seed_source = lambda: 7
    renders = []
    draw = render.render_png

    def counted(*args, **kwargs):
        png = draw(*args, **kwargs)
        renders.append(png)
        return png

    monkeypatch.setattr(render, "render_png", counted)
    table = Table(env, bot)
    calls = watch_private_calls(env, bot, table)
    await table.members["bob"].slash(table.flagon, "game notify", where="dm")
    table.close_dms("carol")
    start = len(env.http_requests)
    gid = await table.open(table.flagon, "flagon", "alice", ["bob", "carol"])
    tally = Tally("flagon")
    await table.play_out(gid, tally)
    rec, game = await bot.service.load(gid)
    assert game is not None and game.is_over
    env.private_calls = calls
    return env, table, env.http_requests[start:], tally, renders


def watch_private_calls(env, bot, table) -> list[tuple[str, bool]]:
    """After every move: (member, told) for each member whose secret decision (planning, a
    Daze card) just began: told when a new message since that move mentions them in the
    channel or went to their DMs (their seat message is only edited, which notifies nobody)."""
    calls: list[tuple[str, bool]] = []
    was: dict[str, bool] = {}
    count = table._count_notices

    async def counted(gid, waiting, before, asked, tally, *, since):
        await count(gid, waiting, before, asked, tally, since=since)
        rec, game = await bot.service.load(gid)
        backend = env.backend
        for seat in rec.seats:
            name = next(n for n, m in table.members.items() if m.id == seat.user_id)
            now = game is not None and must_act_privately(game, seat.seat)
            if now and not was.get(name):
                dm = backend.dm_channels.get(seat.user_id)
                pinged = any(
                    m.id > since and seat.user_id in m.ping_user_ids
                    for m in backend.messages.get(table.flagon.id, {}).values()
                )
                direct = name not in table.closed_dms and any(
                    m.id > since for m in backend.messages.get(dm, {}).values()
                )
                calls.append((name, pinged or direct))
            was[name] = now

    table._count_notices = counted
    return calls


def dm_requests(env, table, log, name: str, method: str) -> list:
    dm = env.backend.dm_channels.get(table.members[name].id)
    return [
        r for r in log if r.method == method and (m := _DM_MESSAGE.match(r.path)) and int(m.group(1)) == dm
    ]


def dm_edits(env, table, log, name: str) -> list[tuple[int, dict]]:
    """(message id, body) of every edit of a message in ``name``'s DMs: through the channel, or
    through the webhook of an interaction made on it (its @original: cogs.carrier)."""
    dm = env.backend.dm_channels.get(table.members[name].id)
    edits = []
    for r in log:
        if r.method != "PATCH":
            continue
        if (m := _DM_MESSAGE.match(r.path)) and int(m.group(1)) == dm:
            edits.append((int(m.group(2)), r.json))
        elif (w := _ORIGINAL.match(r.path)) is not None:
            record = env.backend.interactions[env.backend.interaction_tokens[w.group(1)]]
            if record.channel_id == dm:
                edits.append((record.source_message_id, r.json))
    return edits


async def test_one_dm_per_player_per_game_edited_in_place_and_each_turn_change_notified_once(played):
    env, table, log, tally, _ = played
    # alice: the start DM (her seat message) and nothing else; it is never deleted.
    [hand] = dm_requests(env, table, log, "alice", "POST")
    assert "This message becomes your hand" in hand.json["content"]
    assert dm_requests(env, table, log, "alice", "DELETE") == []
    assert len(dm_edits(env, table, log, "alice")) >= 5  # the planning phases, in place
    # bob: his seat message, then only turn pings (he chose DMs): never a second seat message.
    bob_posts = dm_requests(env, table, log, "bob", "POST")
    assert "This message becomes your hand" in bob_posts[0].json["content"]
    pings = bob_posts[1:]
    assert pings and all(p.json["content"].startswith(("🔔", "⏰")) for p in pings), [p.json for p in pings]
    bob_dm = env.backend.dm_channels[table.members["bob"].id]
    hand_id = min(env.backend.messages[bob_dm])  # the first message of his DMs
    deleted = {
        int(m.group(2))
        for r in dm_requests(env, table, log, "bob", "DELETE")
        if (m := _DM_MESSAGE.match(r.path))
    }
    assert hand_id not in deleted  # only superseded pings are deleted
    followups = [
        r.json["content"]
        for r in log
        if r.method == "POST"
        and (w := _FOLLOWUP.match(r.path))
        and env.backend.interactions[env.backend.interaction_tokens[w.group(1)]].channel_id == bob_dm
    ]
    print(f"bob's DM pings: {len(pings)} through his DM channel, {len(followups)} as followups of his clicks there")
    # Every turn change reached the member it asks (a channel ping, or bob's DM ping).
    assert tally.turn_changes > 10 and tally.notified == tally.turn_changes
    assert len(pings) <= tally.turn_changes  # no turn change told bob twice by DM
    # Each secret decision that began (every planning phase, a Daze card) was told to its member.
    calls = env.private_calls
    assert len(calls) > 10 and [c for c in calls if not c[1]] == [], calls


async def test_a_member_who_chose_dm_pings_is_never_also_pinged_in_the_channel(played):
    """bob chose `/game notify dm`: a Flagon card that asks him something mid-resolution ("your
    choice — which way to face") names him in the channel's line without mentioning him, since
    his DM ping is what tells him (once, not twice)."""
    env, table, log, _, _ = played
    bob = table.members["bob"].id
    mentioned = [
        r.json
        for r in log
        if r.method == "POST"
        and isinstance(r.json, dict)
        and bob in {int(u) for u in (r.json.get("allowed_mentions") or {}).get("users") or []}
    ]
    assert mentioned == []
    asked = [
        r.json["content"]
        for r in dm_requests(env, table, log, "bob", "POST")
        if "answer" in str(r.json.get("content"))
    ]
    assert asked, "bob was asked by a card at least once (by DM)"


async def test_no_user_lookups_and_no_dm_edit_that_changes_nothing(played):
    env, table, log, _, _ = played
    assert [r.path for r in log if r.method == "GET" and r.path.startswith("/users/")] == []
    for name in ("alice", "bob"):
        last: dict[int, object] = {}
        edits = dm_edits(env, table, log, name)
        assert edits
        for message_id, body in edits:
            assert last.get(message_id) != body, f"{name}: an edit repeating what the DM shows: {message_id}"
            last[message_id] = body


async def test_a_board_picture_is_uploaded_only_when_it_changed(played):
    env, table, log, _, renders = played
    uploads = sum(
        1
        for r in log
        if isinstance(r.json, dict)
        for a in r.json.get("attachments") or []
        if int(a.get("id", 0)) < 100
    )
    kept = sum(
        1
        for r in log
        if r.method == "PATCH" and isinstance(r.json, dict)
        for a in r.json.get("attachments") or []
        if int(a.get("id", 0)) >= 100
    )
    assert kept > 0  # edits that keep the picture they have
    # A drawing is uploaded at most once per board message it goes on (the board, and the
    # final board when the game ends); the cache that saves redrawing used to re-upload it.
    assert uploads <= len(renders) + 2, (uploads, len(renders))
