"""Tally as a complete plug-in package: every feature the built-in games have, added in files of
its own (this one, tally_complete_discord.py and tally_rules.md) with no edit to shared code.
``cogs.plugins.load_plugins(["tests.doubles.tally_complete"])`` loads it like a built-in game:
importing this module registers its record, which names the renderer and UI module.

- result wording: its scores so far (``standing``) and its board once a game is stopped
  (``final_view``);
- a card reference: two cards for ``/game card`` (with a picture, drawn by its renderer);
- a server setting of its own: ``/config set tally_head_start 2`` gives every player of the
  games started afterwards a head start (handed to ``new_game`` at Start);
- its full rules for ``/game rules`` (tally_rules.md), its secrets for the leak checks, its
  fuzz set-ups and a rules-map prefix;
- ratings and replay come with the platform, for any record.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine import registry
from engine.handbook import CardEntry
from engine.registry import GameInfo, GameSetting, View
from engine.values import parse_whole_number
from tests.doubles.tally import Tally, choose_action, secrets
from tests.doubles.tally import new_game as new_plain_game

HEAD_START = "tally_head_start"


def new_game(players: list[str], seed: int, *, head_start: int = 0, **options: Any) -> Tally:
    """A Tally game; ``head_start`` (from the server's setting) is every player's first score."""
    game = new_plain_game(players, seed, **options)
    game.scores = {p: head_start for p in game.players}
    return game


def standing(view: View) -> dict[str, float]:
    return dict(view.get("scores") or {})


def final_view(view: View, why: str) -> View:
    return {**view, "to_act": [], "stopped": why}


def card_catalogue() -> list[CardEntry]:
    return [
        CardEntry(
            "tally",
            "tally:one",
            "Tally One",
            "Move card",
            "Add 1 to your score.",
            ("Copies: 1",),
            "A test double's card.",
        ),
        CardEntry(
            "tally",
            "tally:two",
            "Tally Two",
            "Move card",
            "Add 2 to your score.",
            ("Copies: 1",),
            "A test double's card.",
        ),
    ]


HEAD_START_SETTING = GameSetting(
    key=HEAD_START,
    default=0,
    help="Points each Tally player starts with (0–3); used by games started afterwards.",
    parse=lambda raw: parse_whole_number(raw, HEAD_START, low=0, high=3),
    start_arguments=lambda value: {"head_start": value} if value else {},
)

INFO = GameInfo(
    name="tally",
    title="Tally",
    game_class=Tally,
    new_game=new_game,
    choose_ai_action=choose_action,
    rules_summary="Add 1 or 2 on your turn; first to the target wins.",
    renderer="tests.doubles.tally_complete_discord",
    ui="tests.doubles.tally_complete_discord",
    rules_file=Path(__file__).with_name("tally_rules.md"),
    settings=(HEAD_START_SETTING,),
    standing=standing,
    final_view=final_view,
    cards=card_catalogue,
    secrets=secrets,
    fuzz_setups=(("target=4", 1),),
    rules_map_prefix="TA",
)

registry.register(INFO)
