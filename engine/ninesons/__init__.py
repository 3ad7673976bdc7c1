"""The Nine Sons of the Dragon (龙生九子): two-player stacking and taming game.

Public API: :func:`new_game`, :class:`NineSonsGame`, :func:`engine.ninesons.ai.choose_action`.
Rules: the Nine Sons of the Dragon rulebook, with our readings in ``docs/ninesons.md`` (also the notation).
"""

from engine.ninesons.game import NineSonsGame, action_to_str, new_game

__all__ = ["NineSonsGame", "action_to_str", "new_game"]


def _register() -> None:
    from engine import registry
    from engine.base import Game
    from engine.ninesons import plugin
    from engine.ninesons.ai import choose_action

    def choose_ai_action(game: Game, player: str, level: str, seed: int) -> str:
        if not isinstance(game, NineSonsGame):
            raise TypeError("not a Nine Sons game")
        return choose_action(game, player, level, seed)

    registry.register(
        registry.GameInfo(
            name=NineSonsGame.NAME,
            title=NineSonsGame.TITLE,
            game_class=NineSonsGame,
            new_game=new_game,
            choose_ai_action=choose_ai_action,
            ai_levels=("easy", "medium", "hard", "expert"),
            rules_summary=(
                "Two players, six dice each (1-6, never rolled). On your turn place a die on an empty "
                "cell (`3@b2`) or lift a stack whose top die is yours and walk it exactly one cell per "
                "die, dropping the bottom die each step (`a1-a2-b2`); you may only enter a cell with "
                "fewer than 3 dice whose top die yours beats or equals (1 beats 6). A 3-dice stack tames "
                "its card for the top die's owner. First to 7 points, or most points when 4 cards are "
                "left. Card point values are a reconstruction (no public source gives them)."
            ),
            emoji="🐉",
            turn_timeout=600,
            turn_timeout_help="How long a Nine Sons player has to move",
            renderer="render.ninesons",
            ui="cogs.ui.ninesons",
            rules_file=plugin.RULES_FILE,
            standing=plugin.standing,
            final_view=plugin.final_view,
            cards=plugin.card_catalogue,
            secrets=plugin.secrets,
            fuzz_setups=plugin.FUZZ_SETUPS,
            rules_map_prefix=plugin.RULES_MAP_PREFIX,
        )
    )


_register()
