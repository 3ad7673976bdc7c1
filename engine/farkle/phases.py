"""Dragon Farkle's phases, each with who acts, its legal moves and its moves' effects.

One table (:data:`PHASES`), in the manner of boardgame.io's phases: a :class:`Phase` names who
acts and lists the legal actions; each of its :class:`Move` s applies an action and describes it
for a button, side by side. A move is named by the action's head (``keep`` in ``keep:1,5``) and
may serve several phases (``use`` is legal in four). Adding a phase means adding one entry here.

Phases (``s["phase"]``) and who acts:

* ``choose``  the current player picks ``recruit``, ``brawl:<player>`` or ``battle``.
* ``react``   a chosen Brawl defender holding Magic Items may answer first (``pass`` / item).
* ``roll``    dice are on the table: ``keep:...`` a scoring selection, ``accept`` a Farkle or
              a Final Battle roll, or use an item / Companion that changes the roll.
* ``rally``   after keeping on a Rally face: ``rally:double`` or ``rally:item``.
* ``decide``  ``roll`` the remaining dice or ``stop`` (Recruit / Brawl).
* ``battle``  Final Battle between rolls: ``roll`` (no voluntary stop).
* ``claim``   the Brawl winner picks the one Magic Item gained in the Brawl to keep.
* ``discard`` end of turn: players above the item limit discard (simultaneous).
* ``over``    nobody acts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from engine.base import Event
from engine.farkle.core import DICE, fmt_dice
from engine.farkle.effects import EVENT_FACE_CHANGES, use_companion, use_item
from engine.farkle.flow import TurnFlow
from engine.farkle.scoring import score, scoring_selections

# Effects a player triggers on the dice just rolled (Recruit / Brawl, and some in battle).
_ROLL_ITEM_EFFECTS = ("reroll_all", "set_die", "dragon_to_blank", "blank_to_rally", "cancel_farkle")
_BATTLE_ITEM_EFFECTS = ("reroll_all", "set_die", "ignore_battle_loss", "blank_to_dragon")

# (game, player, arg, events): ``arg`` is the action after its head (``1,5`` in ``keep:1,5``).
Apply = Callable[[TurnFlow, str, str, list[Event]], None]
# (game, player, arg) -> button text; None shows the action as it is.
Describe = Callable[[TurnFlow, str, str], str | None]
# (game, player, effects): ``effects`` maps each item the player may use to its effect.
Legal = Callable[[TurnFlow, str, dict[str, str]], list[str]]


@dataclass(frozen=True)
class Move:
    apply: Apply
    describe: Describe


@dataclass(frozen=True)
class Phase:
    name: str
    to_act: Callable[[TurnFlow], list[str]]
    legal: Legal  # called only for a player in to_act; the result is sorted by the game
    moves: tuple[str, ...]  # heads of the actions ``legal`` may offer (keys of MOVES)


# ---------------------------------------------------------------------------------- moves
def _apply_recruit(g: TurnFlow, player: str, arg: str, events: list[Event]) -> None:
    g.s.update({"action": "recruit", "pool": DICE, "full": DICE, "total": 0})
    events.append(Event("action", f"{{{player}}} recruits.", data={"action": "recruit"}))
    g._roll(events)


def _apply_brawl(g: TurnFlow, player: str, arg: str, events: list[Event]) -> None:
    s = g.s
    s.update({"action": "brawl", "defender": arg, "attack_full": DICE})
    events.append(
        Event(
            "action",
            f"{{{player}}} brawls with {{{arg}}}.",
            data={"action": "brawl", "defender": arg},
        )
    )
    if g._public_item_stake_defender(arg):
        s["phase"] = "react"
        s["actor"] = arg
        return
    g._start_attack(events)


def _apply_pass(g: TurnFlow, player: str, arg: str, events: list[Event]) -> None:
    g._start_attack(events)


def _apply_battle(g: TurnFlow, player: str, arg: str, events: list[Event]) -> None:
    g.s.update({"action": "battle", "pool": DICE, "full": DICE, "total": 0, "damage": 0})
    events.append(Event("action", f"{{{player}}} marches on the Dragon's Keep!", data={"action": "battle"}))
    g._roll(events)


def _apply_keep(g: TurnFlow, player: str, arg: str, events: list[Event]) -> None:
    sel = tuple(int(x) for x in arg.split(","))
    if g.s["action"] == "battle":
        g._battle_apply(events, sel)
    else:
        g._keep(events, sel)


def _apply_accept(g: TurnFlow, player: str, arg: str, events: list[Event]) -> None:
    if g.s["action"] == "battle":
        g._battle_apply(events, None)
    else:
        g._farkle(events)


def _rally_gain(g: TurnFlow, player: str) -> tuple[str, int]:
    """The Rally "double" (or the Minstrel's triple): its word and the soldiers it adds.

    The option ``rally_double`` settles what is doubled: "roll" (default) this roll's soldiers,
    "turn" the whole turn total so far (which already includes this roll)."""
    factor = 3 if g._companion_works(player, "rally_triple") else 2
    base = g.s["total"] if g.opt["rally_double"] == "turn" else g.s["last_value"]
    return ("triple" if factor == 3 else "double"), base * (factor - 1)


def _apply_rally(g: TurnFlow, player: str, arg: str, events: list[Event]) -> None:
    s = g.s
    if arg == "double":
        word, gain = _rally_gain(g, player)
        what = "the turn" if g.opt["rally_double"] == "turn" else "the roll"
        s["total"] += gain
        events.append(
            Event(
                "rally",
                f"{{{player}}} rallies and {word}s {what}: +{gain} (total {s['total']}).",
            )
        )
    else:
        events.append(Event("rally", f"{{{player}}} rallies for a Magic Item."))
        g._draw_item(events, player)
    s["phase"] = "decide"


def _apply_roll(g: TurnFlow, player: str, arg: str, events: list[Event]) -> None:
    g._roll(events)


def _apply_stop(g: TurnFlow, player: str, arg: str, events: list[Event]) -> None:
    g._finish_roller(events, banked=True)


def _apply_claim(g: TurnFlow, player: str, arg: str, events: list[Event]) -> None:
    s = g.s
    s["pending"][player].remove(arg)
    s["hands"][player].append(arg)
    events.append(Event("claim", f"{{{player}}} keeps a Magic Item won in the Brawl."))
    events.append(Event("claim_private", f"You keep {g.card(arg).name}.", to=player))
    g._end_turn(events)


def _apply_discard(g: TurnFlow, player: str, arg: str, events: list[Event]) -> None:
    s = g.s
    if arg in s["stuck"][player]:
        s["stuck"][player].remove(arg)
    else:
        s["hands"][player].remove(arg)
    s["item_discard"].append(arg)
    events.append(Event("discard", f"{{{player}}} discards a Magic Item."))
    events.append(Event("discard_private", f"You discard {g.card(arg).name}.", to=player))
    if g.item_count(player) <= g.item_limit(player):
        s["discarding"] = [q for q in s["discarding"] if q != player]
    if not s["discarding"]:
        g._next_player(events)


def _describe_keep(g: TurnFlow, player: str, arg: str) -> str:
    s = g.s
    sel = tuple(int(x) for x in arg.split(","))
    value = score(sel, g.table) or 0
    if s["action"] == "battle":
        return f"Lose {fmt_dice(sel)} (-{value})"
    extra = ""
    shielded = g._companion_works(player, "block_dragon") and not s["shield_used"]
    if s["event"] == "dragon" and not shielded:
        extra = ", eaten"
    elif s["event"] == "rally":
        extra = ", Rally"
    return f"Keep {fmt_dice(sel)} (+{value}{extra})"


def _describe_rally(g: TurnFlow, player: str, arg: str) -> str:
    if arg == "double":
        word, gain = _rally_gain(g, player)
        return f"Rally: {word} (+{gain})"
    return "Rally: draw a Magic Item"


def _describe_roll(g: TurnFlow, player: str, arg: str) -> str:
    s = g.s
    n = s["pool"] or s["full"]
    hot = " (hot dice)" if s["pool"] == 0 else ""
    return f"Roll {n} {'die' if n == 1 else 'dice'}{hot}"


def _describe_stop(g: TurnFlow, player: str, arg: str) -> str:
    if g.s["action"] == "recruit":
        return f"Stop and bank {g.s['total']}"
    return f"Stop with {g.s['total']}"


def _card_name(g: TurnFlow, card_id: str) -> str | None:
    try:
        return g.card(card_id).name
    except KeyError:
        return None


def _describe_use(g: TurnFlow, player: str, arg: str) -> str | None:
    parts = arg.split(":")
    name = _card_name(g, parts[0])
    if name is None:
        return None
    if len(parts) == 3:
        return f"{name}: turn a {parts[1]} into a {parts[2]}"
    if len(parts) == 2:
        return f"{name}: give to {{{parts[1]}}}"
    return f"Use {name}"


def _describe_claim(g: TurnFlow, player: str, arg: str) -> str | None:
    name = _card_name(g, arg.split(":")[0])
    return None if name is None else f"Keep {name}"


def _describe_discard(g: TurnFlow, player: str, arg: str) -> str | None:
    name = _card_name(g, arg.split(":")[0])
    return None if name is None else f"Discard {name}"


def _describe_companion(g: TurnFlow, player: str, arg: str) -> str | None:
    comp = g.card(g.s["companions"][player]).name
    if not arg:
        return f"{comp}: reroll the Event die"
    if arg.isdigit():
        return f"{comp}: reroll a {arg}"
    name = _card_name(g, arg)
    return None if name is None else f"{comp}: swap {name}"


MOVES: dict[str, Move] = {
    "recruit": Move(_apply_recruit, lambda g, p, arg: "Recruit soldiers"),
    "brawl": Move(_apply_brawl, lambda g, p, arg: f"Brawl {{{arg}}} (army {g.s['armies'].get(arg, 0)})"),
    "pass": Move(_apply_pass, lambda g, p, arg: "Let the Brawl begin"),
    "battle": Move(_apply_battle, lambda g, p, arg: "Final Battle: attack the dragon"),
    "keep": Move(_apply_keep, _describe_keep),
    "accept": Move(
        _apply_accept,
        lambda g, p, arg: "Resolve the roll" if g.s["action"] == "battle" else "Accept the Farkle",
    ),
    "rally": Move(_apply_rally, _describe_rally),
    "roll": Move(_apply_roll, _describe_roll),
    "stop": Move(_apply_stop, _describe_stop),
    "use": Move(use_item, _describe_use),
    "companion": Move(use_companion, _describe_companion),
    "claim": Move(_apply_claim, _describe_claim),
    "discard": Move(_apply_discard, _describe_discard),
}


# ---------------------------------------------------------------------------------- phases
def _give_actions(g: TurnFlow, player: str, effects: dict[str, str]) -> list[str]:
    return [
        f"use:{i}:{q}"
        for i, e in effects.items()
        if e == "give_away"
        for q in g.s["players"]
        if q != player
    ]


def _actor(g: TurnFlow) -> list[str]:
    return [g.s["actor"]]


def _legal_choose(g: TurnFlow, player: str, effects: dict[str, str]) -> list[str]:
    """The current player picks ``recruit``, ``brawl:<player>`` or ``battle``."""
    s = g.s
    out = ["recruit"]
    out += [f"brawl:{q}" for q in s["players"] if q != player]
    if s["battle_ok"]:
        out.append("battle")
    if g._companion_works(player, "swap_item") and g._companion_active_left(player):
        out += [f"companion:{i}" for i in set(s["hands"][player])]
    out += _give_actions(g, player, effects)
    return out


def _legal_react(g: TurnFlow, player: str, effects: dict[str, str]) -> list[str]:
    """A chosen Brawl defender holding Magic Items may answer first."""
    return ["pass"] + [f"use:{i}" for i, e in effects.items() if e == "attacker_five_dice"]


def _legal_roll(g: TurnFlow, player: str, effects: dict[str, str]) -> list[str]:
    """Dice are on the table: keep a scoring selection, accept a Farkle or a Final Battle
    roll, or use an item / Companion that changes the roll."""
    s = g.s
    out: list[str] = []
    roll = s["roll"]
    assert roll is not None  # the roll phase always has dice on the table
    sels = scoring_selections(roll, g.table)
    if sels:
        out += ["keep:" + ",".join(map(str, sel)) for sel, _ in sels]
    else:
        out.append("accept")
    if s["action"] == "battle":
        if g.opt["battle_score_all"]:
            out = ["accept"]
        allowed: tuple[str, ...] = _BATTLE_ITEM_EFFECTS if g.opt["battle_items"] else ()
    else:
        allowed = _ROLL_ITEM_EFFECTS
    for i, e in effects.items():
        if e not in allowed:
            continue
        if e == "set_die":
            out += [f"use:{i}:{a}:{b}" for a in sorted(set(roll)) for b in range(1, 7) if a != b]
        elif (
            e == "reroll_all"
            or (e in EVENT_FACE_CHANGES and s["event"] == EVENT_FACE_CHANGES[e][0])
            or (e == "cancel_farkle" and not sels)
            or (e == "ignore_battle_loss" and not s["no_loss"])
        ):
            out.append(f"use:{i}")
    if player == g.current and g._companion_active_left(player):
        if g._companion_works(player, "reroll_event"):
            out.append("companion")
        if g._companion_works(player, "reroll_one_die"):
            out += [f"companion:{v}" for v in sorted(set(roll))]
    return out


def _legal_rally(g: TurnFlow, player: str, effects: dict[str, str]) -> list[str]:
    """After keeping on a Rally face: double the roll or draw an item."""
    return ["rally:double", "rally:item"] if g._can_draw() else ["rally:double"]


def _legal_decide(g: TurnFlow, player: str, effects: dict[str, str]) -> list[str]:
    """Roll the remaining dice or stop (Recruit / Brawl)."""
    out = ["roll", "stop"]
    if g.s["action"] == "recruit" and player == g.current:
        out += [f"use:{i}" for i, e in effects.items() if e == "bank_bonus"]
        out += _give_actions(g, player, effects)
    return out


def _legal_battle(g: TurnFlow, player: str, effects: dict[str, str]) -> list[str]:
    """Final Battle between rolls: roll again (no voluntary stop)."""
    return ["roll"]


def _legal_claim(g: TurnFlow, player: str, effects: dict[str, str]) -> list[str]:
    """The Brawl winner picks the one Magic Item gained in the Brawl to keep."""
    return [f"claim:{i}" for i in set(g.s["pending"][player])]


def _legal_discard(g: TurnFlow, player: str, effects: dict[str, str]) -> list[str]:
    """End of turn: players above the item limit discard (simultaneous)."""
    return [f"discard:{i}" for i in set(g.s["hands"][player]) | set(g.s["stuck"][player])]


def _claimer(g: TurnFlow) -> list[str]:
    return [cast(str, g.s["claimer"])]


def _discarding(g: TurnFlow) -> list[str]:
    return [p for p in g.s["players"] if p in g.s["discarding"]]


def _nobody(g: TurnFlow, *args: object) -> list[str]:
    return []


PHASES: dict[str, Phase] = {
    p.name: p
    for p in (
        Phase("choose", _actor, _legal_choose, ("recruit", "brawl", "battle", "companion", "use")),
        Phase("react", _actor, _legal_react, ("pass", "use")),
        Phase("roll", _actor, _legal_roll, ("keep", "accept", "use", "companion")),
        Phase("rally", _actor, _legal_rally, ("rally",)),
        Phase("decide", _actor, _legal_decide, ("roll", "stop", "use")),
        Phase("battle", _actor, _legal_battle, ("roll",)),
        Phase("claim", _claimer, _legal_claim, ("claim",)),
        Phase("discard", _discarding, _legal_discard, ("discard",)),
        Phase("over", _nobody, _nobody, ()),
    )
}
