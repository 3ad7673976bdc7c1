"""Discord UI for The Dragon & Flagon (a cogs.ui.GameUI plug-in: FlagonUI at the end).

* The public table (the move menu's labels, the lobby's teams, pings, the board's Recent lines)
  is in cogs.ui.flagon_table; the finished game's action log in cogs.ui.flagon_log.
* Secret planning: :func:`private_message` builds ONE prompt per owner holding, for each of
  their characters that must plan now, a select of the cards that may be planned and the slots
  filled so far. Choosing a card plans it at once and the same message is edited into the next
  state; a new planning phase edits the same DM again (cogs.seat_messages): one DM per game, and the
  turn ping says when to plan.
  The board's "🔒 Show my hand / plan" button opens the same prompt ephemerally.
* Late Night: the prompt never names a placed card, not even to its owner.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

import discord

from cogs import routing
from cogs.announcer import actor_of
from cogs.components import Layout
from cogs.ui import GameUI, register
from cogs.ui.flagon_log import ACTION_LOG, action_log_text, final_rows, on_send_action_log
from cogs.ui.flagon_table import (
    TEAM,
    _arg_label,
    _cname,
    announce,
    ask,
    event_lines,
    image_view,
    lobby_fields,
    lobby_rows,
    menu_path,
    on_choose_team,
    progress_line,
)
from engine import Event, Game
from engine.flagon.cards import CHARACTER_NAMES, deck_of, dragon_of, load_cards
from engine.flagon.game import FlagonGame
from engine.flagon.notation import SLOT_NAMES
from render import flagon as flagon_render
from render import text
from sessions import SessionError
from storage import GameRecord

if TYPE_CHECKING:
    from bot import DragonTavern

MAX_ROWS = 5  # component rows in one message
PLANNING_EVENTS = frozenset({"plan", "planned"})


class PlanSlot(NamedTuple):
    char: str | None = None  # the character whose next slot the card goes to; None: a private question
    filled: int | None = None  # its slots filled when the prompt was drawn (a later one is stale)


PLAN = routing.Spec("x", PlanSlot, "q", "{char}.{filled}", control="plan")
CARD_TEXTS = routing.Spec("x", routing.NoFields, control="texts")


# -- secret planning: the private prompt ----------------------------------------------------------


def private_prompt_due(game: Game, seat: str, events: list[Event]) -> bool:
    """This outcome moved past the owner's planning step (a new phase, a card revealed, a
    question) rather than only recording plans within it: the confirmation of their last card
    says the step is done. Either way the same prompt is edited in place (cogs.seat_messages)."""
    return not events or any(e.kind not in PLANNING_EVENTS for e in events)


def _own_lines(view: dict[str, Any], own_events: list[Event], names: dict[str, str]) -> list[str]:
    late = bool(view.get("late_night"))
    lines = []
    for e in own_events:
        if late and e.kind in ("plan", "daze_card"):
            continue  # Late Night: the owner may not look at a placed card
        lines.append(flagon_render._fill(e.text, names))
    return lines


def plan_rows(rec: GameRecord, game: Game, seat: str, view: dict[str, Any] | None = None) -> list[discord.ui.Item]:
    """One select per character of ``seat`` that must plan now (cards that may be planned now),
    then a select for a private question (Daze card, Vision) if one is pending. ``view``:
    ``game.view(seat)``, when the caller has it already."""
    cards = load_cards()
    by_char: dict[str, list[str]] = {}
    private = [a for a in game.legal_actions(seat) if game.is_private_action(seat, a)]
    for action in private:
        parts = action.split(":")
        if parts[0] == "plan":
            by_char.setdefault(parts[1], []).append(action)
    items: list[discord.ui.Item] = []
    mine = (game.view(seat) if view is None else view).get("me", {}).get("characters", {})
    for row, (cid, actions) in enumerate(sorted(by_char.items())[:4]):
        slot = int(actions[0].split(":")[2])
        filled = len(mine.get(cid, {}).get("slots", []))
        need = _still_needed(game, cid)
        options = []
        for action in actions[:25]:
            card = cards[action.split(":")[3]]
            options.append(discord.SelectOption(label=text.fit(card.name, text.OPTION_LABEL), value=action,
                                                description=text.fit(card.text, text.OPTION_LABEL) or None))
        placeholder = f"{_cname(cid)} — slot {SLOT_NAMES[slot - 1]}: choose a card"
        if need > 1:
            placeholder += f" ({need} to place)"
        items.append(discord.ui.Select(placeholder=text.fit(placeholder, text.PLACEHOLDER), options=options, row=row,
                                       custom_id=PLAN.make(rec.id, PlanSlot(cid, filled))))
    question = [a for a in private if not a.startswith("plan:")]
    if question:
        verb = question[0].split(":", 1)[0]
        about = _cname(question[0].split(":")[1])
        title = {"daze": f"{about} is Dazed: a card goes into the next slot now",
                 "vision": f"{about}'s Vision becomes…"}.get(verb, "Your secret choice…")
        options = [discord.SelectOption(label=text.fit(_arg_label(a.split(":")[2]), text.OPTION_LABEL), value=a)
                   for a in question[: text.SELECT_OPTIONS]]
        items.append(discord.ui.Select(placeholder=text.fit(title, text.PLACEHOLDER), options=options,
                                       row=min(4, len(items)),
                                       custom_id=PLAN.make(rec.id, PlanSlot())))
    return items


def _still_needed(game: Game, cid: str) -> int:
    """How many cards ``cid`` still has to place: the engine says (Chug, Eyes of Gaia, a short deck)."""
    return game.cards_to_place(cid) if isinstance(game, FlagonGame) else 0


def _gaia_note(view: dict[str, Any], cid: str) -> str:
    """Under Eyes of Gaia the card played last cannot be planned: say which one it was."""
    char = next((c for c in view["characters"] if c["id"] == cid), None)
    last = char.get("gaia_last") if char else None
    return f"\n👁️ Eyes of Gaia: {last} was played last, so it cannot be planned now." if last else ""


def _slot_text(view: dict[str, Any], cid: str) -> str:
    mine = view.get("me", {}).get("characters", {}).get(cid, {})
    slots = mine.get("slots", [])
    if not slots:
        return "no card placed"
    return " · ".join(f"{SLOT_NAMES[i]} {'🂠 face down' if k == '?' else _arg_label(k)}" for i, k in enumerate(slots))


def private_message(rec: GameRecord, game: Game, seat: str, own_events: list[Event], *, page: int = 0,
                    note: str | None = None) -> dict[str, Any]:
    names = text.seat_names(rec.seats)
    view = game.view(seat)
    embed = discord.Embed(title=f"🔒 The Dragon & Flagon — game #{rec.id} (only you see this)",
                          description=flagon_render.render_text(view, text.seat_names(rec.seats, "code")),
                          colour=discord.Colour.blurple())
    for cid in view.get("me", {}).get("characters", {}):
        char = next((c for c in view["characters"] if c["id"] == cid), None)
        state = " — ✍️ plan now" if char and char["planning"] else ""
        embed.add_field(name=f"{_cname(cid)}{state}", value=_slot_text(view, cid) + _gaia_note(view, cid), inline=False)
    lines = _own_lines(view, own_events, names)
    if lines:
        embed.add_field(name="For you", value="\n".join(lines), inline=False)
    rows = plan_rows(rec, game, seat, view) if not game.is_over else []
    # Always a (possibly empty) layout: an empty one clears old selects when the message is
    # edited, and send_message refuses view=None. Routed by custom_id, never stored.
    layout = Layout()
    for item in rows:
        layout.add_item(item)
    if view.get("me", {}).get("characters") and len(rows) < MAX_ROWS:
        # The selects cut card texts at 100 characters: the full texts are one click away.
        layout.add_item(discord.ui.Button(label="📖 Card texts", style=discord.ButtonStyle.secondary,
                                          row=len(rows), custom_id=CARD_TEXTS.make(rec.id, routing.NoFields())))
    if rows:
        footer = "Each choice is final and stays secret until the card is revealed."
        if view.get("late_night"):
            footer += " Late Night: once placed, a card is face down even to you."
        embed.set_footer(text=footer)
    else:
        embed.set_footer(text="Nothing to plan right now: the board shows who is still planning.")
    return text.fit_message({"content": note, "embed": embed, "view": layout})


# -- handlers -------------------------------------------------------------------------------------


async def on_plan_card(bot: DragonTavern, interaction: discord.Interaction, route: routing.Route) -> None:
    """A card chosen in the private prompt (DM or ephemeral): plan it, then edit the same
    message into what is left to plan (or a confirmation when a new phase sends a new DM)."""
    data: dict[str, Any] = dict(interaction.data or {})  # a TypedDict union; read it as a dict
    values = data.get("values") or []
    if not values:
        raise SessionError("Pick one card.")
    action = str(values[0])
    slot = PLAN.read(route)  # a card for a character's next slot, or (empty) a private question
    await interaction.response.defer()
    rec, game = await bot.service.load(route.game_id)
    seat = rec.seat_of_user(interaction.user.id)
    if seat is None or game is None:
        raise SessionError("You are not playing in this game.")
    if slot.char is not None:  # a stale prompt (a slot filled since) must not plan into another slot
        cid = slot.char
        me = game.view(seat.seat).get("me", {}).get("characters", {}).get(cid)
        if me is None or len(me["slots"]) != slot.filled or not action.startswith(f"plan:{cid}:"):
            raise SessionError("That planning prompt is out of date; use the latest one.")
    outcome = await bot.service.apply(route.game_id, actor_of(interaction), action)
    rec, new_game = outcome.record, outcome.game
    assert new_game is not None
    late = bool(new_game.view(None).get("late_night"))
    verb = action.split(":")
    if verb[0] == "plan":
        card = "a card, face down," if late else f"**{_arg_label(verb[3])}**"
        note = f"✅ {_cname(verb[1])}: {card} in slot {SLOT_NAMES[int(verb[2]) - 1]}."
    else:
        note = "✅ Done." if late else f"✅ {_cname(verb[1])}: {_arg_label(verb[2])}."
    if private_prompt_due(new_game, seat.seat, outcome.events):
        note += " All your cards for this step are placed."
    # The answer edits the prompt it came from (the interaction's response, outside the global
    # rate limit), in a DM as in an ephemeral prompt: the seat message's own delivery then finds it
    # already showing this state (cogs.seat_messages keeps a digest) and sends no second edit.
    own = [e for e in outcome.events if e.to == seat.seat]
    message = private_message(rec, new_game, seat.seat, own, note=note)
    await interaction.edit_original_response(**message)
    if interaction.guild_id is None and interaction.message is not None:
        bot.outbox.seat_messages.shown(interaction.message.id, {**message, "content": None})
    await bot.announcer.after_change(outcome, interaction)


def card_texts(chars: list[str]) -> str:
    """The full text of every card of these characters: each one's own special cards and
    Dragon card, then the common cards they share. The whole decks, whatever is planned, so
    the list reveals nothing (not even, in Late Night, which cards are placed)."""
    cards = load_cards()
    lines: list[str] = []
    for cid in chars:
        own = [cards[k] for k in deck_of(cid) if cards[k].owner == cid] + [cards[dragon_of(cid)]]
        lines.append(f"**{_cname(cid)}**")
        lines += [f"• **{c.name}**{' (Dragon card, with the Flagon)' if c.is_dragon else ''} — time "
                  f"{_time_text(c['time'])}: {c.text}" for c in own]
    lines.append("**Common cards (every character)**")
    commons = [c for c in cards.values() if c.owner == "common"]
    lines += [f"• **{c.name}** — time {_time_text(c['time'])}: {c.text}" for c in commons]
    return "\n".join(lines)


def _time_text(time: Any) -> str:
    return " or ".join(map(str, time)) if isinstance(time, list) else str(time)


async def on_show_card_texts(bot: DragonTavern, interaction: discord.Interaction, route: routing.Route) -> None:
    """📖 Card texts on the private prompt: the full texts of the clicking player's cards, privately."""
    rec, game = await bot.service.load(route.game_id)
    seat = rec.seat_of_user(interaction.user.id)
    if seat is None or game is None:
        raise SessionError("You are not playing in this game.")
    chars = sorted(game.view(seat.seat).get("me", {}).get("characters", {}))
    if not chars:
        raise SessionError("You have no character yet: choose one first.")
    embed = discord.Embed(title=f"📖 Your cards — game #{rec.id}", description=card_texts(chars),
                          colour=discord.Colour.blurple())
    embed.set_footer(text="Values marked as reconstructions: /game card <name>.")
    await interaction.response.send_message(**text.fit_message({"embed": embed}), ephemeral=True)


