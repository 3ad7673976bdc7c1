"""The Discord side of a game: one :class:`GameUI` plug-in per game, registered under the
engine registry's name for it (``register("farkle", FarkleUI())``).

Every hook has a no-op default here, so a game overrides what it needs and a missing hook is
a decision, not a typo (a misspelt override is a new method nobody calls; the tests of each
game's UI catch that). This module is the module a game's record names as its ``ui``
(``GameInfo(ui="cogs.ui.farkle")``); :func:`cogs.plugins.load_plugins` imports it, and refuses
to start if a registered game has no UI; a game content with the generic buttons registers
``GameUI()`` itself, explicitly.

The hooks:

- ``menu`` / ``menu_path(game, seat, action) -> list[str]``: with ``menu = True`` the board
  shows the public actions as a move menu (see cogs.menu); the path's labels place an action
  in it, the first level as board buttons (an empty path leaves it out: the game's board rows
  offer it). Without, one button per action.
- ``picker_on_board``: the menu's second level opens on the board message (no secrets, one
  player acting at a time), so the click that completes a move is a click on the board.
- ``board_rows(rec, game, seat, version) -> list[discord.ui.Item]``: extra board components
  (for example dice toggles), shown before the menu.
- ``private_message(rec, game, seat, own_events, page=...) -> dict | None``: the private prompt
  (``embed`` / ``view`` / optional ``content``) instead of the generic select of private
  actions (None: the generic one); used for the DM and the board's "Show my hand" button alike.
- ``final_rows(rec, game) -> list[discord.ui.Item]``: components on the board of a finished
  game (for example an action-log button).
- ``event_lines(events) -> list[str]``: the board's "Recent" lines for an outcome's public
  events (e.g. one line per resolved card instead of one per event); {p1} placeholders allowed.
- ``progress_line(game, public_events) -> str | None``: how far a phase is after these events
  ("still planning: {p1} (Jack)"), one Recent line replaced as it changes instead of a line per
  step; None when the events did not move such a phase.
- ``lobby_fields(rec) -> list[tuple[str, str]]``: extra (name, value) fields on the lobby
  message (for example the teams the seats would form).
- ``lobby_rows(rec) -> list[discord.ui.Item]``: extra lobby components after Join/Start and the
  AI select (for example "Join team A" / "Join team B" buttons; give them ``row=2`` or later).
- ``announce(rec, game, public_events) -> str | None``: a short channel message to post after
  the board update (editing a message notifies nobody; a new one with a mention pings), e.g.
  Farkle's Brawl defender; {p1} placeholders name a seat, ``{@p1}`` pings its user (the only
  pings the message allows; a raw ``<@id>`` in the text pings nobody).
- ``handlers``: the game's own custom_id verbs ``dt:<id>:x:<verb>:...``, short verb -> a
  handler named for what it does, ``async def handler(bot, interaction, route) -> None``.
- ``ask(game, seat) -> str``: what the seat must do now, in a few words, for its turn ping
  ("roll again or stop"; cogs.pings writes "it's your turn in <game>: <ask>.").
- ``image_view(view) -> dict``: the part of the public view the board picture shows; the
  picture is redrawn only when that changes.

The renderer of a game is registered with :mod:`render` under the same name.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from engine import Event, Game

if TYPE_CHECKING:
    from bot import DragonTavern
    from cogs.routing import Route
    from storage import GameRecord

Handler = Callable[["DragonTavern", discord.Interaction, "Route"], Awaitable[None]]


class GameUI:
    """A game's Discord UI; this base class is the generic one (see the module docstring)."""

    menu: ClassVar[bool] = False
    # The menu's second level opens on the board message itself rather than privately (only a
    # game without secrets where one player acts at a time): the click that completes a move is
    # then a click on the board, whose own response carries the new board (cogs.carrier).
    picker_on_board: ClassVar[bool] = False
    # A seat's private message that changes with no event for its owner and no new control only
    # shows part of it becoming public (Flagon: a planned card revealed, back in the deck), so
    # the change may wait for the next edit that must go out (cogs.seat_messages). Not in
    # general: a Farkle Magic Item is gained without an event of its own.
    reveals_can_wait: ClassVar[bool] = False
    handlers: ClassVar[Mapping[str, Handler]] = MappingProxyType({})

    def menu_path(self, game: Game, seat: str, action: str) -> list[str]:
        return [game.describe_action(seat, action)]

    def board_rows(self, rec: GameRecord, game: Game, seat: str, version: int) -> list[discord.ui.Item[Any]]:
        return []

    def private_message(self, rec: GameRecord, game: Game, seat: str, own_events: list[Event], *, page: int
                        ) -> dict[str, Any] | None:
        return None

    def final_rows(self, rec: GameRecord, game: Game) -> list[discord.ui.Item[Any]]:
        return []

    def event_lines(self, events: list[Event]) -> list[str]:
        return [e.text for e in events]

    def lobby_fields(self, rec: GameRecord) -> list[tuple[str, str]]:
        return []

    def lobby_rows(self, rec: GameRecord) -> list[discord.ui.Item[Any]]:
        return []

    def announce(self, rec: GameRecord, game: Game, events: list[Event]) -> str | None:
        return None

    def image_view(self, view: dict[str, Any]) -> dict[str, Any]:
        return view

    def ask(self, game: Game, seat: str) -> str:
        return "make your move"

    def progress_line(self, game: Game, events: list[Event]) -> str | None:
        return None


_PLUGINS: dict[str, GameUI] = {}


def register(name: str, ui: GameUI) -> None:
    """The UI of the game registered in the engine registry as ``name``."""
    _PLUGINS[name] = ui


def ui_for(kind: str) -> GameUI:
    try:
        return _PLUGINS[kind]
    except KeyError:
        raise KeyError(f"No Discord UI is registered for the game `{kind}` (cogs.ui.register).") from None


def registered_uis() -> frozenset[str]:
    """The games with a registered UI (cogs.plugins.load_plugins checks every game has one)."""
    return frozenset(_PLUGINS)
