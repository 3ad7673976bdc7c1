"""Every board at its extremes: no text on a PNG overlaps another or leaves the picture, and
every line of every text board fits a phone's code block.

Positions come from the engines (seeded random legal actions), then are stretched where a
real game rarely goes: 0 to 6 dice in a Farkle roll, every Event face, 32-letter names made of
wide letters. The renderers draw through render.canvas.Canvas, which records each text's box.
"""

from __future__ import annotations

import copy
import io
import random
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from cogs.plugins import load_plugins
from engine import registry
from engine.base import Game
from engine.ninesons import NineSonsGame
from render import animation, farkle, flagon, ninesons, ratings, render_png, render_text
from render.canvas import PHONE_WIDTH, Canvas, font, outside, overlapping, too_small
from render.text import CODE_WIDTH, FENCE
from tests.engine.farkle_support import setup

load_plugins(ui=False)

WIDE = "W" * 32  # the widest name Discord allows, in the widest letter
PLAIN = ["alice", "bob", "carol", "dave", "erin", "frank", "gina", "hal"]
DRAWERS = {"farkle": farkle.draw, "ninesons": ninesons.draw, "flagon": flagon.draw}


def names_for(players: list[str], wide: bool) -> dict[str, str]:
    return {p: (WIDE if wide else PLAIN[i]) for i, p in enumerate(players)}


def playthrough(kind: str, players: int, seed: int, steps: int, **options: Any) -> Iterator[Game]:
    """A game played by seeded random legal actions, yielded after every action."""
    rng = random.Random(seed)
    game = registry.get(kind).new_game([f"p{i}" for i in range(1, players + 1)], seed, **options)
    yield game
    for _ in range(steps):
        if game.is_over:
            return
        who = game.to_act()[0]
        game.play(who, rng.choice(game.legal_actions(who)))
        yield game


def distinct_views(kind: str, players: int, seed: int, steps: int, key: Any, **options: Any) -> list[dict]:
    """Public views of one playthrough, one per value of ``key(view)`` (phases, dice counts…)."""
    seen: dict[Any, dict] = {}
    for game in playthrough(kind, players, seed, steps, **options):
        view = game.view(None)
        seen.setdefault(key(view), view)
    return list(seen.values())


def assert_layout(canvas: Canvas, what: str) -> None:
    clashes = overlapping(canvas.texts)
    assert not clashes, f"{what}: texts overlap: " + "; ".join(
        f"{a.text!r} {a.box} / {b.text!r} {b.box}" for a, b in clashes[:4]
    )
    out = outside(canvas.texts, canvas.size)
    assert not out, f"{what}: texts leave the {canvas.size} picture: {[(t.text, t.box) for t in out[:4]]}"


def assert_code_lines(text: str, what: str) -> None:
    """Each line inside a code block is at most CODE_WIDTH characters (a phone wraps longer)."""
    inside = False
    for line in text.splitlines():
        if line.startswith(FENCE):
            inside = not inside
            continue
        assert not inside or len(line) <= CODE_WIDTH, f"{what}: {len(line)} characters: {line!r}"


# -- Dragon Farkle ----------------------------------------------------------------------------


def farkle_key(view: dict) -> tuple:
    return view["phase"], view["action"], len(view["roll"] or []), len(view["set_aside"]), view["event"]


