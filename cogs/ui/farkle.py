"""Dragon Farkle on the board message.

- After a roll, one-click choices (cogs.ui.farkle_quick): "Keep 1 5 (+150) & roll 4 dice",
  "Keep 1 5 (+150) & bank 450", "Keep 1 (+100) & roll 5 dice", and "Pick dice…" for any
  other selection. A combined choice plays its two engine actions in turn (``on_play_two_steps``).
- "Pick dice…" turns the row into one toggle button per die of the roll and a "Keep … (+N)"
  button, enabled only when the toggled dice are a legal scoring selection; "◀ Back" returns.
- After a Rally keep: "Rally: double (+N) & roll / & bank" next to the menu's plain choices;
  a Final Battle roll paused for the roller's items: "Resolve the roll & roll N dice".
- A move menu (cogs.menu) for the other public actions: Recruit / one button per Brawl target
  / Final Battle, Roll again / Stop, the Rally choice, the defender's "Let the Brawl begin".
  Keeps are not in it: the rows above offer every one.
- The private prompt (Magic Items with Use buttons) is in cogs.ui.farkle_items.
- ``announce``: a short channel message that pings a human Brawl defender when it becomes their
  move (editing the board never notifies anyone); the board's buttons are then theirs.

Magic Items never appear here: every item action is private in the engine
(``is_private_action``), so the platform offers it only in its owner's DM / ephemeral prompt.

The toggle state lives in the board message's custom_ids: die ``i``'s button carries the mask
the selection would have after toggling ``i`` (``dt:<id>:x:tog:<version>:<mask>``; the mask
``-`` shows the one-click choices again), so a click needs no memory, survives a restart and
an old board is recognised by its version.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import discord

from cogs import errors, routing
from cogs.announcer import actor_of
from cogs.components import Layout
from cogs.ui import GameUI, register
from cogs.ui.farkle_items import USE, on_use_item, private_message
from cogs.ui.farkle_quick import Choice, rally_choices, roll_choices
from engine import Event, Game
from engine.farkle.view import FarkleAction
from render import text
from sessions import NotAllowed, SessionError, StaleAction

if TYPE_CHECKING:
    from bot import DragonTavern
    from engine.farkle import FarkleGame
    from engine.farkle.view import FarkleView
    from sessions import Outcome
    from storage import GameRecord



class Toggle(NamedTuple):
    version: int
    mask: int | None = None  # the dice selected after this click; None: the one-click choices again


class TwoSteps(NamedTuple):
    version: int
    first: str
    second: str


# dt:<id>:x:tog:<version>:<mask>, or ":-" for the one-click choices
TOGGLE = routing.Spec("x", Toggle, "{version}:-", "{version}:{mask}", control="tog", refusal=routing.STALE_BOARD)
# the disabled Keep button (no legal selection yet)
KEEP_HINT = routing.Spec("x", Toggle, "{version}:{mask}", control="keep")
# a one-click choice of two actions
TWO_STEPS = routing.Spec("x", TwoSteps, "{version}:{first}|{second}", control="then",
                         refusal="That button is out of date. Use the latest board.")
DIE_FACES = "⚀⚁⚂⚃⚄⚅"
KEEP_ROW = 1  # dice fill row 0 (and the 6th die row 1); the Keep button sits on row 1


# -- one-click choices -----------------------------------------------------------------------
def _choice_button(rec: GameRecord, choice: Choice, version: int) -> discord.ui.Button | None:
    """A choice as a version-checked button (None if its custom_id would be too long)."""
    if len(choice.actions) == 1:
        move = routing.Move(version, choice.actions[0])
        if not routing.PLAY.fits(rec.id, move):
            return None
        custom_id = routing.PLAY.make(rec.id, move)
    else:
        first, second = choice.actions
        steps = TwoSteps(version, first, second)
        if not TWO_STEPS.fits(rec.id, steps):
            return None
        custom_id = TWO_STEPS.make(rec.id, steps)
    banks = choice.actions[-1] == "stop"  # green: the safe choice that ends the roll
    return discord.ui.Button(
        label=choice.label, style=discord.ButtonStyle.success if banks else discord.ButtonStyle.primary,
        custom_id=custom_id, row=0,
    )


def quick_rows(rec: GameRecord, game: FarkleGame, seat: str, version: int, view: FarkleView,
               legal: list[str]) -> list[discord.ui.Item]:
    """The one-click choices of the roll (or the Rally) on row 0, then "Pick dice…" for any
    other keep, or a keep alone (then Roll / Stop, or a Magic Item first)."""
    choices = roll_choices(game, seat, view, legal) or rally_choices(game, seat, view, legal)
    items: list[discord.ui.Item] = [b for c in choices if (b := _choice_button(rec, c, version)) is not None]
    if _keeps(legal):
        items.append(discord.ui.Button(
            label="Pick dice…", style=discord.ButtonStyle.secondary, row=0,
            custom_id=TOGGLE.make(rec.id, Toggle(version, 0)),
        ))
    return items


# -- dice toggles ----------------------------------------------------------------------------
def _keeps(legal: list[str]) -> dict[tuple[int, ...], str]:
    """The keep selections among a seat's ``legal`` actions, by their sorted dice values."""
    out = {}
    for action in legal:
        dice = FarkleAction.from_text(action).dice
        if dice:
            out[dice] = action
    return out


