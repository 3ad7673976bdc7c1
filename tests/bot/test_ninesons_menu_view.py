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


def test_a_version_s_menu_is_built_once_and_again_when_the_game_or_layout_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The board, the click opening a picker and the choice in it share one menu per game
    version and seat (cogs.board_controls.MenuCache); a new version, or another labelling, builds anew."""
    from cogs import board_controls as controls
    from storage import GameRecord

    load_plugins(ui=False)
    game = registry.get("ninesons").new_game(["p1", "p2"], 3)
    [seat] = game.to_act()
    rec = GameRecord(
        id=7,
        kind="ninesons",
        guild_id=1,
        channel_id=1,
        host_user_id=1,
        status="active",
        options={},
        seed=3,
        state=None,
        version=4,
        board_message_id=None,
        result=None,
        created_at=0,
        updated_at=0,
    )
    builds = 0
    real_build = controls.build_menu

    def counting_build(*args: object, **kwargs: object) -> object:
        nonlocal builds
        builds += 1
        return real_build(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(controls, "build_menu", counting_build)
    menus = controls.MenuCache()
    names = {"p1": "alice", "p2": "bob"}
    first = menus.of(rec, game, seat, names)
    assert menus.of(rec, game, seat, dict(names)) is first and builds == 1
    game.play(seat, game.legal_actions(seat)[0])
    rec.version += 1
    [next_seat] = game.to_act()
    assert menus.of(rec, game, next_seat, names) is not first and builds == 2
    monkeypatch.setattr(ui.NineSonsUI, "menu_path", lambda self, g, s, a: [a])  # an update's new layout
    menus.of(rec, game, next_seat, names)
    assert builds == 3
