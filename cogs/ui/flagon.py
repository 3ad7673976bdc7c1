"""Discord UI for The Dragon & Flagon (a cogs.ui.GameUI plug-in: FlagonUI at the end).

* Public choices (character, start square, every question while a card resolves) go through the
  platform's move menu: :func:`menu_path` gives short labels, grouping long square lists (a
  Familiar can land on any of 121 squares) by column so each level fits the board or a select.
* Secret planning: :func:`private_message` builds ONE prompt per owner holding, for each of
  their characters that must plan now, a select of the cards that may be planned and the slots
  filled so far. Choosing a card plans it at once and the same message is edited into the next
  state; a new planning phase edits the same DM again (cogs.hands): one DM per game, and the
  turn ping says when to plan.
  The board's "🔒 Show my hand / plan" button opens the same prompt ephemerally.
* Late Night: the prompt never names a placed card, not even to its owner.
"""

from __future__ import annotations

import io
import re
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import discord

from cogs import routing
from cogs.announcer import actor_of
from cogs.components import Layout
from cogs.ui import GameUI, register
from engine import Event, Game, game_options
from engine.flagon import new_game
from engine.flagon.cards import CHARACTER_NAMES, deck_of, dragon_of, load_cards
from engine.flagon.game import SLOT_NAMES, VERB_LABELS, FlagonGame
from render import flagon as flagon_render
from render import text
from sessions import SessionError
from storage import GameRecord

if TYPE_CHECKING:
    from bot import DragonTavern

# A question with more options than this is grouped by board column (11 columns at most).
MAX_FLAT = 15
MAX_ROWS = 5  # component rows in one message
PLANNING_EVENTS = frozenset({"plan", "planned"})
_SHORT_VERB = {"to": "Go to", "target": "Target", "dir": "Direction", "face": "Face", "slide": "Slide to",
               "time": "Riposte time", "item": "Take", "barrel": "Barrel on", "from": "Cast from",
               "at": "Place on", "turn": "Turn", "preface": "Face first"}  # fmt: skip


def _cname(cid: str) -> str:
    return CHARACTER_NAMES.get(cid, cid)


def _arg_label(arg: str) -> str:
    cards = load_cards()
    if arg in cards:
        return cards[arg].name
    if arg in CHARACTER_NAMES:
        return CHARACTER_NAMES[arg]
    return arg


def _is_square(arg: str) -> bool:
    return len(arg) >= 2 and arg[0].isalpha() and arg[0].islower() and arg[1:].isdigit()


# -- public choices: the move menu ----------------------------------------------------------------


def menu_path(game: Game, seat: str, action: str) -> list[str]:
    verb, _, rest = action.partition(":")
    if verb == "char":
        return ["🎭 Choose a character", _cname(rest)]
    if verb == "start":
        return [f"📍 Place {_placing(game)}", rest]
    _, _, arg = rest.partition(":")
    label = f"{_SHORT_VERB.get(verb, VERB_LABELS.get(verb, verb).capitalize())} {_arg_label(arg)}"
    count = sum(1 for a in game.legal_actions(seat) if not game.is_private_action(seat, a))
    if count <= MAX_FLAT:
        return [label]  # few options: one board button each
    if _is_square(arg):  # many squares: a button per column, then a select of its squares
        return [f"{_SHORT_VERB.get(verb, verb)} — column {arg[0]}", arg]
    return [f"{_SHORT_VERB.get(verb, verb)} — other", label]


def _placing(game: Game) -> str:
    """The character being placed now (asked from the engine's public setup queue)."""
    cid = game.character_being_placed() if isinstance(game, FlagonGame) else None
    return _cname(cid) if cid else "a character"


# -- secret planning: the private prompt ----------------------------------------------------------


def private_prompt_due(game: Game, seat: str, events: list[Event]) -> bool:
    """This outcome moved past the owner's planning step (a new phase, a card revealed, a
    question) rather than only recording plans within it: the confirmation of their last card
    says the step is done. Either way the same prompt is edited in place (cogs.hands)."""
    return not events or any(e.kind not in PLANNING_EVENTS for e in events)


def _own_lines(view: dict[str, Any], own_events: list[Event], names: dict[str, str]) -> list[str]:
    late = bool(view.get("late_night"))
    lines = []
    for e in own_events:
        if late and e.kind in ("plan", "daze_card"):
            continue  # Late Night: the owner may not look at a placed card
        lines.append(flagon_render._fill(e.text, names))
    return lines