def selection(roll: Sequence[int], mask: int) -> tuple[int, ...]:
    """The dice values picked by ``mask`` (bit i = die i of the roll as shown, sorted)."""
    return tuple(sorted(v for i, v in enumerate(roll) if mask >> i & 1))


def _roll_of(view: FarkleView) -> list[int] | None:
    if view["phase"] != "roll" or not view["roll"]:
        return None
    return list(view["roll"])


def board_rows(rec: GameRecord, game: FarkleGame, seat: str, version: int, mask: int | None = None
               ) -> list[discord.ui.Item]:
    """``seat``'s one-click choices (``mask`` None), or the dice toggles with the Keep button
    for the dice ``mask`` selects. The public view and the seat's legal actions are read once
    here and handed down (a board is built on every move)."""
    view, legal = game.typed_view(None), game.legal_actions(seat)
    if mask is None:
        return quick_rows(rec, game, seat, version, view, legal)
    roll = _roll_of(view)
    keeps = _keeps(legal) if roll else {}
    if not roll or not keeps:
        return []
    mask &= (1 << len(roll)) - 1
    # A die that is in no legal selection (a lone 3, say) can never be kept: disable it.
    useful = {v for sel in keeps for v in sel}
    items: list[discord.ui.Item] = []
    for i, value in enumerate(roll):
        on = bool(mask >> i & 1)
        items.append(discord.ui.Button(
            label=f"{DIE_FACES[value - 1]} {value}{' ✓' if on else ''}",
            style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
            custom_id=TOGGLE.make(rec.id, Toggle(version, mask ^ (1 << i))),
            disabled=value not in useful and not on,
            row=i // 5,
        ))
    chosen = selection(roll, mask)
    action = keeps.get(chosen)
    if action is not None:
        # A legal selection: the platform's direct action button plays it (version-checked).
        items.append(discord.ui.Button(
            label=game.describe_action(seat, action), style=discord.ButtonStyle.primary,
            custom_id=routing.PLAY.make(rec.id, routing.Move(version, action)), row=KEEP_ROW,
        ))
    else:
        label = "Keep: pick scoring dice" if not chosen else f"Keep {' '.join(map(str, chosen))}: not a scoring set"
        items.append(discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary, disabled=True,
            custom_id=KEEP_HINT.make(rec.id, Toggle(version, mask)), row=KEEP_ROW,
        ))
    items.append(discord.ui.Button(  # to the one-click choices (a roll with a keep always has some)
        label="◀ Back", style=discord.ButtonStyle.secondary, row=KEEP_ROW,
        custom_id=TOGGLE.make(rec.id, Toggle(version)),
    ))
    return items


