"""Play the three games through as members, on simcord, and count what a table lives with.

``python -m bench.playthrough`` plays, in one server:

* Dragon Farkle, alice and bob, in a channel where the bot may not make threads (played in the
  channel, as before threads);
* The Nine Sons of the Dragon, alice and bob, in #tables (played in a thread of its own), then
  its rematch: bob presses 🔁 Rematch, alice presses 🔁 Rematch too (she joins), bob starts;
* The Dragon & Flagon, alice, bob and carol (carol's DMs are closed), in a channel without
  thread permissions;
* then a feature tour in the Farkle channel: /game leaderboard, profile, history, replay
  (each pressed 📣 Show to the channel once), stats, list, status.

The moves are chosen by the game's own "medium" AI (a member decides *what*); every move goes
through Discord the way a member makes it: the board's button for that move if there is one,
else the private prompt (the DM's select, or 🔒 Show my hand / plan then its select when DMs are
closed), else ``/play``. Printed per game: interactions per decision (member interactions over
the members' moves), notifications per turn change (a turn passing to another member, who got
a ping that mentions them or a DM before their move), DMs per player (delivered), and the bot's
messages left standing where the table was (the channel; the thread too when there is one).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import print_rows
from cogs.plugins import load_plugins
from engine import registry

MOVE = re.compile(r"^dt:(\d+):a:\d+:(.+)$")  # a board button that plays one move
PLAN_BUTTON = "🔒 Show my hand / plan"
SHOW = "📣 Show to the channel"


@dataclass
class Tally:
    """What one game cost its members, counted as it is played."""

    name: str
    interactions: int = 0
    decisions: int = 0
    turn_changes: int = 0
    notified: int = 0
    dms: dict[str, int] = field(default_factory=dict)
    left: str = ""


def _components(message: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for row in message.components:
        row = row.to_dict() if hasattr(row, "to_dict") else row
        for item in row.get("components", []):
            out += [item]
    return out


class Table:
    """One server of members, and the driver that plays a game in it through simcord."""

    def __init__(self, env: Any, bot: Any) -> None:
        import discord

        self.env, self.bot = env, bot
        self.guild = env.create_guild()
        self.members = {n: self.guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol")}
        no_threads = {self.guild.me: discord.PermissionOverwrite(create_public_threads=False)}
        self.farkle = self.guild.create_text_channel("farkle", overwrites=no_threads)
        self.tables = self.guild.create_text_channel("tables")
        self.flagon = self.guild.create_text_channel("flagon", overwrites=no_threads)
        self.closed_dms: set[str] = set()

    # -- setting up -----------------------------------------------------------------------------------
    def close_dms(self, name: str) -> None:
        dm = self.members[name].user.dm_channel
        self.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007,
                              message="Cannot send messages to this user", times=None)
        self.closed_dms.add(name)

    async def open(self, channel: Any, kind: str, host: str, guests: list[str], options: str = "") -> int:
        await self.members[host].slash(channel, "game new", game=kind, options=options)
        rec = await self.lobby_in(channel)
        lobby = self._message(channel.id, rec.board_message_id)
        for guest in guests:
            await self.members[guest].click(lobby, label="Join")
        await self.members[host].click(lobby, label="Start")
        return int(rec.id)

    async def lobby_in(self, channel: Any) -> Any:
        """The newest open lobby of a channel (read the same way on the tree before threads)."""
        lobbies = await self.bot.db.games.find(guild_id=self.guild.id, statuses=("lobby",))
        return max((g for g in lobbies if g.channel_id == channel.id), key=lambda g: g.id)

    # -- playing ------------------------------------------------------------------------------------
    async def play_out(self, gid: int, tally: Tally) -> None:
        """Every member move until the game ends, counting as it goes."""
        service = self.bot.service
        by_user = {m.id: name for name, m in self.members.items()}
        info = None
        asked: set[str] = set()  # members told it is their turn since their last move
        waiting = await self._humans_to_act(gid, by_user)
        await self._count_notices(gid, waiting, set(), asked, tally, since=0)
        for _ in range(3000):
            rec, game = await service.load(gid)
            if game is None or game.is_over or rec.status != "active":
                return
            info = info or registry.get(rec.kind)
            seats = {s.seat: s for s in rec.seats}
            to_act = [p for p in game.to_act() if seats[p].user_id is not None and not seats[p].is_ai]
            seat = to_act[0]
            name = by_user[seats[seat].user_id]
            action = info.choose_ai_action(game, seat, "medium", rec.version)
            mark = self.env.backend.snowflake()
            await self._make_move(rec, game, seat, name, action, tally)
            tally.decisions += 1
            asked.discard(name)
            before = set(waiting)  # who had to act already (the mover too: acting again is no turn change)
            waiting = await self._humans_to_act(gid, by_user)
            await self._count_notices(gid, waiting, before, asked, tally, since=mark)

    async def _humans_to_act(self, gid: int, by_user: dict[int, str]) -> list[str]:
        rec, game = await self.bot.service.load(gid)
        if game is None or game.is_over or rec.status != "active":
            return []
        seats = {s.seat: s for s in rec.seats}
        return [by_user[seats[p].user_id] for p in game.to_act()
                if seats[p].user_id is not None and not seats[p].is_ai]

    async def _count_notices(self, gid: int, waiting: list[str], before: set[str], asked: set[str],
                             tally: Tally, *, since: int) -> None:
        """A member who must act now and did not have to before: a turn change to them. It was
        notified if a message posted since ``since`` mentions them or went to their DMs."""
        rec = await self.bot.db.games.load(gid)
        backend = self.env.backend
        where = {rec.channel_id, table_channel(rec)}
        for name in waiting:
            if name in before or name in asked:
                continue
            tally.turn_changes += 1
            member = self.members[name]
            dm = backend.dm_channels.get(member.id)
            pinged = any(m.id > since and member.id in m.ping_user_ids
                         for c in where for m in backend.messages.get(c, {}).values())
            direct = name not in self.closed_dms and dm is not None and any(
                m.id > since for m in backend.messages.get(dm, {}).values())
            if pinged or direct:
                tally.notified += 1
            asked.add(name)

    async def _make_move(self, rec: Any, game: Any, seat: str, name: str, action: str, tally: Tally) -> None:
        member = self.members[name]
        board = self._message(table_channel(rec), rec.board_message_id) if rec.board_message_id else None
        if board is not None:
            for item in _components(board):
                found = MOVE.match(str(item.get("custom_id", "")))
                if item.get("type") == 2 and found and found.group(2) == action:
                    tally.interactions += 1
                    await member.click(board, custom_id=item["custom_id"])
                    return
        if game.is_private_action(seat, action) and board is not None:
            prompt = None
            if name in self.closed_dms:
                if any(i.get("label") == PLAN_BUTTON for i in _components(board)):
                    tally.interactions += 1
                    result = await member.click(board, label=PLAN_BUTTON)
                    prompt = result.followups[-1] if result.followups else result.response
                    actor = member
            else:
                dm = member.user.dm_channel
                prompt, actor = (dm.history()[-1] if dm.history() else None), member.user
            if prompt is not None:
                for item in _components(prompt):
                    values = [o["value"] for o in item.get("options", [])]
                    if item.get("type") == 3 and action in values:
                        tally.interactions += 1
                        await actor.select(prompt, [action], custom_id=item["custom_id"])
                        return
        tally.interactions += 1
        await member.slash(self.env_channel(rec), "play", action=action, game=rec.id)

    def env_channel(self, rec: Any) -> Any:
        """The channel handle where the game is played (its thread, or its channel)."""
        for channel in (self.farkle, self.tables, self.flagon):
            if channel.id == table_channel(rec):
                return channel
            for thread in channel.threads:
                if thread.id == table_channel(rec):
                    return thread
        raise LookupError(table_channel(rec))

    def _message(self, channel_id: int, message_id: int) -> Any:
        from simcord.results import to_discord_message

        return to_discord_message(self.env, self.env.backend.get_message(channel_id, message_id))

    # -- what is left ---------------------------------------------------------------------------------
    def standing(self, channel: Any) -> list[Any]:
        """The bot's messages standing in a channel, its public answers to commands included (not
        simcord's "started a thread" lines: Discord writes none for a thread made from a message)."""
        import discord

        return [m for m in channel.history() if m.author.id == self.bot.user.id and not m.flags.ephemeral
                and m.type is not discord.MessageType.thread_created]


