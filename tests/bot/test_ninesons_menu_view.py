"""The Nine Sons move menu reads one view per ply (a profiled hot spot at 400 games, issue 25).

The board's menu labels every legal action (up to ~60) and each label reads the game's view;
building that view once per action was the bot's largest CPU cost in the scale bench. The labels
must stay exactly what they were, and must follow the game when it moves on.
"""

from __future__ import annotations

import random

import pytest

from cogs.plugins import load_plugins
from cogs.ui import ninesons as ui
from engine import registry
from engine.ninesons import NineSonsGame


def _labels(game: NineSonsGame, seat: str) -> list[list[str]]:
    return [ui.menu_path(game, seat, action) for action in game.legal_actions(seat)]


def _fresh_labels(game: NineSonsGame, seat: str) -> list[list[str]]:
    """The labels as before the cache: a new view for every action."""
    labels = []
    for action in game.legal_actions(seat):
        _forget_views()
        labels.append(ui.menu_path(game, seat, action))
    return labels


def _forget_views() -> None:
    views = getattr(ui, "_VIEWS", None)  # the cache, if this tree has it
    if views is not None:
        views.clear()


@pytest.mark.parametrize("seed", [3, 11])
def test_menu_reads_one_view_per_ply_and_labels_are_unchanged(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_plugins(ui=False)
    game = registry.get("ninesons").new_game(["a", "b"], seed)
    assert isinstance(game, NineSonsGame)
    rng = random.Random(seed)
    views = 0
    real_view = NineSonsGame.view

    def counting_view(self: NineSonsGame, player: str | None) -> dict:
        nonlocal views
        views += 1
        return real_view(self, player)

    plies = 0
    while not game.is_over and plies < 40:
        [seat] = game.to_act()
        expected = _fresh_labels(game, seat)
        monkeypatch.setattr(NineSonsGame, "view", counting_view)
        views = 0
        assert _labels(game, seat) == expected
        assert _labels(game, seat) == expected  # asked again in the same ply: same labels, no new view
        assert views <= 1, f"{views} views for one menu of {len(expected)} actions"
        monkeypatch.setattr(NineSonsGame, "view", real_view)
        game.play(seat, rng.choice(game.legal_actions(seat)))
        plies += 1
    assert plies >= 10
