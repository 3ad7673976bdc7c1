"""The Dragon & Flagon renderers: ``view`` dict -> text (Discord code block) or PNG bytes.

Both take only a view from ``FlagonGame.view`` (never the raw state). A public view holds no
planned card, so nothing drawn from it can leak a plan; a player's own view adds ``me`` (their
slots, deck and cards under the mat), which only the private prompt shows.

Card and character *names* come from the static card data (not game state).
"""

from render import register
from render.flagon.picture import GAIA_ROW, draw, render_png
from render.flagon.text import TEXT_LIMIT, _fill, render_text, tie_break_text
from render.flagon_card import card_png

# What other modules use: the board (cogs/ui/flagon.py also fills event texts with ``_fill``),
# and the picture's sizes the bot tests measure.
__all__ = ["GAIA_ROW", "TEXT_LIMIT", "_fill", "draw", "render_png", "render_text", "tie_break_text"]

register("flagon", render_text, render_png, card=card_png)
