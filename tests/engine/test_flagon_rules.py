"""Data loading, setup, options, the hidden-information contract and notation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import IllegalAction
from engine.flagon import RULES_SUMMARY, new_game
from engine.flagon.board import LayoutError, layout_names, load_layout, parse_layout
from engine.flagon.cards import CHARACTERS, CardDataError, deck_of, load_cards
from engine.registry import get
from tests.engine.flagon_support import answer, position, step

CARDS_TOML = Path(__file__).resolve().parents[2] / "engine" / "flagon" / "data" / "cards.toml"


def test_all_58_cards_with_provenance():
    cards = load_cards()
    assert len(cards) == 58
    assert sum(c.owner == "common" for c in cards.values()) == 13
    for ch in CHARACTERS:
        assert len(deck_of(ch)) == 18
    for c in cards.values():
        for field in (
            "time",
            "rep",
            "daze",
            "fall",
            "knockback",
            "duration",
            "purple",
            "requires",
            "weapon",
            "squares",
        ):
            status, source = c.provenance[field]
            assert status in ("confirmed", "inferred", "proposed") and source
    assert cards["boast"].provenance["duration"][0] == "confirmed" and cards["boast"]["duration"] == 6
    assert cards["slash"].provenance["squares"][0] == "proposed"


@pytest.mark.parametrize(
    "old, new, needle",
    [
        (
            '[slash]\nname = "Slash"',
            '[slash]\nname = "Slash"\nbogus = { v = 1, s = "maybe", src = "P" }',
            "card `slash` field `bogus`",
        ),
        (
            'rep = { v = 2, s = "confirmed", src = "RB Slash example" }',
            'rep = { v = "two", s = "confirmed", src = "x" }',
            "card `slash` field `rep`",
        ),
        ('effect = "throw"', 'effect = "juggle"', "field `effect`"),
    ],
)
def test_bad_card_file_names_card_and_field(tmp_path, old, new, needle):
    text = CARDS_TOML.read_text()
    assert old in text
    bad = tmp_path / "cards.toml"
    bad.write_text(text.replace(old, new, 1))
    with pytest.raises(CardDataError, match=needle.replace("`", ".").replace("[", ".")):
        load_cards(str(bad))


def test_layouts_ship_and_validate():
    assert {"first-game", "open-hall", "cellar"} <= set(layout_names())
    lay = load_layout("first-game")
    assert (lay.width, lay.height) == (11, 11) and len(lay.tables) == 5 and len(lay.rugs) == 2
    base = {
        "name": "bad",
        "width": 11,
        "height": 11,
        "centre": "f6",
        "start": ["c1", "f1", "i1", "k3", "k6", "k9", "i11", "f11"],
    }
    with pytest.raises(LayoutError, match="overlap"):
        parse_layout(
            {**base, "tables": [{"id": "a", "from": "c3", "to": "e4"}, {"id": "b", "from": "e4", "to": "e5"}]}
        )
    with pytest.raises(LayoutError, match="under table"):
        parse_layout({**base, "tables": [{"id": "a", "from": "c3", "to": "e4"}], "barrels": ["d3"]})
    with pytest.raises(LayoutError, match="3x2"):
        parse_layout({**base, "tables": [{"id": "a", "from": "c3", "to": "d4"}]})
    with pytest.raises(LayoutError, match="runs off"):
        parse_layout({**base, "tables": [{"id": "a", "from": "j3", "to": "l4"}]})


def test_setup_two_players_choose_and_place():
    g = new_game(["p1", "p2"], seed=3)
    assert g.to_act() == ["p1"] and "char:nari" in g.legal_actions("p1")
    for p, c in (("p1", "nari"), ("p2", "thras"), ("p1", "asma"), ("p2", "teo")):
        g.play(p, f"char:{c}")
    assert g.s["phase"] == "setup" and g.legal_actions(g.to_act()[0])[0].startswith("start:")
    for _ in range(4):
        p = g.to_act()[0]
        g.play(p, g.legal_actions(p)[0])
    v = g.view(None)
    assert v["phase"] == "plan" and sorted(v["planning"]) == ["asma", "nari", "teo", "thras"]
    assert set(g.to_act()) == {"p1", "p2"}
    for c in v["characters"]:
        assert c["rep"] == 20 and c["token"] == 1 and c["dragon_card"] == "under the mat"
        x, y = c["xy"]
        assert c["facing"] == {0: "S", 10: "N"}.get(y, "E" if x == 0 else "W")
    guards = [t for t in g.s["game_end"] if t["guard"]]
    assert len(guards) == 1 and [t["space"] for t in g.s["game_end"]] == [21, 22, 23, 24]


def test_extended_cookies_and_player_counts():
    g = new_game(["a", "b", "c", "d", "e"], seed=1, extended=True, cookies="with")
    assert [t["space"] for t in g.s["game_end"]] == [27, 28, 29, 30]
    assert set(g.s["prizes"]) == {"flagon", "cookies"}
    assert g.s["quota"] == {p: 1 for p in "abcde"}
    assert set(new_game(["a", "b"], 1, cookies="instead").s["prizes"]) == {"cookies"}
    with pytest.raises(ValueError):
        new_game(["a"], 1)
    with pytest.raises(ValueError):
        new_game(["a", "b"], 1, team=True)


def test_team_game_equal_characters_and_alternating_choice():
    g = new_game(["a", "b", "c", "d", "e"], seed=2, team=True)
    teams = g.s["teams"]
    per_team = {t: sum(g.s["quota"][p] for p in teams if teams[p] == t) for t in "AB"}
    assert per_team["A"] == per_team["B"] == 4  # the rulebook's five-player example (issue 15)
    kinds = [k for k, _ in g.s["queue"]]
    assert kinds[:2] == ["choose", "place_last"]
    first_team = teams[g.s["queue"][0][1]]
    assert teams[g.s["queue"][2][1]] != first_team  # teams alternate


def test_team_reputation_from_teammate_leaves_the_game():
    g = position({"goodheart": ("p1", "e5", "N"), "nari": ("p3", "e4", "S"), "teo": ("p2", "a1", "S"), "asma": ("p4", "k11", "N")},
                 players=["p1", "p2", "p3", "p4"], team=True)  # fmt: skip
    assert g.s["teams"]["p1"] == g.s["teams"]["p3"]
    step(g, {"goodheart": ["slash", "move"]})
    answer(g, "face:goodheart:N")
    assert g.s["chars"]["nari"]["rep"] == 18 and g.s["chars"]["goodheart"]["rep"] == 20


def _planning_game(**opts):
    g = new_game(["p1", "p2"], seed=5, **opts)
    while g.s["phase"] == "setup":
        p = g.to_act()[0]
        g.play(p, g.legal_actions(p)[0])
    return g


def test_planning_is_private_and_simultaneous():
    g = _planning_game()
    assert g.to_act() == ["p1", "p2"]
    acts = g.legal_actions("p1")
    assert acts and all(a.startswith("plan:") for a in acts) and g.is_private_action("p1", acts[0])
    cid = acts[0].split(":")[1]
    ev = g.play("p1", f"plan:{cid}:1:swing")
    public = [e for e in ev if e.to is None]
    assert public and all("swing" not in json.dumps(e.to_dict()).lower() for e in public)
    assert any(e.to == "p1" and "Swing" in e.text for e in ev)
    assert '"swing"' not in json.dumps({k: v for k, v in g.view(None).items() if k != "card_names"})
    other = g.view("p2")
    g.s["chars"][cid]["slots"] = ["dash"]
    assert g.view("p2") == other  # p2's view does not depend on p1's hidden card
    g.s["chars"][cid]["slots"] = ["swing"]
    assert g.view("p1")["me"]["characters"][cid]["slots"] == ["swing"]
    assert f"plan:{cid}:1:swing" not in g.legal_actions("p1")
    with pytest.raises(IllegalAction):
        g.play("p2", f"plan:{cid}:2:move")  # not p2's character


def test_late_night_hides_own_cards():
    g = _planning_game(late_night=True)
    cid = g.legal_actions("p1")[0].split(":")[1]
    g.play("p1", f"plan:{cid}:1:swing")
    assert g.view("p1")["me"]["characters"][cid]["slots"] == ["?"]


def test_illegal_action_changes_nothing():
    g = _planning_game()
    before = g.to_dict()
    for bad in ("plan:nari:1:nothing", "face:x:N", "", "char:nari"):
        with pytest.raises(IllegalAction):
            g.play("p1", bad)
    assert g.to_dict() == before


def test_describe_action_and_registry():
    g = _planning_game()
    for a in g.legal_actions("p1"):
        label = g.describe_action("p1", a)
        assert 0 < len(label) <= 80
    info = get("flagon")
    assert (
        info.name == "flagon"
        and "reconstruct" in RULES_SUMMARY.lower()
        and info.rules_summary == RULES_SUMMARY
    )
    assert g.describe_action("p1", "face:nari:N") == "Nari: face N"


def test_view_has_what_a_renderer_needs():
    g = _planning_game()
    v = g.view(None)
    for key in ("grid", "tables", "rugs", "chairs", "mugs", "barrels", "prizes", "characters", "time", "reputation",
                "scores", "active", "planning", "familiar", "barrage", "start_squares", "centre"):  # fmt: skip
        assert key in v
    assert {"marker", "stacks", "status_tokens", "game_end"} <= set(v["time"])
    assert all(t["guard"] is None for t in v["time"]["game_end"])  # face down
    assert "me" not in v
    assert v["card_names"]["yank_rug"] == "Yank Rug" and v["track_spaces"] >= 30
    json.dumps(g.view("p1"))


def test_team_scores_and_tie_break_by_the_single_lowest_token():
    g = position(
        {
            "goodheart": ("p1", "a1", "S"),
            "nari": ("p2", "c1", "S"),
            "tuuli": ("p3", "e1", "S"),
            "asma": ("p4", "g1", "S"),
        },
        players=["p1", "p2", "p3", "p4"],
        team=True,
        marker=22,
    )
    # team A = p1 + p3, team B = p2 + p4; both total 40
    for cid, r, tok, seq in [
        ("goodheart", 25, 24, 9),
        ("tuuli", 15, 25, 10),
        ("nari", 20, 24, 8),
        ("asma", 20, 26, 11),
    ]:
        g.s["chars"][cid].update(rep=r, token=tok, seq=seq)
    g._finish("Town Guard")
    assert g.result is not None
    assert g.result.ranking == [["p2", "p4"], ["p1", "p3"]]  # Nari is lowest in the stack on 24
    assert g.result.scores == {"p1": 40.0, "p2": 40.0, "p3": 40.0, "p4": 40.0}
