"""The Dragon & Flagon rulebook, sections FL-7 to FL-13 of docs/rules-map/flagon.md: the overview,
setup, planning, the time track, the turn order, standees and facing. Each test quotes the
sentences it checks by id; the positions are built with tests/engine/flagon_support.py."""

from __future__ import annotations

from engine.base import Event
from engine.flagon import geometry as G
from engine.flagon import new_game
from engine.flagon.board import load_layout
from engine.flagon.cards import deck_of, dragon_of, load_cards
from engine.flagon.game import FlagonGame
from tests.engine.flagon_support import answer, deck, position, step, texts

PICKS = (("p1", "nari"), ("p2", "thras"), ("p1", "asma"), ("p2", "teo"))


def _choose(seed: int) -> FlagonGame:
    """A two-player game with its four characters chosen, about to place them."""
    g = new_game(["p1", "p2"], seed)
    for p, c in PICKS:
        g.play(p, f"char:{c}")
    return g


def _place_all(g: FlagonGame) -> list[Event]:
    events: list[Event] = []
    while g.s["phase"] == "setup":
        p = g.to_act()[0]
        events += g.play(p, g.legal_actions(p)[-1])
    return events


def _drive(g: FlagonGame) -> list[Event]:
    """Play to the end: plan Slash when planning (nobody is in reach), stay put when moving, face
    East otherwise."""
    events: list[Event] = []
    while not g.is_over:
        p = g.to_act()[0]
        legal = g.legal_actions(p)
        pick = next((a for a in legal if a.endswith(":slash") or a.endswith(":stay")), None)
        pick = pick or next((a for a in legal if a.endswith(":E")), legal[0])
        events += g.play(p, pick)
    return events


def test_setup_reputation_dragon_card_board_game_end_marker_and_placement() -> None:
    """FL-8.10 "- 20 Reputation (1x10, 1x5, 5x1)"; FL-8.11 "... Each character has a single Dragon
    Card. Remove this from the deck and tuck it under the Character Mat ..."; FL-8.12 "Materials for
    any characters not selected are returned to the box."; FL-8.13 "... For your first game, you can
    use the setup shown in the diagram."; FL-8.14 "Place the Dragon Flagon in the center of the
    board"; FL-8.15 "Shuffle the four Game End tokens face down ... spaces 21-24 ..."; FL-8.16 "Place
    the Time Marker in space #1"; FL-8.17 "Take all the Character Tokens, turn them face down and
    shuffle them. Draw them one at a time. When a character's token is drawn, the controlling player
    selects an unoccupied yellow square ..."; FL-8.18 "put all their Character Tokens face up on the
    '1' space"; FL-13.8 "There can only be one character in each square." """
    g = _choose(3)
    owner = dict((c, p) for p, c in PICKS)
    order = [c for kind, c in g.s["queue"] if kind == "place"]
    assert sorted(order) == sorted(owner)
    lay = load_layout("first-game")
    taken: set[str] = set()
    while g.s["phase"] == "setup":
        cid = g.character_being_placed()
        assert cid is not None
        assert cid == order[len(taken)]  # the drawn token's character is placed now
        p = g.to_act()[0]
        assert p == owner[cid]  # by its controlling player
        offered = g.legal_actions(p)
        assert set(offered) == {f"start:{G.name(q)}" for q in lay.start} - {f"start:{q}" for q in taken}
        g.play(p, offered[0])
        taken.add(offered[0].split(":")[1])
    assert len(taken) == 4  # one character per square
    v = g.view(None)
    assert sorted(c["id"] for c in v["characters"]) == sorted(owner)  # nobody else in the game
    assert v["layout"] == "first-game" and v["prizes"]["flagon"]["at"] == G.name(lay.centre)
    assert v["time"]["marker"] == 1 and list(v["time"]["stacks"]) == ["1"]
    assert sorted(v["time"]["stacks"]["1"]) == sorted(owner)
    assert [t["space"] for t in v["time"]["game_end"]] == [21, 22, 23, 24]
    assert all(not t["revealed"] and t["guard"] is None for t in v["time"]["game_end"])  # face down
    assert sum(t["guard"] for t in g.s["game_end"]) == 1
    for c in v["characters"]:
        assert c["rep"] == 20 and c["dragon_card"] == "under the mat"
        assert dragon_of(c["id"]) not in deck(g, c["id"])
    # Shuffled: the placement order and the Town Guard's space change with the game's seed.
    orders = {tuple(c for _, c in _choose(seed).s["queue"]) for seed in range(12)}
    guards = {
        next(t["space"] for t in new_game(["a", "b"], seed).s["game_end"] if t["guard"]) for seed in range(12)
    }
    assert len(orders) > 1 and len(guards) > 1