async def run() -> tuple[list[Tally], dict[str, Any]]:
    import simcord

    from bot import create_bot

    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(database_path=Path(tmp) / "playthrough.sqlite3")
        tallies: list[Tally] = []
        tour: dict[str, Any] = {}
        try:
            async with simcord.run(bot, settle_timeout=30.0) as env:
                bot.service._seed_source = lambda: 7  # the same dice and decks every run
                table = Table(env, bot)
                m = table.members
                dm_posts = _dm_posts(env, table)

                farkle = Tally("Dragon Farkle (2 members, in the channel)")
                start = dm_posts()
                gid = await table.open(table.farkle, "farkle", "alice", ["bob"])
                farkle.interactions += 3
                await table.play_out(gid, farkle)
                farkle.dms = _since(dm_posts(), start, ["alice", "bob"])
                farkle.left = f"{len(table.standing(table.farkle))} in the channel"
                tallies.append(farkle)

                nine = Tally("Nine Sons (2 members, #tables: a thread where possible)")
                start = dm_posts()
                gid = await table.open(table.tables, "ninesons", "alice", ["bob"])
                nine.interactions += 3
                await table.play_out(gid, nine)
                rec = await bot.db.games.load(gid)
                thread = table.env_channel(rec)
                nine.dms = _since(dm_posts(), start, ["alice", "bob"])
                nine.left = f"{len(table.standing(table.tables))} in the channel" + (
                    f", {len(table.standing(thread))} in its thread" if thread.id != table.tables.id else "")
                tallies.append(nine)

                rematch = Tally("Nine Sons rematch (both press Rematch)")
                start = dm_posts()
                assert rec.board_message_id is not None
                final = table._message(thread.id, rec.board_message_id)
                await m["bob"].click(final, label="🔁 Rematch")
                await m["alice"].click(final, label="🔁 Rematch")  # she accepts: joins the rematch
                rematch.interactions += 3  # the two Rematch presses and Start
                lobby = await table.lobby_in(table.tables)
                if len(lobby.seats) < 2:  # the tree before issue 27 refused her: she presses Join too
                    await m["alice"].click(table._message(table.tables.id, lobby.board_message_id), label="Join")
                    rematch.interactions += 1
                    rematch.name += " (+1 Join: her Rematch was refused)"
                    lobby = await bot.db.games.load(lobby.id)
                await m["bob"].click(table._message(table.tables.id, lobby.board_message_id), label="Start")
                await table.play_out(lobby.id, rematch)
                thread2 = table.env_channel(await bot.db.games.load(lobby.id))
                rematch.dms = _since(dm_posts(), start, ["alice", "bob"])
                rematch.left = f"{len(table.standing(table.tables))} in the channel (both games)" + (
                    f", {len(table.standing(thread2))} in its thread" if thread2.id != table.tables.id else "")
                tallies.append(rematch)

                flagon = Tally("Dragon & Flagon (3 members, carol's DMs closed, in the channel)")
                table.close_dms("carol")
                start = dm_posts()
                gid = await table.open(table.flagon, "flagon", "alice", ["bob", "carol"])
                flagon.interactions += 4
                await table.play_out(gid, flagon)
                flagon.dms = _since(dm_posts(), start, ["alice", "bob", "carol"])
                flagon.left = f"{len(table.standing(table.flagon))} in the channel"
                tallies.append(flagon)

                tour = await feature_tour(table, gid_farkle=1)
        finally:
            await bot.close()  # simcord detaches the bot without closing it (its database thread)
    return tallies, tour


