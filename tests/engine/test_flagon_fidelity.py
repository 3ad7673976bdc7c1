"""Issue 15: Dragon & Flagon rules the audit found broken, each checked against the rulebook sentence."""

from __future__ import annotations

from typing import Any

import pytest

from engine.base import IllegalAction
from engine.flagon.game import FlagonGame
from tests.engine.flagon_support import answer, position, step


def _ch(g: FlagonGame, cid: str) -> dict[str, Any]:
    return g.s["chars"][cid]


def test_dragon_kick_offers_only_the_character_square_in_an_occupied_line():
    # RB: "Move in a straight line in any direction until you reach another character.
    # End in the location of the affected character."
    g = position({"teo": ("p1", "e9", "N"), "nari": ("p2", "e5", "S")})
    _ch(g, "teo")["mat"] = []
    step(g, {"teo": ["dragon_kick", "move"]})
    offered = g.legal_actions("p1")
    assert "to:teo:e5" in offered
    assert "to:teo:e7" not in offered and "to:teo:e6" not in offered
    with pytest.raises(IllegalAction):
        g.play("p1", "to:teo:e7")
    assert _ch(g, "teo")["pos"] == "e9"


def test_dragon_kick_empty_line_any_distance_including_none():
    # RB: "If there is no character in a straight line, move as far as you would like in the
    # direction of your choice (including not moving at all)."
    g = position({"teo": ("p1", "e9", "N"), "nari": ("p2", "a1", "S")})
    _ch(g, "teo")["mat"] = []
    step(g, {"teo": ["dragon_kick", "move"]})
    offered = g.legal_actions("p1")
    assert {"to:teo:stay", "to:teo:e8", "to:teo:e6"} <= set(offered)
    answer(g, "to:teo:e6", "face:teo:N")
    assert _ch(g, "teo")["pos"] == "e6"


def test_mark_prey_moves_to_a_different_character():
    # RB: "If Mark Prey is played when the token is already on a character, move it to a
    # different character."
    g = position(
        {
            "margalo": ("p1", "e5", "N"),
            "nari": ("p2", "e4", "S"),
            "teo": ("p2", "a1", "S"),
            "tuuli": ("p2", "i1", "S"),
        }
    )
    g.s["mark"] = {"by": "margalo", "on": "nari"}
    step(g, {"margalo": ["mark_prey", "move"]})
    offered = g.legal_actions("p1")
    assert {"target:margalo:teo", "target:margalo:tuuli"} <= set(offered)
    assert "target:margalo:nari" not in offered
    with pytest.raises(IllegalAction):
        g.play("p1", "target:margalo:nari")
    answer(g, "target:margalo:teo")
    assert g.s["mark"] == {"by": "margalo", "on": "teo"}


def test_battle_frenzy_does_not_pay_on_a_cancelled_action():
    # RB: "at the end of every Action Thras takes (not every Time Step), she gains 2 Reputation
    # from each character in one of the highlighted squares." A cancelled card is no action taken.
    g = position({"thras": ("p1", "e5", "N"), "nari": ("p2", "e4", "S")})
    _ch(g, "thras")["mat"] = []
    step(g, {"thras": ["battle_frenzy", "move"]})
    answer(g, "face:thras:N")
    assert _ch(g, "thras")["rep"] == 22  # the Frenzy card itself is an action performed
    _ch(g, "thras")["prone"] = True  # Slash has a purple header: cancelled while prone
    g.s["marker"] = 2
    step(g, {"thras": ["slash", "move"]})
    answer(g, "face:thras:N")
    assert _ch(g, "thras")["rep"] == 22 and _ch(g, "nari")["rep"] == 18


def _prone_tuuli_vision_slash(**options: Any) -> tuple[int, int]:
    g = position({"tuuli": ("p1", "e5", "N"), "nari": ("p2", "e4", "S")}, **options)
    _ch(g, "tuuli")["prone"] = True
    step(g, {"tuuli": ["vision", "move"]})
    answer(g, "vision:tuuli:slash", "face:tuuli:N")
    assert not _ch(g, "tuuli")["prone"]  # up again after the reveal, in both readings
    return _ch(g, "nari")["rep"], _ch(g, "tuuli")["token"]


def test_prone_vision_becoming_slash_is_cancelled_by_default():
    # RB (Fall): "When the character's next Action is revealed, if it has a Purple Header it is
    # automatically Canceled." RB (Vision): "you may replace it with any Action ... The Action is
    # performed as normal": our reading is that the Slash is the action that comes up.
    nari_rep, token = _prone_tuuli_vision_slash()
    assert nari_rep == 20 and token == 2  # cancelled: no reputation, time 1


def test_prone_vision_stands_option_lets_the_slash_happen():
    nari_rep, _ = _prone_tuuli_vision_slash(prone_vision_stands=True)
    assert nari_rep < 20


def _throw_past_the_familiar(**options: Any) -> FlagonGame:
    g = position({"jack": ("p1", "e9", "N"), "nari": ("p2", "e5", "S"), "asma": ("p2", "a1", "S")}, **options)
    _ch(g, "jack")["held"] = "mug"
    g.s["familiar"] = {"at": "e7", "facing": "N"}
    step(g, {"jack": ["throw", "move"]})
    return g


def test_familiar_is_an_optional_target_not_a_block():
    # RB: "You may deliberately throw a mug or chair at the familiar, and it will be removed."
    g = _throw_past_the_familiar()
    offered = g.legal_actions("p1")
    assert "dir:jack:familiar" in offered and "dir:jack:N" in offered
    g.play("p1", "dir:jack:N")  # past the Familiar, onto Nari
    assert _ch(g, "nari")["rep"] < 20 and g.s["familiar"] is not None
    g = _throw_past_the_familiar()
    g.play("p1", "dir:jack:familiar")
    assert g.s["familiar"] is None and _ch(g, "nari")["rep"] == 20


def test_familiar_blocks_option_stops_the_throw():
    g = _throw_past_the_familiar(familiar_blocks=True)
    assert "dir:jack:familiar" not in g.legal_actions("p1")  # one line, one target: no question
    answer(g, "face:jack:N")
    assert g.s["familiar"] is None and _ch(g, "nari")["rep"] == 20
