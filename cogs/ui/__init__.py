"""Optional per-game Discord UI modules (cogs/ui/<game>.py).

A module may define:

- ``menu_path(game, seat, action) -> list[str]``: labels that place a public action in a menu
  tree (see cogs.menu); the board then shows the first level as buttons.
- ``board_rows(rec, game, seat, version) -> list[discord.ui.Item]``: extra board components
  (for example dice toggles), shown before the menu.
- ``private_message(rec, game, seat, own_events, page=...) -> dict``: the private prompt
  (``embed`` / ``view`` / optional ``content``) instead of the generic select of private
  actions; used for the DM and for the board's "Show my hand / plan" button alike.
- ``private_prompt_due(game, seat, events) -> bool``: False when the seat's open prompt is
  still current (the game edits it in place), so no new DM is sent for this outcome.
- ``final_rows(rec, game) -> list[discord.ui.Item]``: components on the board of a finished
  game (for example an action-log button).
- ``event_lines(events) -> list[str]``: the board's "Recent" lines for an outcome's public
  events (e.g. one line per resolved card instead of one per event); {p1} placeholders allowed.
- ``lobby_fields(rec) -> list[tuple[str, str]]``: extra (name, value) fields on the lobby
  message (for example the teams the seats would form).
- ``announce(rec, game, public_events) -> str | None``: a short channel message to post after
  the board update (editing a message notifies nobody; a new one with a mention pings), e.g.
  Farkle's Brawl defender; {p1} placeholders name a seat, ``{@p1}`` pings its user (the only
  pings the message allows; a raw ``<@id>`` in the text pings nobody).
- ``HANDLERS: dict[str, handler]``: extra custom_id verbs; a handler is
  ``async def handler(bot, interaction, route) -> None``.

- ``image_view(view) -> dict``: the part of the public view the board picture shows; the
  picture is redrawn only when that changes.

Games without a module use the generic buttons / "Choose your move…" picker.
"""

from __future__ import annotations

import importlib
from types import ModuleType


def ui_module(kind: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"cogs.ui.{kind}")
    except ModuleNotFoundError as exc:
        if exc.name == f"cogs.ui.{kind}":
            return None
        raise