async def feature_tour(table: Table, gid_farkle: int) -> dict[str, Any]:
    """Every reading command once in the Farkle channel; then what stands there."""
    channel, alice, bob = table.farkle, table.members["alice"], table.members["bob"]
    before = [m.id for m in table.standing(channel)]
    answers = [
        await alice.slash(channel, "game leaderboard", game="farkle"),
        await alice.slash(channel, "game profile", member=bob),
        await bob.slash(channel, "game history"),
        await bob.slash(channel, "game replay", game=gid_farkle),
    ]
    await alice.slash(channel, "game stats")
    await alice.slash(channel, "game list")
    await alice.slash(channel, "game rules", game="farkle")
    await alice.slash(channel, "game status")
    after = table.standing(channel)
    added = [m for m in after if m.id not in before]
    # One of them shown to everyone, as a member who wants to show off would.
    shown = answers[0].response
    if SHOW in [i.get("label") for i in _components(shown)]:  # (the tree before had no such button)
        await alice.click(shown, label=SHOW)
    return {
        "before": len(before),
        "after": len(after),
        "added": [(m.content or (m.embeds[0].title if m.embeds else ""))[:60] for m in added],
        "after_show": len(table.standing(channel)),
    }


def table_channel(rec: Any) -> int:
    """Where a game is played (the tree before issue 27 had no threads: its channel)."""
    return int(getattr(rec, "table_channel_id", rec.channel_id))