def test_example_first_turn_everyone_plans_two_cards_from_their_own_deck() -> None:
    """FL-10.13 "EXAMPLE: On the first turn, all characters will have no actions planned, and all
    will be Active." FL-10.14 "So they will need to place two actions." FL-10.3 "all Active
    characters place cards on their mat into slots I and II if they are empty." FL-10.5 "cards are
    ONLY placed into slot III as a result of being Dazed". FL-10.6 "You may place any cards that are
    in your character deck." FL-10.7 "All cards in the deck are available." FL-10.8 "Just look
    through the deck and find the card(s) you want." FL-10.9 "If you control multiple characters,
    each character can only use their own cards." FL-10.11 "Once all Active characters have placed
    cards, proceed to the Perform Actions step." """
    g = _choose(5)
    _place_all(g)
    v = g.view(None)
    everyone = sorted(c["id"] for c in v["characters"])
    assert v["active"] == everyone and sorted(v["planning"]) == everyone
    assert set(g.to_act()) == {"p1", "p2"}
    mine = {"p1": ["asma", "nari"], "p2": ["teo", "thras"]}
    events: list[Event] = []
    for slot in (1, 2):
        for p, chars in mine.items():
            for cid in chars:
                offered = g.legal_actions(p)
                assert all(a.split(":")[1] in chars for a in offered)  # only this player's characters
                assert not any(a.split(":")[2] == "3" for a in offered)  # never slot III
                cards = {a.split(":")[3] for a in offered if a.split(":")[1] == cid}
                assert all(a.split(":")[2] == str(slot) for a in offered if a.split(":")[1] == cid)
                # the whole deck, that character's own cards only, less what is already planned
                assert (
                    cards
                    == set(deck(g, cid))
                    == set(deck_of(cid)) - {dragon_of(cid)} - set(g.s["chars"][cid]["slots"])
                )
                assert len(cards) == 18 - 1 - (slot - 1)
                assert not any(e.kind == "order" for e in events)  # nobody acts before all have planned
                pick = "slash" if slot == 1 else "move"
                events = g.play(p, f"plan:{cid}:{slot}:{pick}")
    assert any(e.kind == "order" for e in events)  # the last card placed starts the actions
    assert g.s["phase"] == "act" and g.view(None)["planning"] == []


def test_active_characters_are_those_on_the_marker_and_act_in_a_random_order() -> None:
    """FL-7.4 "At the start of each round, the characters on the current Time Space will be active."
    FL-7.5 "If there is more than one character on the current Time Space, then they'll go in a random
    order." FL-9.4 "characters with their token in the same Time space as the Time Marker are the
    Active characters"; FL-9.5 "They will each perform their left-most Action Card, in a random
    order." FL-11.1 "Take all the Character Tokens in the current Time space, turn them face down, and
    mix them." FL-11.2 "Then draw them one at a time randomly." """
    orders = set()
    for seed in range(10):
        g = position(
            {"goodheart": ("p1", "a1", "S"), "nari": ("p2", "k1", "S"), "teo": ("p1", "a11", "N"),
             "asma": ("p2", "k11", "N")},
            marker=4, seed=seed,
        )  # fmt: skip
        for cid in ("goodheart", "nari", "teo"):
            g.s["chars"][cid]["slots"] = ["slash", "move"]
        g.s["chars"]["asma"]["token"] = 6
        g._begin_step()
        assert g.view(None)["active"] == ["goodheart", "nari", "teo"]  # Asma (space 6) waits
        events = g._advance()
        order = next(e for e in events if e.kind == "order").data["order"]
        assert sorted(order) == ["goodheart", "nari", "teo"]
        first = next(e for e in events if e.kind == "reveal")
        assert first.data["char"] == order[0] and first.data["card"] == "slash"  # the left-most card
        orders.add(tuple(order))
    assert len(orders) > 2


def test_an_action_reveals_slot_one_returns_the_card_slides_and_moves_the_token_onto_the_stack() -> None:
    """FL-7.3 "Each Action Card will cost a certain amount of Time, which you'll mark off by
    advancing the appropriate Character Token clockwise on the Time Track." FL-9.6 "their Character
    Token is moved clockwise a number of spaces on the Time Track equal to the Action's Time Cost."
    FL-10.1 "Each Character Mat has three slots, numbered I, II, and III." FL-10.2 "it will perform
    the Action in the I slot, and the other cards will slide one slot to the left." FL-11.3 "the
    controlling player immediately performs the following steps for that character". FL-11.5 "Turn
    over the Action Card in the I slot". FL-11.6 "Resolve the Action, change your facing if desired,
    then return the Action Card to that character's deck ... Slide cards in the II or III slot to the
    left." FL-11.7 "Move the Character Token ahead a number of spaces equal to the Time Cost of the
    Action. If there are other Character Tokens in the space, place yours on top of the stack"."""
    g = position({"goodheart": ("p1", "e5", "N"), "nari": ("p2", "a1", "S")}, marker=3)
    cost = load_cards()["slash"].base_time
    g.s["chars"]["nari"]["token"] = 3 + cost  # already waiting where Goodheart will land
    events = step(g, {"goodheart": ["slash", "dash", "swing"]})  # slot III filled (as by a Daze)
    assert "Sir Goodheart reveals Slash" in texts(events)
    assert g.to_act() == ["p1"] and g.s["pending"]["verb"] == "face"  # his controller, right away
    answer(g, "face:goodheart:W")
    c = g.s["chars"]["goodheart"]
    assert c["slots"] == ["dash", "swing"] and "slash" in deck(g, "goodheart")
    assert c["token"] == 3 + cost
    v = g.view(None)
    assert v["time"]["stacks"][str(3 + cost)] == ["nari", "goodheart"]  # on top of Nari's token
    assert {x["id"]: x["stack"] for x in v["characters"]} == {"nari": 0, "goodheart": 1}


