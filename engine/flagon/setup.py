"""The Dragon & Flagon's setup: the starting state of a new game (tavern layout, Game End
tokens, who chooses characters in which order), and the setup actions that choose and place
the characters."""

from __future__ import annotations

from typing import Any

from engine.base import STATE_VERSION_KEY, Event
from engine.flagon import geometry as G
from engine.flagon.board import load_layout
from engine.flagon.cards import dragon_of
from engine.flagon.rules import cname
from engine.flagon.teams import team_quotas, team_sides
from engine.rng import Rng


def initial_state(
    players: list[str], seed: int, opts: dict[str, Any], picks: dict[str, str], version: int
) -> dict[str, Any]:
    """A new game's state: ``opts`` resolved already, ``picks`` the lobby's team picks."""
    lay = load_layout(opts["layout"])
    rng = Rng(seed)
    per = 2 if len(players) <= 4 else 1
    quota = {p: per for p in players}
    teams = None
    if opts["team"]:
        teams = team_sides(players, picks)
        quota = team_quotas(players, teams)
    queue = _choice_queue(players, quota, teams, per, rng)
    guard_tokens = ["guard", "blank", "blank", "blank"]
    rng.shuffle(guard_tokens)
    first_space = 27 if opts["extended"] else 21
    prizes: dict[str, str | None] = {}
    if opts["cookies"] in ("off", "with"):
        prizes["flagon"] = G.name(lay.centre)
    if opts["cookies"] in ("instead", "with"):
        prizes["cookies"] = G.name(lay.centre)
    state: dict[str, Any] = {
        STATE_VERSION_KEY: version,
        "players": list(players),
        "options": opts,
        "layout": lay.name,
        "width": lay.width,
        "height": lay.height,
        "centre": G.name(lay.centre),
        "start": [G.name(q) for q in lay.start],
        "tables": {t: sorted(G.name(q) for q in sqs) for t, sqs in lay.tables.items()},
        "rugs": {r: sorted(G.name(q) for q in sqs) for r, sqs in lay.rugs.items()},
        "chairs": _count(lay.chairs),
        "mugs": _count(lay.mugs),
        "barrels": sorted(G.name(q) for q in lay.barrels),
        "prizes": prizes,
        "familiar": None,
        "barrage": None,
        "mark": None,
        "teams": teams,
        "quota": quota,
        "queue": queue,
        "chars": {},
        "statuses": [],
        "game_end": [
            {"space": first_space + i, "guard": t == "guard", "revealed": False}
            for i, t in enumerate(guard_tokens)
        ],
        "marker": 1,
        "seq": 0,
        "phase": "setup",
        "actives": [],
        "order": [],
        "idx": 0,
        "acted": [],
        "current": None,
        "after": None,
        "removed_rep": 0,
        "pending": None,
        "result": None,
        "forced_order": None,
        "steps": 0,
        "rng": rng.state,
    }
    return state


def _choice_queue(
    players: list[str], quota: dict[str, int], teams: dict[str, str] | None, per: int, rng: Rng
) -> list[list[Any]]:
    """Who chooses a character, in order: round after round in seat order; in the team game
    the teams alternate (a random one first), each choice followed by its placement."""
    queue: list[list[Any]] = []
    if teams:
        start_team = "AB"[rng.below(2)]
        members = {t: [p for p in players if teams[p] == t] for t in "AB"}
        left = dict(quota)
        turn = start_team
        idx = {"A": 0, "B": 0}
        while any(left.values()):
            group = [p for p in members[turn] if left[p] > 0]
            if group:
                p = group[idx[turn] % len(group)]
                idx[turn] += 1
                left[p] -= 1
                queue.append(["choose", p])
                queue.append(["place_last", p])
            turn = "B" if turn == "A" else "A"
    else:
        for r in range(per):
            for p in players:
                if quota[p] > r:
                    queue.append(["choose", p])
    return queue


def play_setup(s: dict[str, Any], player: str, action: str) -> list[Event]:
    """Play a setup action (``char:<id>`` or ``start:<square>``) on state ``s``; once the
    last character is placed the phase is \"plan\" (the game then begins the first time step)."""
    verb, arg = action.split(":", 1)
    _, who = s["queue"].pop(0)
    if verb == "char":
        s["chars"][arg] = {
            "id": arg, "owner": player, "pos": None, "facing": "N", "prone": False, "held": None,
            "rep": 20, "token": 1, "seq": 0, "slots": [], "faceup": [], "removed": [], "mat": [dragon_of(arg)],
            "playing": None, "riposte": False, "loaded": True, "gaia_last": None, "actions": 0,
            "placed": len(s["chars"]),
        }  # fmt: skip
        evs = [Event("choose", f"{{{player}}} takes {cname(arg)}.", data={"char": arg})]
        if not s["queue"]:  # every character chosen: placement in a random order
            order = sorted(s["chars"])
            rng = Rng.from_state(s["rng"])
            rng.shuffle(order)
            s["rng"] = rng.state
            s["queue"] = [["place", c] for c in order]
            evs.append(Event("setup", "Placement order: " + ", ".join(cname(c) for c in order) + "."))
        elif s["queue"][0][0] == "place_last":
            s["queue"][0] = ["place", arg]
        return evs
    cid = who
    c = s["chars"][cid]
    lay = load_layout(s["layout"])
    c["pos"] = arg
    c["facing"] = lay.start_facing(G.parse(arg))
    s["seq"] += 1
    c["seq"] = s["seq"]
    evs = [
        Event(
            "place",
            f"{{{player}}} places {cname(cid)} on {arg}, facing {c['facing']}.",
            data={"char": cid, "at": arg},
        )
    ]
    if not s["queue"]:
        s["phase"] = "plan"
        evs.append(Event("start", "All characters are in the tavern. Time step 1: everyone plans two cards."))
    return evs


def _count(sqs: tuple[tuple[int, int], ...]) -> dict[str, int]:
    out: dict[str, int] = {}
    for q in sqs:
        out[G.name(q)] = out.get(G.name(q), 0) + 1
    return out
