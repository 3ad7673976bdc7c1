"""One game in one server, played by its members through the loopback fake Discord.

A member decides the way a person does: from what the bot showed them. The bench reads the bot's
database (read-only) only to know whose turn it is and whether the seat's choices are public or
private, never to pick the move: a public move is a random board button among the move buttons
(then a random option of each private select the click opens), a private one a random option of
the member's planning DM (or of the board's 🔒 prompt when no DM holds one). With ``via="play"``
the member types ``/play <action>`` instead, with a random legal action from the engine.
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import registry
from engine.base import Game
from tests.wire.botproc import BotProcess, components
from tests.wire.fake_discord import (
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_UPDATE_MESSAGE,
    COMPONENT_STRING_SELECT,
    FakeChannel,
    FakeDiscord,
    FakeInteraction,
    FakeUser,
)

# Board controls that make (or lead to) a move; the rest (action log, card texts, rules,
# leave, replay...) would only cost requests without playing.
MOVE_VERBS = frozenset({"a", "pick", "t", "ps", "ts", "p"})
MOVE_CONTROLS = frozenset({"then", "use", "plan"})  # dt:<id>:x:<control>:... that play
FALLBACK_CONTROLS = frozenset({"tog"})  # Farkle's dice toggles: only when nothing else is offered
ACK_WAIT = 6.0  # seconds to wait for a callback; the fake refuses any later than 3 s
POLL = 0.02

# The three tables of the mix: (game, members, AI seats, /game new options)
KINDS: dict[str, tuple[str, int, int, str]] = {
    "ninesons": ("ninesons", 2, 0, ""),
    "farkle": ("farkle", 2, 0, ""),
    "farkle+ai": ("farkle", 2, 1, ""),
    "flagon": ("flagon", 3, 0, ""),
}


@dataclass
class Stats:
    """What the members of every table measured (shared by the tables of one run)."""

    interactions: int = 0
    acked: int = 0  # answered within Discord's 3 s (the fake refuses later callbacks)
    ack_seconds: list[float] = field(default_factory=list)
    click_to_board: list[float] = field(default_factory=list)  # public moves only
    stale_boards: int = 0  # a public move whose board did not change within the wait
    moves: int = 0  # decisions that changed the game
    failures: list[str] = field(default_factory=list)


class Table:
    """One server with one channel, its members, and the game they are playing."""

    def __init__(
        self,
        fake: FakeDiscord,
        bot: BotProcess | None,
        kind: str,
        index: int,
        rng: random.Random,
        stats: Stats,
        *,
        via: str = "buttons",
        shard: tuple[int, int] | None = None,
    ) -> None:
        self.fake = fake
        self.bot = bot
        self.kind = kind
        self.game_name, members, self.ai_seats, self.options = KINDS[kind]
        self.guild = fake.create_guild(f"Tavern {index}", shard=shard)  # shard: its events' process
        self.channel: FakeChannel = self.guild.create_text_channel("games")
        self.members = [self.guild.add_member(fake.create_user(f"t{index}m{i}")) for i in range(members)]
        self.by_id = {m.id: m for m in self.members}
        self.rng = rng
        self.stats = stats
        self.via = via
        self.gid = 0
        self.lobby: dict[str, Any] = {}
        self.db_poll = 0.05  # seconds between looks at the database while waiting for the bot
        self.games_finished = 0
        # How the bot's database is read: the bot's own (a connection per query), or a shared
        # SqliteReader for the ramp's hundreds of tables.
        self.query: Callable[..., list[tuple[Any, ...]]] = bot.query if bot is not None else _no_database
        self._seen: tuple[int, int, Game | None, dict[str, str]] | None = None  # gid, version, game, seats

    # -- the bot's database (read-only) ---------------------------------------------------------
    def load(self) -> tuple[dict[str, Any], Game | None]:
        """The game's row and its engine game. The state is read and restored only when its
        version moved (the members look often; a restore per look was most of the bench's CPU)."""
        [(version, board, status)] = self.query(
            "SELECT version, board_message_id, status FROM games WHERE id = ?", self.gid
        )
        seen = self._seen
        if seen is None or seen[:2] != (self.gid, version):
            [(kind, state, version)] = self.query(
                "SELECT kind, state, version FROM games WHERE id = ?", self.gid
            )
            users = dict(self.query("SELECT seat, user_id FROM seats WHERE game_id = ?", self.gid))
            seen = self._seen = (
                self.gid,
                version,
                registry.restore(kind, json.loads(state)) if state else None,
                users,
            )
        rec = {"version": version, "board": board, "status": status, "users": seen[3]}
        return rec, seen[2]

    def board(self) -> dict[str, Any] | None:
        rec, _ = self.load()
        return self.fake.messages.get(int(rec["board"])) if rec["board"] else None

    # -- interactions ----------------------------------------------------------------------------
    async def acknowledged(self, interaction: FakeInteraction) -> dict[str, Any] | None:
        """The callback's JSON once it came (counted), or None after ACK_WAIT."""
        start = time.monotonic()
        while not interaction.callbacks and time.monotonic() - start < ACK_WAIT:
            await asyncio.sleep(POLL)
        self.stats.interactions += 1  # counted once settled: one in flight at a window's end is not a miss
        if not interaction.callbacks:
            data = interaction.payload.get("data") or {}
            what = data.get("custom_id") or f"/{data.get('name')}"
            self.stats.failures.append(f"{self.kind} game {self.gid}: {what} not acknowledged within 3 s")
            return None
        self.stats.acked += 1
        self.stats.ack_seconds.append(time.monotonic() - interaction.created)
        body = interaction.callbacks[0].json
        return body if isinstance(body, dict) else {}

    async def wait_lobby(self) -> dict[str, Any]:
        start = time.monotonic()
        while time.monotonic() - start < 20:
            for message in reversed(self.fake.channel_messages(self.channel)):
                if any(c.get("custom_id", "").endswith(":join") for c in components(message)):
                    return message
            await asyncio.sleep(0.05)
        raise TimeoutError(f"no lobby in {self.guild.name}")

    async def open_game(self) -> None:
        """``/game new``, the others join, AI seats added, Start: the lobby becomes the board."""
        await self.open_lobby_only()
        await self.start_game()

    async def open_lobby_only(self) -> None:
        """``/game new``, the others join, AI seats added (no Start yet)."""
        host = self.members[0]
        await self.acknowledged(
            await self.fake.slash(
                host, self.channel, "game new", {"game": self.game_name, "options": self.options}
            )
        )
        lobby = await self.wait_lobby()
        join = next(c["custom_id"] for c in components(lobby) if c.get("custom_id", "").endswith(":join"))
        self.gid = int(join.split(":")[1])
        for member in self.members[1:]:
            await self.acknowledged(await self.fake.click(member, lobby, join))
            await asyncio.sleep(0.2)
        for _ in range(self.ai_seats):
            await self.acknowledged(await self.fake.select(host, lobby, f"dt:{self.gid}:ai", ["easy"]))
            await asyncio.sleep(0.2)
        self.lobby = lobby

    async def start_game(self) -> None:
        await self.acknowledged(await self.fake.click(self.members[0], self.lobby, f"dt:{self.gid}:start"))
        await self.wait_until(lambda rec: rec["status"] == "active", what="the game to start")

    async def wait_until(self, done: Any, timeout: float = 20.0, what: str = "") -> dict[str, Any]:
        start = time.monotonic()
        while True:
            rec, _ = self.load()
            if done(rec):
                return rec
            if time.monotonic() - start > timeout:
                raise TimeoutError(f"{self.kind} game {self.gid}: {what}")
            await asyncio.sleep(self.db_poll)

    # -- one decision ----------------------------------------------------------------------------
    def actor(self) -> tuple[FakeUser, str, Game] | None:
        """A member whose turn it is (random among several), or None (AI turn, game over)."""
        rec, game = self.load()
        if game is None or game.is_over or rec["status"] != "active":
            return None
        humans = [s for s in game.to_act() if rec["users"].get(s) in self.by_id]
        if not humans:
            return None
        seat = self.rng.choice(humans)
        return self.by_id[rec["users"][seat]], seat, game

    def is_over(self) -> bool:
        rec, game = self.load()
        return game is None or game.is_over or rec["status"] != "active"

    async def decide(self) -> bool:
        """One decision of a member whose turn it is; True if the game changed."""
        found = self.actor()
        if found is None:
            return False
        member, seat, game = found
        before, _ = self.load()
        legal = game.legal_actions(seat)
        private = all(game.is_private_action(seat, a) for a in legal)
        if self.via == "play":
            action = self.rng.choice(legal)
            await self.acknowledged(await self.fake.slash(member, self.channel, "play", {"action": action}))
        elif private:
            await self.plan_privately(member)
        else:
            board = self.board()
            if board is None:
                return False
            fingerprint = _shown(board)
            clicked = time.monotonic()
            if not await self.click_a_move(member, board):
                return False
            await self.wait_board_change(board, fingerprint, clicked)
        try:
            await self.wait_until(
                lambda rec: rec["version"] != before["version"], timeout=10, what="a new version"
            )
        except TimeoutError:
            return False  # a toggle, a page turn: the member looks again
        self.stats.moves += 1
        return True

    async def click_a_move(self, member: FakeUser, board: dict[str, Any]) -> bool:
        item = self.pick_control(board)
        if item is None:
            return False
        return await self.follow_prompts(member, await self.use(member, board, item))

    def pick_control(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """A random move control of a message (Farkle's dice toggles only when nothing else)."""
        items = [
            c for c in components(message) if not c.get("disabled") and self._is_move(c.get("custom_id", ""))
        ]
        preferred = [c for c in items if c["custom_id"].split(":")[3:4] != ["tog"]]
        # A picker opened on the board (Nine Sons' destinations) is what the member opened it
        # for: they choose in it rather than open another.
        opened = [c for c in preferred if c["type"] == COMPONENT_STRING_SELECT]
        return self.rng.choice(opened or preferred or items) if items else None

    async def use(self, member: FakeUser, message: dict[str, Any], item: dict[str, Any]) -> FakeInteraction:
        """Click a button, or choose a random option of a select."""
        if item["type"] == COMPONENT_STRING_SELECT:
            value = self.rng.choice(item["options"])["value"]
            return await self.fake.select(member, message, item["custom_id"], [value])
        return await self.fake.click(member, message, item["custom_id"])

    async def follow_prompts(self, member: FakeUser, ix: FakeInteraction) -> bool:
        """Answer the private prompts a click opens (a random control each) until one plays."""
        for _depth in range(6):
            body = await self.acknowledged(ix)
            if body is None:
                return False
            kind = body.get("type")
            if kind == CALLBACK_CHANNEL_MESSAGE:
                prompt = ix.original_message
            elif kind == CALLBACK_UPDATE_MESSAGE:
                prompt = self.fake.messages.get(int(ix.payload["message"]["id"]))
            else:
                return True  # deferred: the move is being played
            item = self.pick_control(prompt) if prompt is not None else None
            if prompt is None or item is None:
                return True
            ix = await self.use(member, prompt, item)
        return True

    async def plan_privately(self, member: FakeUser) -> None:
        """A private decision: the newest DM of this game with a move control, else the board's
        🔒 button."""
        for message in reversed(self.fake.dm_messages(member)):
            item = self.pick_control(message)
            if item is not None:
                await self.follow_prompts(member, await self.use(member, message, item))
                return
        board = self.board()
        if board is not None:
            await self.follow_prompts(member, await self.fake.click(member, board, f"dt:{self.gid}:hand"))

    def _is_move(self, custom_id: str) -> bool:
        parts = custom_id.split(":")
        if len(parts) < 3 or parts[0] != "dt" or parts[1] != str(self.gid):
            return False
        if parts[2] == "x":
            return len(parts) > 3 and (parts[3] in MOVE_CONTROLS or parts[3] in FALLBACK_CONTROLS)
        return parts[2] in MOVE_VERBS

    def describe(self) -> str:
        """Whose turn, their choices and the board's controls (for a failure message)."""
        rec, game = self.load()
        board = self.board() or {}
        acting = {s: game.legal_actions(s)[:6] for s in game.to_act()} if game else {}
        return f"to act: {acting}; board: {[c.get('custom_id') for c in components(board)]}"

    async def wait_board_change(
        self, board: dict[str, Any], fingerprint: str, clicked: float, timeout: float = 15.0
    ) -> None:
        """Until the board shows something new (click-to-board latency), counted as stale if not.
        What it shows is compared only after an edit (the fake stamps each one): comparing at
        every poll was 6 % of the bench's CPU."""
        looked_at: str | None = None
        while time.monotonic() - clicked < timeout:
            current = self.fake.messages.get(int(board["id"]))
            if current is None:
                self.stats.click_to_board.append(time.monotonic() - clicked)
                return
            edited = current.get("edited_timestamp") or ""
            if edited != looked_at:
                looked_at = edited
                if _shown(current) != fingerprint:
                    self.stats.click_to_board.append(time.monotonic() - clicked)
                    return
            await asyncio.sleep(POLL)
        self.stats.stale_boards += 1

    async def play_whole_game(
        self, think: tuple[float, float] = (0.0, 0.0), stop_at: float | None = None, max_idle: float = 30.0
    ) -> bool:
        """Decisions until the game ends (True) or ``stop_at`` (monotonic) passes (False). A
        member thinks ``think`` seconds (uniform) before each decision of theirs."""
        idle_since = time.monotonic()
        while not self.is_over():
            if stop_at is not None and time.monotonic() > stop_at:
                return False
            if self.actor() is not None:
                if think[1]:
                    await asyncio.sleep(self.rng.uniform(*think))
                if await self.decide():
                    idle_since = time.monotonic()
                    continue
            if time.monotonic() - idle_since > max_idle + think[1]:
                self.stats.failures.append(
                    f"{self.kind} game {self.gid}: no progress for {max_idle:.0f} s ({self.describe()})"
                )
                return False
            await asyncio.sleep(0.5 if think[1] else 0.1)
        self.games_finished += 1
        return True


class SqliteReader:
    """One read-only connection to the bot's SQLite file, shared by every table of a run (a
    connection per look cost more than the look). Autocommit: each query sees the latest commit."""

    def __init__(self, path: Path) -> None:
        self.connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5, isolation_level=None)

    def __call__(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        return self.connection.execute(sql, params).fetchall()

    def close(self) -> None:
        self.connection.close()


@functools.lru_cache(maxsize=64)
def _numbered(sql: str) -> str:
    from storage.postgres import numbered_placeholders  # asyncpg: only with --processes

    return numbered_placeholders(sql)


class PostgresReader:
    """The same, from the PostgreSQL database several bot processes share: one asyncpg
    connection on a thread of its own (the tables' looks are plain calls), each query waited for."""

    def __init__(self, url: str) -> None:
        import asyncpg

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="bench-pg-reader", daemon=True)
        self.thread.start()
        self.connection = self._wait(asyncpg.connect(url))

    def _wait(self, work: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout=30)

    def __call__(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        rows = self._wait(self.connection.fetch(_numbered(sql), *params))
        return [tuple(row) for row in rows]

    def close(self) -> None:
        self._wait(self.connection.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)


def _no_database(sql: str, *params: Any) -> list[tuple[Any, ...]]:
    raise RuntimeError("this table has no bot to read")


def _shown(message: dict[str, Any]) -> str:
    """What a reader sees of a message (its text, embeds, attachments and components)."""
    return json.dumps(
        [
            message.get("content"),
            message.get("embeds"),
            message.get("components"),
            [a.get("id") for a in message.get("attachments") or []],
        ],
        sort_keys=True,
    )


def turn_changes(
    kind: str, names: list[str], seed: int, options: dict[str, Any], actions: list[tuple[str, str]]
) -> int:
    """How often the set of seats to act changed while ``actions`` were replayed."""
    game = registry.get(kind).new_game(names, seed, **options)
    changes = 0
    for seat, action in actions:
        before = game.to_act()
        game.play(seat, action)
        if game.to_act() != before:
            changes += 1
    return changes
