"""The Dragon Farkle text board: a game ``view`` -> a Discord code block (armies, the turn,
the dragon) and the owner's own Magic Items under it when the view carries them."""

from __future__ import annotations

from typing import Any

from render.text import CODE_WIDTH, fill_names, with_score, wrap_code

EVENT_LABEL = {"blank": "Blank", "dragon": "DRAGON", "rally": "RALLY"}
ACTION_LABEL = {"recruit": "Recruit", "brawl": "Brawl", "battle": "Final Battle"}
PHASE_HINT = {
    "choose": "choose an action",
    "react": "defender may react",
    "roll": "set dice aside",
    "rally": "Rally: double or item",
    "decide": "roll on or stop",
    "battle": "roll against the dragon",
    "claim": "keep one Magic Item",
    "discard": "discard down to the item limit",
}


def _name(names: dict[str, str], pid: str | None, width: int = 12) -> str:
    if pid is None:
        return "-"
    n = names.get(pid, pid)
    return n if len(n) <= width else n[: width - 1] + "…"


def _dice(dice: list[int] | None) -> str:
    return " ".join(str(d) for d in dice) if dice else "-"


# -- text ------------------------------------------------------------------------------------


def render_text(view: dict[str, Any], names: dict[str, str]) -> str:
    """A compact status block (code block plus a few short lines), <= 1800 characters."""
    over = view["phase"] == "over"
    cur = None if over else view["current"]  # nobody is "to play" on a finished board
    shown_round = min(view["round"], view["max_rounds"]) if view.get("max_rounds") else view["round"]
    title = f"DRAGON FARKLE · round {shown_round}"  # the counter passes the limit as the game ends
    if view.get("max_rounds"):
        title += f"/{view['max_rounds']}"
    table = [title, *_army_lines(view, names, cur), f"(* = {view['keep_min_army']:,}+: may fight the dragon)"]
    below = ["", *(_ending_lines(view, names) if over else _turn_lines(view, names, cur))]
    # the army table keeps its columns; the lines under it wrap to a phone's width
    wrapped = table + [part for line in below for part in wrap_code(line, CODE_WIDTH)]
    body = "\n".join(wrapped)
    extra = ""
    if view.get("my_items") is not None:
        mine = [i["name"] for i in view["my_items"]] + [
            f"{i['name']} (new)" for i in view.get("my_pending", [])
        ]
        extra = "\nYour Magic Items: " + (", ".join(mine) if mine else "none")
    text = f"```\n{body}\n```{extra}"
    return text if len(text) <= 1800 else text[:1796] + "…```"


def _army_lines(view: dict[str, Any], names: dict[str, str], cur: str | None) -> list[str]:
    """Two lines a player: the mark of the one to play, name, army, Magic Item counts; Companion."""
    lines = []
    for pid in view["players"]:
        mark = ">" if pid == cur else " "
        army = view["armies"][pid]
        items = view["item_counts"][pid]
        pend = view["pending_counts"][pid]
        cursed = view.get("cursed_counts", {}).get(pid, 0)
        item_txt = f"{items} item{'s' if items != 1 else ''}"
        if pend:
            item_txt += f" +{pend} new"
        if cursed:
            item_txt += f" ({cursed} cursed)"
        keep = "*" if army >= view["keep_min_army"] else " "
        # the padding is unbreakable: a phone wraps a long code line at a space, and must not
        # part a name from its army ("dave" / "40")
        name = _name(names, pid)
        lines.append(f"{mark}{with_score(name, ' ' * (11 - len(name)) + f'{army:>6,}{keep}')} {item_txt}")
        lines.append(f"   {view['companions'][pid]['name']}")
    return lines


def _ending_lines(view: dict[str, Any], names: dict[str, str]) -> list[str]:
    if view.get("winner"):
        return [f"{_name(names, view['winner'])} slew the dragon!"]
    return [f"Game over: {fill_names(view.get('end_reason') or '', names)}"]


def _turn_lines(view: dict[str, Any], names: dict[str, str], cur: str | None) -> list[str]:
    """Whose turn and what they do, the dice, the turn's score, the dragon, who is awaited."""
    lines = []
    act = ACTION_LABEL.get(view["action"] or "", "")
    turn = f"Turn: {_name(names, cur)}"
    if act:
        turn += f" · {act}"
    if view["action"] == "brawl" and view.get("defender"):
        turn += f" vs {_name(names, view['defender'])}"
    lines.append(turn)
    if view["action"] == "brawl" and view.get("attack_score") is not None:
        lines.append(f"Attack score: {view['attack_score']:,}")
    if view.get("roll") is not None:
        who = _name(names, view["actor"])
        what = "Roll" if view["phase"] == "roll" else "Left"
        lines.append(f"{what} ({who}): {_dice(view['roll'])}  Event: {EVENT_LABEL.get(view['event'], '-')}")
    if view["action"] is not None:
        lines.append(f"Set aside: {_dice(view['set_aside'])}")
        if view["action"] != "battle":
            label = "Turn total" if view["action"] == "recruit" else "Brawl score"
            lines.append(f"{label}: {view['turn_total']:,}")
    if view.get("battle"):
        dmg, hp = view["battle"]["damage"], view["battle"]["hp"]
        lines.append(f"Dragon: {'X' * dmg}{'o' * max(0, hp - dmg)} ({dmg}/{hp} damage)")
        lines.append(f"{hp - dmg} more damage this turn slays it; a Farkle heals it")
    waiting = ", ".join(_name(names, p) for p in view["to_act"])
    hint = PHASE_HINT.get(view["phase"], "")
    if view["action"] == "battle" and view["phase"] == "roll":
        hint = "resolve the roll"  # what the board's button says (the dice are not set aside)
    if waiting:
        lines.append(f"Waiting for {waiting}: {hint}")
    return lines
