"""Builds the components the bot shows. They are layout only: every click is routed by its
custom_id in cogs.router (reloading the game from the database), never by an in-memory view,
so nothing here has to survive a restart."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

from cogs import routing
from cogs.menu import Node
from render.text import BUTTON_LABEL, fit
from storage import GameRecord

PAGE_SIZE = 25  # Discord's limit of options in one select
MAX_BOARD_BUTTONS = 15  # beyond this the board shows a "Choose…" picker instead


class Layout(discord.ui.View):
    """A view used only to lay out components; never stored in discord.py's view store."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:  # routing is by custom_id (cogs.router)
        return False


def _label(text: str, limit: int = BUTTON_LABEL) -> str:
    return fit(text, limit)


def lobby_components(rec: GameRecord, ai_levels: Sequence[str], ai_allowed: bool) -> Layout:
    view = Layout()
    gid = rec.id
    view.add_item(discord.ui.Button(label="Join", style=discord.ButtonStyle.success,
                                    custom_id=routing.JOIN.make(gid, routing.NoFields()), row=0))
    view.add_item(discord.ui.Button(label="Leave", style=discord.ButtonStyle.secondary,
                                    custom_id=routing.LEAVE.make(gid, routing.NoFields()), row=0))
    view.add_item(discord.ui.Button(label="Start", style=discord.ButtonStyle.primary,
                                    custom_id=routing.START.make(gid, routing.NoFields()), row=0))
    view.add_item(discord.ui.Button(label="Cancel", style=discord.ButtonStyle.danger,
                                    custom_id=routing.CANCEL.make(gid, routing.NoFields()), row=0))
    if ai_allowed and ai_levels:
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            placeholder="Add an AI seat…",
            custom_id=routing.ADD_AI.make(gid, routing.NoFields()),
            options=[discord.SelectOption(label=f"AI ({level})", value=level) for level in ai_levels],
            row=1,
        )
        view.add_item(select)
    return view


def board_components(
    rec: GameRecord,
    actions: Sequence[tuple[str, str]],
    *,
    version: int,
    show_private_button: bool,
    show_picker: bool,
    extra: Sequence[discord.ui.Item] = (),
    menu: Node | None = None,
) -> Layout:
    """Buttons for a small set of public actions (action, label); otherwise a "Choose…"
    button that opens a private picker. Plus "Show my hand" for games with secrets."""
    view = Layout()
    gid = rec.id
    for item in extra:
        view.add_item(item)
    used_rows = 1 + max((getattr(item, "row", 0) or 0 for item in extra), default=-1)
    if menu is not None:  # the menu's buttons stand for every action
        for item in menu_buttons(rec, menu, version=version, start_row=used_rows):
            view.add_item(item)
    elif actions and len(actions) <= MAX_BOARD_BUTTONS and not show_picker and all(
        a and routing.PLAY.fits(gid, routing.Move(version, a)) for a, _ in actions
    ):  # one button per action, when every id fits
        for index, (action, label) in enumerate(actions):
            view.add_item(discord.ui.Button(
                label=_label(label), style=discord.ButtonStyle.primary,
                custom_id=routing.PLAY.make(gid, routing.Move(version, action)), row=used_rows + index // 5,
            ))
    elif actions or show_picker:
        view.add_item(discord.ui.Button(label="Choose your move…", style=discord.ButtonStyle.primary,
                                        custom_id=routing.OPEN_PICKER.make(gid, routing.Page(version, 0)), row=used_rows))
    if show_private_button:
        view.add_item(discord.ui.Button(label="🔒 Show my hand / plan", style=discord.ButtonStyle.secondary,
                                        custom_id=routing.SHOW_HAND.make(gid, routing.NoFields()), row=4))
    return view


