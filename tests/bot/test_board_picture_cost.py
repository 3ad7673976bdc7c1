"""A board picture is drawn only when what it shows changed, however many games the process
runs (issue 25: drawing and encoding a board is ~10 ms of CPU, the largest share per move).

The PNG bytes of only the latest few hundred games are kept; what each board message shows is
remembered for every game, so a busy bot (more games than PNGs kept) neither redraws nor
re-uploads a picture that did not change.
"""

from __future__ import annotations

import itertools

import pytest

import render
from bench.playthrough import Table, Tally


@pytest.fixture
async def drawn(simcord_env, simcord_bot, monkeypatch):
    """Every PNG drawn while a whole Flagon game is played, with no PNG bytes kept at all (as
    in a process running more games than it keeps pictures of)."""
    env, bot = simcord_env, simcord_bot
    bot.service._seed_source = lambda: 7
    bot.presenter._images.size = 0
    renders: list[tuple[dict, bytes | None]] = []  # (what the picture shows, its PNG)
    draw = render.render_png

    def counted(kind, shown, names):
        png = draw(kind, shown, names)
        renders.append((shown, png))
        return png

    monkeypatch.setattr(render, "render_png", counted)
    table = Table(env, bot)
    start = len(env.http_requests)
    gid = await table.open(table.flagon, "flagon", "alice", ["bob", "carol"])
    await table.play_out(gid, Tally("flagon"))
    return env, env.http_requests[start:], renders


def _uploads(log) -> int:
    return sum(
        1
        for r in log
        if isinstance(r.json, dict)
        for a in r.json.get("attachments") or []
        if int(a.get("id", 0)) < 100
    )


async def test_an_unchanged_board_picture_is_not_drawn_again(drawn):
    env, log, renders = drawn
    board_edits = [
        r for r in log if r.method == "PATCH" and isinstance(r.json, dict) and r.json.get("embeds")
    ]
    # Most board edits (a plan chosen, Recent lines) keep the picture they have.
    assert len(board_edits) > 3 * len(renders)
    # Each drawing shows something new (before: the picture was drawn again whenever its PNG
    # was no longer kept, 185 drawings for 133 pictures in this game)...
    shown = [s for s, _ in renders]
    assert all(a != b for a, b in itertools.pairwise(shown))
    # ...and is uploaded at most once, and only if it looks different from what the board shows.
    uploads = _uploads(log)
    assert uploads <= len(renders) + 2
    pngs = [p for _, p in renders]
    assert uploads <= 2 + len(pngs) - sum(a == b for a, b in itertools.pairwise(pngs))


async def test_a_vanished_board_is_posted_again_with_its_picture(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    table = Table(env, bot)
    gid = await table.open(table.tables, "ninesons", "alice", ["bob"])
    rec = await bot.db.games.load(gid)
    old = rec.board_message_id
    await bot.presenter.draw_board(await bot.service.snapshot(gid))  # the same picture: kept, not drawn
    env.inject_error(
        "PATCH",
        f"/channels/{table.tables.id}/messages/{old}",
        status=404,
        code=10008,
        message="Unknown Message",
        times=None,
    )
    await bot.presenter.draw_board(await bot.service.snapshot(gid))
    rec = await bot.db.games.load(gid)
    assert rec.board_message_id != old
    sent = [
        r
        for r in env.http_requests
        if r.method == "POST" and r.path == f"/channels/{table.tables.id}/messages"
    ]
    assert sent[-1].json["embeds"][0]["image"]["url"] == "attachment://board.png"
    assert [a["filename"] for a in sent[-1].json["attachments"]] == ["board.png"]  # uploaded, not a dead link