def farkle_views(players: int) -> list[dict]:
    views = distinct_views("farkle", players, players, 400, farkle_key)
    # The same positions with 0..6 dice in the roll, every Event face, a full set-aside row.
    stretched = []
    for base in views[:: max(1, len(views) // 6)]:
        for count in range(7):
            for face in ("blank", "dragon", "rally"):
                view = copy.deepcopy(base)
                view.update(roll=[1, 5, 6, 6, 4, 2][:count], event=face, set_aside=[5] * (6 - count))
                stretched.append(view)
    return views + stretched


def farkle_battles(players: int) -> list[dict]:
    """The Final Battle from its first roll to the slain dragon, and every damage level."""
    ids = tuple(f"p{i}" for i in range(1, players + 1))
    game = setup(
        [([2, 2, 3, 3, 4, 6], "dragon"), ([2, 2, 3, 3, 4, 6], "rally")], players=ids, armies={"p1": 6000}
    )
    views = [game.view(None)]
    game.play("p1", "battle")
    views.append(game.view(None))
    for damage in range(3):
        view = copy.deepcopy(views[-1])
        view["battle"]["damage"] = damage
        view["roll"] = [1, 1, 1, 5, 5, 5][: 6 - 2 * damage]
        views.append(view)
    game.play("p1", game.legal_actions("p1")[0])
    views.append(game.view(None))
    while not game.is_over:
        game.play("p1", game.legal_actions("p1")[0])
    views.append(game.view(None))
    assert views[-1]["winner"] == "p1"
    return views


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("wide", [False, True])
def test_farkle_board_texts_never_overlap(players: int, wide: bool) -> None:
    views = farkle_views(players) + farkle_battles(players)
    phases = {v["phase"] for v in views}
    assert {"choose", "roll", "battle", "over"} <= phases | {
        "battle" if v.get("battle") else "" for v in views
    }
    for view in views:
        names = names_for(view["players"], wide)
        assert_layout(farkle.draw(view, names), f"farkle {farkle_key(view)}")
        assert_code_lines(render_text("farkle", view, names), f"farkle text {farkle_key(view)}")


def test_farkle_event_label_stays_clear_of_the_roll_label_with_no_dice() -> None:
    """The old layout put the "event:" label over "roll" when 0 or 1 dice were left."""
    base = farkle_views(2)[0]
    for count in (0, 1):
        view = copy.deepcopy(base)
        view.update(phase="roll", action="recruit", roll=[5][:count], event="dragon", set_aside=[1] * 5)
        canvas = farkle.draw(view, names_for(view["players"], True))
        texts = {t.text: t.box for t in canvas.texts}
        assert "event" in texts and "roll" in texts and "DRAGON" in texts
        assert_layout(canvas, f"farkle with {count} dice")


def test_farkle_battle_picture_shows_the_stakes() -> None:
    view = farkle_battles(3)[1]
    texts = [t.text for t in farkle.draw(view, {"p1": "dave", "p2": "bob", "p3": "carol"}).texts]
    assert "FINAL BATTLE" in texts and "dave attacks" in texts and "army 6,000" in texts
    assert any("more damage to win" in t for t in texts)
    assert "bob" in texts and "carol" in texts  # the other players' armies stay in view


def test_farkle_text_keeps_a_name_with_its_army() -> None:
    """A phone wraps a long code line at a space: never between a name and its army."""
    view = copy.deepcopy(farkle_views(4)[0])
    view["armies"] = {"p1": 40, "p2": 5200, "p3": 0, "p4": 1250}
    names = {"p1": "dave", "p2": "Bob the Bold", "p3": "al", "p4": "x y z"}
    text = render_text("farkle", view, names)
    for pid, army in view["armies"].items():
        last_word = names[pid].split(" ")[-1]
        [row] = [line for line in text.splitlines() if f"{army:,}" in line and last_word in line]
        unbreakable = [part for part in row.split(" ") if f"{army:,}" in part]
        assert unbreakable and last_word in unbreakable[0], row


# -- The Nine Sons of the Dragon ---------------------------------------------------------------


def ninesons_views() -> list[dict]:
    views = []
    for seed in range(6):
        views += distinct_views(
            "ninesons", 2, seed, 200, lambda v: (v["ply"] // 8, v["is_over"], bool(v["pending"]))
        )
    # A move that makes two cards tameable at once: two 3-stacks, and a choice pending.
    game = NineSonsGame.from_position(
        ["p1", "p2"],
        {"b2": "A3 A5", "b1": "B1 B2", "c1": "B3 B4"},
        slots=["QiuNiu", "ChiWen", "BiAn", "FuXi", "SuanNi", None],
    )
    game.play("p1", "b2-b1-c1")
    return [*views, game.view(None)]


@pytest.mark.parametrize("wide", [False, True])
def test_ninesons_board_texts_never_overlap(wide: bool) -> None:
    views = ninesons_views()
    assert any(v["is_over"] for v in views) and any(v["ply"] == 0 for v in views)
    assert any(any(len(c["stack"]) == 3 for c in v["cells"]) for v in views)  # tall stacks drawn
    assert any(v["pending"] for v in views)
    for view in views:
        names = names_for(view["players"], wide)
        assert_layout(ninesons.draw(view, names), f"ninesons ply {view['ply']}")
        assert_code_lines(render_text("ninesons", view, names), f"ninesons text ply {view['ply']}")


def test_ninesons_board_and_text_teach_each_cards_taming_condition() -> None:
    view = ninesons_views()[0]
    texts = [t.text for t in ninesons.draw(view, {}).texts]
    board_text = render_text("ninesons", view, {})
    for slot in view["slots"]:
        condition = slot["card"]["condition"]
        assert condition  # every card in cards.toml has its short taming condition
        assert condition in texts, slot["card"]["name"]
        assert condition in board_text


def test_ninesons_labels_are_large_enough_for_a_phone() -> None:
    """Discord shows the picture about 360 px wide on a phone: no text under 9.5 px there (the
    old board had 11 px cell names, 6 px on a phone)."""
    for view in ninesons_views()[::5]:
        canvas = ninesons.draw(view, names_for(["p1", "p2"], False))
        scale = 360 / canvas.size[0]
        small = [t for t in canvas.texts if t.size * scale < 9.5]
        assert not small, [(t.text, t.size) for t in small[:5]]


# -- The Dragon & Flagon -----------------------------------------------------------------------


def flagon_views(players: int, **options: Any) -> list[dict]:
    return distinct_views(
        "flagon", players, players, 5000, lambda v: (v["phase"], v["time"]["marker"] // 4), **options
    )


FLAGON_CASES = [
    (2, {}),
    (3, {"cookies": "with"}),
    (4, {"team": True}),
    (5, {}),
    (6, {"late_night": True}),
    (7, {}),
    (8, {"extended": True}),
    (8, {"team": True, "cookies": "with"}),
]


@pytest.mark.parametrize(("players", "options"), FLAGON_CASES)
@pytest.mark.parametrize("wide", [False, True])
def test_flagon_board_texts_never_overlap(players: int, options: dict, wide: bool) -> None:
    views = flagon_views(players, **options)
    assert {"setup", "plan", "over"} <= {v["phase"] for v in views}
    seats = [f"p{i}" for i in range(1, players + 1)]
    for view in views:
        names = names_for(seats, wide)
        what = f"flagon {players}p {view['phase']} t{view['time']['marker']}"
        assert_layout(flagon.draw(view, names), what)
        assert_code_lines(render_text("flagon", view, names), what)


def test_flagon_private_text_fits_a_phone() -> None:
    for game in playthrough("flagon", 4, 7, 120):
        names = names_for(game.players, True)
        assert_code_lines(render_text("flagon", game.view("p1"), names), "flagon private")


def test_flagon_setup_shows_no_empty_reputation() -> None:
    game = next(playthrough("flagon", 3, 1, 0))
    texts = [t.text for t in flagon.draw(game.view(None), {}).texts]
    assert not any(t.rstrip(" —:").endswith("Reputation") for t in texts)
    assert any(t.startswith("Setup:") for t in texts)


# -- Every picture on a phone (issue 27) ---------------------------------------------------------


def assert_readable_on_a_phone(canvas: Canvas, what: str) -> None:
    """No text under MIN_PHONE_TEXT px once the picture is shown PHONE_WIDTH (a phone) wide."""
    width = canvas.size[0]
    small = too_small(canvas.texts, width)
    assert not small, f"{what} ({width} px wide): " + "; ".join(
        f"{t.text[:30]!r} {t.size} px = {t.size * PHONE_WIDTH / width:.1f} px on a phone" for t in small[:6]
    )


def test_too_small_finds_a_text_under_nine_pixels_on_a_phone() -> None:
    """The check itself: 17 px in a 720 px picture is 8.5 px on a phone; a text of unknown size fails."""
    canvas = Canvas(Image.new("RGB", (720, 100)))
    canvas.text((0, 0), "fits", font(18), (255, 255, 255))
    canvas.text((0, 30), "too small", font(17), (255, 255, 255))
    canvas.note("unknown", (0, 60, 10, 70))
    assert [t.text for t in too_small(canvas.texts, 720)] == ["too small", "unknown"]
    with pytest.raises(AssertionError, match=r"'too small' 17 px = 8\.5 px on a phone"):
        assert_readable_on_a_phone(canvas, "sample")


@pytest.mark.parametrize("players", [2, 5])
def test_every_farkle_text_is_readable_on_a_phone(players: int) -> None:
    views = farkle_views(players) + farkle_battles(players)
    late = copy.deepcopy(views[-1])
    late.update(round=12, max_rounds=12)
    for view in [*views, late]:
        for wide in (False, True):
            canvas = farkle.draw(view, names_for(view["players"], wide))
            assert_readable_on_a_phone(canvas, f"farkle {farkle_key(view)}")


def test_every_ninesons_text_is_readable_on_a_phone() -> None:
    for view in ninesons_views():
        assert_readable_on_a_phone(ninesons.draw(view, names_for(view["players"], True)), f"ninesons {view['ply']}")


@pytest.mark.parametrize(("players", "options"), FLAGON_CASES)
def test_every_flagon_text_is_readable_on_a_phone(players: int, options: dict) -> None:
    seats = [f"p{i}" for i in range(1, players + 1)]
    for view in flagon_views(players, **options):
        canvas = flagon.draw(view, names_for(seats, True))
        assert_readable_on_a_phone(canvas, f"flagon {players}p {view['phase']} t{view['time']['marker']}")


def test_every_rating_chart_text_is_readable_on_a_phone() -> None:
    day = 86400.0
    series: dict[str, list[tuple[float, float]]] = {
        "Dragon Farkle": [(i * day, 1000.0 + 13 * i) for i in range(40)],
        "The Nine Sons of the Dragon": [(i * day, 1100.0 - 5 * i) for i in range(3)],
        "The Dragon & Flagon": [(0.0, 987.0)],
        WIDE: [(i * day, 900.0 + i) for i in range(9)],
    }
    shown: dict[str, list[tuple[float, float]]]
    for shown in (series, {"Dragon Farkle": series["Dragon Farkle"]}, {}):
        canvas = ratings.draw_chart(f"{WIDE} — ratings", shown)
        assert_readable_on_a_phone(canvas, f"rating chart of {len(shown)} games")
        assert_layout(canvas, "rating chart")


@pytest.mark.parametrize("kind", ["farkle", "ninesons", "flagon"])
def test_every_replay_frame_caption_is_readable_on_a_phone(kind: str) -> None:
    """A GIF frame is the board shrunk to the GIF's width with a caption under it: the board
    keeps its proportions (checked above), the caption is drawn at the frame's size."""
    game = next(playthrough(kind, 3 if kind == "flagon" else 2, 1, 0))
    png = render_png(kind, game.view(None), names_for(game.players, True))
    assert png is not None
    picture = animation._fit_width(Image.open(io.BytesIO(png)).convert("RGB"), animation.MAX_WIDTH)
    frame = animation.captioned(picture, f"ply 120 / 240 · {WIDE}: {WIDE}")
    assert_readable_on_a_phone(frame, f"{kind} replay frame")
    assert_layout(frame, f"{kind} replay frame")
