"""Telling members they must act: editing the board notifies nobody on Discord, a new message
that mentions someone does. One step of the outbox's delivery (cogs.outbox), so a ping is sent
after its change is saved, once, and again after a crash only if it never went out.

- Whoever becomes one who must act (sessions queues a ``TURN_EVENT`` with the save that hands
  them the move) gets one short message naming the game and what is asked, with the turn's
  deadline and a link to the board. Everyone asked by one change shares one message.
- Each member chooses where (``/game notify``): ``channel`` (default: a channel message that
  mentions exactly them), ``dm`` (a DM; the channel when their DMs are closed) or ``off``.
  Their private prompt (cogs.seat_messages) is edited in place, so this ping is what notifies them.
- A new ping deletes the game's earlier ones, so at most one is alive per game; when the game
  ends they are deleted and one notice says how it ended, pinging nobody.
- An AI seat is never pinged, nor is anyone once the game is over.
- When the board moves to a new message (cogs.board_hop) and no new ping replaces the standing
  ones, their link is changed to name the new board.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import TYPE_CHECKING

import discord

from cogs.carrier import Carrier, token_alive
from cogs.prompts import must_act_privately
from cogs.recent import RecentMap
from cogs.ui import ui_for
from engine import Event, Game, registry
from render import text
from render.text import fill_names
from sessions import event_names
from sessions.service import TURN_EVENT
from sessions.settings import GuildSettings
from sessions.snapshot import Snapshot

if TYPE_CHECKING:
    from bot import DragonTavern
    from storage import GameRecord, SeatRecord

log = logging.getLogger("dragon_tavern.cogs.pings")

DM_CLOSED = 50007
NOBODY = discord.AllowedMentions.none()
_MENTION_OR_NAME = re.compile(r"\{(@?)([A-Za-z_]\w*)\}")  # render.text's placeholders, plus {@p1}
TEXTS_KEPT = 4096  # standing pings whose text is remembered, to name a moved board


def board_link(rec: GameRecord, board_message_id: int | None = None) -> str:
    """A jump link to the game's board message, or to ``board_message_id`` (the channel while
    it has none)."""
    board = board_message_id or rec.board_message_id
    tail = f"/{board}" if board else ""
    return f"https://discord.com/channels/{rec.guild_id}/{rec.table_channel_id}{tail}"


def turn_seats(events: list[Event]) -> tuple[list[str], bool]:
    """The seats the queued TURN_EVENTs ask to act (in order, once each), and whether all of
    them are reminders."""
    seats: list[str] = []
    reminders = []
    for e in events:
        if e.kind == TURN_EVENT:
            reminders.append(bool(e.data.get("reminder")))
            seats += [s for s in e.data.get("seats", []) if s not in seats]
    return seats, bool(reminders) and all(reminders)


class Pings:
    def __init__(self, bot: DragonTavern) -> None:
        self.bot = bot
        self._background: set[asyncio.Task[None]] = set()
        # Pings sent as followups: the webhook that may delete each while its token lives.
        # Memory only: after a restart (or once the token expired) a ping is deleted through
        # its channel like any other.
        self._webhooks: dict[int, tuple[discord.Webhook, discord.Interaction]] = {}
        # Standing pings' text and mentions, so that a moved board's link can be changed in them
        # (relink). Memory only: a ping sent before a restart keeps its link.
        self._texts: RecentMap[int, tuple[str, discord.AllowedMentions]] = RecentMap(TEXTS_KEPT)

    # -- while the game runs ----------------------------------------------------------------
    async def announce(
        self,
        snap: Snapshot,
        events: list[Event],
        carrier: Carrier | None = None,
        moved_from: int | None = None,
    ) -> int:
        """Ping who must act now because of ``events`` (and the game's own out-of-turn pings):
        a followup of ``carrier`` (the click that caused it) when it can carry one, else a
        channel message. Returns the id of the message sent, or 0 if none was (DMs only, or nobody).
        ``moved_from``: the board moved from that message in this delivery; pings left standing
        name the new one."""
        rec, game = snap.record, snap.game
        assert game is not None, "pings are for a started game"
        public = [e for e in events if e.to is None]
        hook = ui_for(rec.kind).announce(rec, game, public)
        asked, reminder = turn_seats(public)
        to_act = set(game.to_act())
        humans = {s.seat: s for s in rec.seats if not s.is_ai and s.user_id is not None}
        asked = [p for p in asked if p in to_act and p in humans]
        if not asked and not hook:
            await self.relink(rec, moved_from)
            return 0
        settings, deadline = snap.settings, snap.deadline
        in_channel: list[str] = []
        sent: set[int] = set()  # this round's DMs: the earlier pings are deleted, not these
        # Whom the game's own line mentions (a card asks them something) is asked too: by DM if
        # they chose DMs, and then that line names them without a mention (notified once).
        hooked = [s for s in humans if s in to_act and f"{{@{s}}}" in (hook or "") and s not in asked]
        for seat_id in asked + hooked:
            seat = humans[seat_id]
            pref = await self.bot.db.prefs.notify(seat.user_id or 0)
            if pref == "off":
                continue
            # Their seat message is edited in place (cogs.seat_messages): this DM is what notifies.
            if pref == "dm":
                dm_id = await self._dm(rec, game, seat, reminder, deadline, settings)
                if dm_id is not None:
                    sent.add(dm_id)
                    hook = hook.replace(f"{{@{seat_id}}}", f"{{{seat_id}}}") if hook else hook
                    continue
            if seat_id in asked:
                in_channel.append(seat_id)
        lines = []
        if hook:
            lines.append(hook)
        mentioned_by_hook = {s for s in humans if f"{{@{s}}}" in (hook or "")}
        lines += self._ask_lines(rec, game, [p for p in in_channel if p not in mentioned_by_hook], reminder, settings)
        if not lines:
            if sent:
                await self.delete_earlier(rec, keep=sent)
            else:
                await self.relink(rec, moved_from)
            return 0
        if deadline is not None:
            lines.append(self._deadline_line(rec, deadline, [humans[p] for p in asked], settings))
        lines.append(f"[Go to the board]({board_link(rec)})")
        return await self._post(rec, "\n".join(lines), events, keep=sent, carrier=carrier)

    def _ask_lines(self, rec: GameRecord, game: Game, seats: list[str], reminder: bool,
                   settings: GuildSettings) -> list[str]:
        """One line per different question: '🔔 @A, @B: plan your cards in …'."""
        ui = ui_for(rec.kind)
        title = f"**{registry.get(rec.kind).title}** #{rec.id}"
        by_ask: dict[str, list[str]] = {}
        for seat in seats:
            ask = ui.ask(game, seat)
            if must_act_privately(game, seat):
                route = next((s.private_route for s in rec.seats if s.seat == seat), "unknown")
                dm = route == "dm" and settings["hidden_pick_mode"] != "ephemeral"
                ask += " (your DM has the choices)" if dm else " (press 🔒 Show my hand / plan on the board)"
            by_ask.setdefault(ask, []).append(seat)
        bell = "⏰ Reminder:" if reminder else "🔔"
        return [f"{bell} {', '.join(f'{{@{s}}}' for s in group)}, it's your turn in {title}: {ask}."
                for ask, group in by_ask.items()]

    def _deadline_line(self, rec: GameRecord, deadline: float, seats: list[SeatRecord],
                       settings: GuildSettings) -> str:
        return f"⏳ Time runs out <t:{int(deadline)}:R>; {afk_outcome(seats, settings, rec.seats)}."

    async def _post(self, rec: GameRecord, template: str, events: list[Event], keep: set[int],
                    carrier: Carrier | None = None) -> int:
        content, pinged = fill_mentions(template, rec, text.shown_names(event_names(rec, events)))
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(user_id) for user_id in dict.fromkeys(pinged)])
        sent_id = None
        if carrier is not None and carrier.carries_ping(rec.table_channel_id):
            # A followup notifies exactly like a channel message, outside the global limit.
            try:
                followup = carrier.interaction.followup
                sent_id = (await followup.send(text.fit(content), suppress_embeds=True, allowed_mentions=mentions,
                                               wait=True)).id
                self._webhooks[sent_id] = (followup, carrier.interaction)
            except discord.HTTPException:
                carrier.broken = True  # its token was refused: not tried again (cogs.carrier)
                log.info("game %s: the click's token could not send the ping; sending it in the channel", rec.id)
        if sent_id is None:
            # By id: the server may be on another shard. In the game's thread if it has one.
            channel = self.bot.get_partial_messageable(rec.table_channel_id)
            sent_id = (await channel.send(text.fit(content), suppress_embeds=True, allowed_mentions=mentions)).id
        await self.bot.db.pings.add(rec.id, rec.table_channel_id, sent_id)
        self._texts[sent_id] = (text.fit(content), mentions)
        await self.delete_earlier(rec, keep={*keep, sent_id})
        return sent_id

    async def _dm(self, rec: GameRecord, game: Game, seat: SeatRecord, reminder: bool, deadline: float | None,
                  settings: GuildSettings) -> int | None:
        """The ping as a DM (notify=dm); its id, or None if their DMs are closed (then the
        channel takes over)."""
        assert seat.user_id is not None
        title = registry.get(rec.kind).title
        bell = "⏰ Reminder:" if reminder else "🔔"
        lines = [f"{bell} It's your turn in **{title}** #{rec.id} (<#{rec.table_channel_id}>): "
                 f"{ui_for(rec.kind).ask(game, seat.seat)}."]
        if deadline is not None:
            lines.append(f"⏳ Time runs out <t:{int(deadline)}:R>; {afk_outcome([seat], settings, rec.seats)}.")
        lines.append(f"[Go to the board]({board_link(rec)})")
        content = text.fit("\n".join(lines))
        sent_id = await self._dm_followup(rec, seat, content)
        if sent_id is not None:
            return sent_id
        try:
            sent = await self.bot.dms.send(seat.user_id, content=content, suppress_embeds=True, allowed_mentions=NOBODY)
        except discord.Forbidden:
            return None
        await self.bot.db.pings.add(rec.id, sent.channel.id, sent.id)
        self._texts[sent.id] = (content, NOBODY)
        return sent.id

    async def _dm_followup(self, rec: GameRecord, seat: SeatRecord, content: str) -> int | None:
        """The DM ping as a followup of the member's newest live click in their seat message (it lands
        in that DM and notifies like any DM, outside the global limit); None when there is none."""
        stored = await self.bot.db.seat_messages.get(rec.id, seat.seat)
        if stored is None or not stored.message_id:
            return None
        carrier = self.bot.outbox.live.on(stored.message_id)
        if carrier is None:
            return None
        followup = carrier.interaction.followup
        try:
            sent = await followup.send(content, suppress_embeds=True, allowed_mentions=NOBODY, wait=True)
        except discord.HTTPException:
            carrier.broken = True  # its token was refused: the DM channel from now on
            return None
        self._webhooks[sent.id] = (followup, carrier.interaction)
        await self.bot.db.pings.add(rec.id, stored.channel_id, sent.id)
        self._texts[sent.id] = (content, NOBODY)
        return sent.id

    async def delete_earlier(self, rec: GameRecord, *, keep: set[int]) -> None:
        """Delete the game's earlier pings (a superseded ping is noise), keeping ``keep``. The
        deletes run in the background: the player's answer need not wait for them, and a ping
        whose delete did not happen stays in the table, so the next ping deletes it."""
        stale = [(c, m) for c, m in await self.bot.db.pings.of_game(rec.id) if m not in keep]
        if stale:
            task = asyncio.create_task(self._delete(rec.id, stale), name=f"pings-delete-{rec.id}")
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def _delete(self, game_id: int, stale: list[tuple[int, int]]) -> None:
        try:
            for channel_id, message_id in stale:
                with contextlib.suppress(discord.NotFound, discord.Forbidden):
                    await self._delete_one(channel_id, message_id)
                await self.bot.db.pings.drop(game_id, message_id)
                self._webhooks.pop(message_id, None)
                self._texts.pop(message_id, None)
        except Exception:
            log.warning("game %s: deleting an old ping failed; the next ping tries again", game_id, exc_info=True)

    async def _delete_one(self, channel_id: int, message_id: int) -> None:
        """Through the webhook that sent it while its token lives, else through the channel."""
        hook = self._webhooks.get(message_id)
        if hook is not None and token_alive(hook[1]):
            try:
                await hook[0].delete_message(message_id)
                return
            except discord.NotFound:
                raise
            except discord.HTTPException:
                log.info("deleting ping %s through its interaction failed; deleting it in the channel", message_id)
        await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).delete()

    async def relink(self, rec: GameRecord, moved_from: int | None) -> None:
        """The board moved from message ``moved_from`` (cogs.board_hop) and no new ping replaced
        the game's standing ones: their link names the new board (through the webhook that sent
        one while its token lives, else its channel). A link that cannot be changed stays."""
        if moved_from is None:
            return
        old, new = f"({board_link(rec, moved_from)})", f"({board_link(rec)})"
        for channel_id, message_id in await self.bot.db.pings.of_game(rec.id):
            kept = self._texts.get(message_id)
            if kept is None or old not in kept[0]:
                continue
            content = kept[0].replace(old, new)
            hook = self._webhooks.get(message_id)
            try:
                if hook is not None and token_alive(hook[1]):
                    await hook[0].edit_message(message_id, content=content, allowed_mentions=kept[1])
                else:
                    partial = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
                    await partial.edit(content=content, allowed_mentions=kept[1])
            except discord.HTTPException:
                log.info("game %s: ping %s still links the old board", rec.id, message_id)
                continue
            self._texts[message_id] = (content, kept[1])

    # -- at the end -------------------------------------------------------------------------
    async def game_over(self, rec: GameRecord, game: Game | None) -> int:
        """Delete the game's pings and post one notice saying how it ended (mentions nobody).
        Returns the notice's id."""
        title = registry.get(rec.kind).title
        names = text.seat_names(rec.seats)
        if rec.status == "finished" and rec.result:
            first = (rec.result.get("ranking") or [[]])[0]
            who = ", ".join(f"{{{p}}}" for p in first if p in names)  # placeholders, filled once below
            how = f"{who} won" if len(first) == 1 else f"a tie between {who}" if first else "it has ended"
        else:
            how = f"it was {rec.status}"
        content = f"🏁 **{title}** #{rec.id} is over: {how}. [See the result]({board_link(rec)})"
        if rec.state is not None:  # it had started: spectators can watch it again
            content += f" · replay: `/game replay {rec.id}`"
        # In the channel (not the game's thread): the table's result is the channel's news.
        channel = self.bot.get_partial_messageable(rec.channel_id)  # by id: the server may be on another shard
        # A kill between Discord's answer and the noted id makes the restarted bot send it again:
        # the nonce (enforced, so Discord dedupes for a few minutes) makes that the same message.
        sent = await channel.send(text.fit(fill_names(content, names)), suppress_embeds=True, allowed_mentions=NOBODY,
                                  nonce=f"dt-end-{rec.id}")
        await self.delete_earlier(rec, keep=set())
        return sent.id


