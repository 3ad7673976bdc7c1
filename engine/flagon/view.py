"""What a Dragon & Flagon player or spectator sees: the shape of ``FlagonGame.view`` (typed
here) and how it is drawn from the state, one section per function.

Public: the tavern, every character (never a planned card), the time track, the question being
asked. The viewer's own part (``me``): their characters' slots (``?`` each under Late Night),
decks and mats, and a private question put to them.
"""

# No ``from __future__ import annotations``: TypedDict reads NotRequired[...] only from
# evaluated annotations (its __required_keys__ are then right at run time too).
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple, NotRequired, TypedDict

from engine.flagon import geometry as G
from engine.flagon.cards import CHARACTER_NAMES, Card, dragon_of, load_cards
from engine.flagon.rules import Ctx, Rules
from engine.flagon.rules.queries import running_statuses

if TYPE_CHECKING:
    from engine.flagon.game import FlagonGame

# Printed spaces of the time track, for display only (the engine's track is unbounded).
# PROPOSAL (spec 2.2: [UNKNOWN] P:40).
TRACK_SPACES = 40


class StatusView(TypedDict):
    card: str
    name: str
    until: int  # the time space it ends on


class CharacterView(TypedDict):
    id: str
    name: str
    owner: str
    team: str | None
    pos: str | None  # a square ("e6"); None before it is placed
    xy: list[int] | None
    facing: str
    prone: bool
    on_table: bool
    held: str | None  # "flagon", "cookies", a mug or chair, or None
    rep: int
    token: int  # its space on the time track
    stack: int  # its place among the tokens on that space
    slots_filled: int  # how many cards it has planned (never which)
    statuses: list[StatusView]
    riposte: bool
    hand_cannon: str | None  # Jack's: "loaded" / "unloaded"
    faceup: list[str]
    removed: list[str]
    dragon_card: str
    active: bool
    planning: bool
    acted: bool
    to_place: int
    gaia_last: str | None  # under Eyes of Gaia: the card played last, by name (it was revealed)


class PendingView(TypedDict):
    player: str  # who answers
    verb: str  # what is asked ("to", "target", "daze", ...)
    char: str  # the character it is about
    acting: str  # the character whose card asks it


class MyCharacter(TypedDict):
    slots: list[str]  # planned card ids in order; "?" each under Late Night
    deck: list[str]
    under_mat: list[str]


class MyChoice(TypedDict):
    verb: str
    char: str
    options: list[str]


class MyView(TypedDict):
    player: str
    characters: dict[str, MyCharacter]
    choice: NotRequired[MyChoice]


class TavernView(TypedDict):
    """The board: its layout, furniture and prizes."""

    layout: str
    grid: dict[str, int]  # width, height
    centre: str
    start_squares: list[str]
    tables: list[dict[str, Any]]  # {"id", "squares"}
    rugs: list[dict[str, Any]]
    chairs: dict[str, int]  # square -> chairs on it
    mugs: dict[str, int]
    barrels: list[str]
    prizes: dict[str, dict[str, str | None]]  # "flagon"/"cookies" -> {"at", "held_by"}
    familiar: dict[str, Any] | None
    barrage: dict[str, Any] | None
    mark_prey: dict[str, Any] | None


class FlagonView(TavernView):
    """``FlagonGame.view(player)``."""

    game: str
    phase: str  # "setup", "plan", "act", "over"
    options: dict[str, Any]
    characters: list[CharacterView]  # in the order they were chosen
    time: dict[str, Any]  # marker, stacks, status_tokens, game_end
    reputation: dict[str, int]
    scores: dict[str, int]  # by side (a player, or a team)
    teams: dict[str, str] | None
    active: list[str]
    order: list[str]
    acted: list[str]
    planning: list[str]
    current: dict[str, Any] | None  # the card being played: {"char", "card"}
    to_act: list[str]
    pending: PendingView | None
    setup: dict[str, str] | None  # {"next": "choose"/"place", "player"}
    removed_reputation: int
    card_names: dict[str, str]
    track_spaces: int
    result: dict[str, Any] | None
    late_night: bool
    revealed: NotRequired[dict[str, list[str]]]  # once over: the plans left face down
    me: NotRequired[MyView]  # a seated viewer's own part


