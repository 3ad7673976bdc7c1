"""Dragon & Flagon renderers: what the text board says, what it never says, and a sane PNG."""

from __future__ import annotations

import copy
import io
from typing import Any

from PIL import Image

from engine.flagon import FlagonGame, new_game
from engine.flagon.ai import choose_action
from engine.flagon.cards import load_cards
from render.flagon import TEXT_LIMIT, draw, render_png, render_text, tie_break_text

NAMES = {"p1": "alice", "p2": "bob", "p3": "carol", "p4": "dave"}


def played(players: int = 2, actions: int = 60, seed: int = 5, **options) -> FlagonGame:
    g = new_game([f"p{i + 1}" for i in range(players)], seed=seed, **options)
    for i in range(actions):
        if g.is_over:
            break
        who = g.to_act()[0]
        g.play(who, choose_action(g, who, "easy", i))
    return g


def in_planning(**options) -> FlagonGame:
    """A 2-player game right after p1 planned one card for each character (p2 has not)."""
    g = new_game(["p1", "p2"], seed=3, **options)
    while g.s["phase"] == "setup":
        who = g.to_act()[0]
        g.play(who, g.legal_actions(who)[0])
    for cid in g.chars_of("p1"):
        g.play("p1", next(a for a in g.legal_actions("p1") if a.startswith(f"plan:{cid}:")))
    return g


def test_text_board_shows_grid_characters_track_and_who_is_planning():
    g = in_planning()
    text = render_text(g.view(None), NAMES)
    assert text.startswith("```\n") and text.endswith("\n```") and len(text) <= TEXT_LIMIT
    lines = text.splitlines()
    assert lines[2].startswith("   a b c d e f g h i j k")
    assert any(line.startswith(" 1 ") for line in lines) and any(line.startswith("11 ") for line in lines)
    for c in g.view(None)["characters"]:
        assert c["name"][:13] in text
    assert "Track (bottom→top) 1:" in text and "Game End 21? 22? 23? 24?" in text
    assert "Planning in secret: alice (" in text and "bob (" in text
    assert max(len(line) for line in lines) <= 60  # readable in a phone's code block


def test_public_text_and_png_do_not_change_with_hidden_plans():
    g = in_planning()
    other = copy.deepcopy(g.s)
    for c in other["chars"].values():  # swap every hidden card for another one
        c["slots"] = ["move2" if k != "move2" else "dash" for k in c["slots"]]
    g2 = FlagonGame(other)
    assert render_text(g.view(None), NAMES) == render_text(g2.view(None), NAMES)
    assert render_png(g.view(None), NAMES) == render_png(g2.view(None), NAMES)
    cards = load_cards()
    public = render_text(g.view(None), NAMES)
    for c in g.s["chars"].values():
        for k in c["slots"]:
            assert cards[k].name not in public


def test_private_text_shows_own_plans_and_late_night_hides_them():
    g = in_planning()
    cards = load_cards()
    mine = render_text(g.view("p1"), NAMES)
    planned = [cards[c["slots"][0]].name for c in g.s["chars"].values() if c["owner"] == "p1"]
    assert "Your characters (only you see this):" in mine
    assert all(f"I:{name}" in mine for name in planned)
    late = in_planning(late_night=True)
    hidden = render_text(late.view("p1"), NAMES)
    assert "I:?" in hidden and "Late Night" in hidden


def test_final_text_has_scoreboard_and_tie_break_explanation():
    g = played(actions=5000)
    assert g.is_over
    view = g.view(None)
    text = render_text(view, NAMES)
    assert "GAME OVER — " in text and "1. " in text and "2. " in text
    # Force a tie on reputation: the result must then explain the tie-break.
    tied = copy.deepcopy(view)
    score = max(tied["scores"].values())
    tied["scores"] = {p: score for p in tied["scores"]}
    winner = tied["result"]["ranking"][0][0]
    explanation = tie_break_text(tied, NAMES)
    assert explanation is not None and f"Tie on {score} reputation" in explanation
    assert NAMES[winner] in explanation
    assert tie_break_text(view, NAMES) is None or len(set(view["scores"].values())) == 1


