"""The Dragon & Flagon's lobby options (``/game new flagon options:"name=value"``): each one's
default, help and allowed values, read by the engine and by ``/game rules``."""

from __future__ import annotations

from engine.base import OptionSpec
from engine.flagon.board import layout_names

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("extended", False, "Extended game: Game End tokens on spaces 27-30 instead of 21-24."),
    OptionSpec("team", False, "Team game (4-8 players): two teams with equal numbers of characters."),
    OptionSpec("late_night", False, "Late Night: you may not look at your own placed cards."),
    OptionSpec(
        "cookies",
        "off",
        "Plate of Cookies: off, instead of the Flagon, or with it.",
        choices=("off", "instead", "with"),
    ),
    OptionSpec("layout", "first-game", "Tavern layout.", choices=layout_names()),
    OptionSpec(
        "prone_vision_stands",
        False,
        "Prone Vision: a prone Tuuli stands up when Vision is revealed, so the card it becomes is "
        "never cancelled for being prone (off = our reading of the rulebook: the card Vision "
        "becomes is the one checked).",
    ),
    OptionSpec(
        "familiar_blocks",
        False,
        "Familiar blocks throws: a mug or chair thrown along the Familiar's line must hit it "
        "(off = our reading of the rulebook: you may aim at the Familiar or past it).",
    ),
    OptionSpec(
        "flagon_not_thrown",
        False,
        "The Flagon stays in hand: a card that throws what you hold (Throw, Monkey Throw, Divine Hurl) is "
        "cancelled while you hold the Flagon (or the Cookies) "
        "(off = the rulebook's letter: the Flagon is treated exactly like a mug, so it can be thrown).",
    ),
    OptionSpec(
        "barrel_table_shields",
        False,
        "Tables shield from barrels: a barrel stopped before a table hits nobody past it "
        "(off = our reading of the rulebook: it stops before the table and still hits the "
        "character just past it).",
    ),
)
