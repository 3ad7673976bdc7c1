"""Each seated player's *seat message*: their one private message per game (a DM), edited in
place as things change, for the whole game: a new planning phase or a secret question edits it
too (the turn ping, in the channel or by DM as the member chose, is what notifies them;
cogs.pings points them to their DM). Players know it as their "hand" (the start DM says "This
message becomes your hand"); in the code it is the seat message, apart from a Farkle hand of
Magic Items. A new DM only when the seat message is gone (deleted by the member). An edit goes
out only when what the message shows changed (a digest of it is kept per message; in memory:
after a restart at most one edit per seat message repeats what it already showed). One step of
the outbox's delivery (cogs.outbox).

A change that neither tells its owner a secret (no event for them) nor changes what they may
do there (the same controls: nothing asked, nothing withdrawn), in a game where such a change
only makes part of the message public (cogs.ui ``reveals_can_wait``: Flagon, a planned card of
theirs revealed on the board), is shown at once only when an interaction can carry the edit (their last
click in it, while its token lives: cogs.carrier). Through the channel it waits for the next edit
that must go out (the next private prompt, a secret event, the end of the game), which shows it
too: a member who plays by ``/play`` never clicks in their DM, and each such reveal would
otherwise cost a request of the bot's global budget (issue 25).

A player whose DMs are closed, or a server that keeps secrets in ephemeral replies, reads the
same message through the board's "🔒 Show my hand / plan" button instead; the router then also
offers it unasked after their own clicks when a private choice is open (see cogs.router).

Every private component carries the seat's *prompt token* (:func:`prompt_token`): a digest of
what that seat may see and choose now. A click whose token no longer matches is refused and
answered with the current prompt, so an old prompt never acts on a newer roll or phase; moves
of other players that change nothing private leave the token (and the prompt) valid.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import discord

from cogs.carrier import LiveInteractions
from cogs.prompts import must_act_privately, private_actions, prompt_key
from cogs.recent import RecentMap
from cogs.ui import ui_for
from engine import Event, Game
from render import text
from sessions.snapshot import Snapshot
from storage import SeatMessage

if TYPE_CHECKING:
    from bot import DragonTavern
    from storage import GameRecord, SeatRecord

log = logging.getLogger("dragon_tavern.cogs.seat_messages")

DM_CLOSED = 50007
SHOWN_KEPT = 4096  # seat messages whose shown digest is kept (a game has at most eight)


class SeatMessages:
    def __init__(self, bot: DragonTavern, live: LiveInteractions) -> None:
        self.bot = bot
        # The member's newest click in their seat message (a card planned, an item chosen): while
        # its token lives, the message is edited through it, outside the global limit (cogs.carrier).
        self.live = live
        # seat message id -> digests of what it shows (the latest ones; an older one is simply
        # edited once more)
        self._shown: RecentMap[int, Shown] = RecentMap(SHOWN_KEPT)
        # seat message id -> the prompt key of a change it waits to show (see _can_wait), so
        # that later deliveries which change nothing more for it do not draw it again
        self._waiting: RecentMap[int, str] = RecentMap(SHOWN_KEPT)

    def shown(self, message_id: int, message: dict[str, Any]) -> None:
        """``message`` is what the seat message ``message_id`` shows now (edited elsewhere: the
        interaction that answered its prompt), so the same edit is not sent again."""
        self._now_shows(message_id, Shown.of(message))

    def _now_shows(self, message_id: int, shown: Shown) -> None:
        """The seat message ``message_id`` was just edited (or sent) into ``shown``: nothing of
        it waits any more (a later return to the state that waited is a change again)."""
        self._shown[message_id] = shown
        self._waiting.pop(message_id, None)

    async def deliver(self, snap: Snapshot, seat: SeatRecord, events: list[Event]) -> bool:
        """Bring the seat's message up to date after ``events``: a new DM when it must act
        privately now (a new decision), else an edit when what it shows changed. Returns
        whether a DM was sent or edited."""
        rec, game = snap.record, snap.game
        if rec.status != "active" or game is None or seat.is_ai or seat.user_id is None:
            return False
        if snap.settings["hidden_pick_mode"] == "ephemeral" or seat.private_route == "ephemeral":
            return False  # they read it through the board's button
        own = [e for e in events if e.to == seat.seat]
        key = prompt_key(game, seat.seat, snap.public_view())
        stored = await self.bot.db.seat_messages.get(rec.id, seat.seat)
        asking = must_act_privately(game, seat.seat)
        if (
            stored is not None
            and key in (stored.prompt_key, self._waiting.get(stored.message_id))
            and not own
        ):
            return False  # nothing new to show (or nothing more than what waits for the next edit)
        if stored is None and not own and not private_actions(game, seat.seat):
            return False  # nothing to show yet (and no message to update)
        if await self.bot.service.superseded(snap):
            # A newer change was saved meanwhile (a fast player): its own delivery brings the
            # seat message up to date; drawing this older state now would show a prompt already stale.
            return False
        message = self.bot.presenter.private_message(rec, game, seat.seat, own, page=0)
        if stored is not None and stored.message_id:
            if (
                not own
                and asking == stored.asked
                and ui_for(rec.kind).reveals_can_wait
                and self._can_wait(stored.message_id, message)
            ):
                self._waiting[stored.message_id] = key
                return False  # the next edit shows it (its prompt key stays the old one until then)
            self.bot.dms.remember(seat.user_id, stored.channel_id)
            if await self._edit(stored, message):  # a new phase too: edited in place, never re-sent
                await self.bot.db.seat_messages.set(
                    rec.id, seat.seat, SeatMessage(stored.channel_id, stored.message_id, key, asking)
                )
                return True
        sent = await self._send(rec, seat, message)
        if sent is None:
            return False
        self._now_shows(sent.id, Shown.of(message))
        await self.bot.db.seat_messages.set(
            rec.id, seat.seat, SeatMessage(sent.channel.id, sent.id, key, asking)
        )
        return True

    async def close(self, rec: GameRecord, game: Game) -> None:
        """The game is over: each seat message shows the final state, with no controls left."""
        for seat in rec.seats:
            stored = await self.bot.db.seat_messages.get(rec.id, seat.seat)
            if stored is None or not stored.message_id:
                continue
            message = self.bot.presenter.private_message(rec, game, seat.seat, [], page=0)
            with contextlib.suppress(discord.HTTPException):
                await self._edit(
                    stored,
                    {
                        **message,
                        "view": None,
                        "content": "🏁 The game is over: the final board and result are in the channel.",
                    },
                )

    async def adopt(self, rec: GameRecord, seat: str, message: discord.Message) -> None:
        """Make ``message`` (the DM sent at the start of the game) the seat's message, so it
        is edited into the private prompt later instead of a second DM being sent."""
        await self.bot.db.seat_messages.set(
            rec.id, seat, SeatMessage(message.channel.id, message.id, "", False)
        )

    def _can_wait(self, message_id: int, message: dict[str, Any]) -> bool:
        """Whether the seat message may keep showing what it shows until its next due edit:
        ``message`` has the controls it shows already (it asks nothing new and withdraws
        nothing), and no live click on it could carry the edit outside the global limit.
        Unknown (after a restart): no, it is edited."""
        shown = self._shown.get(message_id)
        return (
            shown is not None
            and shown.controls == Shown.of(message).controls
            and self.live.on(message_id) is None
        )

    async def _edit(self, stored: SeatMessage, message: dict[str, Any]) -> bool:
        """Edit the seat message into ``message`` unless it shows exactly that already; False when the
        DM is gone (then a new one is sent)."""
        shown = Shown.of(message)
        if self._shown.get(stored.message_id) == shown:
            self._now_shows(stored.message_id, shown)
            return True
        # No new text: the message keeps its line (the game's opening words, or the
        # "✅ …" confirmation of the player's last secret choice).
        kept = text.fit_message({k: v for k, v in message.items() if not (k == "content" and v is None)})
        carrier = self.live.on(stored.message_id)
        if carrier is not None:
            try:
                await carrier.edit(stored.message_id, **kept)
                self._now_shows(stored.message_id, shown)
                return True
            except discord.HTTPException:
                carrier.broken = True  # its token was refused: the channel from now on
                log.info("a seat message could not be edited through its last click; editing it directly")
        partial = self.bot.get_partial_messageable(stored.channel_id).get_partial_message(stored.message_id)
        try:
            await partial.edit(**kept)
        except discord.NotFound:
            self._shown.pop(stored.message_id, None)
            return False  # the DM is gone: send a new one
        except discord.Forbidden:
            # The member blocked the bot (or shares no server with it any more) after their seat
            # message went out. Sending a new DM fails the same way and routes the seat to the board's
            # button; raising would fail the whole announcement and retry it again and again.
            return False
        self._now_shows(stored.message_id, shown)
        return True

    async def _send(
        self, rec: GameRecord, seat: SeatRecord, message: dict[str, Any]
    ) -> discord.Message | None:
        assert seat.user_id is not None
        try:
            return await self.bot.dms.send(seat.user_id, **text.fit_message(message))
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED and exc.status != 403:
                raise
            await self.bot.db.games.set_private_route(rec.id, seat.seat, "ephemeral")
            # The delivery's snapshot says so too: the router's offer of the prompt reads it.
            rec.seats = [
                replace(s, private_route="ephemeral") if s.seat == seat.seat else s for s in rec.seats
            ]
            log.info("game %s: DMs closed for a seat; its prompts go through the board's button", rec.id)
            return None


@dataclass(frozen=True)
class Shown:
    """What a seat message shows, as digests: all of it, and its controls alone."""

    whole: str
    controls: str

    @classmethod
    def of(cls, message: dict[str, Any]) -> Shown:
        return cls(digest(message), digest({"view": message.get("view")}))


def digest(message: dict[str, Any]) -> str:
    """What a private message shows (its text, embed and components), as a short digest; a
    ``content`` of None keeps the message's text, so it is no part of what an edit changes."""
    shown: dict[str, Any] = {}
    for key, value in message.items():
        if key == "content" and value is None:
            continue
        if isinstance(value, discord.Embed):
            value = value.to_dict()
        elif isinstance(value, discord.ui.View):
            value = value.to_components()
        elif isinstance(value, discord.File):
            value = value.filename
        shown[key] = value
    blob = json.dumps(shown, sort_keys=True, default=str)
    return hashlib.sha1(blob.encode(), usedforsecurity=False).hexdigest()
