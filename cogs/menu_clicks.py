"""Clicks in a move menu (cogs.menu): its first level on the board (``t``), the select of one
node's children (``ts``, private, or on the board for a game whose picker lives there) and its
pages (``tn``). Routed by cogs.router's verb table; each reads its id through its spec."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from cogs import components, menu, routing
from cogs.announcer import actor_of
from cogs.presenter import fill_names
from cogs.ui import ui_for
from render import text
from sessions import SessionError, StaleAction

if TYPE_CHECKING:
    from cogs.router import Router
    from storage import GameRecord


async def _menu_target(
    router: Router, interaction: discord.Interaction, route: routing.Route, version: int, address: str
) -> tuple[GameRecord, Any, Any, menu.Node]:
    rec, game, seat = await router.seated(interaction, route.game_id)
    if version != rec.version:
        raise StaleAction("That board is out of date: the game has moved on. Use the latest board.")
    node = menu.find(router.bot.presenter.menus.of(rec, game, seat.seat, _names(rec)), address)
    if node is None:
        raise StaleAction("That menu is out of date. Use the latest board.")
    return rec, game, seat, node


async def on_open_menu(router: Router, interaction: discord.Interaction, route: routing.Route) -> None:
    """A first-level menu button on the board."""
    button = routing.OPEN_MENU.read(route)
    address = str(button.position)
    rec, game, seat, node = await _menu_target(router, interaction, route, button.version, address)
    _check_shown_label(interaction, node.label, text.BUTTON_LABEL)
    action = node.only_action
    if action is not None:
        await interaction.response.defer()
        outcome = await router.bot.service.apply(
            rec.id, actor_of(interaction), action, expected_version=rec.version
        )
        await router.bot.announcer.after_change(outcome, interaction)
        return
    on_board = await _picker_on_board(router, interaction, rec, game, address, node)
    if on_board is not None:  # "where to" below the board's buttons
        await interaction.response.edit_message(view=text.fit_view(on_board))
        return
    view = components.menu_picker(rec.id, rec.version, address, node)
    await interaction.response.send_message(
        f"**{text.escape_markdown(node.label)}** — choose:", view=text.fit_view(view), ephemeral=True
    )


async def on_turn_menu_page(router: Router, interaction: discord.Interaction, route: routing.Route) -> None:
    """Next / previous page of a private menu select."""
    turn = routing.MENU_PAGE.read(route)
    address, page_number = turn.address or "", turn.page
    rec, game, seat, node = await _menu_target(router, interaction, route, turn.version, address)
    view = await _picker_on_board(
        router, interaction, rec, game, address, node, page=page_number
    ) or components.menu_picker(rec.id, rec.version, address, node, page=page_number)
    await interaction.response.edit_message(view=text.fit_view(view))


async def on_choose_in_menu(router: Router, interaction: discord.Interaction, route: routing.Route) -> None:
    """A choice in a private menu select: go one level down, or play the leaf."""
    values = routing.component_data(interaction).get("values") or []
    select = routing.MENU_CHOICE.read(route)
    if not values or routing.number(str(values[0])) is None:
        raise SessionError("Pick one option.")
    address = f"{select.address}.{values[0]}" if select.address else str(values[0])
    rec, game, seat, node = await _menu_target(router, interaction, route, select.version, address)
    _check_shown_label(interaction, node.label, text.OPTION_LABEL, value=str(values[0]))
    action = node.only_action
    on_board = _on_board(interaction, rec)
    if action is None:
        deeper = await _picker_on_board(router, interaction, rec, game, address, node)
        if deeper is not None:
            await interaction.response.edit_message(view=text.fit_view(deeper))
            return
        view = components.menu_picker(rec.id, rec.version, address, node)
        await interaction.response.edit_message(
            content=f"**{text.escape_markdown(node.label)}** — choose:", view=text.fit_view(view)
        )
        return
    await interaction.response.defer()
    outcome = await router.bot.service.apply(
        rec.id, actor_of(interaction), action, expected_version=rec.version
    )
    if not on_board:  # a private picker says what was played; on the board, the new board does
        label = fill_names(game.describe_action(seat.seat, action), text.seat_names(rec.seats))
        await interaction.edit_original_response(content=text.fit(f"✅ {label}"), view=None)
    await router.bot.announcer.after_change(outcome, interaction)


async def _picker_on_board(
    router: Router,
    interaction: discord.Interaction,
    rec: GameRecord,
    game: Any,
    address: str,
    node: menu.Node,
    *,
    page: int = 0,
) -> discord.ui.View | None:
    """The board's controls with ``node``'s select below them, when the click was made on
    the board of a game whose picker lives there (GameUI.picker_on_board); else None (the
    picker is private)."""
    if not ui_for(rec.kind).picker_on_board or not _on_board(interaction, rec):
        return None
    snap = await router.bot.service.snapshot_of(rec, game)
    board = router.bot.presenter.board_view(snap)
    if board is None:
        return None
    return components.with_picker(
        board, components.menu_picker(rec.id, rec.version, address, node, page=page)
    )


def _check_shown_label(
    interaction: discord.Interaction, label: str, limit: int, *, value: str | None = None
) -> None:
    """Refuse a menu click whose button (or chosen option) showed another label than the node
    its address finds now: the same version and address can mean another move on a message
    drawn by an older menu layout (a board or picker posted before an update)."""
    custom_id = routing.component_data(interaction).get("custom_id")
    for row in getattr(interaction.message, "components", None) or []:
        for item in getattr(row, "children", []):
            if getattr(item, "custom_id", None) != custom_id:
                continue
            shown = (
                getattr(item, "label", None)
                if value is None
                else next((o.label for o in getattr(item, "options", []) if o.value == value), None)
            )
            # Compared with whitespace collapsed: Discord may trim a label it stores.
            if shown is not None and shown.split() != text.fit(label, limit).split():
                raise StaleAction("That menu is out of date. Use the latest board.")


def _on_board(interaction: discord.Interaction, rec: GameRecord) -> bool:
    """Whether the click was made on the game's board message (not a private picker)."""
    return interaction.message is not None and interaction.message.id == rec.board_message_id


def _names(rec: GameRecord) -> dict[str, str]:
    """Names for the {p1} placeholders of menu labels (plain: labels render no markdown; the
    same as the presenter's, so a menu address finds the same node)."""
    return text.seat_names(rec.seats, "plain")
