"""Count the private-message and picture requests of whole games played as members (issue 25).

``python -m bench.private_requests`` plays, through simcord (bench.playthrough's driver: the
"medium" AI chooses each move, a member makes it through the board or their private prompt):

* The Dragon & Flagon, alice, bob and carol (carol's DMs are closed);
* Dragon Farkle, alice and bob.

Printed per game: DMs created (new messages posted in DM channels, refused ones included),
DM edits (through the channel: the global limit), DM edits by token (through the webhook of the
member's last click in that DM: an interaction endpoint), DM deletes, ``GET /users/{id}``, PNG uploads (files attached to a create or edit),
PNGs drawn (different pictures: the presenter draws one only when what it shows changed), and
per player the DMs they received.
"""

from __future__ import annotations

import asyncio
import re
import tempfile
from pathlib import Path
from typing import Any

from bench.common import print_rows
from cogs.plugins import load_plugins

_MESSAGE = re.compile(r"^/channels/(\d+)/messages(?:/(\d+))?$")
_USER = re.compile(r"^/users/\d+$")
_ORIGINAL = re.compile(r"^/webhooks/\d+/([^/]+)/messages/@original$")


def count(
    requests: list[Any], dm_channels: set[int], token_channels: dict[str, int] | None = None
) -> dict[str, int]:
    """Tally one slice of simcord's request log by kind. ``token_channels``: the channel of each
    interaction token, to count the DM edits made through a click's token (cogs.carrier)."""
    out = {"DMs created": 0, "DM edits": 0, "DM edits by token": 0, "DM deletes": 0, "GET /users": 0,
           "PNG uploads": 0}  # fmt: skip
    for r in requests:
        original = _ORIGINAL.match(r.path) if r.method == "PATCH" else None
        if original and (token_channels or {}).get(original.group(1)) in dm_channels:
            out["DM edits by token"] += 1
        found = _MESSAGE.match(r.path)
        if r.method == "GET" and _USER.match(r.path):
            out["GET /users"] += 1
        body = r.json if isinstance(r.json, dict) else {}
        # A new file is sent as {"id": <its index in the form>}; a kept one by its snowflake.
        out["PNG uploads"] += sum(1 for a in body.get("attachments") or [] if int(a.get("id", 0)) < 100)
        if found and int(found.group(1)) in dm_channels:
            kind = {"POST": "DMs created", "PATCH": "DM edits", "DELETE": "DM deletes"}.get(r.method)
            if kind:
                out[kind] += 1
    return out


async def run() -> dict[str, Any]:
    import simcord

    import render
    from bench.playthrough import Table, Tally
    from bot import create_bot

    results: dict[str, Any] = {}
    drawn: list[int] = []
    draw = render.render_png

    def counted(*args: Any, **kwargs: Any) -> Any:
        drawn.append(1)
        return draw(*args, **kwargs)

    render.render_png = counted  # type: ignore[assignment]  # how many different pictures were drawn
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(database_path=Path(tmp) / "private.sqlite3")
        try:
            async with simcord.run(bot, settle_timeout=30.0) as env:
                bot.service._seed_source = lambda: 7
                table = Table(env, bot)
                for name, kind, players, closed in (
                    ("flagon", "flagon", ["alice", "bob", "carol"], "carol"),
                    ("farkle", "farkle", ["alice", "bob"], None),
                ):
                    if closed:
                        table.close_dms(closed)
                    start = len(env.http_requests)
                    drawn.clear()
                    channel = table.flagon if kind == "flagon" else table.farkle
                    gid = await table.open(channel, kind, players[0], players[1:])
                    await table.play_out(gid, Tally(name))
                    await asyncio.sleep(0.2)  # background ping deletes
                    dms = {int(c): m for m, c in env.backend.dm_channels.items()}
                    log = env.http_requests[start:]
                    backend = env.backend
                    tokens = {
                        t: backend.interactions[i].channel_id for t, i in backend.interaction_tokens.items()
                    }
                    results[name] = count(log, set(dms), tokens)
                    results[name]["PNGs drawn"] = len(drawn)
                    per = {
                        n: sum(
                            1
                            for r in log
                            if r.method == "POST"
                            and (m := _MESSAGE.match(r.path))
                            and dms.get(int(m.group(1))) == table.members[n].id
                        )
                        for n in players
                    }
                    results[name]["DMs per player"] = per
        finally:
            await bot.close()
    return results


def main() -> dict[str, Any]:
    load_plugins(ui=False)
    results = asyncio.run(run())
    rows = [(game, " · ".join(f"{k} {v}" for k, v in figures.items())) for game, figures in results.items()]
    print_rows("Private messages and pictures per whole game (simcord)", rows)
    return results


if __name__ == "__main__":
    main()
