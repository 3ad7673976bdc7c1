"""Each engine's view has a declared shape (a TypedDict the UI reads through) and its actions a
notation read and written in one place (python-chess's ``Move.from_uci`` / ``uci()``)."""

from __future__ import annotations

from engine.farkle import FarkleAction, FarkleView, new_game
from engine.farkle.ai import choose_action


def _keys_match(view: dict, shape: type) -> None:
    required, optional = shape.__required_keys__, shape.__optional_keys__  # type: ignore[attr-defined]
    assert required <= set(view), required - set(view)
    assert set(view) <= required | optional, set(view) - required - optional


def test_farkle_views_have_the_declared_shape_and_actions_read_back():
    for seed in range(3):
        g = new_game(["p1", "p2", "p3"], seed=seed)
        for step in range(400):
            if g.is_over:
                break
            for viewer in (None, *g.players):
                _keys_match(g.view(viewer), FarkleView)
                assert g.typed_view(viewer) == g.view(viewer)
            who = g.to_act()[0]
            for action in (*g.legal_actions(who), *g.shortcuts(who)):
                parsed = FarkleAction.from_text(action)
                assert parsed.text() == action
                if parsed.head == "keep":
                    assert parsed.dice and FarkleAction.keep(parsed.dice).text() == action.partition("+")[0]
                else:
                    assert parsed.dice == ()
            g.play(who, choose_action(g, who, "easy", step))
        _keys_match(g.view(None), FarkleView)


def test_farkle_action_notation():
    assert FarkleAction.from_text("keep:1,5+roll") == FarkleAction("keep", "1,5", "roll")
    assert FarkleAction.from_text("use:loaded_die:6:1") == FarkleAction("use", "loaded_die:6:1")
    assert FarkleAction.keep([5, 1, 1]).text() == "keep:1,1,5"
    assert FarkleAction.from_text("keep:1,x").dice == ()  # malformed: no dice, never an exception
    assert FarkleAction.from_text("roll").text() == "roll"


def test_flagon_views_have_the_declared_shape_and_actions_read_back():
    from engine.flagon import new_game as new_flagon
    from engine.flagon.ai import choose_action as flagon_ai
    from engine.flagon.notation import FlagonAction
    from engine.flagon.view import CharacterView, FlagonView, MyView

    for seed, players, options in ((1, 2, {}), (2, 4, {"team": True, "late_night": True})):
        g = new_flagon([f"p{i + 1}" for i in range(players)], seed=seed, **options)
        for step in range(3000):
            if g.is_over:
                break
            for viewer in (None, *g.players):
                view = g.view(viewer)
                _keys_match(view, FlagonView)
                for char in view["characters"]:
                    _keys_match(char, CharacterView)
                if "me" in view:
                    _keys_match(view["me"], MyView)
            who = g.to_act()[0]
            for action in g.legal_actions(who):
                parsed = FlagonAction.from_text(action)
                assert parsed.text() == action
                assert parsed.is_private == g.is_private_action(who, action)
            g.play(who, flagon_ai(g, who, "easy", step))
        assert g.is_over
        _keys_match(g.view(None), FlagonView)
    assert FlagonAction.from_text("plan:nari:2:backstab") == FlagonAction.plan("nari", 2, "backstab")
    assert FlagonAction.from_text("plan:nari:x:backstab").slot == 0  # malformed: no slot, never an exception


def test_nine_sons_views_have_the_declared_shape_and_actions_read_back():
    from engine.ninesons import new_game as new_ninesons
    from engine.ninesons.ai import choose_action as ninesons_ai
    from engine.ninesons.view import CellView, NineSonsAction, NineSonsView, SlotView

    for seed in range(3):
        g = new_ninesons(["p1", "p2"], seed=seed)
        for step in range(300):
            if g.is_over:
                break
            for viewer in (None, *g.players):
                view = g.view(viewer)
                _keys_match(view, NineSonsView)
                for cell in view["cells"]:
                    _keys_match(cell, CellView)
                for slot in view["slots"]:
                    _keys_match(slot, SlotView)
            who = g.to_act()[0]
            for action in g.legal_actions(who):
                parsed = NineSonsAction.from_text(action)
                assert parsed.kind in ("place", "move", "tame") and parsed.text() == action
            g.play(who, ninesons_ai(g, who, "easy", step))
        _keys_match(g.view(None), NineSonsView)
    assert NineSonsAction.from_text("tame:S6:d3") == NineSonsAction("tame", cells=("d3",), slot="S6")
    assert NineSonsAction.from_text("x@b2").value == 0 and NineSonsAction.from_text("b2").kind == ""