def _dm_posts(env: Any, table: Table) -> Any:
    def count() -> dict[str, int]:
        backend = env.backend
        out = {}
        for name, member in table.members.items():
            dm = backend.dm_channels.get(member.id)
            # A member whose DMs are closed gets none: every POST to them is refused.
            out[name] = 0 if name in table.closed_dms else sum(
                1 for r in env.http_requests
                if dm is not None and r.method == "POST" and r.path == f"/channels/{dm}/messages")
        return out

    return count


def _since(now: dict[str, int], start: dict[str, int], names: list[str]) -> dict[str, int]:
    return {n: max(0, now[n] - start[n]) for n in names}


BEFORE = {  # issue 27's figures for the tree before it (interactions/decision, notified, DMs, left)
    "Dragon Farkle": ("1.01", "100 %", "1", "2"),
    "Nine Sons": ("1.94", "100 %", "0", "2"),
    "Dragon & Flagon": ("1.14", "100 %", "15–20", "2"),
}


def main(argv: list[str] | None = None) -> list[Tally]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="(the same run: it is short)")
    ap.parse_args(argv)
    load_plugins(ui=False)
    tallies, tour = asyncio.run(run())
    rows = []
    for t in tallies:
        per = t.interactions / t.decisions if t.decisions else 0.0
        share = f"{100 * t.notified / t.turn_changes:.0f} % ({t.notified}/{t.turn_changes})" if t.turn_changes else "—"
        dms = ", ".join(f"{n} {c}" for n, c in t.dms.items())
        before = next((v for k, v in BEFORE.items() if t.name.startswith(k)), None)
        was = f"   [before: {' / '.join(before)}]" if before else ""
        rows.append((t.name, f"{per:.2f} per decision ({t.interactions}/{t.decisions}) · notified {share} · "
                             f"DMs {dms} · left {t.left}{was}"))
    rows.append(("feature tour (leaderboard, profile, history, replay, stats, list, rules, status)",
                 f"bot messages in the channel {tour['before']} → {tour['after']} (added: {tour['added']}); "
                 f"after one 📣 Show: {tour['after_show']}   [before: 12 standing messages after one tour]"))
    print_rows("Playthrough as members (simcord)", rows)
    return tallies


if __name__ == "__main__":
    main()