def plan_rows(rec: GameRecord, game: Game, seat: str) -> list[discord.ui.Item]:
    """One select per character of ``seat`` that must plan now (cards that may be planned now),
    then a select for a private question (Daze card, Vision) if one is pending."""
    cards = load_cards()
    by_char: dict[str, list[str]] = {}
    private = [a for a in game.legal_actions(seat) if game.is_private_action(seat, a)]
    for action in private:
        parts = action.split(":")
        if parts[0] == "plan":
            by_char.setdefault(parts[1], []).append(action)
    items: list[discord.ui.Item] = []
    view = game.view(seat)
    mine = view.get("me", {}).get("characters", {})
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
                                       custom_id=routing.make(rec.id, "x", "plan", f"{cid}.{filled}")))
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
                                       custom_id=routing.make(rec.id, "x", "plan", "q")))
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
    rows = plan_rows(rec, game, seat) if not game.is_over else []
    # Always a (possibly empty) layout: an empty one clears old selects when the message is
    # edited, and send_message refuses view=None. Routed by custom_id, never stored.
    layout = Layout()
    for item in rows:
        layout.add_item(item)
    if view.get("me", {}).get("characters") and len(rows) < MAX_ROWS:
        # The selects cut card texts at 100 characters: the full texts are one click away.
        layout.add_item(discord.ui.Button(label="📖 Card texts", style=discord.ButtonStyle.secondary,
                                          row=len(rows), custom_id=routing.make(rec.id, "x", "texts")))
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
    key = route.arg(1)  # "<cid>.<filled>" (a card for that character) or "q" (a private question)
    await interaction.response.defer()
    rec, game = await bot.service.load(route.game_id)
    seat = rec.seat_of_user(interaction.user.id)
    if seat is None or game is None:
        raise SessionError("You are not playing in this game.")
    if key != "q":  # a stale prompt (a slot filled since) must not plan into another slot
        cid, _, filled = key.partition(".")
        me = game.view(seat.seat).get("me", {}).get("characters", {}).get(cid)
        if me is None or str(len(me["slots"])) != filled or not action.startswith(f"plan:{cid}:"):
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
    # rate limit), in a DM as in an ephemeral prompt: the hand's own delivery then finds it
    # already showing this state (cogs.hands keeps a digest) and sends no second edit.
    own = [e for e in outcome.events if e.to == seat.seat]
    message = private_message(rec, new_game, seat.seat, own, note=note)
    await interaction.edit_original_response(**message)
    if interaction.guild_id is None and interaction.message is not None:
        bot.outbox.hands.shown(interaction.message.id, {**message, "content": None})
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


# -- the lobby ------------------------------------------------------------------------------------


def lobby_fields(rec: GameRecord) -> list[tuple[str, str]]:
    """Characters per player and, in the team game, the teams the current seats would form
    (asked from the engine itself, so the lobby can never disagree with the rules)."""
    seats = [s.seat for s in rec.seats]
    names = text.seat_names(rec.seats)
    if len(seats) < 2:
        return [("Characters", "2–4 players: two characters each; 5–8 players: one each.")]
    try:
        game = new_game(seats, seed=0, **game_options(rec.options))
    except ValueError as exc:
        return [("Characters", f"⚠️ {exc}")]
    quota = game.character_quota()
    total = sum(quota.values())
    per = sorted(set(quota.values()))
    each = f"{per[0]} each" if len(per) == 1 else ", ".join(f"{names[p]} {n}" for p, n in quota.items())
    fields = [("Characters", f"{total} characters: {each}. Choose them after Start (taken ones disappear).")]
    teams: dict[str, str] | None = game.view(None)["teams"]
    if teams:
        for team in "AB":
            members = ", ".join(f"{names[p]} ({quota[p]})" for p in seats if teams[p] == team)
            fields.append((f"Team {team}", members))
    return fields


def lobby_rows(rec: GameRecord) -> list[discord.ui.Item]:
    """In a team-game lobby, the "Choose your team" buttons (players who do not pick alternate)."""
    if not _team_option_on(rec):
        return []
    return [discord.ui.Button(label=f"Join team {team}", style=discord.ButtonStyle.secondary,
                              custom_id=routing.make(rec.id, "x", "team", team), row=2) for team in "AB"]