def _is_own_item(custom_id: str, game_id: int) -> bool:
    """Whether a board component was made by board_rows (choices, toggles, Keep buttons)."""
    route = routing.parse(custom_id)
    if route is None or route.game_id != game_id:
        return False
    if route.verb == routing.CONTROL:
        return True
    move = routing.PLAY.parse(route)
    return move is not None and FarkleAction.from_text(move.action).head in ("keep", "rally")


def _with_rows(message: discord.Message, rows: list[discord.ui.Item], game_id: int) -> Layout:
    """The board's components with our rows replaced; the menu and the rest follow them, in
    their order, on the next rows (ours may now take one row more or less)."""
    layout = Layout()
    for item in rows:
        layout.add_item(item)
    first_free = 1 + max((item.row or 0 for item in rows), default=-1)
    others = [item for item in discord.ui.View.from_message(message, timeout=None).children
              if not _is_own_item(str(getattr(item, "custom_id", "") or ""), game_id)]
    old_rows = sorted({item.row or 0 for item in others})
    for item in others:
        item.row = min(4, first_free + old_rows.index(item.row or 0))
        layout.add_item(item)
    return layout


async def on_toggle_die(bot: DragonTavern, interaction: discord.Interaction, route: routing.Route) -> None:
    toggle = TOGGLE.read(route)
    rec, game = await bot.service.load(route.game_id)
    seat = rec.seat_of_user(interaction.user.id)
    if seat is None:
        raise NotAllowed("You are not playing in this game.")
    if game is None or rec.status != "active" or game.is_over:
        raise SessionError("This game is not running.")
    if seat.seat not in game.to_act():
        raise SessionError("It is not your turn.")
    if toggle.version != rec.version:
        raise StaleAction(routing.STALE_BOARD)
    rows = board_rows(rec, cast("FarkleGame", game), seat.seat, rec.version, toggle.mask)
    if not rows or interaction.message is None:
        raise StaleAction("There are no dice to pick right now.")
    await interaction.response.edit_message(view=text.fit_view(_with_rows(interaction.message, rows, rec.id)))
    # A move may have been saved while we answered: then our edit put old buttons back, so
    # draw the current board over it.
    latest, latest_game = await bot.service.load(rec.id)
    if latest.version != rec.version and latest_game is not None:
        await interaction.edit_original_response(
            **await bot.presenter.board_message(await bot.service.snapshot_of(latest, latest_game)))


async def on_explain_keep(bot: DragonTavern, interaction: discord.Interaction, route: routing.Route) -> None:
    # The button is disabled; a client that still sends the click gets the rule.
    raise SessionError("Pick dice that score (1s, 5s, three of a kind…) before keeping them.")


def _second_step_due(outcome: Outcome, user_id: int, action: str) -> bool:
    """Whether the second action of a choice still belongs to the clicking player now."""
    game, seat = outcome.game, outcome.record.seat_of_user(user_id)
    return (game is not None and seat is not None and not game.is_over and seat.seat in game.to_act()
            and action in game.legal_actions(seat.seat))


async def on_play_two_steps(bot: DragonTavern, interaction: discord.Interaction, route: routing.Route) -> None:
    """A one-click choice: the first action on the board's version, then the second one if it
    is still this player's legal move (else the board simply shows what the first led to)."""
    version, first, second = TWO_STEPS.read(route)
    await interaction.response.defer()
    actor = actor_of(interaction)
    outcome = await bot.service.apply(route.game_id, actor, first, expected_version=version)
    if not outcome.changed:  # a second click on the same button: the first one did it all
        if outcome.notice:
            await errors.reply_privately(interaction, outcome.notice)
        return
    last = outcome
    try:
        if _second_step_due(outcome, interaction.user.id, second):
            last = await bot.service.apply(route.game_id, actor, second, expected_version=outcome.record.version)
    except StaleAction:
        pass  # another click of this player's came first: the first step stands
    finally:
        await bot.announcer.after_change(last, interaction)  # announces both steps' saved changes