def action_picker(
    game_id: int, verb: str, actions: Sequence[tuple[str, str]], *, page: int, version: int | None = None,
    token: str | None = None, placeholder: str = "Choose…",
) -> Layout:
    """A paginated select of (action, label). ``verb`` routes the choice (public picker `ps`,
    private prompt `p`). Stale pickers are refused by ``version`` (public: the board's version)
    or ``token`` (private: the seat's prompt token, cogs.prompts)."""
    view = Layout()
    pages = max(1, -(-len(actions) // PAGE_SIZE))
    page = max(0, min(page, pages - 1))
    chunk = actions[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
    select_id, page_id = _picker_ids(game_id, verb, version, token)
    if chunk:
        title = placeholder if pages == 1 else f"{placeholder} (page {page + 1}/{pages})"
        view.add_item(discord.ui.Select(
            placeholder=_label(title, 100),
            custom_id=select_id,
            options=[discord.SelectOption(label=_label(label, 100), value=action[:100]) for action, label in chunk],
            row=0,
        ))
    if pages > 1:
        if page > 0:
            view.add_item(discord.ui.Button(label="◀ Previous", custom_id=page_id(page - 1), row=1))
        if page < pages - 1:
            view.add_item(discord.ui.Button(label="Next ▶", custom_id=page_id(page + 1), row=1))
    return view


def _picker_ids(game_id: int, verb: str, version: int | None, token: str | None
                ) -> tuple[str, Callable[[int], str]]:
    """The select's custom_id and a page button's, for the public picker (its board's version)
    or the private prompt (its token)."""
    if verb == routing.PICK.verb:
        if version is None:
            raise ValueError("the public picker is dated by the board's version")
        dated = version
        return (routing.PICK.make(game_id, routing.Version(dated)),
                lambda to: routing.PICKER_PAGE.make(game_id, routing.Page(dated, to)))
    return (routing.PRIVATE_PICK.make(game_id, routing.Prompt(token)),
            lambda to: routing.PRIVATE_PAGE.make(game_id, routing.PromptPage(to, token)))


def menu_buttons(rec: GameRecord, root: Node, *, version: int, start_row: int = 0) -> list[discord.ui.Item]:
    """The first level of a move menu as buttons (cogs.menu)."""
    items: list[discord.ui.Item] = []
    for index, node in enumerate(root.children[: 5 * (4 - start_row)]):
        items.append(discord.ui.Button(
            label=_label(node.label), style=discord.ButtonStyle.primary,
            custom_id=routing.OPEN_MENU.make(rec.id, routing.MenuButton(version, index)), row=start_row + index // 5,
        ))
    return items


def with_picker(board: discord.ui.View, picker: discord.ui.View) -> Layout | None:
    """The board's controls with a menu picker in the rows below them (a picker that lives on
    the board message), or None when both do not fit in Discord's five rows."""
    below = 1 + max((item.row or 0 for item in board.children), default=-1)
    if below + 1 + max((item.row or 0 for item in picker.children), default=0) > 5:
        return None
    view = Layout()
    for item in board.children:
        view.add_item(item)
    for item in picker.children:
        item.row = below + (item.row or 0)
        view.add_item(item)
    return view


def menu_picker(game_id: int, version: int, address: str, node: Node, *, page: int = 0) -> Layout:
    """A private select of one menu node's children (paginated by 25)."""
    view = Layout()
    pages = max(1, -(-len(node.children) // PAGE_SIZE))
    page = max(0, min(page, pages - 1))
    first = page * PAGE_SIZE
    chunk = node.children[first : first + PAGE_SIZE]
    title = node.label if pages == 1 else f"{node.label} (page {page + 1}/{pages})"
    view.add_item(discord.ui.Select(
        placeholder=_label(f"{title}…", 100),
        custom_id=routing.MENU_CHOICE.make(game_id, routing.MenuSelect(version, address or None)),
        options=[discord.SelectOption(label=_label(c.label, 100), value=str(first + i)) for i, c in enumerate(chunk)],
        row=0,
    ))
    if page > 0:
        view.add_item(discord.ui.Button(label="◀ Previous", row=1, custom_id=routing.MENU_PAGE.make(
            game_id, routing.MenuPage(version, page - 1, address or None))))
    if page < pages - 1:
        view.add_item(discord.ui.Button(label="Next ▶", row=1, custom_id=routing.MENU_PAGE.make(
            game_id, routing.MenuPage(version, page + 1, address or None))))
    return view