def _team_option_on(rec: GameRecord) -> bool:
    return rec.options.get("team") is True  # options are saved parsed


async def on_choose_team(bot: DragonTavern, interaction: discord.Interaction, route: routing.Route) -> None:
    """Join team A / Join team B in the lobby: record the clicking player's team, redraw the lobby."""
    rec = await bot.db.load_game(route.game_id)
    if rec.status != "lobby" or not _team_option_on(rec):
        raise SessionError("Teams are picked in the lobby of a team game.")
    await interaction.response.defer()
    outcome = await bot.service.choose_team(route.game_id, actor_of(interaction), route.arg(1))
    await bot.announcer.after_change(outcome, interaction)


# -- pings: editing the board notifies nobody ------------------------------------------------------


# What a question asks, in words, for its ping ("your choice — which way to face").
PING_QUESTIONS = {
    "face": "which way to face", "to": "where to go", "target": "whom to target", "dir": "which direction",
    "slide": "which way to slide along the wall", "daze": "which card goes into the next slot (Dazed)",
    "time": "how long to hold the Riposte", "vision": "what the Vision becomes", "item": "what to take",
    "barrel": "where the barrel goes", "from": "where to cast from", "at": "where to place it",
    "turn": "which way to turn", "preface": "which way to face first",
}  # fmt: skip


def announce(rec: GameRecord, game: Game, events: list[Event]) -> str | None:
    """Ping a human once per card when the rules start asking them something while it
    resolves (their own card was just revealed, or their character is knocked into a wall and
    they choose the slide). Later questions of the same card follow on the board silently."""
    pending = game.view(None).get("pending")
    if not pending:
        return None
    seat = next((s for s in rec.seats if s.seat == pending["player"]), None)
    if seat is None or seat.is_ai or seat.user_id is None:
        return None
    if pending["verb"] != "slide" and not any(e.kind == "reveal" for e in events):
        return None
    # The question is about pending["char"], the pinged player's own character; the card being
    # performed may be another player's ("acting"), e.g. a knockback into a wall or a Daze.
    about = _cname(pending["char"])
    by = "" if pending["acting"] == pending["char"] else f" (hit by {_cname(pending['acting'])}'s card)"
    if pending["verb"] in ("daze", "vision"):
        where = "your DM" if seat.private_route == "dm" else "the board's 🔒 Show my hand / plan button"
    else:
        where = "the board's buttons"
    question = PING_QUESTIONS.get(pending["verb"], VERB_LABELS.get(pending["verb"], pending["verb"]))
    return f"🔔 {{@{seat.seat}}} {about}{by}: your choice — {question}. Answer with {where}."


# -- the board's "Recent" lines ------------------------------------------------------------------

_REVEAL = re.compile(r"^(?P<who>.+) reveals (?P<card>.+?)\.?$")
_TOKEN = re.compile(r"^(?P<who>.+?) faces (?P<facing>\w+); time token moves (?P<cost>\d+) to space (?P<space>\d+)\.?$")


def event_lines(events: list[Event]) -> list[str]:
    """One line per revealed card ("{p1}'s Nari — Backstab: Sir Goodheart gives 5 reputation
    to Nari · faces E, +2 time → 7"); plans arriving are one progress line (progress_line), so
    the board's six "Recent" lines cover a whole time step rather than its last card."""
    lines: list[str] = []
    group: list[str] | None = None  # the card being resolved: head, then its effects

    def flush_group() -> None:
        nonlocal group
        if group:
            head, *effects = group
            lines.append(head + (": " + "; ".join(effects) if effects else ""))
        group = None

    for e in events:
        text = e.text.rstrip()
        if e.kind == "planned":
            continue  # told by the one progress line (progress_line), not a line per card
        reveal = _REVEAL.match(text) if e.kind == "reveal" else None
        if reveal:
            flush_group()
            group = [f"{reveal['who']} — {reveal['card']}"]
            continue
        token = _TOKEN.match(text) if e.kind == "token" else None
        if token:
            if group is None:  # the card was revealed in an earlier outcome (a question between)
                group = [f"↳ {token['who']}"]
            group[-1] += f" · faces {token['facing']}, +{token['cost']} time → {token['space']}"
            flush_group()
            continue
        if group is not None and e.kind not in ("order", "start", "end", "guard", "game_end_token"):
            group.append(text.rstrip("."))
            continue
        flush_group()
        lines.append(text)
    flush_group()
    return lines


