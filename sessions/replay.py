"""Replays of games that are over: every state rebuilt from seed + options + the action log.

A game is its seed, its options and its action log (docs/engine.md), so nothing extra is
stored for a replay: :func:`load_replay` reads the record and the log, and :class:`Replay`
plays the log again through the engine, ply by ply, from the very game :meth:`GameService.start`
created (``GameService.new_game_for``: the same seat order and setup arguments). A ply is one
logged engine action; the system's entries (a resignation) change no engine state and are not
plies, but the text export lists them.

Only games that are over are replayed: a replay shows every seat's secrets at every ply, so a
lobby or a running game is refused (with a text that names nothing of the game's state). A
cancelled or abandoned game that had started is over too and replays like a finished one. A
game is looked up in the asking server only; another server's game is refused exactly like a
missing one.

Everything here is plain CPU work on engine objects: callers run it off the event loop
(``asyncio.to_thread``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine import Event, Game, IllegalAction, registry
from render.animation import Frame, animate
from render.text import fill_names, seat_names, shown_names
from sessions.errors import SessionError
from sessions.service import GameService, event_names
from storage import GameNotFound, GameRecord, LoggedAction

REPLAYABLE_STATUSES = ("finished", "cancelled", "abandoned")  # with a saved state: it had started
# The most frames a replay's GIF has: a longer game shows this many plies, evenly spaced (the
# first and the last included), and says so. Drawing a frame takes about 0.1 s, so a GIF is
# ready in well under a minute, and its paletted frames stay within tens of megabytes.
GIF_MAX_FRAMES = 200
SYSTEM = "system"  # the log's entries that are no engine action (cf. GameService.replay)


@dataclass(frozen=True)
class Ply:
    """One logged engine action, with what it caused."""

    number: int  # 1..n; ply 0 is the game as it started
    seat: str
    action: str  # the notation, as logged
    label: str  # the engine's describe_action, {p1} placeholders
    source: str  # player / ai / timeout
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Snapshot:
    """The game after ``ply`` plies (the live object of a walk: copy it to keep it)."""

    ply: int
    game: Game
    last: Ply | None  # the ply that led here (None at the start)


class Replay:
    """An ended game's record and log, and the engine games rebuilt from them."""

    def __init__(self, record: GameRecord, log: Sequence[LoggedAction], start: Game) -> None:
        self.record = record
        self.log = list(log)
        self.moves = [a for a in self.log if a.source != SYSTEM]
        self._start = start

    @property
    def setup_arguments(self) -> dict[str, Any]:
        """The ``new_game`` arguments that were not lobby options (docs/engine.md)."""
        return self._start.setup_arguments()

    @property
    def plies(self) -> int:
        return len(self.moves)

    @property
    def title(self) -> str:
        return registry.get(self.record.kind).title

    def walk(self, last: int | None = None) -> Iterator[Snapshot]:
        """Snapshots 0, 1, … up to ``last`` (default: the end), each the same live game played
        one ply further. A log the engine refuses is a damaged game: SessionError."""
        game = self._start.copy()
        yield Snapshot(0, game, None)
        end = self.plies if last is None else min(last, self.plies)
        for number, logged in enumerate(self.moves[:end], start=1):
            label = game.describe_action(logged.seat, logged.action)
            try:
                events = game.play(logged.seat, logged.action)
            except IllegalAction:
                raise SessionError(
                    f"Game #{self.record.id}'s saved moves cannot be played again (ply {number}), "
                    "so it cannot be replayed."
                ) from None
            yield Snapshot(
                number, game, Ply(number, logged.seat, logged.action, label, logged.source, tuple(events))
            )

    def at(self, ply: int) -> Snapshot:
        """The game after ``ply`` plies (clamped to 0..n)."""
        wanted = max(0, min(ply, self.plies))
        snapshot = None
        for snapshot in self.walk(wanted):
            if snapshot.ply == wanted:
                break
        assert snapshot is not None
        return snapshot

    def matches_saved_state(self) -> bool:
        """The log played to its end gives exactly the saved state (the log is complete)."""
        final = None
        for snapshot in self.walk():
            final = snapshot.game
        return final is not None and final.to_dict() == self.record.state

    def names(self, events: Sequence[Event] = ()) -> dict[str, str]:
        """Raw names for {p1} placeholders: the seats, and names events carry."""
        return event_names(self.record, list(events))


# -- loading ---------------------------------------------------------------------------------------


def no_such_game(game_id: int) -> str:
    # The same words whether the game does not exist or is another server's.
    return f"There is no game #{game_id} in this server. `/game list` shows the games here."


async def load_replay(service: GameService, game_id: int, guild_id: int) -> Replay:
    """The replay of game ``game_id`` of server ``guild_id``; SessionError when it cannot be
    shown (missing, another server's, not over yet, never started)."""
    if not 0 < game_id < 2**63:
        raise SessionError(no_such_game(game_id))
    try:
        rec = await service.db.games.load(game_id)
    except GameNotFound:
        raise SessionError(no_such_game(game_id)) from None
    if rec.guild_id != guild_id:
        raise SessionError(no_such_game(game_id))
    if rec.status not in REPLAYABLE_STATUSES:
        # Nothing of the game goes into this text: it is refused before its state is read.
        where = "is an open lobby" if rec.status == "lobby" else "is still being played"
        raise SessionError(
            f"Game #{game_id} {where}. A replay shows every player's secrets, so it opens only once the "
            f"game is over; follow it meanwhile with `/game status` in <#{rec.channel_id}>."
        )
    if rec.state is None:
        raise SessionError(f"Game #{game_id} was closed before it started: there is nothing to replay.")
    try:
        start = await service.new_game_for(rec)
    except Exception:  # a state or options this engine cannot read any more
        raise SessionError(
            f"Game #{game_id}'s saved data cannot be read, so it cannot be replayed."
        ) from None
    return Replay(rec, await service.db.log.of_game(game_id), start)


