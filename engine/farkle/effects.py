"""Dragon Farkle: what a Magic Item or an active Companion does when a player uses it."""

from __future__ import annotations

from engine.base import Event
from engine.farkle import rules
from engine.farkle.core import fmt_dice
from engine.farkle.flow import TurnFlow

# Items that make the Event die count as another face: effect -> (face it shows, face it counts as).
EVENT_FACE_CHANGES = {
    "dragon_to_blank": ("dragon", "blank"),
    "blank_to_rally": ("blank", "rally"),
    "blank_to_dragon": ("blank", "dragon"),
}


def use_item(g: TurnFlow, player: str, arg: str, events: list[Event]) -> None:
    s = g.s
    parts = arg.split(":")
    item = parts[0]
    card = g.card(item)
    g._take_item(player, item)
    e = card.effect
    if e != "give_away":
        s["item_discard"].append(item)
    said = f"{{{player}}} uses {card.name}"
    if e == "attacker_five_dice":
        s["attack_full"] = 5
        events.append(Event("use_item", f"{said}: the attacker rolls 5 dice.", data={"item": item}))
        g._start_attack(events)
    elif e == "reroll_all":
        rerolled = sorted(g.rng.die(6) for _ in g.dice_on_table())
        s["roll"] = rerolled
        events.append(Event("use_item", f"{said} and rerolls: {fmt_dice(rerolled)}.", data={"item": item}))
        g._after_roll(events)
    elif e == "set_die":
        a, b = int(parts[1]), int(parts[2])
        roll = list(g.dice_on_table())
        roll.remove(a)
        s["roll"] = sorted([*roll, b])
        events.append(Event("use_item", f"{said} and turns a {a} into a {b}.", data={"item": item}))
        g._after_roll(events)
    elif e in EVENT_FACE_CHANGES:
        was, now = EVENT_FACE_CHANGES[e]
        s["event"] = now
        events.append(Event("use_item", f"{said}: the {was.title()} face counts as {now.title()}.",
                            data={"item": item}))
        g._after_roll(events)
    elif e == "ignore_battle_loss":
        s["no_loss"] = True
        events.append(Event("use_item", f"{said}: this roll costs no soldiers.", data={"item": item}))
    elif e == "cancel_farkle":
        events.append(
            Event(
                "use_item",
                f"{said}: the Farkle is cancelled and {{{player}}} stops.",
                data={"item": item},
            )
        )
        g._finish_roller(events, banked=True)
    elif e == "bank_bonus":
        s["total"] += card.value
        events.append(Event("use_item", f"{said}: +{card.value} soldiers.", data={"item": item}))
        g._finish_roller(events, banked=True)
    elif e == "give_away":
        target = parts[1]
        s["stuck"][target].append(item)
        events.append(
            Event(
                "use_item",
                f"{said} and gives it to {{{target}}}, who cannot use it.",
                data={"item": item},
            )
        )

def use_companion(g: TurnFlow, player: str, arg: str, events: list[Event]) -> None:
    s = g.s
    comp = g.card(s["companions"][player])
    s["comp_uses"][player] += 1
    e = comp.effect
    if e == "reroll_event":
        face = rules.EVENT_FACES[g.rng.below(len(rules.EVENT_FACES))]
        s["event"] = face
        events.append(
            Event("companion", f"{{{player}}}'s {comp.name} rerolls the Event die: {face.title()}.")
        )
        g._after_roll(events)
    elif e == "reroll_one_die":
        a = int(arg)
        roll = list(g.dice_on_table())
        roll.remove(a)
        b = g.rng.die(6)
        s["roll"] = sorted([*roll, b])
        events.append(Event("companion", f"{{{player}}}'s {comp.name} rerolls a {a}: it shows {b}."))
        g._after_roll(events)
    elif e == "swap_item":
        s["hands"][player].remove(arg)
        s["item_discard"].append(arg)
        events.append(Event("companion", f"{{{player}}}'s {comp.name} swaps a Magic Item for a new one."))
        events.append(Event("companion_private", f"You discard {g.card(arg).name}.", to=player))
        g._draw_item(events, player, into="hands")