# -- the end: the action log as a file -----------------------------------------------------------


def final_rows(rec: GameRecord, game: Game) -> list[discord.ui.Item]:
    return [discord.ui.Button(label="📜 Action log", style=discord.ButtonStyle.secondary, row=0,
                              custom_id=routing.make(rec.id, "x", "log"))]


def action_log_text(rec: GameRecord, game: Game, logged: list[Any]) -> str:
    """The game replayed from its seed and stored actions: each action in notation with its
    label, followed by the public events it caused. ``game`` is the game as it started
    (GameService.new_game_for: seat order and setup exactly as at the start). Only offered once
    the game is over, when no plan is secret any more."""
    names = {s.seat: s.display_name for s in rec.seats}
    players = [s.seat for s in sorted(rec.seats, key=lambda s: s.position)]
    lines = [f"The Dragon & Flagon — game #{rec.id}", f"Seed {rec.seed}; options {rec.options or 'default'}",
             "Players: " + ", ".join(f"{names.get(p, p)} ({p})" for p in players), ""]
    for row in logged:
        if row.source == "system":
            lines.append(f"[{row.seq}] {names.get(row.seat, row.seat)}: {row.action} (system)")
            continue
        label = flagon_render._fill(game.describe_action(row.seat, row.action), names)
        by = "" if row.source == "player" else f" [{row.source}]"
        lines.append(f"[{row.seq}] {names.get(row.seat, row.seat)}{by}: {label}  `{row.action}`")
        for event in game.play(row.seat, row.action):
            if event.to is None:
                lines.append(f"      {flagon_render._fill(event.text, names)}")
    return "\n".join(lines) + "\n"


async def on_send_action_log(bot: DragonTavern, interaction: discord.Interaction, route: routing.Route) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    rec = await bot.db.load_game(route.game_id)
    if rec.status != "finished":
        raise SessionError("The action log is available once the game is over.")
    logged = await bot.db.actions(rec.id)
    started = await bot.service.new_game_for(rec)
    # Optional work: the side lane, not the pool games need (sessions.heavywork); kept per game.
    text = await bot.side_work.submit(("flagon-log", rec.id, rec.version), action_log_text, rec, started, logged,
                                      keep=len)
    file = discord.File(io.BytesIO(text.encode()), filename=f"flagon-game-{rec.id}.txt")
    await interaction.followup.send(f"📜 Action log of game #{rec.id} ({len(logged)} actions).", file=file,
                                    ephemeral=True)




def image_view(view: dict[str, Any]) -> dict[str, Any]:
    """What the board picture shows: everything but who is still planning (the embed text says
    that), so the image is redrawn when the tavern changes, not after every submitted plan."""
    characters = [{**c, "planning": False, "slots_filled": 0, "to_place": 0} for c in view.get("characters", [])]
    return {**view, "planning": [], "to_act": [], "characters": characters}


# -- the turn ping's question ----------------------------------------------------------------------


def ask(game: Game, seat: str) -> str:
    """What the seat must do now, for its turn ping."""
    heads = {a.split(":", 1)[0] for a in game.legal_actions(seat)}
    if "char" in heads:
        return "choose a character"
    if "start" in heads:
        return f"choose where {_placing(game)} starts"
    if "plan" in heads:
        return "plan your cards"
    pending = game.view(None).get("pending")
    if pending:
        return f"answer {_cname(pending['acting'])}'s card"
    return "make your move"


def progress_line(game: Game, events: list[Event]) -> str | None:
    """While plans come in: who still plans, by player and character (public: the board shows
    who is planning), one Recent line updated as plans arrive."""
    if not any(e.kind == "planned" for e in events):
        return None
    view = game.view(None)
    waiting: dict[str, list[str]] = {}
    if view.get("phase") == "plan":
        for char in view["characters"]:
            if char.get("planning") and char.get("owner"):
                waiting.setdefault(char["owner"], []).append(char["name"])
    if not waiting:
        return "All plans are in."
    return "Still planning: " + ", ".join(f"{{{who}}} ({', '.join(chars)})" for who, chars in waiting.items())


class FlagonUI(GameUI):
    menu = True
    handlers = MappingProxyType({"plan": on_plan_card, "log": on_send_action_log, "texts": on_show_card_texts,
                                 "team": on_choose_team})

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