class FlagonUI(GameUI):
    menu = True
    # Without an event for its owner (a card planned, a Daze card, a question), a seat message
    # only changes as their plan becomes public: a card revealed, back in the deck, under the mat.
    reveals_can_wait = True
    handlers = MappingProxyType({PLAN.key: on_plan_card, ACTION_LOG.key: on_send_action_log,
                                 CARD_TEXTS.key: on_show_card_texts, TEAM.key: on_choose_team})

    def menu_path(self, game: Game, seat: str, action: str) -> list[str]:
        return menu_path(game, seat, action)

    def private_message(self, rec: GameRecord, game: Game, seat: str, own_events: list[Event], *, page: int
                        ) -> dict[str, Any]:
        return private_message(rec, game, seat, own_events, page=page)

    def final_rows(self, rec: GameRecord, game: Game) -> list[discord.ui.Item[Any]]:
        return final_rows(rec, game)

    def event_lines(self, events: list[Event]) -> list[str]:
        return event_lines(events)

    def lobby_fields(self, rec: GameRecord) -> list[tuple[str, str]]:
        return lobby_fields(rec)

    def lobby_rows(self, rec: GameRecord) -> list[discord.ui.Item[Any]]:
        return lobby_rows(rec)

    def announce(self, rec: GameRecord, game: Game, events: list[Event]) -> str | None:
        return announce(rec, game, events)

    def image_view(self, view: dict[str, Any]) -> dict[str, Any]:
        return image_view(view)

    def ask(self, game: Game, seat: str) -> str:
        return ask(game, seat)

    def progress_line(self, game: Game, events: list[Event]) -> str | None:
        return progress_line(game, events)


register("flagon", FlagonUI())

# Used from outside through this module (the fuzzer, tests): the plug-in's whole surface.
__all__ = ["CHARACTER_NAMES", "FlagonUI", "action_log_text", "card_texts", "event_lines", "menu_path",
           "plan_rows", "private_message", "private_prompt_due", "progress_line"]
