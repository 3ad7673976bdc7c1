"""A running board's controls, built on every move: the one seat to act gets its public moves
as buttons, or the game's move menu (cogs.menu) and its own rows; several seats to act get a
picker; a game with secrets gets "Show my hand".

The work is what the board shows and no more (issue 25: the board's controls were ~400 µs of
the bot's CPU per Nine Sons move): a game with a menu never labels its actions one by one
(the menu's buttons stand for them all), the seat's public actions are listed once, for the
buttons and the menu alike, and a menu is built once per game version and seat (MenuCache).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from cogs import components, menu
from cogs.recent import RecentMap
from cogs.ui import ui_for
from engine import Game
from render.text import fill_names
from storage import GameRecord

# Move menus kept, one per game version and seat: a Nine Sons ply builds its menu for the board,
# again for the click that opens a destination picker and for the choice in it (~60 labels each,
# ~10 % of the bot's main-thread samples at 400 games); now once.
MENUS_KEPT = 4096


def board_controls(
    rec: GameRecord, game: Game, public_seats: list[str], names: dict[str, str], menus: MenuCache
) -> components.Layout:
    """A running board's controls: one seat to act gets its public moves as buttons (or the
    game's menu, and its own rows); several get a picker; hidden-information games the
    "Show my hand / plan" button."""
    extra: list[discord.ui.Item[Any]] = []
    actions: list[tuple[str, str]] = []
    menu_root = None
    if len(public_seats) == 1:
        seat = public_seats[0]
        public = [a for a in game.legal_actions(seat) if not game.is_private_action(seat, a)]
        ui = ui_for(rec.kind)
        extra = ui.board_rows(rec, game, seat, rec.version)
        if ui.menu and public:
            menu_root = menus.of(rec, game, seat, names, public)  # its buttons stand for every action
        else:
            actions = [(a, fill_names(game.describe_action(seat, a), names)) for a in public]
    many_actors = len(public_seats) > 1
    return components.board_components(
        rec, actions, version=rec.version,
        show_private_button=type(game).HIDDEN_INFORMATION,
        show_picker=many_actors and any(
            not game.is_private_action(p, a) for p in public_seats for a in game.legal_actions(p)
        ),
        extra=extra,
        menu=menu_root,
    )  # fmt: skip


class MenuCache:
    """:func:`build_menu` of a game version and seat, built once: every saved change moves
    the version. Keyed by the UI's labelling function too, so a changed layout is a new menu.
    Shared nodes: read them, do not change them."""

    def __init__(self, size: int = MENUS_KEPT) -> None:
        self._kept: RecentMap[tuple[Any, ...], menu.Node] = RecentMap(size)

    def of(
        self,
        rec: GameRecord,
        game: Game,
        seat_id: str,
        names: dict[str, str],
        public: Sequence[str] | None = None,
    ) -> menu.Node:
        """The menu of ``seat_id`` (``public``: its public actions, if the caller listed them)."""
        key = (rec.id, rec.version, seat_id, tuple(names.items()), ui_for(rec.kind).menu_path)
        node = self._kept.get(key)
        if node is None:
            node = self._kept[key] = build_menu(rec.kind, game, seat_id, names, public)
        return node


def build_menu(
    kind: str,
    game: Game,
    seat_id: str,
    names: dict[str, str] | None = None,
    public: Sequence[str] | None = None,
) -> menu.Node:
    """The move menu of ``seat_id``'s public actions (games whose UI sets ``menu``; ``public``:
    those actions, if already listed). Labels may name players as {p1} (like describe_action);
    ``names`` fills them."""
    ui = ui_for(kind)
    if public is None:
        public = [a for a in game.legal_actions(seat_id) if not game.is_private_action(seat_id, a)]
    filled = names or {}
    return menu.build(
        public, lambda a: [fill_names(label, filled) for label in ui.menu_path(game, seat_id, a)]
    )
