"""The Dragon & Flagon's public table in Discord (the FlagonUI hooks in cogs.ui.flagon that
need no secret): the move menu's labels, the lobby's teams, the pings and turn questions, the
board's "Recent" lines and picture.

* Public choices (character, start square, every question while a card resolves) go through the
  platform's move menu: :func:`menu_path` gives short labels, grouping long square lists (a
  Familiar can land on any of 121 squares) by column so each level fits the board or a select.
* The Recent lines fold a revealed card, its effects and its time token's move into one line,
  read from the events' data (engine.flagon.events), never from their wording.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

import discord

from cogs import routing
from cogs.announcer import actor_of
from engine import Event, Game, game_options
from engine.flagon import new_game
from engine.flagon.cards import CHARACTER_NAMES, load_cards
from engine.flagon.events import card_revealed, token_moved
from engine.flagon.game import FlagonGame
from engine.flagon.notation import VERB_LABELS, FlagonAction
from engine.flagon.view import FlagonView
from render import text
from sessions import SessionError
from storage import GameRecord

if TYPE_CHECKING:
    from bot import DragonTavern

# A question with more options than this is grouped by board column (11 columns at most).
MAX_FLAT = 15


class Team(NamedTuple):
    team: str


TEAM = routing.Spec("x", Team, "{team}", control="team")
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
    if _public_count(tuple(game.legal_actions(seat))) <= MAX_FLAT:
        return [label]  # few options: one board button each
    if _is_square(arg):  # many squares: a button per column, then a select of its squares
        return [f"{_SHORT_VERB.get(verb, verb)} — column {arg[0]}", arg]
    return [f"{_SHORT_VERB.get(verb, verb)} — other", label]


@lru_cache(maxsize=64)
def _public_count(legal: tuple[str, ...]) -> int:
    """How many of these legal actions are public (FlagonGame.is_private_action reads only the
    action's text). The menu asks menu_path once per action: counted once per set of actions,
    not once per action (that was quadratic: 121 squares for a Familiar, ~15,000 parses)."""
    return sum(1 for a in legal if not FlagonAction.from_text(a).is_private)


def _public(game: Game) -> FlagonView:
    """The public view with its shape (the hooks get a Game; this plug-in's is a FlagonGame)."""
    if not isinstance(game, FlagonGame):
        raise TypeError(f"a Dragon & Flagon hook got a {type(game).__name__}")
    return game.typed_view(None)


def _placing(game: Game) -> str:
    """The character being placed now (asked from the engine's public setup queue)."""
    cid = game.character_being_placed() if isinstance(game, FlagonGame) else None
    return _cname(cid) if cid else "a character"


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
    teams = game.typed_view(None)["teams"]
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
                              custom_id=TEAM.make(rec.id, Team(team)), row=2) for team in "AB"]


def _team_option_on(rec: GameRecord) -> bool:
    return rec.options.get("team") is True  # options are saved parsed


async def on_choose_team(bot: DragonTavern, interaction: discord.Interaction, route: routing.Route) -> None:
    """Join team A / Join team B in the lobby: record the clicking player's team, redraw the lobby."""
    rec = await bot.db.games.load(route.game_id)
    if rec.status != "lobby" or not _team_option_on(rec):
        raise SessionError("Teams are picked in the lobby of a team game.")
    await interaction.response.defer()
    outcome = await bot.service.choose_team(route.game_id, actor_of(interaction), TEAM.read(route).team)
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
    pending = _public(game)["pending"]
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

def event_lines(events: list[Event]) -> list[str]:
    """One line per revealed card ("{p1}'s Nari — Backstab: Sir Goodheart gives 5 reputation
    to Nari · faces E, +2 time → 7"); plans arriving are one progress line (progress_line), so
    the board's six "Recent" lines cover a whole time step rather than its last card. Read from
    the events' data (engine.flagon.events), never their wording; an event saved without data
    (by an older bot) is a line of its own text."""
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
        reveal = card_revealed(e)
        if reveal:
            flush_group()
            group = [f"{{{reveal['owner']}}}'s {_cname(reveal['char'])} — {_arg_label(reveal['card'])}"]
            continue
        token = token_moved(e)
        if token:
            if group is None:  # the card was revealed in an earlier outcome (a question between)
                group = [f"↳ {_cname(token['char'])}"]
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
    pending = _public(game)["pending"]
    if pending:
        return f"answer {_cname(pending['acting'])}'s card"
    return "make your move"


def progress_line(game: Game, events: list[Event]) -> str | None:
    """While plans come in: who still plans, by player and character (public: the board shows
    who is planning), one Recent line updated as plans arrive."""
    if not any(e.kind == "planned" for e in events):
        return None
    view = _public(game)
    waiting: dict[str, list[str]] = {}
    if view["phase"] == "plan":
        for char in view["characters"]:
            if char["planning"] and char["owner"]:
                waiting.setdefault(char["owner"], []).append(char["name"])
    if not waiting:
        return "All plans are in."
    return "Still planning: " + ", ".join(f"{{{who}}} ({', '.join(chars)})" for who, chars in waiting.items())
