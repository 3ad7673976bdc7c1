"""The replay's 🎞 GIF button: one drawing per finished game, never in the way of a game.

A GIF takes seconds of CPU (about 20 s for 200 frames), so it is drawn in a lane of its own
(sessions.heavywork: one worker, a few jobs at most), never in the thread pool that AI moves,
hints and board pictures use. A finished game never changes, so its GIF is drawn once and kept
(keyed by game id and version, within :data:`KEEP_BYTES`); everyone who presses while it is
drawn gets that same drawing. One member has one GIF on the way at a time, and after a GIF
was sent to them waits :data:`COOLDOWN_S` before the next; both are answered privately at once.
"""

from __future__ import annotations

import io
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial

import discord

from cogs.plugins import load_plugins
from sessions import SessionError
from sessions import replay as replays
from sessions.heavywork import HeavyWork
from sessions.replay import GIF_MAX_FRAMES, Replay

COOLDOWN_S = 30.0  # after a GIF was sent to a member, before they may ask for another
KEEP_BYTES = 48 * 1024 * 1024  # kept GIFs (each at most render.animation.MAX_BYTES, 8 MiB)
MAX_JOBS = 3  # GIFs drawn or waiting at once, in the whole bot: ~1 minute of drawing at most
BUSY = (
    "The bot is drawing other GIFs right now, so this one was not started. Please press 🎞 GIF "
    "again in a minute; ◀ ▶ and 📜 Export work meanwhile."
)

Gif = tuple[bytes | None, list[int]]  # the file (None: the game draws no pictures), the plies shown


@dataclass(frozen=True)
class GifFile:
    """What is sent to the presser."""

    note: str
    data: bytes
    filename: str


class ReplayGifs:
    """The bot's GIF desk: the drawing lane, and who is waiting for or was just sent a GIF."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, *, processes: bool = True) -> None:
        self.work = HeavyWork(
            "gif", workers=1, max_jobs=MAX_JOBS, keep_bytes=KEEP_BYTES, busy_text=BUSY, processes=processes,
            load_games=partial(load_plugins, ui=False),  # a drawing worker needs no Discord UI
        )
        self._clock = clock
        self._waiting: dict[int, int] = {}  # member -> the game whose GIF is being drawn for them
        self._sent: dict[int, float] = {}  # member -> when their last GIF was sent (within COOLDOWN_S)

    def refusal(self, member: int) -> str | None:
        """Why ``member`` gets no GIF now (a private answer), or None."""
        waiting = self._waiting.get(member)
        if waiting is not None:
            return f"🎞 The GIF of game #{waiting} is being drawn; it will be posted here for you when it is ready."
        now = self._clock()
        self._sent = {m: t for m, t in self._sent.items() if now - t < COOLDOWN_S}  # bounded: recent only
        sent = self._sent.get(member)
        if sent is not None:
            again = int(time.time() + COOLDOWN_S - (now - sent)) + 1
            return f"🎞 A GIF was just sent to you; you can ask for another <t:{again}:R>."
        return None

    async def draw_for(
        self, member: int, replay: Replay, start: Callable[[], Awaitable[object]] | None = None
    ) -> GifFile:
        """The GIF for ``member``: the kept one, the one being drawn, or a new drawing. Raises
        TooBusy (nothing started) when the lane is full. Call :meth:`refusal` first.
        ``start`` is awaited once the drawing is accepted (e.g. the interaction's defer)."""
        rec = replay.record
        pending = self.work.submit(("gif", rec.id, rec.version), replays.replay_gif, replay, keep=_gif_bytes)
        self._waiting[member] = rec.id
        try:
            if start is not None:
                await start()
            gif, plies = await pending
        finally:
            del self._waiting[member]
        if gif is None:
            raise SessionError(
                f"{replay.title} draws no board pictures, so there is no GIF; 📜 Export has every move."
            )
        self._sent[member] = self._clock()
        return GifFile(_note(replay, plies), gif, f"game-{rec.id}.gif")

    def close(self) -> None:
        self.work.close()


def _gif_bytes(gif: Gif) -> int:
    return len(gif[0] or b"") + 64


def _note(replay: Replay, plies: list[int]) -> str:
    gid = replay.record.id
    if len(plies) >= replay.plies + 1:
        return f"🎞 Game #{gid}: {len(plies)} frames, one per ply."
    return (
        f"🎞 Game #{gid} has {replay.plies} plies; the GIF shows at most {GIF_MAX_FRAMES} frames, so it "
        f"shows every {replay.plies / (len(plies) - 1):.1f}th ply or so (the start and the end included). "
        "◀ ▶ on the replay show every one."
    )


def as_file(gif: GifFile) -> discord.File:
    return discord.File(io.BytesIO(gif.data), filename=gif.filename)


__all__ = ["COOLDOWN_S", "GifFile", "ReplayGifs", "as_file"]