# -- the move menu ---------------------------------------------------------------------------
def menu_path(game: FarkleGame, seat: str, action: str) -> list[str]:
    """Where a public action sits in the board menu (labels may name players as {p2})."""
    parsed = FarkleAction.from_text(action)
    head, arg = parsed.head, parsed.arg
    label = game.describe_action(seat, action)
    if head == "keep" or (head == "accept" and game.typed_view(None)["action"] == "battle"):
        return []  # the board rows offer it: one-click choices (and "Pick dice…" for keeps)
    if head == "brawl":
        return [label]  # one button per target (at most four): no select to open
    if head == "companion" and arg.isdigit():  # Tinkerer: one entry per die value
        companion = label.split(":", 1)[0]
        return [f"{companion}: reroll a die…", f"Reroll a {arg}"]
    return [label]


# -- pinging the Brawl defender --------------------------------------------------------------
def announce(rec: GameRecord, game: FarkleGame, events: list[Event]) -> str | None:
    """Ping a human Brawl defender when it becomes their move (from public facts only)."""
    view = game.typed_view(None)
    defender = view["defender"]
    if view["action"] != "brawl" or not defender or game.to_act() != [defender]:
        return None
    seat = next((s for s in rec.seats if s.seat == defender), None)
    if seat is None or seat.is_ai or seat.user_id is None:
        return None
    attacker = view["current"]
    mention = f"{{@{defender}}}"  # the presenter pings this seat's user, and only them
    # One outcome may hold several turns (AI seats act in it): an earlier Brawl's attack_done
    # must not be read as this Brawl's, whose attack score may not exist yet.
    if any(e.kind == "attack_done" for e in events) and view["attack_score"] is not None:
        return (f"🛡️ {mention}, you defend against {{{attacker}}}'s Brawl attack score of "
                f"{view['attack_score']:,}: your roll and its buttons are on the board.")
    if view["phase"] == "react" and any(e.kind == "action" and e.data.get("action") == "brawl" for e in events):
        return (f"🛡️ {mention}, {{{attacker}}} brawls with you! Answer on the board "
                "(your Magic Items are in your private prompt).")
    return None


# -- the turn ping's question ------------------------------------------------------------------
_ASKS = {
    "choose": "Recruit or Brawl",
    "react": "answer the Brawl against you",
    "roll": "pick the dice to keep",
    "decide": "roll again or stop",
    "rally": "choose your Rally",
    "discard": "discard a Magic Item",
    "battle": "roll for the Final Battle",
}


def ask(game: FarkleGame, seat: str) -> str:
    """What the seat must do now, for its turn ping (from the phase and its legal actions)."""
    heads = {FarkleAction.from_text(a).head for a in game.legal_actions(seat)}
    if "battle" in heads:
        return "Recruit, Brawl or fight the Final Battle"
    if heads and heads <= {"accept", "use"}:
        return "accept the roll (or use an item)"
    return _ASKS.get(game.typed_view(None)["phase"], "make your move")


class FarkleUI(GameUI):
    menu = True
    handlers = MappingProxyType({TOGGLE.key: on_toggle_die, KEEP_HINT.key: on_explain_keep,
                                 TWO_STEPS.key: on_play_two_steps, USE.key: on_use_item})

    def menu_path(self, game: Game, seat: str, action: str) -> list[str]:
        return menu_path(cast("FarkleGame", game), seat, action)

    def board_rows(self, rec: GameRecord, game: Game, seat: str, version: int) -> list[discord.ui.Item[Any]]:
        return board_rows(rec, cast("FarkleGame", game), seat, version)

    def private_message(self, rec: GameRecord, game: Game, seat: str, own_events: list[Event], *, page: int
                        ) -> dict[str, Any]:
        return private_message(rec, cast("FarkleGame", game), seat, own_events, page=page)

    def announce(self, rec: GameRecord, game: Game, events: list[Event]) -> str | None:
        return announce(rec, cast("FarkleGame", game), events)

    def ask(self, game: Game, seat: str) -> str:
        return ask(cast("FarkleGame", game), seat)


register("farkle", FarkleUI())
