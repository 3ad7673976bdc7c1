"""The Dragon Farkle picture: a game ``view`` -> a PNG (armies, dice, the turn, the dragon)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.canvas import Box, Canvas, Colour, fit_name, fit_text, font, smallest_font
from render.dragon import dragon_head, dragon_sprite
from render.farkle.text import EVENT_LABEL, PHASE_HINT
from render.png import board_png
from render.text import fill_names

W, H = 720, 420
SMALL = smallest_font(W)  # 18: no text smaller, so that a phone (360 px wide) can read it
BG = (36, 30, 40)
PANEL = (54, 46, 60)
BAR_BG = (74, 66, 82)
INK = (240, 232, 220)
MUTED = (184, 174, 164)
GOLD = (232, 184, 64)
RED = (205, 60, 50)
GREEN = (120, 200, 110)
DIE = (250, 246, 236)
DIE_ASIDE = (200, 196, 186)
PIP = (30, 30, 30)
ORANGE = (240, 130, 40)
ITEM = (120, 90, 160)
BATTLE_SKY = (70, 34, 38)
PLAYER_COLOURS = [(80, 140, 220), (220, 90, 90), (90, 180, 110), (200, 160, 60), (170, 110, 200)]

TOP, SPLIT, BOTTOM = 44, 244, H - 8  # the two rows of panels
PLAYERS_RIGHT = 500  # the players panel; the dragon's panel is right of it
DICE, ASIDE = 46, 34  # die sizes: the roll, the dice set aside
EVENT_X = 20 + 6 * (DICE + 6) + 14  # the Event die keeps its place whatever the number of dice
ASIDE_X = EVENT_X + DICE + 36

PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)],
}


def _die(d: ImageDraw.ImageDraw, x: int, y: int, size: int, value: int, fill: Colour) -> None:
    d.rounded_rectangle((x, y, x + size, y + size), radius=size // 6, fill=fill, outline=(0, 0, 0), width=2)
    r = max(2, size // 11)
    for px, py in PIPS[value]:
        cx, cy = x + px * size, y + py * size
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=RED if value == 1 else PIP)


def _event_die(d: ImageDraw.ImageDraw, x: int, y: int, size: int, face: str | None) -> None:
    d.rounded_rectangle((x, y, x + size, y + size), radius=size // 6, fill=ORANGE, outline=(0, 0, 0), width=2)
    if face == "dragon":
        head = dragon_head(size - 8)
        d._image.paste(head, (x + 4, y + 4 + (size - 8 - head.height) // 2), head)  # type: ignore[attr-defined]
    elif face == "rally":  # crossed axes
        d.line((x + 9, y + 9, x + size - 9, y + size - 9), fill=(40, 30, 20), width=4)
        d.line((x + size - 9, y + 9, x + 9, y + size - 9), fill=(40, 30, 20), width=4)
        d.pieslice((x + 4, y + 4, x + 20, y + 20), 180, 360, fill=(220, 220, 230))
        d.pieslice((x + size - 20, y + 4, x + size - 4, y + 20), 180, 360, fill=(220, 220, 230))


@lru_cache(maxsize=64)
def _die_tile(value: int, size: int, fill: Colour) -> Image.Image:
    tile = Image.new("RGB", (size + 1, size + 1), PANEL)
    _die(ImageDraw.Draw(tile), 0, 0, size, value, fill)
    return tile


@lru_cache(maxsize=8)
def _event_tile(face: str | None, size: int) -> Image.Image:
    tile = Image.new("RGB", (size + 1, size + 1), PANEL)
    _event_die(ImageDraw.Draw(tile), 0, 0, size, face)
    return tile


def _counters(d: ImageDraw.ImageDraw, cx: int, cy: int, damage: int, hp: int, r: int) -> None:
    """The dragon's damage counters centred on (cx, cy): red with a cross once hit."""
    gap = 2 * r + r // 2
    x0 = cx - (hp - 1) * gap // 2
    for i in range(hp):
        x = x0 + i * gap
        hit = i < damage
        d.ellipse((x - r, cy - r, x + r, cy + r), fill=RED if hit else (90, 90, 100), outline=INK, width=2)
        if hit:
            k = r * 6 // 10
            d.line((x - k, cy - k, x + k, cy + k), fill=INK, width=max(2, r // 4))
            d.line((x + k, cy - k, x - k, cy + k), fill=INK, width=max(2, r // 4))


@lru_cache(maxsize=4)
def _background(battle: bool, slain: bool = False) -> Image.Image:
    """Everything that does not depend on the game state, drawn once (speed: see bench)."""
    img = Image.new("RGB", (W, H), BG)
    d = ImageDraw.Draw(img)
    if battle:
        d.rounded_rectangle((8, TOP, 380, SPLIT - 8), radius=8, fill=BATTLE_SKY)
        d.line((304, TOP + 10, 304, SPLIT - 18), fill=(110, 60, 64), width=1)
        d.rounded_rectangle((388, TOP, W - 8, SPLIT - 8), radius=8, fill=PANEL)
        sprite = dragon_sprite(284, not slain)  # a slain dragon: dimmed, eyes shut, no fire
        img.paste(sprite, (14, TOP + 18), sprite)
    else:
        d.rounded_rectangle((8, TOP, PLAYERS_RIGHT, SPLIT - 8), radius=8, fill=PANEL)
        d.rounded_rectangle((PLAYERS_RIGHT + 12, TOP, W - 8, SPLIT - 8), radius=8, fill=PANEL)
        sprite = dragon_sprite(180, False)
        img.paste(sprite, (PLAYERS_RIGHT + 16, TOP + 6), sprite)
    d.rounded_rectangle((8, SPLIT, W - 8, BOTTOM), radius=8, fill=PANEL)
    return img


def _armies(c: Canvas, view: dict[str, Any], names: dict[str, str], box: Box) -> None:
    """One bar per player toward the Keep threshold (5,000), the current player marked."""
    x0, y0, x1, y1 = box
    keep = view["keep_min_army"]
    top = max([keep * 1.2, *[a * 1.05 for a in view["armies"].values()]])
    players = view["players"]
    name_w = (x1 - x0) * 30 // 100
    bx = x0 + 10 + name_w + 8
    bw = x1 - bx - 16 - 5 * 9  # room for five item cards
    kx = bx + int(bw * keep / top)
    c.text((kx, y0 + 4), f"{keep:,} to fight", font(SMALL, True), GOLD, anchor="ma")
    rows_top = y0 + 24
    row = min(40, (y1 - rows_top - 4) // len(players))
    c.draw.line((kx, rows_top - 2, kx, rows_top + row * len(players)), fill=GOLD, width=2)
    for i, pid in enumerate(players):
        y = rows_top + i * row
        mid = y + row // 2
        cur = pid == view["current"]
        label = ("▶ " if cur else "") + names.get(pid, pid)
        c.text((x0 + 10, mid), label, font(18, cur), INK if cur else MUTED, anchor="lm", width=name_w)
        army = view["armies"][pid]
        colour = PLAYER_COLOURS[i % len(PLAYER_COLOURS)]
        c.draw.rectangle((bx, mid - 11, bx + bw, mid + 11), fill=BAR_BG)
        c.draw.rectangle((bx, mid - 11, bx + max(2, int(bw * army / top)), mid + 11), fill=colour)
        c.draw.line((kx, mid - 13, kx, mid + 13), fill=GOLD, width=2)
        c.text((bx + 6, mid), f"{army:,}", font(SMALL, True), INK, anchor="lm")
        n = view["item_counts"][pid] + view["pending_counts"][pid]
        for k in range(min(n, 5)):  # face-down Magic Items
            ix = bx + bw + 8 + k * 9
            c.draw.rounded_rectangle((ix, mid - 10, ix + 8, mid + 10), radius=2, fill=ITEM, outline=INK)


def _dice_rows(c: Canvas, view: dict[str, Any], y: int) -> None:
    """The roll (or the dice left from it), the Event die in its fixed place, the dice set aside."""
    roll = view.get("roll")
    label = "roll" if view["phase"] in ("roll", "battle") else "dice left"
    c.text((20, y), label, font(SMALL), MUTED)
    x = 20
    for v in roll or []:
        c.paste(_die_tile(v, DICE, DIE), (x, y + 20))
        x += DICE + 6
    if roll is not None:
        face = EVENT_LABEL.get(view.get("event") or "", "")
        c.text((EVENT_X, y), "event", font(SMALL), ORANGE)
        c.paste(_event_tile(view.get("event"), DICE), (EVENT_X, y + 20))
        c.text((EVENT_X + DICE // 2, y + DICE + 24), face, font(SMALL, True), ORANGE, anchor="ma")
    aside = view.get("set_aside") or []
    c.text((ASIDE_X, y), "set aside", font(SMALL), MUTED)
    for k, v in enumerate(aside[:12]):
        col, line = k % 6, k // 6
        c.paste(_die_tile(v, ASIDE, DIE_ASIDE), (ASIDE_X + col * (ASIDE + 4), y + 20 + line * (ASIDE + 4)))


def _status(c: Canvas, view: dict[str, Any], names: dict[str, str], y: int) -> None:
    waiting = ", ".join(names.get(p, p) for p in view["to_act"])
    hint = PHASE_HINT.get(view["phase"], "")
    line = fit_name(f"Waiting for {{}}: {hint}", waiting, font(SMALL), W - 40)
    c.text((20, y), line, font(SMALL), MUTED, anchor="ls", width=W - 40)


def _turn_panel(c: Canvas, view: dict[str, Any], names: dict[str, str]) -> None:
    """The bottom panel outside a battle: who does what, the dice, the running score."""
    actor, cur = view["actor"], view["current"]
    right = ""
    if view["action"] == "brawl":
        rival = names.get(view["defender"], view["defender"])
        line = f"Brawl: {fit_text(names.get(cur, cur), font(18, True), 150)} vs {fit_text(rival, font(18, True), 150)}"
        if view.get("attack_score") is not None:
            right = f"to beat {view['attack_score']:,} · defence {view['turn_total']:,}"
        else:
            right = f"attack {view['turn_total']:,}"
    elif view["action"] == "recruit":
        line = fit_name("{} recruits", names.get(actor, actor), font(18, True), W - 40 - 200)
        right = f"turn total {view['turn_total']:,}"
    else:
        line = fit_name("{} chooses an action", names.get(cur, cur), font(18, True), W - 40)
    right_box = c.text((W - 20, SPLIT + 10), right, font(18, True), GREEN, anchor="ra") if right else None
    room = (right_box[0] if right_box else W - 20) - 20 - 16
    c.text((20, SPLIT + 10), line, font(18, True), INK, width=room)
    if view.get("roll") is not None or view.get("set_aside"):
        _dice_rows(c, view, SPLIT + 40)
    else:  # between turns: no dice on the table, say what the choices are
        keep = f"{view['keep_min_army']:,}"
        c.text((20, SPLIT + 50), "Recruit soldiers, Brawl a rival,", font(SMALL), MUTED)
        c.text((20, SPLIT + 76), f"or attack the dragon with {keep}+ soldiers", font(SMALL), MUTED)
    _status(c, view, names, BOTTOM - 10)


def _damage_track(c: Canvas, dmg: int, hp: int) -> None:
    """The damage counters in a column right of the battling dragon."""
    x = 342
    c.text((x, TOP + 12), "damage", font(SMALL), INK, anchor="ma")
    for i in range(hp):
        _counters(c.draw, x, TOP + 54 + i * 44, 1 if i < dmg else 0, 1, 17)
    c.text((x, SPLIT - 28), f"{dmg} / {hp}", font(18, True), RED if dmg else INK, anchor="ma")


def _battle(c: Canvas, view: dict[str, Any], names: dict[str, str]) -> None:
    """The Final Battle: the dragon, its damage, the attacker's army, what is at stake."""
    battle = view.get("battle") or {"damage": view.get("damage", 0), "hp": 3}
    dmg, hp = battle["damage"], battle["hp"]
    actor = view["actor"] or view["current"]
    _damage_track(c, dmg, hp)
    x0, x1 = 400, W - 20
    c.text((x0, TOP + 6), "FINAL BATTLE", font(20, True), RED)
    attacks = fit_name("{} attacks", names.get(actor, actor), font(18, True), x1 - x0)
    c.text((x0, TOP + 32), attacks, font(18, True), INK, width=x1 - x0)
    c.text((x0, TOP + 56), f"army {view['armies'][actor]:,}", font(22, True), GOLD)
    left = hp - dmg
    stake = f"{left} more damage to win" + ("!" if left == 1 else "")
    c.text((x0, TOP + 84), stake, font(SMALL, True), INK, width=x1 - x0)
    y = TOP + 108
    for pid in (p for p in view["players"] if p != actor):  # the rivals' armies, for the stakes
        c.text((x0, y), names.get(pid, pid), font(SMALL), MUTED, width=x1 - x0 - 80)
        c.text((x1, y), f"{view['armies'][pid]:,}", font(SMALL), MUTED, anchor="ra")
        y += 21
    c.text(
        (20, BOTTOM - 48),
        "Scoring dice cost soldiers; a Farkle (nothing scores) heals the dragon.",
        font(SMALL),
        MUTED,
        width=W - 40,
    )
    _dice_rows(c, view, SPLIT + 10)
    _status(c, view, names, BOTTOM - 10)


def _game_over(c: Canvas, view: dict[str, Any], names: dict[str, str]) -> None:
    mid = (SPLIT + BOTTOM) // 2
    if view.get("winner"):
        msg = f"{names.get(view['winner'], view['winner'])} slew the dragon!"
    else:
        msg = "Game over"
    c.text((W // 2, mid - 14), msg, font(28, True), GOLD, anchor="mm", width=W - 48)
    reason = fill_names(view.get("end_reason") or "", names)
    if reason and not view.get("winner"):
        c.text((W // 2, mid + 22), reason, font(SMALL), MUTED, anchor="mm", width=W - 48)


def _sample_view(n: int, battle: bool, face: str) -> dict[str, Any]:
    players = [f"p{i}" for i in range(n)]
    return {
        "players": players,
        "current": players[0],
        "actor": players[0],
        "defender": players[1] if not battle else None,
        "to_act": [players[0]],
        "phase": "battle" if battle else "roll",
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
        draw(_sample_view(5, True, "dragon"), {}).image,
        draw(_sample_view(5, False, "rally"), {}).image,
        draw(_sample_view(2, False, "dragon"), {}).image,
    ]
    sheet = Image.new("RGB", (W, H * len(frames)))
    for i, f in enumerate(frames):
        sheet.paste(f, (0, H * i))
    return sheet.quantize(256, method=Image.Quantize.FASTOCTREE)


def draw(view: dict[str, Any], names: dict[str, str]) -> Canvas:
    """The table as a Canvas (the picture and where each text went)."""
    battle = view.get("action") == "battle" or (view["phase"] == "over" and bool(view.get("winner")))
    c = Canvas(_background(battle, slain=battle and view["phase"] == "over").copy())
    title = "Dragon Farkle"
    c.text((16, 10), title, font(22, True), GOLD)
    shown_round = min(view["round"], view["max_rounds"]) if view.get("max_rounds") else view["round"]
    rounds = f"round {shown_round}" + (f" of {view['max_rounds']}" if view.get("max_rounds") else "")
    c.text((W - 16, 14), rounds, font(SMALL), MUTED, anchor="ra")
    if battle:
        if view["phase"] == "over":
            _damage_track(c, 3, 3)
            _armies(c, view, names, (388, TOP, W - 8, SPLIT - 8))
            _game_over(c, view, names)
        else:
            _battle(c, view, names)
        return c
    _armies(c, view, names, (8, TOP, PLAYERS_RIGHT, SPLIT - 8))
    _counters(c.draw, (PLAYERS_RIGHT + W) // 2, SPLIT - 52, 0, 3, 12)
    c.text(((PLAYERS_RIGHT + W) // 2, SPLIT - 30), "The dragon sleeps", font(SMALL), MUTED, anchor="ma")
    if view["phase"] == "over":
        _game_over(c, view, names)
    else:
        _turn_panel(c, view, names)
    return c


def render_png(view: dict[str, Any], names: dict[str, str]) -> bytes:
    """The table: armies as bars toward 5,000, the roll and Event die, set-aside dice, the dragon."""
    return board_png(draw(view, names).image, _palette)