def build_view(game: "FlagonGame", player: str | None) -> FlagonView:
    s = game.s
    cards = load_cards()
    rules = Rules(s, Ctx([]))
    pend = s["pending"]
    # Worked out once for every character: who plans, what is running, where each token stacks.
    running = running_statuses(s)
    to_place = {c: game.need(c, running) for c in s["actives"]} if s["phase"] == "plan" else {}
    planners = [c for c in s["actives"] if to_place.get(c, 0) > 0]  # game.planners(), in its order
    table = _Table(running, frozenset(planners), to_place, _stack_indices(s))
    view: FlagonView = {
        "game": "flagon",
        "phase": s["phase"],
        "options": dict(s["options"]),
        **_tavern(s),
        "characters": [_character(game, rules, cards, cid, table)
                       for cid in sorted(s["chars"], key=lambda k: s["chars"][k]["placed"])],
        "time": _time(s),
        "reputation": {c: d["rep"] for c, d in s["chars"].items()},
        "scores": game.side_scores() if s["chars"] else {},
        "teams": dict(s["teams"]) if s["teams"] else None,
        "active": list(s["actives"]),
        "order": list(s["order"]),
        "acted": list(s["acted"]),
        "planning": planners,
        "current": dict(s["current"]) if s["current"] else None,
        "to_act": game.to_act(planners),
        "pending": {"player": pend["player"], "verb": pend["verb"], "char": pend["about"], "acting": pend["char"]}
        if pend else None,
        "setup": {"next": s["queue"][0][0], "player": game._setup_player()} if s["phase"] == "setup" else None,
        "removed_reputation": s["removed_rep"],
        "card_names": dict(_card_names()),
        "track_spaces": TRACK_SPACES,
        "result": s["result"],
        "late_night": s["options"]["late_night"],
    }  # fmt: skip
    if s["result"]:
        # The plans still face down when the game ended are shown: nothing is secret any more.
        view["revealed"] = {p: plans_left(game, p, cards) for p in game.players}
    if player is not None and player in game.players:
        view["me"] = _mine(game, rules, player)
    return view


@cache
def _card_names() -> dict[str, str]:
    """Card id -> name, of the bundled cards (read it, do not change it)."""
    return {k: c.name for k, c in load_cards().items()}


def _tavern(s: dict[str, Any]) -> TavernView:
    return {
        "layout": s["layout"],
        "grid": {"width": s["width"], "height": s["height"]},
        "centre": s["centre"],
        "start_squares": list(s["start"]),
        "tables": [{"id": t, "squares": list(q)} for t, q in sorted(s["tables"].items())],
        "rugs": [{"id": t, "squares": list(q)} for t, q in sorted(s["rugs"].items())],
        "chairs": dict(s["chairs"]),
        "mugs": dict(s["mugs"]),
        "barrels": list(s["barrels"]),
        "prizes": {
            k: {"at": at, "held_by": next((c for c, d in s["chars"].items() if d["held"] == k), None)}
            for k, at in s["prizes"].items()
        },
        "familiar": dict(s["familiar"]) if s["familiar"] else None,
        "barrage": dict(s["barrage"]) if s["barrage"] else None,
        "mark_prey": dict(s["mark"]) if s["mark"] else None,
    }


class _Table(NamedTuple):
    """What every character's part of one view reads, worked out once per view."""

    running: set[tuple[str, str]]  # running_statuses(s)
    planning: frozenset[str]  # FlagonGame.planners() while planning, else empty
    to_place: dict[str, int]  # FlagonGame.cards_to_place() of the active characters while planning
    stack: dict[str, int]  # each character's place among the tokens on its space


