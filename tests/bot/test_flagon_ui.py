"""The Dragon & Flagon UI module without Discord: menu shapes and the private prompt's controls."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from cogs import menu
from cogs.ui import flagon as ui
from engine import Event
from engine.flagon import FlagonGame, new_game
from engine.flagon.ai import choose_action


def until(predicate, seed: int = 0, limit: int = 400) -> FlagonGame:
    """A seeded easy-AI game played until ``predicate(game)`` holds."""
    g = new_game(["p1", "p2"], seed=seed)
    for i in range(limit):
        if predicate(g):
            return g
        who = g.to_act()[0]
        g.play(who, choose_action(g, who, "easy", i))
    raise AssertionError("position not reached")


def record(game_id: int = 7) -> Any:  # the little of a GameRecord that plan_rows reads
    seats = [SimpleNamespace(seat="p1", display_name="alice"), SimpleNamespace(seat="p2", display_name="bob")]
    return SimpleNamespace(id=game_id, seats=seats)


def public_menu(g: FlagonGame) -> menu.Node:
    seat = g.to_act()[0]
    actions = [a for a in g.legal_actions(seat) if not g.is_private_action(seat, a)]
    return menu.build(actions, lambda a: ui.menu_path(g, seat, a))


def test_long_square_lists_are_grouped_by_column_within_discord_limits():
    g = until(lambda g: bool(g.s["pending"]) and g.s["pending"]["verb"] == "at" and len(g.s["pending"]["options"]) > 15)
    root = public_menu(g)
    assert 1 < len(root.children) <= 11  # one board button per column (20 fit on the board)
    assert all(len(node.children) <= 25 for node in root.children)  # one select page each
    assert all(node.label.startswith("Place on — column ") for node in root.children)
    leaves = [leaf.action for node in root.children for leaf in node.children if leaf.action is not None]
    assert sorted(leaves) == sorted(g.s["pending"]["options"])


def test_setup_and_small_questions_are_short_board_buttons():
    g = new_game(["p1", "p2"], seed=1)
    root = public_menu(g)
    assert [c.label for c in root.children] == ["🎭 Choose a character"]
    assert len(root.children[0].children) == 9
    g = until(lambda g: bool(g.s["pending"]) and g.s["pending"]["verb"] == "face")
    labels = [c.label for c in public_menu(g).children]
    assert labels == ["Face E", "Face N", "Face S", "Face W"]


def test_planning_prompt_has_one_select_per_character_from_its_own_deck():
    g = until(lambda g: g.s["phase"] == "plan")
    rows: list[Any] = ui.plan_rows(record(), g, "p1")
    chars = sorted(g.chars_of("p1"))
    assert [r.custom_id for r in rows] == [f"dt:7:x:plan:{cid}.0" for cid in chars]
    for row, cid in zip(rows, chars, strict=True):
        values = [o.value for o in row.options]
        assert values and all(v.startswith(f"plan:{cid}:1:") for v in values)
        assert "(2 to place)" in row.placeholder
    assert {o.value.split(":")[3] for o in rows[0].options} != {o.value.split(":")[3] for o in rows[1].options}


def test_daze_arrives_as_a_private_select_and_ends_the_planning_step():
    g = until(lambda g: bool(g.s["pending"]) and g.s["pending"]["verb"] == "daze")
    seat = g.s["pending"]["player"]
    rows: list[Any] = ui.plan_rows(record(), g, seat)
    assert len(rows) == 1 and rows[0].custom_id == "dt:7:x:plan:q" and "Dazed" in rows[0].placeholder
    assert {o.value for o in rows[0].options} == set(g.legal_actions(seat))
    assert ui.private_prompt_due(g, seat, [Event("reveal", "x"), Event("daze", "y")])
    assert not ui.private_prompt_due(g, seat, [Event("plan", "x", to=seat), Event("planned", "y")])


def test_recent_lines_fold_a_card_into_one_line_and_leave_plans_to_the_progress_line():
    events = [
        Event("planned", "{p1} has planned a card for Nari.", data={"char": "nari"}),
        Event("planned", "{p1} has planned a card for Nari.", data={"char": "nari"}),
        Event("planned", "{p2} has planned a card for Thras.", data={"char": "thras"}),
        Event("order", "Time step 3: Nari, Thras act, in this order."),
        Event("reveal", "{p1}'s Nari reveals Backstab.", data={"owner": "p1", "char": "nari", "card": "backstab"}),
        Event("rep", "Sir Goodheart gives 5 reputation to Nari."),
        Event("token", "Nari faces E; time token moves 2 to space 5.",
              data={"char": "nari", "cost": 2, "facing": "E", "space": 5}),
        Event("reveal", "{p2}'s Thras reveals Move.", data={"owner": "p2", "char": "thras", "card": "move"}),
        Event("move", "Thras moves to c4."),
    ]
    assert ui.event_lines(events) == [
        "Time step 3: Nari, Thras act, in this order.",
        "{p1}'s Nari — Backstab: Sir Goodheart gives 5 reputation to Nari · faces E, +2 time → 5",
        "{p2}'s Thras — Move: Thras moves to c4",
    ]
    # The facing question was answered in a later outcome: the line still names the character.
    assert ui.event_lines([Event("token", "Thras faces S; time token moves 2 to space 5.",
                                 data={"char": "thras", "cost": 2, "facing": "S", "space": 5})]) == [
        "↳ Thras · faces S, +2 time → 5"]


def test_recent_lines_read_the_events_data_not_their_wording():
    """Rewording an event never breaks the board: the line is built from its data."""
    reworded = [
        Event("reveal", "Nari (of {p1}) flips a card.", data={"owner": "p1", "char": "nari", "card": "backstab"}),
        Event("rep", "Sir Goodheart gives 5 reputation to Nari."),
        Event("token", "Nari turns to face E and moves on.", data={"char": "nari", "cost": 2, "facing": "E",
                                                                   "space": 5}),
    ]
    assert ui.event_lines(reworded) == [
        "{p1}'s Nari — Backstab: Sir Goodheart gives 5 reputation to Nari · faces E, +2 time → 5"]


def test_the_engine_gives_every_card_reveal_and_token_move_its_data():
    """A whole game's public events: each action's reveal and token move fold into one line
    built from data, with the same card name and token space as the event texts say."""
    from engine.flagon.events import card_revealed, token_moved

    g = new_game(["p1", "p2"], seed=3)
    reveals = moves = 0
    for i in range(3000):
        if g.is_over:
            break
        who = g.to_act()[0]
        public = [e for e in g.play(who, choose_action(g, who, "easy", i)) if e.to is None]
        lines = ui.event_lines(public)
        for e in public:
            if e.kind == "reveal" and " reveals " in e.text:
                reveal = card_revealed(e)
                assert reveal is not None, e
                head = f"{{{reveal['owner']}}}'s {ui._cname(reveal['char'])} — {ui._arg_label(reveal['card'])}"
                assert e.text == f"{head.replace(' — ', ' reveals ')}."
                assert any(line.startswith(head) for line in lines)
                reveals += 1
            if e.kind == "token" and " faces " in e.text:
                token = token_moved(e)
                assert token is not None, e
                assert e.text.endswith(f"faces {token['facing']}; time token moves {token['cost']} to space "
                                       f"{token['space']}.")
                assert any(f"· faces {token['facing']}, +{token['cost']} time → {token['space']}" in line
                           for line in lines)
                moves += 1
    assert g.is_over and reveals > 10 and moves > 10


def test_old_logged_events_without_data_still_load_and_render():
    """Outbox rows queued by an older bot hold events without ``data`` (or with less of it):
    they load, and each shows as its own text on the board (nothing is lost, nothing raises)."""
    rows: list[dict[str, Any]] = [{"kind": "reveal", "text": "{p1}'s Nari reveals Backstab.", "to": None},
            {"kind": "rep", "text": "Sir Goodheart gives 5 reputation to Nari.", "to": None},
            {"kind": "token", "text": "Nari faces E; time token moves 2 to space 5.", "to": None, "data": {"char": "nari"}}]
    events = [Event.from_dict(row) for row in rows]
    assert ui.event_lines(events) == ["{p1}'s Nari reveals Backstab.", "Sir Goodheart gives 5 reputation to Nari.",
                                      "Nari faces E; time token moves 2 to space 5."]


def test_plans_arriving_are_one_progress_line_naming_who_still_plans():
    g = until(lambda g: g.view(None)["phase"] == "plan")
    assert ui.progress_line(g, [Event("reveal", "x")]) is None  # no plan came in: nothing to update
    planner = g.to_act()[0]
    events = g.play(planner, next(a for a in g.legal_actions(planner) if a.startswith("plan:")))
    public = [e for e in events if e.to is None]
    line = ui.progress_line(g, public)
    waiting = {c["owner"]: c["name"] for c in g.view(None)["characters"] if c["planning"]}
    assert line is not None and line.startswith("Still planning: ")
    assert all(f"{{{owner}}}" in line and name in line for owner, name in waiting.items())
    while g.view(None)["phase"] == "plan":
        who = g.to_act()[0]
        events = g.play(who, choose_action(g, who, "easy", 1))
    assert ui.progress_line(g, [e for e in events if e.to is None]) == "All plans are in."


def test_the_prompt_asks_the_engine_how_many_cards_to_place(monkeypatch):
    g = until(lambda g: g.s["phase"] == "plan")
    monkeypatch.setattr(g, "cards_to_place", lambda cid: 3)  # e.g. a Chug: the UI must not count itself
    rows: list[Any] = ui.plan_rows(record(), g, "p1")
    assert rows and all("(3 to place)" in row.placeholder for row in rows)


def test_under_eyes_of_gaia_the_prompt_names_the_card_played_last():
    from tests.engine.flagon_support import under_eyes_of_gaia

    g = under_eyes_of_gaia()
    g.s["marker"] = g.s["chars"]["margalo"]["token"]
    g._begin_step()
    embed = ui.private_message(record(), g, "p1", [])["embed"]
    field = next(f for f in embed.fields if f.name.startswith("Margalo"))
    assert "Eyes of Gaia was played last, so it cannot be planned now" in field.value
    rows: list[Any] = ui.plan_rows(record(), g, "p1")
    assert "(" not in rows[0].placeholder  # one card to place: no count
    assert "plan:margalo:1:eyes_of_gaia" not in {o.value for o in rows[0].options}
