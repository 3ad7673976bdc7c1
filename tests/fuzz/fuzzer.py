"""A seeded interaction fuzzer for the Dragon Tavern bot on simcord, with a hidden-information
leak scan.

Given a simcord env, a guild, channels and members, :class:`Fuzzer` opens a lobby for a game
kind, churns it (members join, leave and re-join, AI seats come in; now and then the lobby runs
out of time), fills it (humans + AI seats), starts it and then, for N seeded steps, lets a random
member do a random thing: a legal move by the right player (often, so games progress and
finish), random clicks and selects on components discovered from the current board, OLD
messages, DMs and earlier ephemeral replies, replays of components that have since changed
(a double click, or a click on a board that was edited meanwhile), ``/play`` with garbage or
in the wrong place, ``/game status``, rare resigns, ``/config set`` by the admin, and turn
timers running out. A finished game is replaced by a new one.

After every step it checks that simcord saw no swallowed error, that every interaction was
acknowledged (simcord answers 10062 after 3 s), that the bot logged no unexpected error and
that no private string (a Farkle Magic Item held, a Flagon card planned but not yet revealed)
is visible in a public message or a DM of another player, or was logged at INFO or above.
Every few steps it reloads the game from the database and checks the engine invariants:
JSON round trip, replay from the action log, and to_act / legal_actions consistency.

Members may carry hostile display names (see ``tests.fuzz.run.build_world``: a mention of
another member, ``@everyone``, a ``{p1}`` placeholder, backticks and markdown), and
``long_input`` steps send over-long input (3,000-character options, 5,000-digit numbers, 120
channel ids). After every step each new or edited message is checked against Discord's limits
and for pings: nobody but a seated player of that game may be pinged, @everyone never, no
message may allow more than the users it names, and no name may be filled or unescaped.

The UI is discovered, never assumed: whatever components the game modules put on the board or
in private prompts get clicked, so the fuzzer keeps working while those modules change.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from simcord.actors import _component_interaction  # to send a click on a component that changed since
from simcord.backend.errors import SetupError
from simcord.results import ResponseMessage, to_discord_message

from cogs.ui.flagon import CHARACTER_NAMES, card_texts
from engine import registry
from sessions import Actor
from storage import GameRecord

EPHEMERAL = 1 << 6
BUTTON, STRING_SELECT = 2, 3

# /play inputs no legal action looks like: empty, huge, unicode, notation of other games,
# half-formed actions, injection attempts, placeholders the presenter fills.
GARBAGE = (
    "", " ", "banana", "keep:", "keep:1,1,1,1,1,1,1", "keep:0", "use:", "use:nothing", "use:lucky_charm:p9",
    "brawl:p9", "brawl:", "rally:triple", "claim:", "discard:ghost", "companion:99",
    "plan:jack:9:move", "plan:::", "plan:nari:1:arrr", "daze:x:y", "vision:", "char:", "char:dragon",
    "start:z99", "to:nari:a0", "face:teo:Q", "a1-a1", "9@z9", "0@a1", "3@", "@b2", "tame:S9:z9", "tame:",
    "x" * 300, "dt:1:a:0:recruit", "🐉", "'; DROP TABLE games; --", "resign", "{p1}", "%s%s%n", "null",
    "\u200b", "a" * 101, "-1", "keep:1,5 ", " recruit", "RECRUIT",
    "7" * 5000, "x" * 3000, "<@1> @everyone {p1} ``` **x**",
)

# (setting, value) pairs for /config set: valid values, out-of-range ones and unknown keys.
CONFIG_VALUES = (
    ("images", "on"), ("images", "off"), ("images", "maybe"),
    ("hidden_pick_mode", "dm"), ("hidden_pick_mode", "ephemeral"), ("hidden_pick_mode", "both"),
    ("hidden_pick_mode", "carrier pigeon"),
    ("afk_strikes", "1"), ("afk_strikes", "3"), ("afk_strikes", "0"), ("afk_strikes", "banana"),
    ("afk_action", "ai"), ("afk_action", "abandon"), ("afk_action", "nap"),
    ("turn_timeout.farkle", "30"), ("turn_timeout.farkle", "300"), ("turn_timeout.ninesons", "45s"),
    ("turn_timeout.flagon", "86401"), ("turn_timeout.flagon", "600"),
    ("ai_seats", "off"), ("ai_seats", "on"),
    ("enabled_games", "ninesons"), ("enabled_games", "all"), ("allowed_channels", "all"),
    ("nonsense", "1"), ("", ""), ("images", "x" * 200),
    # Card files are the operator's folder only: paths, devices and FIFOs are refused.
    ("farkle_cards", "/dev/zero"), ("farkle_cards", "../../etc/passwd"), ("farkle_cards", "house"),
    ("lobby_timeout", "59"), ("max_lobbies_per_member", "0"),
)
# Over-long input for the long_input kind (issue 12): echoed text must be cut, never lost.
LONG_OPTIONS = ("x" * 3000, "max_rounds=" + "9" * 5000, "max_rounds=2 " * 240, "=" * 3000, "{p1}` **" * 400)
LONG_CONFIG = (("afk_strikes", "9" * 4000), ("allowed_channels", "1" * 5000), ("x" * 3000, "on"),
               ("hidden_pick_mode", "`" * 3000), ("enabled_games", "farkle " * 500))

# Settings that could stop the next lobby from opening; reset before every new game.
BLOCKING_SETTINGS = ("enabled_games", "allowed_channels", "ai_seats")

# Interaction kinds and their weights. "play_valid" and "ui_actor" make the games progress.
KINDS: dict[str, float] = {
    "play_valid": 30, "ui_actor": 22, "click_board": 8, "click_old": 5, "dm": 5, "ephemeral": 5,
    "replay_stale": 5, "double_click": 3, "concurrent": 3, "play_garbage": 4, "play_other_seat": 2,
    "wrong_channel": 2, "play_dm": 1, "status": 1.5, "autocomplete": 1.5, "config": 1.5, "cancel_nonhost": 0.5,
    "resign": 0.3, "advance_time": 0.7, "restart": 0.2,
}
KINDS["long_input"] = 1.5
CODE_BLOCK = re.compile(r"```.*?```", re.S)  # issue 12: over-long options, numbers and channel lists


@dataclass
class Stats:
    steps: int = 0
    kinds: Counter = field(default_factory=Counter)
    interactions: int = 0
    refused: int = 0  # answered privately with a rule / permission message
    impossible: int = 0  # simcord's SetupError: a human could not have done it
    games_started: int = 0
    games_finished: int = 0
    games_other_end: Counter = field(default_factory=Counter)  # abandoned / cancelled
    invariant_checks: int = 0
    messages_scanned: int = 0
    log_lines_scanned: int = 0
    leaks: list[str] = field(default_factory=list)
    limit_checks: int = 0  # messages checked against Discord's limits and for pings
    failures: list[str] = field(default_factory=list)  # swallowed errors, unacknowledged, 💥, invariants
    secrets_seen: set[str] = field(default_factory=set)
    max_step_seconds: float = 0.0
    seconds: float = 0.0

    def table(self, kind: str) -> str:
        rows = [
            ("game", kind), ("steps", self.steps), ("interactions sent", self.interactions),
            ("refused privately", self.refused), ("impossible (SetupError)", self.impossible),
            ("games started", self.games_started), ("games finished", self.games_finished),
            ("games abandoned/cancelled", sum(self.games_other_end.values())),
            ("invariant checks", self.invariant_checks), ("public/DM messages scanned", self.messages_scanned),
            ("log lines scanned", self.log_lines_scanned), ("distinct secrets tracked", len(self.secrets_seen)),
            ("messages checked: limits and pings", self.limit_checks),
            ("leaks found", len(self.leaks)), ("failures", len(self.failures)),
            ("slowest step (s)", f"{self.max_step_seconds:.2f}"), ("time (s)", f"{self.seconds:.1f}"),
        ]
        rows += [(f"  kind {k}", n) for k, n in sorted(self.kinds.items())]
        width = max(len(str(r[0])) for r in rows)
        return "\n".join(f"{str(name).ljust(width)}  {value}" for name, value in rows)


class LogCapture(logging.Handler):
    """Every log record at INFO and above, kept for the leak scan and for unexpected errors."""

    def __init__(self) -> None:
        super().__init__(level=logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    @staticmethod
    def text(record: logging.LogRecord) -> str:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            frames = traceback.extract_tb(error.__traceback__)[-3:]
            where = " <- ".join(f"{f.filename.rsplit('/', 2)[-1]}:{f.lineno} {f.name}" for f in reversed(frames))
            text += f"\n{error!r} at {where}"
        return text


# -- private strings per game --------------------------------------------------------------------
def _names_in(value: Any, table: dict[str, str]) -> set[str]:
    """Printed names of every id of ``table`` found anywhere in a JSON-like value."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack += item.values()
        elif isinstance(item, list):
            stack += item
        elif isinstance(item, str) and item in table:
            found.add(table[item])
    return found


