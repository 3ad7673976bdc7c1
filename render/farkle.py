"""Dragon Farkle renderers: a game ``view`` -> Discord text or a PNG.

They receive only ``FarkleGame.view(...)`` output. A spectator view holds Magic Item *counts*
and never names, so nothing here can leak an item; the owner's own items (``my_items``) are
listed only when the view carries them.
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from render import register

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
    lines: list[str] = []
    cur = view["current"]
    title = f"DRAGON FARKLE · round {view['round']}"
    if view.get("max_rounds"):
        title += f"/{view['max_rounds']}"
    lines.append(title)
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
        lines.append(f"{mark}{_name(names, pid):<12} {army:>6,}{keep} {item_txt}")
        lines.append(f"   {view['companions'][pid]['name']}")
    lines.append(f"(* = {view['keep_min_army']:,}+: may fight the dragon)")
    lines.append("")
    if view["phase"] == "over":
        if view.get("winner"):
            lines.append(f"{_name(names, view['winner'])} slew the dragon!")
        else:
            lines.append(f"Game over: {view.get('end_reason') or ''}")
    else:
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
            lines.append(
                f"{what} ({who}): {_dice(view['roll'])}  Event: {EVENT_LABEL.get(view['event'], '-')}"
            )
        if view["action"] is not None:
            lines.append(f"Set aside: {_dice(view['set_aside'])}")
            if view["action"] != "battle":
                label = "Turn total" if view["action"] == "recruit" else "Brawl score"
                lines.append(f"{label}: {view['turn_total']:,}")
        if view.get("battle"):
            dmg, hp = view["battle"]["damage"], view["battle"]["hp"]
            lines.append(f"Dragon: {'X' * dmg}{'o' * max(0, hp - dmg)} ({dmg}/{hp} damage)")
        waiting = ", ".join(_name(names, p) for p in view["to_act"])
        hint = PHASE_HINT.get(view["phase"], "")
        if view["action"] == "battle" and view["phase"] == "roll":
            hint = "resolve the roll"  # what the board's button says (the dice are not set aside)
        if waiting:
            lines.append(f"Waiting for {waiting}: {hint}")
    body = "\n".join(lines)
    extra = ""
    if view.get("my_items") is not None:
        mine = [i["name"] for i in view["my_items"]] + [
            f"{i['name']} (new)" for i in view.get("my_pending", [])
        ]
        extra = "\nYour Magic Items: " + (", ".join(mine) if mine else "none")
    text = f"```\n{body}\n```{extra}"
    return text if len(text) <= 1800 else text[:1796] + "…```"


# -- PNG -------------------------------------------------------------------------------------

W, H = 720, 400
BG = (36, 30, 40)
PANEL = (54, 46, 60)
INK = (240, 232, 220)
MUTED = (170, 160, 150)
GOLD = (230, 180, 60)
RED = (205, 60, 50)
GREEN = (90, 170, 90)
DIE = (250, 246, 236)
DIE_ASIDE = (200, 196, 186)
PIP = (30, 30, 30)
ORANGE = (240, 130, 40)
PLAYER_COLOURS = [(80, 140, 220), (220, 90, 90), (90, 180, 110), (200, 160, 60), (170, 110, 200)]

PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)],
}


@lru_cache(maxsize=8)
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
        if bold
        else "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    )
    try:
        return ImageFont.truetype(path, size)
    except OSError:
        return ImageFont.load_default(size=size)


def _die(d: ImageDraw.ImageDraw, x: int, y: int, size: int, value: int, fill: tuple[int, int, int]) -> None:
    d.rounded_rectangle((x, y, x + size, y + size), radius=size // 6, fill=fill, outline=(0, 0, 0), width=2)
    r = max(2, size // 11)
    for px, py in PIPS[value]:
        cx, cy = x + px * size, y + py * size
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=RED if value == 1 else PIP)


def _event_die(d: ImageDraw.ImageDraw, x: int, y: int, size: int, face: str | None) -> None:
    d.rounded_rectangle((x, y, x + size, y + size), radius=size // 6, fill=ORANGE, outline=(0, 0, 0), width=2)
    cx, cy = x + size / 2, y + size / 2
    if face == "dragon":  # a dragon head: snout triangle with an eye
        d.polygon([(x + 8, cy + 10), (x + size - 8, cy - 2), (x + 12, cy - 12)], fill=RED, outline=(60, 0, 0))
        d.polygon([(x + 14, cy - 10), (x + 20, y + 6), (x + 24, cy - 8)], fill=RED)
        d.ellipse((x + 16, cy - 8, x + 22, cy - 2), fill=(255, 230, 80))
    elif face == "rally":  # crossed axes
        d.line((x + 9, y + 9, x + size - 9, y + size - 9), fill=(40, 30, 20), width=4)
        d.line((x + size - 9, y + 9, x + 9, y + size - 9), fill=(40, 30, 20), width=4)
        d.pieslice((x + 4, y + 4, x + 20, y + 20), 180, 360, fill=(220, 220, 230))
        d.pieslice((x + size - 20, y + 4, x + size - 4, y + 20), 180, 360, fill=(220, 220, 230))
    elif face is None:
        d.text((cx, cy), "?", font=_font(size // 2, True), fill=(60, 40, 20), anchor="mm")


def _dragon_body(d: ImageDraw.ImageDraw, x: int, y: int, active: bool) -> None:
    body = (150, 50, 45) if active else (110, 60, 60)
    d.ellipse((x + 20, y + 40, x + 120, y + 100), fill=body)  # body
    d.polygon(
        [(x + 100, y + 60), (x + 150, y + 20), (x + 175, y + 35), (x + 130, y + 70)], fill=body
    )  # neck/head
    d.ellipse((x + 158, y + 26, x + 164, y + 32), fill=(255, 220, 60))
    d.polygon([(x + 45, y + 45), (x + 70, y + 5), (x + 90, y + 45)], fill=(120, 35, 35))  # wing
    d.polygon([(x + 25, y + 75), (x - 5, y + 95), (x + 30, y + 90)], fill=body)  # tail


def _counters(d: ImageDraw.ImageDraw, x: int, y: int, damage: int, hp: int) -> None:
    for i in range(hp):
        cx = x + 40 + i * 34
        cy = y + 118
        hit = i < damage
        d.ellipse(
            (cx - 13, cy - 13, cx + 13, cy + 13), fill=RED if hit else (90, 90, 100), outline=INK, width=2
        )
        if hit:
            d.line((cx - 7, cy - 7, cx + 7, cy + 7), fill=INK, width=3)
            d.line((cx + 7, cy - 7, cx - 7, cy + 7), fill=INK, width=3)


@lru_cache(maxsize=64)
def _die_tile(value: int, size: int, fill: tuple[int, int, int]) -> Image.Image:
    tile = Image.new("RGB", (size + 1, size + 1), PANEL)
    _die(ImageDraw.Draw(tile), 0, 0, size, value, fill)
    return tile


@lru_cache(maxsize=8)
def _event_tile(face: str | None, size: int) -> Image.Image:
    tile = Image.new("RGB", (size + 1, size + 1), PANEL)
    _event_die(ImageDraw.Draw(tile), 0, 0, size, face)
    return tile


@lru_cache(maxsize=16)
def _background(n_players: int, active: bool) -> Image.Image:
    """Everything that does not depend on the game state, drawn once (speed: see bench)."""
    img = Image.new("RGB", (W, H), BG)
    d = ImageDraw.Draw(img)
    d.text((16, 10), "Dragon Farkle", font=_font(20, True), fill=GOLD)
    d.rounded_rectangle((8, 40, 500, 50 + 30 * n_players + 16), radius=8, fill=PANEL)
    d.rounded_rectangle((512, 40, W - 8, 210), radius=8, fill=PANEL)
    _dragon_body(d, 520, 48, active)
    d.rounded_rectangle((8, 220, W - 8, H - 8), radius=8, fill=PANEL)
    return img


def _sample_view(n: int, battle: bool, face: str) -> dict[str, Any]:
    players = [f"p{i}" for i in range(n)]
    return {
        "players": players,
        "current": players[0],
        "actor": players[0],
        "defender": players[1] if not battle else None,
        "to_act": [players[0]],
        "phase": "roll",
        "action": "battle" if battle else "brawl",
        "armies": {p: 1300 * (i + 1) for i, p in enumerate(players)},
        "item_counts": dict.fromkeys(players, 2),
        "pending_counts": dict.fromkeys(players, 0),
        "roll": [1, 2, 3, 4, 5, 6],
        "event": face,
        "set_aside": [1, 5, 6],
        "turn_total": 1250,
        "attack_score": 900,
        "battle": {"damage": 2, "hp": 3} if battle else None,
        "keep_min_army": 5000,
        "round": 3,
        "winner": None,
    }


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """One 256-colour palette for every frame, built from sample frames that show every
    colour in use. Mapping onto a fixed palette is several times faster than quantizing
    each frame afresh and halves the PNG size compared with RGB."""
    frames = [
        _draw(_sample_view(5, True, "dragon"), {}),
        _draw(_sample_view(5, False, "rally"), {}),
        _draw(_sample_view(2, False, "blank"), {}),
    ]
    sheet = Image.new("RGB", (W, H * len(frames)))
    for i, f in enumerate(frames):
        sheet.paste(f, (0, H * i))
    return sheet.quantize(256, method=Image.Quantize.FASTOCTREE)


def _draw(view: dict[str, Any], names: dict[str, str]) -> Image.Image:
    img = _background(len(view["players"]), bool(view.get("battle"))).copy()
    d = ImageDraw.Draw(img)
    f_small, f_med = _font(13), _font(16)
    d.text((W - 16, 14), f"round {view['round']}", font=f_small, fill=MUTED, anchor="ra")

    # Armies: one bar per player, the Keep threshold marked.
    keep = view["keep_min_army"]
    top = max([keep * 1.2, *[a * 1.05 for a in view["armies"].values()]])
    bx, bw = 150, 330
    y = 46
    for i, pid in enumerate(view["players"]):
        col = PLAYER_COLOURS[i % len(PLAYER_COLOURS)]
        cur = pid == view["current"]
        d.text(
            (18, y + 4),
            ("▶ " if cur else "  ") + _name(names, pid, 12),
            font=f_med if cur else f_small,
            fill=INK if cur else MUTED,
        )
        army = view["armies"][pid]
        d.rectangle((bx, y + 6, bx + bw, y + 22), fill=(70, 62, 76))
        d.rectangle((bx, y + 6, bx + int(bw * army / top), y + 22), fill=col)
        d.text((bx + 4, y + 7), f"{army:,}", font=f_small, fill=INK)
        n = view["item_counts"][pid] + view["pending_counts"][pid]
        for k in range(min(n, 5)):  # face-down item cards
            d.rounded_rectangle(
                (bx + bw + 8 + k * 11, y + 5, bx + bw + 17 + k * 11, y + 23),
                radius=2,
                fill=(120, 90, 160),
                outline=INK,
            )
        y += 30
    kx = bx + int(bw * keep / top)
    d.line((kx, 44, kx, y + 4), fill=GOLD, width=2)
    d.text((kx, y + 4), f"{keep:,}", font=f_small, fill=GOLD, anchor="ma")

    # Dragon panel.
    cur = view["current"]
    dmg = view["battle"]["damage"] if view.get("battle") else 0
    _counters(d, 520, 48, dmg, 3 if not view.get("battle") else view["battle"]["hp"])
    caption = f"Final Battle: {dmg}/3 damage" if view.get("battle") else "The dragon waits"
    d.text((614, 204), caption, font=f_small, fill=MUTED, anchor="md")

    # Dice area.
    ty = 220
    if view["phase"] == "over":
        msg = f"{_name(names, view['winner'], 20)} slew the dragon!" if view.get("winner") else "Game over"
        d.text((W // 2, (ty + H) // 2), msg, font=_font(28, True), fill=GOLD, anchor="mm")
    else:
        act = ACTION_LABEL.get(view["action"] or "", "choosing an action")
        if view["action"] == "brawl" and view.get("defender"):
            line = f"Brawl: {_name(names, cur, 12)} vs {_name(names, view['defender'], 12)}"
            if view.get("attack_score") is not None:
                line += f" · attack {view['attack_score']:,} · {_name(names, view['actor'], 12)} defends"
        else:
            line = f"{_name(names, view['actor'], 16)} · {act}"
        d.text((20, ty + 8), line, font=f_med, fill=INK)
        if view["action"] in ("recruit", "brawl"):
            label = "turn total" if view["action"] == "recruit" else "brawl score"
            d.text((W - 20, ty + 8), f"{label} {view['turn_total']:,}", font=f_med, fill=GREEN, anchor="ra")
        size = 46
        x = 20
        roll = view.get("roll") or []
        label = "roll" if view["phase"] == "roll" else "dice left from the last roll"
        d.text((20, ty + 34), label, font=f_small, fill=MUTED)
        for v in roll:
            img.paste(_die_tile(v, size, DIE), (x, ty + 52))
            x += size + 8
        if view.get("roll") is not None:
            img.paste(_event_tile(view.get("event"), size), (x + 10, ty + 52))
            face = EVENT_LABEL.get(view.get("event") or "", "")
            d.text((x + 10 + size // 2, ty + 34), f"event: {face}", font=f_small, fill=ORANGE, anchor="ma")
        aside = view.get("set_aside") or []
        d.text((20, ty + 106), "set aside", font=f_small, fill=MUTED)
        x = 20
        for v in aside:
            img.paste(_die_tile(v, 34, DIE_ASIDE), (x, ty + 124))
            x += 40
        waiting = ", ".join(_name(names, p, 12) for p in view["to_act"])
        d.text((W - 20, H - 20), f"waiting for {waiting}", font=f_small, fill=MUTED, anchor="rs")

    return img


def render_png(view: dict[str, Any], names: dict[str, str]) -> bytes:
    """The table: armies as bars toward 5,000, the roll and Event die, set-aside dice, the dragon."""
    img = _draw(view, names)
    buf = io.BytesIO()
    img.quantize(palette=_palette(), dither=Image.Dither.NONE).save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


register("farkle", render_text, render_png)
