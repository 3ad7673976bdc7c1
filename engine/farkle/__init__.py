"""Dragon Farkle: push-your-luck dice, brawls and a dragon (2-5 players).

Public API: :func:`new_game`, :class:`FarkleGame`, :func:`score` (the Soldier table),
:func:`load_cards` (parse and validate the text of another card file; pass the result to
``new_game(..., cards=cardset.to_dict())``), :class:`FarkleView` (the shape of a view) and
:class:`FarkleAction` (an action's notation read and written). Notation: docs/farkle.md.
"""

from __future__ import annotations

from typing import Any

from engine.farkle import plugin, rules
from engine.farkle.cards import CardFileError, CardSet, load_cards
from engine.farkle.game import FarkleGame
from engine.farkle.scoring import ScoreTable, has_score, score
from engine.farkle.view import FarkleAction, FarkleView
from engine.registry import GameInfo, register

_C = rules.CONSTANTS  # the numbers come from data/rules.toml, so this text follows the data
RULES_SUMMARY = (
    f"Dragon Farkle: on your turn Recruit (roll {_C['dice_per_player']} dice, set aside scoring dice, stop or "
    f"push your luck), Brawl another player (both roll; the higher score steals the difference plus "
    f"{_C['brawl_win_bonus']:,}), or, with {_C['keep_min_army']:,} soldiers at the start of your turn, fight "
    "the Final Battle: scoring dice cost soldiers, the Event die's Dragon/Rally faces deal damage, and "
    f"{_C['dragon_hp']} damage in one turn wins.\n"
    "Reconstructions (no official source): five of a kind, Final Battle damage per face (Dragon 1, Rally 2), "
    "Brawl ties, defender hot dice, and ALL Companion and Magic Item texts (house designs; only the name "
    "Sack of Holding is real). The options are listed below."
)


def new_game(
    players: list[str], seed: int, *, cards: dict[str, Any] | None = None, **options: Any
) -> FarkleGame:
    """Start a game. ``options`` are the names in :attr:`FarkleGame.OPTIONS`; ``cards`` is a card
    set as data (``CardSet.to_dict()``), default the bundled house cards. Raises
    :class:`engine.InvalidSetup` with a readable reason when these cannot start."""
    return FarkleGame.new(players, seed, cards=cards, **options)


def _choose_ai_action(game: Any, player: str, level: str, seed: int) -> str:
    from engine.farkle.ai import choose_action

    return choose_action(game, player, level, seed)


register(
    GameInfo(
        name=FarkleGame.NAME,
        title=FarkleGame.TITLE,
        game_class=FarkleGame,
        new_game=new_game,
        choose_ai_action=_choose_ai_action,
        ai_levels=("easy", "medium", "hard", "expert"),
        rules_summary=RULES_SUMMARY,
        emoji="🐉",
        turn_timeout=300,
        turn_timeout_help="How long a Dragon Farkle player has to act",
        renderer="render.farkle",
        ui="cogs.ui.farkle",
        rules_file=plugin.RULES_FILE,
        settings=(plugin.CARDS_SETTING,),
        standing=plugin.standing,
        final_view=plugin.final_view,
        cards=plugin.card_catalogue,
        secrets=plugin.secrets,
        fuzz_setups=plugin.FUZZ_SETUPS,
        rules_map_prefix=plugin.RULES_MAP_PREFIX,
    )
)

__all__ = [
    "CardFileError",
    "CardSet",
    "FarkleAction",
    "FarkleGame",
    "FarkleView",
    "ScoreTable",
    "has_score",
    "load_cards",
    "new_game",
    "score",
]