def afk_outcome(seats: list[SeatRecord], settings: GuildSettings, table: list[SeatRecord]) -> str:
    """What happens when the time runs out for ``seats`` (of the game's ``table``), in words:
    the AFK policy (sessions.on_timer). A game whose last human seat would go to an AI is
    abandoned rather than left to the AIs."""
    strikes = int(settings["afk_strikes"])
    out = {s.seat for s in seats if s.timeouts_in_a_row + 1 >= strikes}
    if out and settings["afk_action"] == "abandon":
        return "then the game is abandoned"
    if out and all(s.is_ai or s.seat in out for s in table):
        return "then the game is abandoned (no player would be left)"
    return "then the AI plays for you"


def fill_mentions(template: str, rec: GameRecord, names: dict[str, str]) -> tuple[str, list[int]]:
    """Fill ``{p1}`` with names and ``{@p1}`` with a mention of that seat's user, in one pass
    (a name containing ``{@p2}`` stays text); returns the text and the user ids it pings. An
    AI seat, or a seat without a user, is named instead."""
    users = {s.seat: s.user_id for s in rec.seats if s.user_id and not s.is_ai}
    pinged: list[int] = []

    def one(match: re.Match[str]) -> str:
        seat = match.group(2)
        if match.group(1) and seat in users:
            if users[seat] not in pinged:
                pinged.append(users[seat])
            return f"<@{users[seat]}>"
        return names.get(seat, seat)

    return _MENTION_OR_NAME.sub(one, template), pinged