def _character(
    game: "FlagonGame", rules: Rules, cards: dict[str, Card], cid: str, table: _Table
) -> CharacterView:
    s = game.s
    c = s["chars"][cid]
    placed = bool(c["pos"])
    return {
        "id": cid, "name": CHARACTER_NAMES[cid], "owner": c["owner"],
        "team": s["teams"][c["owner"]] if s["teams"] else None,
        "pos": c["pos"], "xy": list(G.parse(c["pos"])) if placed else None, "facing": c["facing"],
        "prone": c["prone"], "on_table": placed and rules.on_table(cid), "held": c["held"], "rep": c["rep"],
        "token": c["token"], "stack": table.stack[cid], "slots_filled": len(c["slots"]),
        "statuses": [{"card": st["card"], "name": cards[st["card"]].name, "until": st["at"]}
                     for st in s["statuses"] if st["char"] == cid],
        "riposte": c["riposte"], "hand_cannon": _hand_cannon(cid, c),
        "faceup": list(c["faceup"]), "removed": list(c["removed"]),
        "dragon_card": "under the mat" if dragon_of(cid) in c["mat"] else "in play",
        "active": cid in s["actives"], "planning": cid in table.planning,
        "acted": cid in s["acted"], "to_place": table.to_place.get(cid, 0),
        "gaia_last": _gaia_last(table.running, cards, cid, c),
    }  # fmt: skip


def _hand_cannon(cid: str, c: dict[str, Any]) -> str | None:
    if cid != "jack":
        return None
    return "loaded" if c["loaded"] else "unloaded"


def _gaia_last(
    running: set[tuple[str, str]], cards: dict[str, Card], cid: str, c: dict[str, Any]
) -> str | None:
    """Eyes of Gaia forbids the card played last; it was revealed, so it is public."""
    if not c["gaia_last"] or (cid, "eyes_of_gaia") not in running:
        return None
    return cards[c["gaia_last"]].name


def _stack_indices(s: dict[str, Any]) -> dict[str, int]:
    """Each character's place among the tokens on its space (the first there acts first on ties)."""
    by_space: dict[int, list[tuple[int, str]]] = {}
    for k, d in s["chars"].items():
        by_space.setdefault(d["token"], []).append((d["seq"], k))
    return {k: i for same in by_space.values() for i, (_, k) in enumerate(sorted(same))}


def _time(s: dict[str, Any]) -> dict[str, Any]:
    """The time track: the marker, the tokens on each space, status and Game End tokens."""
    stacks: dict[str, list[str]] = {}
    for cid in sorted(s["chars"], key=lambda k: (s["chars"][k]["token"], s["chars"][k]["seq"])):
        stacks.setdefault(str(s["chars"][cid]["token"]), []).append(cid)
    return {
        "marker": s["marker"],
        "stacks": stacks,
        "status_tokens": [
            {"char": st["char"], "card": st["card"], "space": st["at"]} for st in s["statuses"]
        ],
        "game_end": [
            {"space": t["space"], "revealed": t["revealed"], "guard": t["guard"] if t["revealed"] else None}
            for t in s["game_end"]
        ],
    }


def _mine(game: "FlagonGame", rules: Rules, player: str) -> MyView:
    """The viewer's own characters (their plans, as Late Night allows) and a question to them."""
    s = game.s
    late = s["options"]["late_night"]
    mine: dict[str, MyCharacter] = {}
    for cid in game.chars_of(player):
        c = s["chars"][cid]
        slots = ["?"] * len(c["slots"]) if late else list(c["slots"])
        mine[cid] = {"slots": slots, "deck": rules.deck(cid), "under_mat": list(c["mat"])}
    me: MyView = {"player": player, "characters": mine}
    pend = s["pending"]
    if pend and pend["player"] == player:
        me["choice"] = {"verb": pend["verb"], "char": pend["about"], "options": list(pend["options"])}
    return me


def plans_left(game: "FlagonGame", player: str, cards: dict[str, Card]) -> list[str]:
    """The cards ``player``'s characters had planned but not revealed yet, by name."""
    lines = []
    for cid in game.chars_of(player):
        slots = game.s["chars"][cid]["slots"]
        if slots:
            lines.append(f"{CHARACTER_NAMES[cid]} planned {', '.join(cards[k].name for k in slots)}")
    return lines or ["no card left face down"]
