"""The short custom_id verbs are on boards and DMs already posted: every one keeps routing."""

from __future__ import annotations

import cogs.ui
from cogs.plugins import load_plugins
from cogs.router import VERBS

# Every verb a posted component may carry (the router's and the games' own "x" verbs).
POSTED = {"join", "leave", "ai", "cancel", "start", "a", "pick", "psnav", "ps", "t", "tn", "ts", "x", "hand",
          "pnav", "p", "rematch", "rps"}
POSTED_GAME_VERBS = {"farkle": {"tog", "keep", "use"}, "flagon": {"plan", "log"}, "ninesons": set()}


def test_every_posted_verb_still_has_a_handler_named_for_what_it_does():
    assert set(VERBS) >= POSTED
    for verb, handler in VERBS.items():
        assert handler.__name__.startswith("on_") and len(handler.__name__) > len(f"on_{verb}"), verb


def test_every_game_verb_still_has_a_handler():
    load_plugins(ui=False)
    for kind, verbs in POSTED_GAME_VERBS.items():
        handlers = cogs.ui.ui_for(kind).handlers
        assert set(handlers) >= verbs, kind
        assert all(h.__name__.startswith("on_") for h in handlers.values())