# -- the animated GIF ------------------------------------------------------------------------------


def gif_plies(plies: int, cap: int = GIF_MAX_FRAMES) -> list[int]:
    """The plies (0..``plies``) that become frames: all of them when they fit ``cap``, else
    ``cap`` evenly spaced ones, the start and the end included."""
    if plies + 1 <= cap:
        return list(range(plies + 1))
    return [round(i * plies / (cap - 1)) for i in range(cap)]


def ply_caption(replay: Replay, snapshot: Snapshot, names: dict[str, str]) -> str:
    """One line saying where a frame is: "ply 3 / 40 · alice: Place a 3 on b2"."""
    where = f"ply {snapshot.ply} / {replay.plies}"
    ply = snapshot.last
    if ply is None:
        return f"{where} · the start"
    return f"{where} · {names.get(ply.seat, ply.seat)}: {fill_names(ply.label, names)}"


def replay_gif(replay: Replay, cap: int = 0) -> tuple[bytes | None, list[int]]:
    """The GIF of the whole game (None if it draws no pictures) and the plies it shows (at most
    ``cap`` frames, by default :data:`GIF_MAX_FRAMES`)."""
    chosen = gif_plies(replay.plies, cap or GIF_MAX_FRAMES)
    wanted = set(chosen)
    names = seat_names(replay.record.seats, "plain")
    frames = (
        Frame(s.game.view(None), ply_caption(replay, s, names)) for s in replay.walk() if s.ply in wanted
    )
    return animate(replay.record.kind, frames, names), chosen


# -- the text export -------------------------------------------------------------------------------


def export_text(replay: Replay) -> str:
    """The whole game in its notation: a header (game, id, dates, players, options, seed,
    result), then every logged action with the texts of the events it caused, public and
    private (the game is over: nothing is secret any more)."""
    rec = replay.record
    names = seat_names(rec.seats, "plain")
    lines = [
        f"Dragon Tavern — {replay.title} (`{rec.kind}`), game #{rec.id}",
        f"Started: {_utc(rec.created_at)}   Ended: {_utc(rec.updated_at)}   Status: {rec.status}",
        "Players: "
        + ", ".join(
            f"{s.seat} {names[s.seat]}"
            + (f" (an AI {s.ai_level} took over)" if s.is_ai and s.user_id else "")
            for s in sorted(rec.seats, key=lambda s: s.position)
        ),
        f"Options: {_options(rec.options) or 'none (the defaults)'}",
    ]
    setup = replay.setup_arguments
    if setup:
        lines.append(f"Setup: {_options(setup)}")
    lines += [f"Seed: {rec.seed}", *_result_lines(rec, names), f"Plies: {replay.plies}", ""]
    moves = iter(replay.walk())
    next(moves)  # ply 0: the start
    for logged in replay.log:
        if logged.source == SYSTEM:
            lines.append(f"  -- {names.get(logged.seat, logged.seat)}: {logged.action} (not a move)")
            continue
        snapshot = next(moves)
        ply = snapshot.last
        assert ply is not None
        label = fill_names(ply.label, names)
        shown = f" ({label})" if label != ply.action else ""
        by = "" if ply.source == "player" else f" [{ply.source}]"
        lines.append(f"{ply.number}. {names.get(ply.seat, ply.seat)}: {ply.action}{shown}{by}")
        said = shown_names(replay.names(ply.events), "plain")
        for event in ply.events:
            if not event.text:
                continue
            to = "" if event.to is None else f"(to {names.get(event.to, event.to)} only) "
            for part in fill_names(event.text, said).splitlines():
                lines.append(f"     {to}{part}")
    return "\n".join(lines) + "\n"


def _utc(epoch: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(epoch))


def _options(options: dict[str, Any]) -> str:
    shown = []
    for name, value in options.items():
        if isinstance(value, bool):
            value = "on" if value else "off"
        shown.append(f"{name}={value}")
    return " ".join(shown)


def _result_lines(rec: GameRecord, names: dict[str, str]) -> list[str]:
    result = rec.result or {}
    every = {**names, **{k: v for k, v in (result.get("names") or {}).items() if k not in names}}
    reason = fill_names(str(result.get("reason", "")), every)
    scores = result.get("scores") or {}
    places = []
    for place, group in enumerate(result.get("ranking") or [], start=1):
        who = ", ".join(every.get(p, p) + (f" ({scores[p]:g})" if p in scores else "") for p in group)
        places.append(f"{place}. {who}")
    out = [f"Result: {'; '.join(places)}" if places else f"Result: {rec.status}"]
    if reason:
        out.append(f"        {reason}")
    return out


__all__ = [
    "GIF_MAX_FRAMES",
    "REPLAYABLE_STATUSES",
    "Ply",
    "Replay",
    "Snapshot",
    "export_text",
    "gif_plies",
    "load_replay",
    "no_such_game",
    "ply_caption",
    "replay_gif",
]
