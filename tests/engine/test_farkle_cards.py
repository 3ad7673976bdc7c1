"""Every Companion and Magic Item effect, the card loader, and hidden Magic Items."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import InvalidSetup
from engine.farkle import CardFileError, FarkleGame, load_cards, new_game
from engine.farkle.cards import DEFAULT_CARDS_PATH, default_cards
from tests.engine.farkle_support import ScriptedRng, kinds, setup

# ---------------------------------------------------------------- the bundled card data


def test_bundled_cards_are_ten_companions_and_twenty_items_marked_house() -> None:
    cards = default_cards()
    assert sum(c.copies for c in cards.companions) == 10
    assert sum(c.copies for c in cards.items) == 20
    assert cards.get("sack_of_holding").name == "Sack of Holding"
    for c in cards.companions + cards.items:
        assert c.source == "house"
        assert "House design" in c.text or "house text" in c.text


# ---------------------------------------------------------------- Companions


def test_stubborn_veteran_defends_with_six_dice() -> None:
    g = setup(
        [([5, 2, 3, 4, 6, 6], "blank"), ([1, 2, 3, 4, 6, 6], "blank")],
        companions={"p2": "stubborn_veteran"},
    )
    g.play("p1", "brawl:p2")
    g.play("p1", "keep:5")
    g.play("p1", "stop")
    assert len(g.s["roll"] or []) == 6


def test_hedge_wizard_rerolls_the_event_die_once_per_turn() -> None:
    g = setup([([1, 5, 2, 3, 4, 4], "dragon")], companions={"p1": "hedge_wizard"})
    assert isinstance(g.rng, ScriptedRng)
    g.rng.faces.append(0)  # the reroll shows Blank
    g.play("p1", "recruit")
    assert "companion" in g.legal_actions("p1")
    assert g.describe_action("p1", "companion") == "Hedge Wizard: reroll the Event die"
    assert not g.is_private_action("p1", "companion")
    g.play("p1", "companion")
    assert g.s["event"] == "blank"
    assert "companion" not in g.legal_actions("p1")
    g.play("p1", "keep:1,5")
    assert g.s["total"] == 150


def test_hedge_wizard_pauses_a_farkle_even_without_items() -> None:
    g = setup([([2, 2, 3, 3, 4, 6], "blank")], companions={"p1": "hedge_wizard"})
    g.play("p1", "recruit")
    assert g.legal_actions("p1") == ["accept", "companion"]


def test_quartermaster_adds_100_when_banking_a_gain() -> None:
    g = setup([([1, 2, 3, 4, 6, 6], "blank")], companions={"p1": "quartermaster"})
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    g.play("p1", "stop")
    assert g.s["armies"]["p1"] == 200


def test_quartermaster_gives_nothing_for_an_empty_bank() -> None:
    g = setup([([1, 2, 3, 4, 6, 6], "dragon")], companions={"p1": "quartermaster"})
    g.play("p1", "recruit")
    g.play("p1", "keep:1")  # eaten
    g.play("p1", "stop")
    assert g.s["armies"]["p1"] == 0


def test_scout_ignores_the_first_battle_farkle() -> None:
    g = setup(
        [([2, 2, 3, 3, 4, 6], "blank"), ([2, 2, 3, 3, 4, 6], "blank")],
        companions={"p1": "scout"},
        armies={"p1": 5000},
    )
    ev = g.play("p1", "battle")
    assert "battle_lost" not in kinds(ev) and g.s["phase"] == "battle"
    ev = g.play("p1", "roll")
    assert "battle_lost" in kinds(ev)


def test_minstrel_triples_on_rally() -> None:
    g = setup([([1, 2, 3, 4, 6, 6], "rally")], companions={"p1": "minstrel"})
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    assert g.describe_action("p1", "rally:double") == "Rally: triple (+200)"
    g.play("p1", "rally:double")
    assert g.s["total"] == 300


def test_bruiser_bonus_750_only_as_winning_attacker() -> None:
    g = setup(
        [([1, 2, 3, 4, 6, 6], "blank"), ([2, 3, 4, 6, 6], "blank")],
        companions={"p1": "bruiser"},
    )
    g.play("p1", "brawl:p2")
    g.play("p1", "keep:1")
    g.play("p1", "stop")
    assert g.s["armies"]["p1"] == 750
    g = setup(
        [([2, 2, 3, 4, 6, 6], "blank"), ([1, 3, 4, 6, 6], "blank")],
        companions={"p2": "bruiser"},
    )
    g.play("p1", "brawl:p2")
    g.play("p2", "keep:1")
    g.play("p2", "stop")
    assert g.s["armies"]["p2"] == 500


def test_shield_bearer_blocks_the_first_dragon_each_turn() -> None:
    g = setup(
        [([1, 2, 3, 4, 6, 6], "dragon"), ([1, 2, 3, 4, 6], "dragon")],
        companions={"p1": "shield_bearer"},
    )
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    assert g.s["total"] == 100
    g.play("p1", "roll")
    g.play("p1", "keep:1")
    assert g.s["total"] == 100


def test_tinkerer_rerolls_one_die() -> None:
    g = setup([([2, 2, 3, 3, 4, 6], "blank")], companions={"p1": "tinkerer"}, spare=[1])
    g.play("p1", "recruit")
    assert "companion:6" in g.legal_actions("p1")
    g.play("p1", "companion:6")
    assert g.s["roll"] == [1, 2, 2, 3, 3, 4]
    assert "keep:1" in g.legal_actions("p1")


def test_field_medic_halves_battle_losses_rounding_up_to_50() -> None:
    g = setup(
        [([1, 5, 2, 3, 4, 4], "rally"), ([2, 3, 4, 6], "dragon")],
        companions={"p1": "field_medic"},
        armies={"p1": 5000},
    )
    g.play("p1", "battle")
    assert g.s["armies"]["p1"] == 5000 - 100  # 150 halved is 75, rounded up to 100


def test_peddler_swaps_an_item_privately_before_the_action() -> None:
    g = setup(hands={"p1": ["war_horn"]}, companions={"p1": "peddler"})
    g.s["item_deck"] = ["lucky_charm"]
    assert "companion:war_horn" in g.legal_actions("p1")
    assert g.is_private_action("p1", "companion:war_horn")
    ev = g.play("p1", "companion:war_horn")
    assert g.s["hands"]["p1"] == ["lucky_charm"]
    public = [e.text for e in ev if e.to is None]
    assert not any("War Horn" in t or "Lucky Charm" in t for t in public)
    assert "companion:lucky_charm" not in g.legal_actions("p1")  # once per turn


# ---------------------------------------------------------------- Magic Items


def test_lucky_charm_rerolls_all_soldier_dice() -> None:
    g = setup([([2, 2, 3, 3, 4, 6], "blank")], hands={"p1": ["lucky_charm"]}, spare=[1, 1, 1, 2, 3, 4])
    g.play("p1", "recruit")
    assert g.legal_actions("p1") == ["accept", "use:lucky_charm"]
    ev = g.play("p1", "use:lucky_charm")
    assert any(e.kind == "use_item" and e.to is None and "Lucky Charm" in e.text for e in ev)
    assert g.s["roll"] == [1, 1, 1, 2, 3, 4]
    assert g.s["event"] == "blank"
    assert g.s["hands"]["p1"] == []


def test_loaded_die_turns_one_die() -> None:
    g = setup([([2, 2, 3, 3, 4, 6], "blank")], hands={"p1": ["loaded_die"]})
    g.play("p1", "recruit")
    assert g.describe_action("p1", "use:loaded_die:6:1") == "Loaded Die: turn a 6 into a 1"
    g.play("p1", "use:loaded_die:6:1")
    assert g.s["roll"] == [1, 2, 2, 3, 3, 4]


def test_dragon_repellent_turns_dragon_to_blank() -> None:
    g = setup([([1, 2, 3, 4, 6, 6], "dragon")], hands={"p1": ["dragon_repellent"]})
    g.play("p1", "recruit")
    g.play("p1", "use:dragon_repellent")
    g.play("p1", "keep:1")
    assert g.s["total"] == 100


def test_war_horn_turns_blank_to_rally() -> None:
    g = setup([([1, 2, 3, 4, 6, 6], "blank")], hands={"p1": ["war_horn"]})
    g.play("p1", "recruit")
    g.play("p1", "use:war_horn")
    g.play("p1", "keep:1")
    g.play("p1", "rally:double")
    assert g.s["total"] == 200


def test_second_wind_cancels_a_farkle_and_banks() -> None:
    g = setup(
        [([1, 2, 3, 4, 6, 6], "blank"), ([2, 3, 4, 6, 6], "blank")],
        hands={"p1": ["second_wind"]},
    )
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    g.play("p1", "roll")
    assert "use:second_wind" in g.legal_actions("p1")
    g.play("p1", "use:second_wind")
    assert g.s["armies"]["p1"] == 100 and g.to_act() == ["p2"]


def test_recruiting_banner_banks_500_more() -> None:
    g = setup([([1, 2, 3, 4, 6, 6], "blank")], hands={"p1": ["recruiting_banner"]})
    g.play("p1", "recruit")
    g.play("p1", "keep:1")
    assert "use:recruiting_banner" in g.legal_actions("p1")
    g.play("p1", "use:recruiting_banner")
    assert g.s["armies"]["p1"] == 600


def test_tower_shield_cancels_one_battle_loss() -> None:
    g = setup(
        [([1, 1, 1, 2, 3, 4], "dragon")],
        hands={"p1": ["tower_shield"]},
        armies={"p1": 5000},
    )
    g.play("p1", "battle")
    assert g.legal_actions("p1") == ["accept", "use:tower_shield"]
    g.play("p1", "use:tower_shield")
    g.play("p1", "accept")
    assert g.s["armies"]["p1"] == 5000 and g.s["damage"] == 1


def test_dragonbane_oil_turns_blank_to_dragon_in_battle() -> None:
    g = setup([([2, 2, 3, 3, 4, 6], "blank")], hands={"p1": ["dragonbane_oil"]}, armies={"p1": 5000})
    g.play("p1", "battle")
    g.play("p1", "use:dragonbane_oil")  # no item left: the roll resolves at once
    assert g.s["damage"] == 1 and g.s["phase"] == "battle"


def test_battle_items_option_off() -> None:
    g = setup(
        [([1, 2, 3, 3, 4, 6], "blank")],
        hands={"p1": ["dragonbane_oil"]},
        armies={"p1": 5000},
        battle_items=False,
    )
    g.play("p1", "battle")  # no pause: items cannot help
    assert g.s["armies"]["p1"] == 4900


def test_smoke_bomb_makes_the_attacker_roll_five() -> None:
    g = setup([([1, 2, 3, 4, 6], "blank")], hands={"p2": ["smoke_bomb"]})
    g.play("p1", "brawl:p2")
    assert g.to_act() == ["p2"]
    assert g.legal_actions("p2") == ["pass", "use:smoke_bomb"]
    g.play("p2", "use:smoke_bomb")
    assert len(g.s["roll"] or []) == 5 and g.to_act() == ["p1"]


def test_defender_with_items_may_pass() -> None:
    g = setup([([1, 2, 3, 4, 6, 6], "blank")], hands={"p2": ["war_horn"]})
    g.play("p1", "brawl:p2")
    g.play("p2", "pass")
    assert len(g.s["roll"] or []) == 6


def test_cursed_idol_is_given_and_counts_toward_the_limit() -> None:
    g = setup(
        [([2, 2, 3, 3, 4, 6], "blank")],
        hands={"p1": ["cursed_idol"], "p2": ["war_horn"]},
    )
    ev = g.play("p1", "use:cursed_idol:p2")
    assert any("Cursed Idol" in e.text and e.to is None for e in ev)
    assert g.view(None)["item_counts"]["p2"] == 2
    g.play("p1", "recruit")  # Farkle: turn ends, p2 is over the limit
    assert g.to_act() == ["p2"]
    assert g.legal_actions("p2") == ["discard:cursed_idol", "discard:war_horn"]
    g.play("p2", "discard:cursed_idol")
    assert g.s["phase"] == "choose" and g.to_act() == ["p2"]
    assert "use:cursed_idol:p1" not in g.legal_actions("p2")


# ---------------------------------------------------------------- hidden information


def test_items_hidden_from_others_and_spectators() -> None:
    g = setup(hands={"p1": ["lucky_charm"], "p2": ["war_horn"]})
    pub = json.dumps(g.view(None))
    other = json.dumps(g.view("p2"))
    mine = g.view("p1")
    assert "Lucky Charm" not in pub and "lucky_charm" not in pub
    assert "Lucky Charm" not in other and "War Horn" in other
    assert mine["my_items"][0]["name"] == "Lucky Charm"
    assert g.view(None)["item_counts"] == {"p1": 1, "p2": 1}


def test_item_actions_are_private() -> None:
    g = setup()
    for a in ("use:lucky_charm", "discard:war_horn", "claim:war_horn", "use:cursed_idol:p2"):
        assert g.is_private_action("p1", a)
    for a in ("recruit", "brawl:p2", "keep:1,5", "roll", "stop", "rally:item", "accept", "companion:3"):
        assert not g.is_private_action("p1", a)


# ---------------------------------------------------------------- loading another card file

GOOD = """
[[companion]]
id = "a"
name = "A"
copies = 3
text = "t"
timing = "bank"
effect = "bank_bonus"
value = 200
source = "test"