class FarkleSecrets:
    """Magic Items in hand (or drawn this turn) are private until played face up."""

    def __init__(self) -> None:
        from engine.farkle.cards import default_cards

        self.table = {card.id: card.name for card in default_cards().items}

    def all_names(self, game: Any) -> set[str]:
        return set(self.table.values())

    def secrets(self, game: Any, seats: list[str]) -> dict[str, set[str]]:
        """Item name -> seats holding it, from each owner's view."""
        out: dict[str, set[str]] = {}
        for seat in seats:
            for name in self.known(game, seat):
                out.setdefault(name, set()).add(seat)
        return out

    def known(self, game: Any, seat: str) -> set[str]:
        view = game.view(seat)
        return {item["name"] for item in [*view.get("my_items", []), *view.get("my_pending", [])]}

    def public(self, game: Any, actions: list[Any]) -> set[str]:
        """Items played face up (``use:<item>`` in the action log) are public from then on."""
        used = set()
        for row in actions:
            head, _, rest = row.action.partition(":")
            if head == "use":
                item = rest.split(":", 1)[0]
                used.add(self.table.get(item, item))
        return used


class FlagonSecrets:
    """Cards planned into a slot are private until revealed (Late Night '?' slots aside)."""

    def all_names(self, game: Any) -> set[str]:
        return set(game.view(None).get("card_names", {}).values())

    def secrets(self, game: Any, seats: list[str]) -> dict[str, set[str]]:
        table = game.view(None).get("card_names", {})
        out: dict[str, set[str]] = {}
        for seat in seats:
            me = game.view(seat).get("me") or {}
            for char in (me.get("characters") or {}).values():
                for card in char.get("slots", []):
                    if card in table:
                        out.setdefault(table[card], set()).add(seat)
        return out

    def known(self, game: Any, seat: str) -> set[str]:
        """Every card name the seat's own view holds (its decks list the common cards too)."""
        view = game.view(seat)
        return _names_in({k: v for k, v in view.items() if k != "card_names"}, view.get("card_names", {}))

    def public(self, game: Any, actions: list[Any]) -> set[str]:
        """Cards the public view shows (revealed, face up, removed...), the name table aside."""
        view = game.view(None)
        return _names_in({k: v for k, v in view.items() if k != "card_names"}, view.get("card_names", {}))


SECRETS: dict[str, Any] = {"farkle": FarkleSecrets, "flagon": FlagonSecrets}



def message_text(message: Any) -> str:
    """Everything a reader of a stored (backend) message can see, components included."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.get("title", ""), embed.get("description", ""),
                  (embed.get("footer") or {}).get("text", ""), (embed.get("author") or {}).get("name", "")]
        parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields", [])]
    for attachment in message.attachments:
        parts += [attachment.get("filename", ""), attachment.get("description") or "", attachment.get("title") or ""]
    for component in walk(message.components):
        parts += [component.get("label") or "", component.get("placeholder") or ""]
        for option in component.get("options") or []:
            parts += [option.get("label", ""), option.get("description") or ""]
    return "\n".join(p for p in parts if p)


def over_limits(message: Any) -> list[str]:
    """What of a stored message exceeds Discord's limits (render.text holds the numbers)."""
    from render import text

    problems = []
    if len(message.content or "") > text.CONTENT:
        problems.append(f"content of {len(message.content)} characters")
    total = 0
    for embed in message.embeds:
        parts = {"title": (embed.get("title") or "", text.EMBED_TITLE),
                 "description": (embed.get("description") or "", text.EMBED_DESCRIPTION),
                 "footer": ((embed.get("footer") or {}).get("text") or "", text.FOOTER),
                 "author": ((embed.get("author") or {}).get("name") or "", text.AUTHOR)}
        fields = embed.get("fields") or []
        if len(fields) > text.FIELDS:
            problems.append(f"{len(fields)} embed fields")
        for i, f in enumerate(fields):
            parts[f"field {i} name"] = (f.get("name") or "", text.FIELD_NAME)
            parts[f"field {i} value"] = (f.get("value") or "", text.FIELD_VALUE)
        for part, (value, limit) in parts.items():
            total += len(value)
            if len(value) > limit:
                problems.append(f"embed {part} of {len(value)} characters")
    if total > text.EMBED_TOTAL:
        problems.append(f"embeds of {total} characters")
    for component in walk(message.components):
        if len(component.get("label") or "") > text.BUTTON_LABEL:
            problems.append(f"button label {component['label'][:20]!r}… of {len(component['label'])}")
        if len(component.get("placeholder") or "") > text.PLACEHOLDER:
            problems.append(f"placeholder of {len(component['placeholder'])}")
        options = component.get("options") or []
        if len(options) > text.SELECT_OPTIONS:
            problems.append(f"select of {len(options)} options")
        for option in options:
            for key in ("label", "value", "description"):
                if len(option.get(key) or "") > text.OPTION_LABEL:
                    problems.append(f"select option {key} of {len(option[key])}")
    return problems


