"""Dragon Farkle renderers: a game ``view`` -> Discord text or a PNG.

They receive only ``FarkleGame.view(...)`` output. A spectator view holds Magic Item *counts*
and never names, so nothing here can leak an item; the owner's own items (``my_items``) are
listed only when the view carries them.
"""

from render import register
from render.farkle.picture import draw, render_png
from render.farkle.text import render_text

# the picture as a canvas too: the layout tests measure what it draws
__all__ = ["draw", "render_png", "render_text"]

register("farkle", render_text, render_png)