def test_png_decodes_at_phone_friendly_size():
    cases: tuple[tuple[int, dict[str, Any]], ...] = ((2, {}), (4, {"cookies": "with"}), (8, {"layout": "cellar"}))
    for players, options in cases:
        g = played(players=players, actions=120, **options)
        png = render_png(g.view(None), NAMES)
        image = Image.open(io.BytesIO(png))
        # 8 characters take two lines each under the board, in text a phone reads (issue 27):
        # at most 1200 px tall, 640 on a phone 360 px wide, about one screen.
        assert image.format == "PNG" and 600 <= image.width <= 800 and image.height < 1200
        assert len(png) < 400_000


def test_text_stays_under_the_limit_in_crowded_games():
    for seed in range(3):
        g = played(players=8, actions=300, seed=seed, team=True, cookies="with", extended=True)
        for who in (None, "p1"):
            assert len(render_text(g.view(who), NAMES)) <= TEXT_LIMIT


def _under_gaia_with_move_planned() -> FlagonGame:
    """Margalo revealed Eyes of Gaia, and at her next step planned Move (not revealed yet)."""
    from tests.engine.flagon_support import under_eyes_of_gaia

    g = under_eyes_of_gaia()
    g.s["marker"] = g.s["chars"]["margalo"]["token"]
    g._begin_step()
    g.s["chars"]["nari"]["token"] = g.s["marker"]  # Nari plans too, so Margalo's Move waits unrevealed
    g._begin_step()
    g.play("p1", "plan:margalo:1:move")
    assert g.s["phase"] == "plan" and g.s["chars"]["margalo"]["slots"] == ["move"]
    return g


def test_under_eyes_of_gaia_the_public_board_names_the_card_played_last_never_the_planned_one():
    from render.canvas import outside, overlapping, too_small
    from tests.engine.flagon_support import answer

    g = _under_gaia_with_move_planned()
    text = render_text(g.view(None), NAMES)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if "Margalo" in line)
    assert lines[at + 2] == "    Last card played: Eyes of Gaia — not allowed next"
    assert "Move" not in text, "the planned, unrevealed card must not show"
    picture = draw(g.view(None), {"p1": "W" * 32, "p2": "W" * 32})
    shown = [t.text for t in picture.texts]
    assert "Last card played: Eyes of Gaia — not allowed next" in shown
    assert not any("Move" in t for t in shown)
    assert not overlapping(picture.texts) and not outside(picture.texts, picture.size)
    assert not too_small(picture.texts, picture.size[0])
    # Nari plans; Margalo's Move is revealed and played: now the board names it.
    while g.s["phase"] == "plan":
        g.play("p2", next(a for a in g.legal_actions("p2") if a.startswith("plan:nari:")))
    for _ in range(20):  # the questions of this step (where to move, which way to face)
        if g.s["chars"]["margalo"]["gaia_last"] == "move":
            break
        answer(g, g.legal_actions(g.to_act()[0])[0])
    assert "Last card played: Move — not allowed next" in render_text(g.view(None), NAMES)
    # When Eyes of Gaia ends, the reminder goes with it.
    g.s["statuses"] = []
    assert "Last card played" not in render_text(g.view(None), NAMES)
    assert not any("Last card played" in t.text for t in draw(g.view(None), NAMES).texts)


def test_the_eyes_of_gaia_line_fits_a_phone_with_the_longest_card_name():
    from render.canvas import outside, overlapping, too_small
    from render.text import CODE_WIDTH

    view = _under_gaia_with_move_planned().view(None)
    longest = max((c.name for c in load_cards().values()), key=len)
    for c in view["characters"]:
        c.update(gaia_last=longest, held="cookies")
    names = {"p1": "W" * 32, "p2": "W" * 32}
    text = render_text(view, names, fence=False)
    assert longest in text.replace("\n      ", " ")
    assert all(len(line) <= CODE_WIDTH for line in text.splitlines())
    picture = draw(view, names)
    assert any(longest in t.text for t in picture.texts), "the card's name is never cut off"
    assert not overlapping(picture.texts) and not outside(picture.texts, picture.size)
    assert not too_small(picture.texts, picture.size[0])
