"""The Dragon & Flagon: a tavern brawl with secret simultaneous programming on a time track.

Public API (python-chess style)::

    from engine.flagon import new_game
    g = new_game(["p1", "p2"], seed=7, layout="first-game")
    g.to_act(); g.legal_actions("p1"); g.play("p1", "char:nari")

Card numbers and the board geometry are reconstructions (see data/cards.toml, data/layouts/).
"""

from __future__ import annotations

from engine.flagon import plugin
from engine.flagon.ai import LEVEL_ALIASES, choose_action
from engine.flagon.game import FlagonGame, new_game
from engine.registry import GameInfo, register

RULES_SUMMARY = (
    "The Dragon & Flagon (2-8 players; 2 characters each with 2-4 players). Each time step the characters "
    "whose token is on the time marker secretly plan cards into slots I and II, then act in a random order; "
    "each action moves your token forward by its time cost. Steal reputation (start 20) by slashing, throwing "
    "mugs, pushing barrels and tables. Grab the Flagon for your Dragon card. The Town Guard (a Game End token on "
    "21-24, or 27-30 extended) ends the brawl: most reputation wins; ties go to the lower token.\n"
    "Reconstruction note: the rulebook gives the procedure but not the printed cards or board. Most card "
    "numbers (time, reputation, daze, squares), the 13th common card (a second Move), the 11x11 grid, start "
    "squares and layouts are our proposals, labelled in engine/flagon/data."
)

register(
    GameInfo(
        name="flagon",
        title=FlagonGame.TITLE,
        game_class=FlagonGame,
        new_game=new_game,
        choose_ai_action=choose_action,
        ai_levels=("easy", "medium", "hard"),
        ai_level_aliases=LEVEL_ALIASES,
        rules_summary=RULES_SUMMARY,
        emoji="🍺",
        turn_timeout=600,
        turn_timeout_help="How long a Dragon & Flagon planning phase or choice may take",
        renderer="render.flagon",
        ui="cogs.ui.flagon",
        rules_file=plugin.RULES_FILE,
        standing=plugin.standing,
        final_view=plugin.final_view,
        cards=plugin.card_catalogue,
        secrets=plugin.secrets,
        fuzz_setups=plugin.FUZZ_SETUPS,
        rules_map_prefix=plugin.RULES_MAP_PREFIX,
    )
)

__all__ = ["RULES_SUMMARY", "FlagonGame", "choose_action", "new_game"]