[[item]]
id = "horn"
name = "Horn"
copies = 4
text = "t"
timing = "after_roll"
effect = "blank_to_rally"
source = "test"
"""


def test_a_card_set_as_data_plays_and_survives_round_trip() -> None:
    cards = load_cards(GOOD, "cards.toml").to_dict()
    g = new_game(["a", "b", "c"], 3, cards=json.loads(json.dumps(cards)))
    assert set(g.s["companions"].values()) == {"a"}
    # the state carries the cards: no file is needed to restore the game
    g2 = FarkleGame.from_dict(json.loads(json.dumps(g.to_dict())))
    assert g2.to_dict() == g.to_dict()
    assert g2.card("horn").name == "Horn"
    # and a replay from the seed gets the same cards back from the saved game
    assert g2.setup_arguments() == {"cards": cards}
    assert new_game(["a", "b", "c"], 3, **g2.setup_arguments()).to_dict() == new_game(
        ["a", "b", "c"], 3, cards=cards
    ).to_dict()
    assert new_game(["a", "b"], 3).setup_arguments() == {}


@pytest.mark.parametrize("path", ["/dev/zero", "/etc/passwd", "cards.toml"])
def test_cards_file_is_no_option_and_nothing_is_opened(path: str, monkeypatch) -> None:
    """Regression (issue 12): `cards_file=/dev/zero` made the engine read a file at Start."""
    opened: list[object] = []
    import builtins
    import io

    monkeypatch.setattr(builtins, "open", lambda *a, **k: opened.append(a) or io.StringIO(""))  # type: ignore[func-returns-value]
    monkeypatch.setattr(Path, "open", lambda *a, **k: opened.append(a) or io.BytesIO(b""))  # type: ignore[func-returns-value]
    assert "cards_file" not in {o.name for o in FarkleGame.OPTIONS}
    with pytest.raises(InvalidSetup, match="has no option `cards_file`"):
        new_game(["a", "b"], 1, cards_file=path)
    assert opened == []


def test_load_cards_takes_text_not_a_path() -> None:
    with pytest.raises(TypeError):
        load_cards(DEFAULT_CARDS_PATH)  # type: ignore[arg-type]
    assert load_cards(GOOD.encode()) == load_cards(GOOD)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('effect = "bank_bonus"', 'effect = "fly"', "companion `a`: field `effect`"),
        ("copies = 4", "copies = 0", "item `horn`: field `copies`"),
        ('name = "Horn"', "", "item `horn`: field `name`"),
        ("value = 200", "", "companion `a`: field `value`"),
        ('timing = "bank"', 'timing = "later"', "companion `a`: field `timing`"),
        ('id = "horn"', 'id = "a"', "item `a`: field `id` is used twice"),
        ('id = "horn"', 'id = "Bad Id"', "item #1: field `id`"),
        (
            'source = "test"\n\n[[item]]',
            'source = "test"\ncolour = "red"\n\n[[item]]',
            "companion `a`: unknown field; the fields are id, name",
        ),
        ("[[item]]", "[[thing]]", "unknown table"),
        ("copies = 3", "copies = [", "not valid TOML"),
    ],
)
def test_bad_card_files_name_card_and_field(old: str, new: str, message: str) -> None:
    assert old in GOOD
    with pytest.raises(CardFileError, match=message.replace("(", r"\(").replace("[", r"\[")):
        load_cards(GOOD.replace(old, new, 1), "cards.toml")


@pytest.mark.parametrize(
    "text",
    [
        'password = "hunter2"\n',
        '[database]\nsecret_token = "hunter2"\n',
        GOOD.replace('source = "test"\n\n[[item]]', 'source = "test"\nSECRET_KEY = "hunter2"\n\n[[item]]', 1),
        'a = 1\na = "hunter2"\n',
        '[secret_table]\n[secret_table]\n',
        "\xff\xfe not utf-8",
    ],
)
def test_card_file_errors_do_not_echo_the_files_keys_or_values(text: str) -> None:
    raw = text.encode("latin-1") if text.startswith("\xff") else text
    with pytest.raises(CardFileError) as err:
        load_cards(raw, "cards.toml")
    message = str(err.value)
    for secret in ("hunter2", "password", "secret", "SECRET", "database"):
        assert secret not in message
    assert len(message) < 200


def test_too_few_cards_for_the_players_is_a_readable_setup_error() -> None:
    cards = load_cards(GOOD.replace("copies = 4", "copies = 2", 1)).to_dict()
    new_game(["a", "b"], 1, cards=cards)
    with pytest.raises(InvalidSetup, match="2 Magic Item cards, fewer than the 3 players"):
        new_game(["a", "b", "c"], 1, cards=cards)


def test_bundled_file_loads_through_the_public_loader() -> None:
    assert load_cards(DEFAULT_CARDS_PATH.read_bytes(), "cards.toml") == default_cards()