def test_the_marker_waits_for_every_active_character_then_moves_to_the_next_space_with_tokens() -> None:
    """FL-7.6 "Once all the active characters have performed their actions and moved their Character
    Token on the Time Track, you'll move the Time Marker to the next Time Space with Character Tokens,
    and the round ends." FL-9.7 "After all characters have taken their action and there are no more
    Character Tokens in the current Time Space, the marker advances to the next space." FL-12.1 "When
    no more Character Tokens are in the same space as the Time Marker, the turn ends." FL-12.3 "If the
    game continues, move the Time Marker to the next space on the Time Track, and go back to the Place
    Actions step." """
    g = position(
        {"goodheart": ("p1", "a1", "S"), "teo": ("p1", "k11", "N"), "nari": ("p2", "a11", "N")}, marker=3
    )
    g.s["chars"]["nari"]["token"] = 9
    step(g, {"goodheart": ["slash", "move"], "teo": ["slash", "dash"]}, order=["goodheart", "teo"])
    answer(g, "face:goodheart:S")
    assert g.s["marker"] == 3 and g.s["pending"]["char"] == "teo"  # Teo's token is still on 3
    answer(g, "face:teo:N")
    assert g.s["marker"] == 5  # space 4 holds no token and is passed over
    assert g.view(None)["active"] == ["goodheart", "teo"] and g.s["phase"] == "plan"
    assert g.to_act() == ["p1"] and all(a.split(":")[2] == "2" for a in g.legal_actions("p1"))


def test_game_end_tokens_blank_goes_on_town_guard_ends_and_most_reputation_wins() -> None:
    """FL-7.7 "The last few spaces on the Time Track have face-down Game End tokens." FL-7.8 "One of
    these will end the game when turned over." FL-7.9 "The player with the most Reputation wins!"
    FL-9.8 "When the Game End Token with the Town Guards is turned over, the game ends, and the player
    with the most Reputation wins!" FL-12.2 "If one of the GAME END tokens is in the time space, turn
    it over to see if the game continues or not." """
    g = position({"goodheart": ("p1", "a1", "S"), "nari": ("p2", "k11", "N")}, marker=20)
    g.s["chars"]["nari"]["token"] = 21
    g.s["chars"]["goodheart"]["rep"], g.s["chars"]["nari"]["rep"] = 18, 22
    g.s["game_end"] = [{"space": s, "guard": s == 23, "revealed": False} for s in (21, 22, 23, 24)]
    g._begin_step()
    events = _drive(g)
    ends = [e.text for e in events if e.kind in ("game_end_token", "guard")]
    assert ends == [
        "The Game End token on space 21 is blank: the brawl goes on.",
        "The Game End token on space 22 is blank: the brawl goes on.",
        "The Town Guard arrives on space 23!",
    ]
    assert g.s["marker"] == 23 and g.result is not None
    assert g.result.ranking == [["p2"], ["p1"]] and g.result.scores == {"p1": 18.0, "p2": 22.0}
    shown = g.view(None)["time"]["game_end"]
    assert [t["guard"] for t in shown] == [False, False, True, None]  # space 24 stays face down


def test_free_facing_change_after_any_action_even_cancelled_or_empty() -> None:
    """FL-13.1 "Character Standees are always in one of the squares on the board, facing one of the
    four sides of the square." FL-13.2 "AFTER DOING ANY ACTION YOU MAY FREELY CHANGE THE WAY THAT YOU
    FACE." FL-13.3 "This is true for any action, not just movement actions." FL-13.4 "You still get
    this free facing change even if the action is Cancelled or does nothing (for example, if you do a
    Slash but there are no valid targets)." """
    g = position({"goodheart": ("p1", "e5", "N"), "nari": ("p2", "a1", "S")})
    step(g, {"goodheart": ["slash", "move"]})  # nobody in reach: the Slash does nothing
    assert sorted(g.legal_actions("p1")) == [f"face:goodheart:{f}" for f in "ENSW"]
    answer(g, "face:goodheart:W")
    assert g.s["chars"]["goodheart"]["facing"] == "W"
    g.s["marker"] = g.s["chars"]["goodheart"]["token"]
    events = step(g, {"goodheart": ["throw", "move"]})  # empty hands: Throw is cancelled
    assert "Throw is cancelled" in texts(events)
    assert sorted(g.legal_actions("p1")) == [f"face:goodheart:{f}" for f in "ENSW"]
    answer(g, "face:goodheart:S")
    c = g.s["chars"]["goodheart"]
    assert c["facing"] == "S" and c["pos"] == "e5" and c["facing"] in G.FACINGS