def walk(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        if row.get("type") == 1:
            out += row.get("components", [])
        else:
            out.append(row)
    return out


def name_pattern(name: str, others: set[str]) -> re.Pattern[str]:
    """``name`` as a whole word, but not inside a longer name (\"Move\" in \"Move (2nd copy)\")."""
    before = after = ""
    for other in others:
        if other != name and other.startswith(name):
            after += f"(?!{re.escape(other[len(name):])})"
        if other != name and other.endswith(name):
            before += f"(?<!{re.escape(other[: -len(name)])})"
    return re.compile(rf"(?<!\w){before}{re.escape(name)}(?!\w){after}")


class VirtualDeadlines:
    """The bot's wait for a deadline (``DragonTavern.sleep``) on the fuzzer's clock only.

    simcord counts a plain sleep that ends within its settle window (30 s in ``tests.fuzz.run``)
    as work in progress: it waits for it on the wall clock, then moves its virtual clock to
    it. With the shortest turn time an admin may set (30 s, its reminder at 15 s) every step
    then waited up to 15 real seconds for a timer, and one whose wall-clock instant fell near
    the end of a step's window started work (an AI turn for the late seat) that could not end
    inside it: "bot did not settle while advancing time" (Farkle seed 6, step 794). The run
    also depended on the machine's speed. Declared as an external wait, a timer fires only when
    the fuzzer moves time (``advance_time``), so a seed makes the same run on any machine.
    Set ``env`` once the simcord env runs; until then (and in tasks simcord does not count as
    the bot's, e.g. those the ``concurrent`` kind starts) it is a plain sleep."""

    def __init__(self) -> None:
        self.env: Any = None

    async def __call__(self, seconds: float) -> None:
        if self.env is not None:
            try:
                await self.env.external_wait(asyncio.sleep(seconds), reason="a bot deadline (timer or retry)")
                return
            except SetupError:  # not the bot's own task: simcord refused before waiting
                pass
        await asyncio.sleep(seconds)


@dataclass
class Member:
    key: str
    actor: Any  # simcord MemberActor
    ephemerals: list[Any] = field(default_factory=list)  # earlier ephemeral replies with components


@dataclass
class StepScene:
    """What one fuzz step sees before it acts: the game's record and state, the human seats'
    members, the seats that may act now, and a random member (drawn for every step)."""

    rec: GameRecord
    game: Any
    seat_member: dict[str, Member]
    acting: list[str]
    anyone: Member


class Fuzzer:
    def __init__(self, env: Any, bot: Any, guild: Any, channel: Any, other_channel: Any,
                 members: dict[str, Any], *, kind: str, seed: int, admin: str = "admin",
                 closed_dm: str | None = "bob", bot_factory: Callable[[], Any] | None = None) -> None:
        self.env, self.bot, self.guild = env, bot, guild
        self.channel, self.other = channel, other_channel
        self.members = {k: Member(k, m) for k, m in members.items()}
        self.admin = self.members[admin]
        self.kind = kind
        self.rng = random.Random(seed)
        self.bot_factory = bot_factory  # builds a fresh bot on the same database, for restarts
        self.retired_databases: list[Any] = []  # the Databases of bots replaced by a restart, closed
        self._seeds = random.Random(seed * 7919 + 1)
        self._seed_games()
        self.stats = Stats()
        self.gid: int | None = None
        self.game_ids: list[int] = []  # every game this fuzzer opened, in order
        self.game_number = 0
        self.logs = LogCapture()
        self._logs_seen = 0
        self._errors_seen = env.error_cursor
        self._public_names: dict[int, set[str]] = {}
        self._shadows: dict[int, list[Any]] = {}  # game -> [replayed game, actions applied]
        self._known: dict[int, dict[str, set[str]]] = {}  # game -> seat -> names its view ever held
        self._message_game: dict[int, int] = {}  # message id -> game id it was posted during
        self._scanned: dict[int, tuple[Any, ...]] = {}
        self._patterns: dict[str, re.Pattern[str]] = {}
        secrets_class = SECRETS.get(kind)
        self.secrets = secrets_class() if secrets_class else None
        self._all_names: set[str] = set()
        self._leak_keys: set[tuple[Any, ...]] = set()
        self._pool: list[tuple[str, int, int, dict[str, Any]]] = []  # (member, channel, message, data)
        self._changed_blocking = False
        self._limits_seen: dict[int, tuple[Any, ...]] = {}  # message id -> what was checked
        self._seated_users: dict[int, set[int]] = {}  # game id -> human users ever seated in it
        self._churn_closed = 0  # lobbies closed by the churn in a row
        if closed_dm:
            dm = self.members[closed_dm].actor.user.dm_channel
            env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007,
                             message="Cannot send messages to this user", times=None)

    def _seed_games(self) -> None:
        # Game seeds come from the fuzzer's seed, so a run is reproducible end to end.
        self.bot.service._seed_source = lambda: self._seeds.getrandbits(62)

    # -- setup ----------------------------------------------------------------------------
    async def open_game(self) -> int:
        setups = registry.get(self.kind).fuzz_setups  # (options, AI seats) per game; cycled through
        options, ai = setups[self.game_number % len(setups)]
        self.game_number += 1
        if self._changed_blocking:
            for setting in BLOCKING_SETTINGS:
                await self._send("setup", self.admin, self.admin.actor.slash(self.channel, "config reset",
                                                                                setting=setting))
            self._changed_blocking = False
        opener = self.members["alice"]
        result = await self._send("setup", opener, opener.actor.slash(self.channel, "game new", game=self.kind,
                                                                       options=options))
        assert result is not None and "Lobby #" in (result.response.content or ""), result
        rec = await self.bot.service.db.games.active_in_channel(self.channel.id)
        assert rec is not None
        gid = rec.id
        host = await self._churn_and_fill(gid, ai)
        if host is None:  # the churn closed the lobby (everyone left, or it ran out of time)
            return await self.open_game()
        await self._send("setup", host, host.actor.click(self._message(self.channel.id, rec.board_message_id),
                                                         label="Start"))
        rec, game = await self.bot.service.load(gid)
        assert rec.status == "active" and game is not None, f"game {gid} did not start: {rec.status}"
        await self._check_churned_start(gid)
        self.gid = gid
        self.game_ids.append(gid)
        self._public_names[gid] = set()
        self.stats.games_started += 1
        self._claim_new_messages()
        return gid

    # -- lobby churn ----------------------------------------------------------------------
    async def _churn_and_fill(self, gid: int, ai: int) -> Member | None:
        """Lobby churn before the start, through the lobby's own buttons and select as members
        would: random joins, leaves, re-joins, AI seats, and refused clicks (joining twice,
        leaving a lobby one is not in, a non-host adding an AI). A leave renumbers positions
        and a re-join takes the lowest free seat id, so seat ids stop following positions (the
        order replay must follow). Then the lobby is brought to the game's setup (two humans
        and ``ai`` AI seats, within the game's limits) and its current host is returned: a host
        who left handed the lobby on. None when the churn closed the lobby."""
        rng = self.rng
        cls = registry.get(self.kind).game_class
        humans_wanted = 2 if cls.MAX_PLAYERS - ai >= 2 else 1
        total = min(cls.MAX_PLAYERS, humans_wanted + ai)
        players = [self.members[k] for k in ("alice", "bob", "carol") if k in self.members]
        churn = self._churn_closed < 2  # two closed lobbies in a row: open the next one plainly
        for _ in range(rng.randint(1, 8) if churn else 0):
            rec = await self.bot.service.db.games.load(gid)
            if rec.status != "lobby":
                break
            await self._churn_once(rec, gid, ai, players)
        if churn and rng.random() < 0.06:
            await self._let_lobby_expire(gid)
        await self._fill_lobby(gid, ai, total, humans_wanted, players)
        rec = await self.bot.service.db.games.load(gid)
        if rec.status != "lobby":
            self._churn_closed += 1
            self.stats.games_other_end[f"lobby {rec.status}"] += 1
            return None
        self._churn_closed = 0
        return self._member_of(rec.host_user_id)

    async def _churn_once(self, rec: GameRecord, gid: int, ai: int, players: list[Member]) -> None:
        """One random lobby click: a join, a leave, a leave and re-join, an AI seat by the host
        (up to ``ai``) or one refused because a non-host asks."""
        rng = self.rng
        op = rng.choice(("join", "join", "leave", "rejoin", "rejoin", "ai", "ai", "ai_nonhost"))
        member = rng.choice(players)
        host = self._member_of(rec.host_user_id)
        seated = [self._member_of(s.user_id) for s in rec.seats if not s.is_ai and s.user_id]
        if op in ("leave", "rejoin") and len(seated) == 1 and rng.random() < 0.8:
            op = "join"  # the last human leaving closes the lobby: now and then only
        if op == "join":
            await self._lobby_click(member, gid, "join")
        elif op == "leave":
            await self._lobby_click(member, gid, "leave")
        elif op == "rejoin":
            # Someone not in the last seat, when there is one: their seat id comes back at the end.
            member = rng.choice(seated[:-1] if len(rec.seats) > 1 and len(seated) > 1 else seated)
            await self._lobby_click(member, gid, "leave")
            await self._lobby_click(member, gid, "join")
        elif op == "ai" and sum(s.is_ai for s in rec.seats) < ai:
            await self._lobby_click(host, gid, "ai")
        elif op == "ai_nonhost":
            others = [p for p in players if p is not host]
            await self._lobby_click(rng.choice(others), gid, "ai")

    async def _fill_lobby(self, gid: int, ai: int, total: int, humans_wanted: int, players: list[Member]) -> None:
        """Bring the lobby to the setup's size: ``humans_wanted`` humans and ``ai`` AI seats."""
        for _ in range(12):
            rec = await self.bot.service.db.games.load(gid)
            if rec.status != "lobby":
                break
            humans = [self._member_of(s.user_id) for s in rec.seats if not s.is_ai and s.user_id]
            ais = sum(s.is_ai for s in rec.seats)
            host = self._member_of(rec.host_user_id)
            if len(rec.seats) > total:
                await self._lobby_click(next(h for h in reversed(humans) if h is not host), gid, "leave")
            elif len(rec.seats) == total:
                break
            elif len(humans) < humans_wanted or ais >= ai:
                await self._lobby_click(next(p for p in players if p not in humans), gid, "join")
            else:
                await self._lobby_click(host, gid, "ai")

    async def _lobby_click(self, member: Member, gid: int, verb: str) -> None:
        rec = await self.bot.service.db.games.load(gid)
        lobby = self._message(self.channel.id, rec.board_message_id)
        custom_id = f"dt:{gid}:{verb}"
        if verb == "ai":
            call = member.actor.select(lobby, ["easy"], custom_id=custom_id)
            data: dict[str, Any] = {"custom_id": custom_id, "component_type": STRING_SELECT, "values": ["easy"]}
        else:
            call = member.actor.click(lobby, custom_id=custom_id)
            data = {"custom_id": custom_id, "component_type": BUTTON}
        self._pool.append((member.key, self.channel.id, lobby.id, data))  # replayed later, on the board
        del self._pool[:-200]
        self.stats.kinds[f"lobby {verb}"] += 1
        await self._send(f"lobby {verb}", member, call)  # checked by the next after_step, like setup

    async def _let_lobby_expire(self, gid: int) -> None:
        """Nobody presses Start: the lobby closes at its deadline, saying why on its message."""
        if (await self.bot.service.db.games.load(gid)).status != "lobby":
            return  # the churn already closed it (its last human left)
        deadline = await self.bot.db.timers.deadline(gid, "lobby")
        if deadline is None:
            self.stats.failures.append(f"step {self.stats.steps} game {gid}: an open lobby has no closing time")
            return
        await self.env.advance_time(deadline - self.bot.service._clock() + 1)
        rec = await self.bot.service.db.games.load(gid)
        text = message_text(self.env.backend.get_message(self.channel.id, rec.board_message_id))
        if rec.status != "cancelled" or "nobody started it" not in text:
            self.stats.failures.append(f"step {self.stats.steps} game {gid}: the lobby did not close at its "
                                       f"deadline ({rec.status}): {text[:200]}")

    async def _check_churned_start(self, gid: int) -> None:
        """A started game holds no lobby timer and replays from its log (checked again as it runs)."""
        if await self.bot.db.timers.deadline(gid, "lobby") is not None:
            self.stats.failures.append(f"game {gid}: the lobby timer outlived the start")
        rec, game = await self.bot.service.load(gid)
        ids = [s.seat for s in rec.seats]
        if ids != sorted(ids, key=lambda seat: int(seat[1:])):
            self.stats.kinds["lobby start with seat ids out of order"] += 1
        try:
            same = game is not None and (await self.bot.service.replay(gid)).to_dict() == game.to_dict()
        except Exception as exc:  # reported, never stops the run
            same = False
            ids.append(repr(exc))
        if not same:
            self.stats.failures.append(f"game {gid}: replay right after a churned start differs (seats {ids})")

    # -- the run --------------------------------------------------------------------------
    async def run(self, steps: int, *, check_every: int = 25) -> Stats:
        root = logging.getLogger()
        old_level = root.level
        root.addHandler(self.logs)
        root.setLevel(min(old_level or logging.WARNING, logging.INFO))
        start = time.perf_counter()
        try:
            if self.gid is None:
                await self.open_game()
                await self.after_step("setup")
            for _ in range(steps):
                kind = self.rng.choices(list(KINDS), weights=list(KINDS.values()))[0]
                began = time.perf_counter()
                await self.step(kind)
                self.stats.steps += 1
                self.stats.kinds[kind] += 1
                self.stats.max_step_seconds = max(self.stats.max_step_seconds, time.perf_counter() - began)
                await self.after_step(kind)
                if self.stats.steps % check_every == 0:
                    await self.check_invariants()
                await self._replace_finished_game()
            await self.check_invariants()
        finally:
            root.removeHandler(self.logs)
            root.setLevel(old_level)
            self.stats.seconds += time.perf_counter() - start
        return self.stats

    async def finish_current_game(self, max_steps: int = 3000) -> bool:
        """Play legal moves by the right players until the current game ends."""
        root = logging.getLogger()
        root.addHandler(self.logs)
        try:
            for _ in range(max_steps):
                rec, game = await self.bot.service.load(self.gid)
                if rec.status != "active":
                    break
                await self.step("play_valid")
                await self.after_step("finish")
            rec, _ = await self.bot.service.load(self.gid)
            await self.check_invariants()
            done = rec.status == "finished"
            if done:
                self.stats.games_finished += 1
                self.gid = None
            return done
        finally:
            root.removeHandler(self.logs)

    async def _replace_finished_game(self) -> None:
        rec, _ = await self.bot.service.load(self.gid)
        if rec.status == "active":
            return
        await self.check_invariants()
        if rec.status == "finished":
            self.stats.games_finished += 1
        else:
            self.stats.games_other_end[rec.status] += 1
        await self.open_game()

    # -- one step -------------------------------------------------------------------------
    async def step(self, kind: str) -> None:
        rec, game = await self.bot.service.load(self.gid)
        rng = self.rng
        seat_member = {s.seat: self._member_of(s.user_id) for s in rec.seats if not s.is_ai and s.user_id}
        acting = [
            seat for seat in (game.to_act() if game and not game.is_over else []) if seat in seat_member
        ]
        anyone = rng.choice(list(self.members.values()))
        do = getattr(self, f"_step_{kind}", None)
        if do is None:  # pragma: no cover - a typo in KINDS
            raise ValueError(kind)
        await do(kind, StepScene(rec, game, seat_member, acting, anyone))

    # One method a kind of step (KINDS), each drawing from the same ``rng`` in the same order as
    # when they were one function, so a seed replays the same run.
    async def _step_play_valid(self, kind: str, at: StepScene) -> None:
        if not at.acting:
            return
        seat = self.rng.choice(at.acting)
        action = self.rng.choice(at.game.legal_actions(seat))
        member = at.seat_member[seat]
        await self._send(kind, member, member.actor.slash(self.channel, "play", action=action))

    async def _step_ui_actor(self, kind: str, at: StepScene) -> None:
        if not at.acting:
            return
        member = at.seat_member[self.rng.choice(at.acting)]
        sources = [self._board(), *self._dm_messages(member)[-2:], *member.ephemerals[-2:]]
        await self._click_random(kind, member, self.rng.choice([s for s in sources if s is not None] or [None]))

    async def _step_click_board(self, kind: str, at: StepScene) -> None:
        await self._click_random(kind, at.anyone, self._board())

    async def _step_click_old(self, kind: str, at: StepScene) -> None:
        await self._click_random(kind, at.anyone, self._old_message())

    async def _step_dm(self, kind: str, at: StepScene) -> None:
        dms = self._dm_messages(at.anyone)
        await self._click_random(kind, at.anyone, self.rng.choice(dms) if dms else None)

    async def _step_ephemeral(self, kind: str, at: StepScene) -> None:
        anyone = at.anyone
        await self._click_random(kind, anyone, self.rng.choice(anyone.ephemerals) if anyone.ephemerals else None)

    async def _step_replay_stale(self, kind: str, at: StepScene) -> None:
        await self._replay(kind)

    async def _step_double_click(self, kind: str, at: StepScene) -> None:
        rng = self.rng
        member = at.seat_member[rng.choice(at.acting)] if at.acting and rng.random() < 0.7 else at.anyone
        await self._double_click(kind, member)

    async def _step_concurrent(self, kind: str, at: StepScene) -> None:
        await self._concurrent(kind, at.rec, at.game, at.seat_member)

    async def _step_play_garbage(self, kind: str, at: StepScene) -> None:
        rng = self.rng
        text = (
            rng.choice(GARBAGE)
            if rng.random() < 0.8
            else "".join(rng.choice("abkeprusnt:@-,0123456789 ") for _ in range(rng.randint(1, 30)))
        )
        await self._send(kind, at.anyone, at.anyone.actor.slash(self.channel, "play", action=text))

    async def _step_play_other_seat(self, kind: str, at: StepScene) -> None:
        # A legal action of someone who may not play it now (another seat, or out of turn).
        rng, game = self.rng, at.game
        seats = [s for s in at.rec.seats if game is not None]
        if not seats:
            return
        seat = rng.choice(seats).seat
        actions = game.legal_actions(seat) if seat in game.to_act() else []
        action = rng.choice(actions) if actions else "recruit"
        other = rng.choice([m for m in self.members.values() if at.seat_member.get(seat) is not m])
        await self._send(kind, other, other.actor.slash(self.channel, "play", action=action))

    async def _step_wrong_channel(self, kind: str, at: StepScene) -> None:
        rng, anyone = self.rng, at.anyone
        command = rng.choice(["play", "game status", "game resign", "game cancel"])
        options: dict[str, Any] = {"action": rng.choice((*GARBAGE[:5], "recruit"))} if command == "play" else {}
        await self._send(kind, anyone, anyone.actor.slash(self.other, command, **options))

    async def _step_play_dm(self, kind: str, at: StepScene) -> None:
        rng, anyone = self.rng, at.anyone
        options: dict[str, Any] = {"action": rng.choice((*GARBAGE, "recruit", "pass"))}
        if rng.random() < 0.7:
            options["game"] = rng.choice([self.gid, self.gid, 0, 999999, -3])
        if at.acting and rng.random() < 0.5:
            seat = rng.choice(at.acting)
            anyone = at.seat_member[seat]
            options["action"] = rng.choice(at.game.legal_actions(seat))
        await self._send(kind, anyone, anyone.actor.user.slash("play", **options))

    async def _step_status(self, kind: str, at: StepScene) -> None:
        await self._send(kind, at.anyone, at.anyone.actor.slash(self.channel, "game status"))

    async def _step_autocomplete(self, kind: str, at: StepScene) -> None:
        rng = self.rng
        member = at.seat_member[rng.choice(at.acting)] if at.acting and rng.random() < 0.6 else at.anyone
        prefix = rng.choice(["", "k", "b", "plan", "3@", "a1", "use", "zz", "x" * 120])
        await self._send(
            kind, member, member.actor.autocomplete(self.channel, "play", "action", prefix), autocomplete=True
        )

    async def _step_config(self, kind: str, at: StepScene) -> None:
        setting, value = self.rng.choice(CONFIG_VALUES)
        if setting in BLOCKING_SETTINGS:
            self._changed_blocking = True
        who = self.admin if self.rng.random() < 0.85 else at.anyone
        await self._send(kind, who, who.actor.slash(self.channel, "config set", setting=setting, value=value))

    async def _step_long_input(self, kind: str, at: StepScene) -> None:
        await self._long_input(kind, at.anyone)

    async def _step_cancel_nonhost(self, kind: str, at: StepScene) -> None:
        member = self.members.get("carol", at.anyone)
        await self._send(kind, member, member.actor.slash(self.channel, "game cancel"))

    async def _step_resign(self, kind: str, at: StepScene) -> None:
        member = self.rng.choice(list(at.seat_member.values())) if at.seat_member else at.anyone
        await self._send(kind, member, member.actor.slash(self.channel, "game resign"))

    async def _step_restart(self, kind: str, at: StepScene) -> None:
        # The bot process restarts mid-game: every later click is routed from the database.
        if self.bot_factory is not None:
            old, self.bot = self.bot, self.bot_factory()
            await self.env.restart_bot(self.bot)
            # The old bot is detached now; its database thread would keep the interpreter
            # alive after the run (a dead process holds no threads), so stop it here.
            self.retired_databases.append(old.service.db)
            old.stop_background_work()
            self._seed_games()

    async def _step_advance_time(self, kind: str, at: StepScene) -> None:
        await self.env.advance_time(self.rng.choice([5, 31, 299, 301, 601, 3600]))

    # -- component discovery ----------------------------------------------------------------
    def _member_of(self, user_id: int) -> Member:
        return next(m for m in self.members.values() if m.actor.id == user_id)

    def _message(self, channel_id: int, message_id: int | None) -> Any:
        assert message_id is not None
        return to_discord_message(self.env, self.env.backend.get_message(channel_id, message_id))

    def _board(self) -> Any:
        rec_board = self._board_id
        return self._message(self.channel.id, rec_board) if rec_board else None

    @property
    def _board_id(self) -> int | None:
        # The newest non-ephemeral message with components in the game channel is the board.
        for message in reversed(list(self.env.backend.messages.get(self.channel.id, {}).values())):
            if not message.flags & EPHEMERAL and message.components and message.embeds:
                return message.id
        return None

    def _old_message(self) -> Any:
        stored = [m for m in self.env.backend.messages.get(self.channel.id, {}).values()
                  if m.components and not m.flags & EPHEMERAL]
        if not stored:
            return None
        return self._message(self.channel.id, self.rng.choice(stored).id)

    def _dm_messages(self, member: Member) -> list[Any]:
        channel_id = self.env.backend.dm_channels.get(member.actor.id)
        if channel_id is None:
            return []
        stored = [m for m in self.env.backend.messages.get(channel_id, {}).values() if m.components][-15:]
        return [self._message(channel_id, m.id) for m in stored]

    async def _click_random(self, kind: str, member: Member, message: Any) -> None:
        if message is None:
            return
        rows = message.components
        rows = [r.to_dict() if hasattr(r, "to_dict") else r for r in rows]
        components = [c for c in walk(rows) if c.get("type") in (BUTTON, STRING_SELECT)]
        if not components:
            return
        component = self.rng.choice(components)
        channel_id = self._channel_of(message)
        in_dm = self.env.backend.dm_channels.get(member.actor.id) == channel_id
        actor = member.actor.user if in_dm else member.actor
        custom_id = component.get("custom_id")
        if component["type"] == BUTTON:
            # Sometimes by label, as a person reads it (ambiguous labels are a SetupError).
            if component.get("label") and self.rng.random() < 0.2:
                call = actor.click(message, label=component["label"])
            else:
                call = actor.click(message, custom_id=custom_id)
            data = {"custom_id": custom_id, "component_type": BUTTON}
        else:
            values = [o["value"] for o in component.get("options", [])]
            value = self.rng.choice(values) if values and self.rng.random() < 0.95 else "not-an-option"
            call = actor.select(message, [value], custom_id=custom_id)
            data = {"custom_id": custom_id, "component_type": STRING_SELECT, "values": [value]}
        self._pool.append((member.key, channel_id, message.id, data))
        del self._pool[:-200]
        await self._send(kind, member, call)

    @staticmethod
    def _channel_of(message: Any) -> int:
        if isinstance(message, ResponseMessage):
            return message.channel_id
        return int(message.channel.id)

    async def _replay(self, kind: str) -> None:
        """Send a component payload captured earlier, whatever the message shows now: what a
        client does when the message was edited after it rendered (or a double click)."""
        if not self._pool:
            return
        key, channel_id, message_id, data = self.rng.choice(self._pool)
        member = self.members[key] if self.rng.random() < 0.8 else self.rng.choice(list(self.members.values()))
        await self._send_raw(kind, member, channel_id, message_id, data)

    async def _send_raw(self, kind: str, member: Member, channel_id: int, message_id: int,
                        data: dict[str, Any]) -> None:
        try:
            stored = self.env.backend.get_message(channel_id, message_id)
        except Exception:
            return  # deleted meanwhile
        is_dm = self.env.backend.dm_channels.get(member.actor.id) == channel_id
        if not is_dm and channel_id not in (self.channel.id, self.other.id):
            return  # another member's DM: not reachable for this member
        # An ephemeral reply is only ever seen by the member it was sent to.
        if stored.flags & EPHEMERAL and not is_dm and not any(
                getattr(e, "id", None) == message_id for e in member.ephemerals):
            return
        actor = member.actor.user if is_dm else member.actor
        await self._send(kind, member, _component_interaction(actor, stored, dict(data)))

    async def _double_click(self, kind: str, member: Member) -> None:
        sources = [self._board(), *self._dm_messages(member)[-1:], *member.ephemerals[-1:]]
        message = self.rng.choice([s for s in sources if s is not None] or [None])
        if message is None:
            return
        before = len(self._pool)
        await self._click_random(kind, member, message)
        if len(self._pool) > before:
            _, channel_id, message_id, data = self._pool[-1]
            await self._send_raw(kind, member, channel_id, message_id, data)

    async def _concurrent(self, kind: str, rec: Any, game: Any, seat_member: dict[str, Member]) -> None:
        """Two players submit at the same moment (simcord runs one interaction at a time, so
        this goes through the service the router calls, then announces like the router)."""
        if game is None or game.is_over:
            return
        acting = [s for s in game.to_act() if s in seat_member]
        if len(acting) < 2:
            seat = acting[0] if acting else None
            if seat is None:
                return
            acting = [seat, seat]  # the same player twice at once: a double submit
        calls = []
        for seat in acting[:2]:
            member = seat_member[seat]
            action = self.rng.choice(game.legal_actions(seat))
            actor = Actor(user_id=member.actor.id, name=member.actor.name)
            calls.append(self.bot.service.apply(self.gid, actor, action, expected_version=rec.version
                                                if self.rng.random() < 0.5 else None))
        self.stats.interactions += len(calls)
        results = await asyncio.gather(*calls, return_exceptions=True)
        from engine import IllegalAction
        from sessions import SessionError

        for outcome in results:
            if isinstance(outcome, IllegalAction | SessionError):
                self.stats.refused += 1
            elif isinstance(outcome, BaseException):
                self.stats.failures.append(f"step {self.stats.steps} {kind}: {outcome!r}")
            elif outcome.changed:
                await self.bot.announcer.after_change(outcome)

    # -- sending and checking ---------------------------------------------------------------
    async def _send(self, kind: str, member: Member, call: Any, *, autocomplete: bool = False) -> Any:
        self.stats.interactions += 1
        try:
            result = await call
        except SetupError:
            self.stats.impossible += 1
            return None
        if autocomplete:
            return result
        if not result.acknowledged:
            self.stats.failures.append(f"step {self.stats.steps} {kind} by {member.key}: not acknowledged")
        replies = []
        for message in [result.response, *result.followups]:
            if message is None:
                continue
            replies.append(message.content or "")
            replies += [e.description or "" for e in message.embeds]
            if message.ephemeral and message.components:
                member.ephemerals.append(message)
                del member.ephemerals[:-10]
        text = "\n".join(replies)
        if "💥" in text or "Something went wrong" in text:
            self.stats.failures.append(f"step {self.stats.steps} {kind} by {member.key}: {text[:200]}")
        if text.startswith(("⚠️", "🔒")) and result.ephemeral:
            self.stats.refused += 1
        return result

    async def after_step(self, kind: str) -> None:
        errors = self.env.errors_since(self._errors_seen)
        self._errors_seen = self.env.error_cursor
        for error in errors:
            self.stats.failures.append(f"step {self.stats.steps} {kind}: bot raised {error!r}")
        self._claim_new_messages()
        await self._leak_scan(kind)
        await self._limits_and_pings_scan(kind)

    async def _long_input(self, kind: str, anyone: Member) -> None:
        """Input far over what a reply can echo: each must get a short private answer (a
        lobby refused, a setting saved or refused), never a 400 swallowed or a 💥."""
        choice = self.rng.randrange(5)
        if choice == 0:
            await self._send(kind, anyone, anyone.actor.slash(self.channel, "game new", game=self.kind,
                                                              options=self.rng.choice(LONG_OPTIONS)))
        elif choice == 1:
            await self._send(kind, anyone, anyone.actor.slash(self.channel, "game new", game="g" * 3000))
        elif choice == 2:  # 120 channels, this game's among them so it can go on
            ids = [self.channel.id, self.other.id, *(10**17 + i for i in range(118))]
            self._changed_blocking = True
            await self._send(kind, self.admin, self.admin.actor.slash(
                self.channel, "config set", setting="allowed_channels", value=" ".join(map(str, ids))))
        elif choice == 3:
            setting, value = self.rng.choice(LONG_CONFIG)
            self._changed_blocking = True
            await self._send(kind, self.admin, self.admin.actor.slash(self.channel, "config set", setting=setting,
                                                                      value=value))
        else:  # the largest game number Discord lets through
            await self._send(kind, anyone, anyone.actor.slash(self.channel, "play", action="7" * 5000,
                                                              game=2**53 - 1))

    async def _limits_and_pings_scan(self, kind: str) -> None:
        """Every new or edited message (public, ephemeral, DM) fits Discord's limits, pings
        only seated players of its game (never @everyone, never a role), allows no more than
        the users it names, and shows hostile names escaped: a name's "{p1}" unfilled, its
        mention and markdown inert."""
        if self.gid is not None:
            rec = await self.bot.service.db.games.load(self.gid)
            seated = self._seated_users.setdefault(rec.id, set())
            seated |= {s.user_id for s in rec.seats if s.user_id and not s.is_ai}
        for store in self.env.backend.messages.values():
            for message in store.values():
                signature = (message.content, message.embeds, message.components, message.allowed_mentions,
                             tuple(message.ping_user_ids))
                last = self._limits_seen.get(message.id)
                if last is not None and all(a is b or a == b for a, b in zip(last, signature, strict=True)):
                    continue
                self._limits_seen[message.id] = signature
                self.stats.limit_checks += 1
                where = f"step {self.stats.steps} {kind}: message {message.id}"
                for problem in over_limits(message):
                    self.stats.failures.append(f"{where} {problem}")
                self._check_pings(message, where)
                if not message.flags & EPHEMERAL:  # a reply echoing its reader's own input (cut) is theirs
                    self._check_names_escaped(message, where)

    def _check_pings(self, message: Any, where: str) -> None:
        """A message pings only players seated in its game, never @everyone or a role, and its
        mention policy names exactly whom it allows when its text could ping."""
        allowed = message.allowed_mentions
        game = self._message_game.get(message.id, self.gid or 0)
        seated = self._seated_users.get(game, set())
        if message.mention_everyone or message.ping_role_ids:
            self.stats.failures.append(f"{where} pinged @everyone or a role")
        if not set(message.ping_user_ids) <= seated:
            self.stats.failures.append(f"{where} pinged {message.ping_user_ids}, not seated in game {game}")
        content = message.content or ""
        if "<@" in content or "@everyone" in content or "@here" in content:
            # Text that could ping: the policy must name exactly whom it allows.
            if allowed.everyone or allowed.users is None or allowed.roles is None or allowed.roles:
                self.stats.failures.append(f"{where} allows every user, a role or @everyone: {allowed}")
            elif not allowed.users <= seated:
                self.stats.failures.append(f"{where} allows users {sorted(allowed.users - seated)}")

    def _check_names_escaped(self, message: Any, where: str) -> None:
        """Hostile names show escaped: no open code block, no live @everyone or markdown, and a
        name's "{p1}" left unfilled."""
        content = message.content or ""
        # Markdown only: inside a code block names are shown raw but for backticks
        # (nothing renders or pings there), and the fence must survive them.
        shown = CODE_BLOCK.sub("", "\n".join([content, *(json.dumps(e, ensure_ascii=False)
                                                          for e in message.embeds)]))
        parts = [content, *(e.get("description") or "" for e in message.embeds),
                 *(f.get("value") or "" for e in message.embeds for f in e.get("fields") or [])]
        if any(part.count("```") % 2 for part in parts):
            self.stats.failures.append(f"{where} leaves a code block open (a name's backticks?)")
        for raw in ("@everyone", "``` **x**"):
            if raw in shown:
                self.stats.failures.append(f"{where} shows a name unescaped: {raw!r}")
        if "@\u200beveryone " in shown and "@\u200beveryone {p1}" not in shown:
            self.stats.failures.append(f"{where} filled the {{p1}} in a player's name")

    def _claim_new_messages(self) -> None:
        for store in self.env.backend.messages.values():
            for message_id in store:
                self._message_game.setdefault(message_id, self.gid or 0)

    async def _leak_scan(self, kind: str) -> None:
        new_logs = self.logs.records[self._logs_seen:]
        self._logs_seen = len(self.logs.records)
        for record in new_logs:
            if record.levelno >= logging.ERROR and record.name.startswith("dragon_tavern"):
                self.stats.failures.append(f"step {self.stats.steps} {kind}: logged {self.logs.text(record)[:300]}")
        rec, game = await self.bot.service.load(self.gid)
        self.stats.log_lines_scanned += len(new_logs)
        if self.secrets is None or game is None:
            return
        seats = [s.seat for s in rec.seats]
        if not self._all_names:
            self._all_names = self.secrets.all_names(game)
        public = await self._legitimately_public(rec)
        secrets = {name: owners for name, owners in self.secrets.secrets(game, seats).items() if name not in public}
        self.stats.secrets_seen |= set(secrets)
        if not secrets:
            return
        for record in new_logs:
            text = self.logs.text(record)
            for name in secrets:
                if self._pattern(name).search(text):
                    self._leak("log", record.name, name, text)
        user_seat = {s.user_id: s.seat for s in rec.seats if s.user_id}
        # A DM may show anything its reader's own view holds or held earlier in this game (own
        # items, since discarded or swapped; own deck...), and what the game told that seat
        # alone (an item drawn and lost again between two scans: _legitimately_public).
        known = self._known.setdefault(rec.id, {})
        for seat in seats:
            known.setdefault(seat, set()).update(self.secrets.known(game, seat))
        guild_channels = {self.channel.id, self.other.id}
        for channel_id, store in self.env.backend.messages.items():
            in_guild = channel_id in guild_channels
            dm_owner = None
            if not in_guild:
                owner = next((uid for uid, cid in self.env.backend.dm_channels.items() if cid == channel_id), None)
                dm_owner = user_seat.get(owner)
                if dm_owner is None:
                    continue  # not a player of this game
            visible = set(secrets) if dm_owner is None else set(secrets) - known[dm_owner]
            where = "public" if in_guild else f"DM of {dm_owner}"
            for message in store.values():
                if self._shows_this_game(message, rec.id, in_guild):
                    self._scan_message(message, visible, where)

    def _shows_this_game(self, message: Any, gid: int, in_guild: bool) -> bool:
        """Whether ``message`` may leak game ``gid``'s secrets to someone who must not see them."""
        if in_guild and message.flags & EPHEMERAL:
            return False  # only its owner saw it
        if self._message_game.get(message.id) != gid:
            return False  # posted during another game (whose secrets were different)
        if _is_deck_reference(message):
            return False  # 📖 Card texts: whole decks, the same whatever is planned
        # an ended game's replay (📣 shown to the channel): that game's secrets, all out
        return _replay_of(message) in (None, gid)

    def _scan_message(self, message: Any, visible: set[str], where: str) -> None:
        """Report every name of ``visible`` (secrets its reader must not see) that ``message``
        shows; a message unchanged since it was scanned for the same names is skipped."""
        signature = (message.content, message.embeds, message.components, message.attachments)
        last = self._scanned.get(message.id)
        if last is not None and all(a is b for a, b in zip(last[0], signature, strict=True)) \
                and visible <= last[1]:
            return
        self._scanned[message.id] = (signature, visible | (last[1] if last else set()))
        self.stats.messages_scanned += 1
        text = message_text(message)
        for name in visible:
            if self._pattern(name).search(text):
                self._leak(where, message.id, name, text)

    async def _legitimately_public(self, rec: Any) -> set[str]:
        """Names the rules made public so far in this game: replays the action log on a shadow
        copy and collects, after EVERY action (several happen in one step when AI seats act),
        the names in the public view and in the public event texts (an item played face up, a
        card revealed, "Vision becomes Slash"), and once the game is over what its public view
        reveals."""
        assert self.secrets is not None, "only games with secrets are checked for leaks"
        public = self._public_names.setdefault(rec.id, set())
        shadow = self._shadows.get(rec.id)
        if shadow is None:
            # Built exactly as the service started it (seat order after lobby churn included).
            shadow = self._shadows[rec.id] = [await self.bot.service.new_game_for(rec), 0]
        actions = await self.bot.service.db.log.of_game(rec.id)
        game, done = shadow
        for row in actions[done:]:
            if row.source == "system":
                continue
            events = game.play(row.seat, row.action)
            public |= self.secrets.public(game, [row])
            told = self._known.setdefault(rec.id, {})
            for event in events:
                named = {n for n in self._all_names if self._pattern(n).search(event.text)}
                if event.to is None:
                    public |= named
                else:  # told to that seat alone ("You drew Dragon Repellent"): it may say so again
                    told.setdefault(event.to, set()).update(named)
        if game.is_over:  # what the rules reveal at the end (the held items, the plans face down)
            revealed = json.dumps(game.view(None).get("revealed", {}), ensure_ascii=False)
            public |= {n for n in self._all_names if self._pattern(n).search(revealed)}
        shadow[1] = len(actions)
        return public

    def _pattern(self, name: str) -> re.Pattern[str]:
        if name not in self._patterns:
            self._patterns[name] = name_pattern(name, self._all_names)
        return self._patterns[name]

    def _leak(self, where: str, ref: Any, name: str, text: str) -> None:
        key = (where, ref, name)
        if key in self._leak_keys:
            return
        self._leak_keys.add(key)
        at = text.find(name)
        snippet = text[max(0, at - 80): at + 80].replace("\n", " | ")
        self.stats.leaks.append(f"step {self.stats.steps} game {self.gid} {where} {ref}: {name!r} in …{snippet}…")

    async def check_invariants(self) -> None:
        if self.gid is None:
            return
        rec, game = await self.bot.service.load(self.gid)
        self.stats.invariant_checks += 1
        where = f"step {self.stats.steps} game {self.gid} ({rec.status})"
        if game is None:
            return
        try:
            stored = game.to_dict()
            again = type(game).from_dict(json.loads(json.dumps(stored))).to_dict()
            if again != stored:
                self.stats.failures.append(f"{where}: to_dict/from_dict round trip differs")
            replayed = (await self.bot.service.replay(self.gid)).to_dict()
            if replayed != stored:
                diff = sorted(k for k in stored if stored.get(k) != replayed.get(k))
                self.stats.failures.append(f"{where}: replay from the action log differs in {diff[:8]}")
            players = {s.seat for s in rec.seats}
            if not set(game.to_act()) <= players:
                self.stats.failures.append(f"{where}: to_act {game.to_act()} outside the seats")
            if rec.status == "active":
                if game.is_over:
                    self.stats.failures.append(f"{where}: game over but the record is still active")
                for seat in game.to_act():
                    if not game.legal_actions(seat):
                        self.stats.failures.append(f"{where}: {seat} must act but has no legal action")
                if not game.to_act():
                    self.stats.failures.append(f"{where}: active game with nobody to act")
            if game.is_over and game.result is None:
                self.stats.failures.append(f"{where}: game over without a result")
        except Exception as exc:  # an invariant check must report, not stop the run
            self.stats.failures.append(f"{where}: invariant check raised {exc!r}")


_REPLAY_TITLE = re.compile(r"replay of game #(\d+)")


def _replay_of(message: Any) -> int | None:
    """The game a /game replay message shows (its embed's title says), or None."""
    for embed in message.embeds:
        title = str((embed if isinstance(embed, dict) else embed.to_dict()).get("title", ""))
        found = _REPLAY_TITLE.search(title)
        if found:
            return int(found.group(1))
    return None


def _is_deck_reference(message: Any) -> bool:
    """Flagon's 📖 Card texts answer: every line of it is a line of the static list of all
    decks (cogs.ui.flagon.card_texts), so it names planned cards only as part of whole decks.
    Anything else in such a message is scanned as usual."""
    embeds = [e if isinstance(e, dict) else e.to_dict() for e in message.embeds]
    if len(embeds) != 1 or not str(embeds[0].get("title", "")).startswith("📖 Your cards"):
        return False
    reference = set(card_texts(sorted(CHARACTER_NAMES)).splitlines())
    return not (message.content or "") and all(line in reference for line in
                                                 str(embeds[0].get("description", "")).splitlines())
