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
from typing import TYPE_CHECKING, Any, cast

import discord

import render
from cogs import components, errors, routing
from cogs.announcer import actor_of
from cogs.components import Layout
from cogs.presenter import fill_names
from cogs.prompts import private_actions, prompt_token
from cogs.ui import GameUI, register
from cogs.ui.farkle_quick import Choice, rally_choices, roll_choices
from engine import Event, Game
from render import text
from sessions import NotAllowed, SessionError, StaleAction

if TYPE_CHECKING:
    from bot import DragonTavern
    from engine.farkle import FarkleGame
    from sessions import Outcome
    from storage import GameRecord

TOGGLE = "tog"
KEEP_HINT = "keep"  # the disabled Keep button (no legal selection yet)
TWO_STEPS = "then"  # a one-click choice of two actions: dt:<id>:x:then:<version>:<first>|<second>
QUICK = "-"  # the toggle "mask" that shows the one-click choices again
DIE_FACES = "⚀⚁⚂⚃⚄⚅"
KEEP_ROW = 1  # dice fill row 0 (and the 6th die row 1); the Keep button sits on row 1


# -- one-click choices -----------------------------------------------------------------------
def _choice_button(rec: GameRecord, choice: Choice, version: int) -> discord.ui.Button | None:
    """A choice as a version-checked button (None if its custom_id would be too long)."""
    args: tuple[object, ...]
    if len(choice.actions) == 1:
        verb, args = "a", (version, choice.actions[0])
    else:
        verb, args = "x", (TWO_STEPS, f"{version}:{'|'.join(choice.actions)}")
    if not routing.fits(rec.id, verb, *args):
        return None
    banks = choice.actions[-1] == "stop"  # green: the safe choice that ends the roll
    return discord.ui.Button(
        label=choice.label, style=discord.ButtonStyle.success if banks else discord.ButtonStyle.primary,
        custom_id=routing.make(rec.id, verb, *args), row=0,
    )


def quick_rows(rec: GameRecord, game: FarkleGame, seat: str, version: int) -> list[discord.ui.Item]:
    """The one-click choices of the roll (or the Rally) on row 0, then "Pick dice…" for any
    other keep, or a keep alone (then Roll / Stop, or a Magic Item first)."""
    choices = roll_choices(game, seat) or rally_choices(game, seat)
    items: list[discord.ui.Item] = [b for c in choices if (b := _choice_button(rec, c, version)) is not None]
    if _keeps(game, seat):
        items.append(discord.ui.Button(
            label="Pick dice…", style=discord.ButtonStyle.secondary, row=0,
            custom_id=routing.make(rec.id, "x", TOGGLE, f"{version}:0"),
        ))
    return items


# -- dice toggles ----------------------------------------------------------------------------
def _keeps(game: FarkleGame, seat: str) -> dict[tuple[int, ...], str]:
    """Legal keep selections of ``seat`` now, by their sorted dice values."""
    out = {}
    for action in game.legal_actions(seat):
        if action.startswith("keep:"):
            out[tuple(sorted(int(x) for x in action[5:].split(",")))] = action
    return out


def selection(roll: Sequence[int], mask: int) -> tuple[int, ...]:
    """The dice values picked by ``mask`` (bit i = die i of the roll as shown, sorted)."""
    return tuple(sorted(v for i, v in enumerate(roll) if mask >> i & 1))


def _roll_of(game: FarkleGame) -> list[int] | None:
    view = game.view(None)
    if view["phase"] != "roll" or not view["roll"]:
        return None
    return list(view["roll"])


def board_rows(rec: GameRecord, game: FarkleGame, seat: str, version: int, mask: int | None = None
               ) -> list[discord.ui.Item]:
    """``seat``'s one-click choices (``mask`` None), or the dice toggles with the Keep button
    for the dice ``mask`` selects."""
    if mask is None:
        return quick_rows(rec, game, seat, version)
    roll = _roll_of(game)
    keeps = _keeps(game, seat) if roll else {}
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
            custom_id=routing.make(rec.id, "x", TOGGLE, f"{version}:{mask ^ (1 << i)}"),
            disabled=value not in useful and not on,
            row=i // 5,
        ))
    chosen = selection(roll, mask)
    action = keeps.get(chosen)
    if action is not None:
        # A legal selection: the platform's direct action button plays it (version-checked).
        items.append(discord.ui.Button(
            label=game.describe_action(seat, action), style=discord.ButtonStyle.primary,
            custom_id=routing.make(rec.id, "a", version, action), row=KEEP_ROW,
        ))
    else:
        label = "Keep: pick scoring dice" if not chosen else f"Keep {' '.join(map(str, chosen))}: not a scoring set"
        items.append(discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary, disabled=True,
            custom_id=routing.make(rec.id, "x", KEEP_HINT, f"{version}:{mask}"), row=KEEP_ROW,
        ))
    items.append(discord.ui.Button(  # to the one-click choices (a roll with a keep always has some)
        label="◀ Back", style=discord.ButtonStyle.secondary, row=KEEP_ROW,
        custom_id=routing.make(rec.id, "x", TOGGLE, f"{version}:{QUICK}"),
    ))
    return items


def _is_own_item(custom_id: str, game_id: int) -> bool:
    """Whether a board component was made by board_rows (choices, toggles, Keep buttons)."""
    if custom_id.startswith(f"{routing.PREFIX}:{game_id}:x:"):
        return True
    route = routing.parse(custom_id)
    return route is not None and route.verb == "a" and route.arg(1).startswith(("keep:", "rally:"))


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
    version_text, _, mask_text = route.arg(1).partition(":")
    rec, game = await bot.service.load(route.game_id)
    seat = rec.seat_of_user(interaction.user.id)
    if seat is None:
        raise NotAllowed("You are not playing in this game.")
    if game is None or rec.status != "active" or game.is_over:
        raise SessionError("This game is not running.")
    if seat.seat not in game.to_act():
        raise SessionError("It is not your turn.")
    mask = None if mask_text == QUICK else routing.number(mask_text)
    if routing.number(version_text) != rec.version or (mask is None and mask_text != QUICK):
        raise StaleAction("That board is out of date: the game has moved on. Use the latest board.")
    rows = board_rows(rec, cast("FarkleGame", game), seat.seat, rec.version, mask)
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
    version_text, _, steps = route.arg(1).partition(":")
    first, _, second = steps.partition("|")
    version = routing.number(version_text)
    if version is None or not first or not second:
        raise StaleAction("That button is out of date. Use the latest board.")
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


# -- the private prompt: Magic Items with Use buttons -----------------------------------------
USE = "use"
MAX_USE_BUTTONS = 15  # rows 1-3; row 0 holds the select of the rest (Loaded Die faces, targets)


def _names(rec: GameRecord) -> dict[str, str]:
    """Names for markdown (message content, embed fields)."""
    return text.seat_names(rec.seats)


def private_message(rec: GameRecord, game: FarkleGame, seat: str, own_events: list[Event], *, page: int
                    ) -> dict[str, Any]:
    """The owner's hand (names and texts of their Magic Items) and a Use button per item play
    allowed right now; plays that need a choice (a die face, a target) go in one select."""
    names = _names(rec)
    embed = discord.Embed(title=f"🔒 Dragon Farkle — game #{rec.id} (only you see this)",
                          description=render.render_text("farkle", game.view(seat), text.seat_names(rec.seats, "code")),
                          colour=discord.Colour.blurple())
    hand = game.view(seat)
    cards = [*hand.get("my_items", []), *hand.get("my_pending", [])]
    if cards:
        embed.add_field(name="Your Magic Items", value="\n".join(
            f"**{c['name']}**: {c['text']}" for c in cards), inline=False)
    if own_events:
        embed.add_field(name="For you", value="\n".join(fill_names(e.text, names) for e in own_events),
                        inline=False)
    choices = private_actions(game, seat, text.seat_names(rec.seats, "plain"))  # labels: no markdown
    if not choices:
        return text.fit_message({"embed": embed, "view": None})
    embed.set_footer(text="Only you see your items; using one shows it face up to everyone.")
    simple = [(a, label) for a, label in choices if a.count(":") <= 1][:MAX_USE_BUTTONS]
    rest = [(a, label) for a, label in choices if (a, label) not in simple]
    view = components.action_picker(rec.id, "p", rest, page=page, token=prompt_token(game, seat),
                                    placeholder="Use an item with a choice…") if rest else Layout()
    for index, (action, label) in enumerate(simple):
        if not routing.fits(rec.id, "x", USE, f"{rec.version}:{action}"):
            continue
        view.add_item(discord.ui.Button(
            label=label, style=discord.ButtonStyle.primary, row=2 + index // 5,
            custom_id=routing.make(rec.id, "x", USE, f"{rec.version}:{action}"),
        ))
    return text.fit_message({"embed": embed, "view": view})


async def on_use_item(bot: DragonTavern, interaction: discord.Interaction, route: routing.Route) -> None:
    """A Use button of the private prompt (DM or ephemeral); version-checked like the board."""
    version_text, _, action = route.arg(1).partition(":")
    version = routing.number(version_text)
    if version is None or not action:
        raise StaleAction("That prompt is out of date.")
    await interaction.response.defer()
    outcome = await bot.service.apply(route.game_id, actor_of(interaction), action, expected_version=version)
    rec, game = outcome.record, outcome.game
    seat = rec.seat_of_user(interaction.user.id)
    if game is None or seat is None:
        return
    label = fill_names(game.describe_action(seat.seat, action), _names(rec))
    message: dict[str, Any] = {"content": f"✅ {label}", "embed": None, "view": None}
    if not outcome.changed:
        message["content"] = outcome.notice or "Already done."
    elif interaction.guild_id is not None and private_actions(game, seat.seat):
        # Ephemeral route: the same message becomes the next prompt (a DM gets a new one).
        own = [e for e in outcome.events if e.to == seat.seat]
        message = {"content": f"✅ {label}", **private_message(rec, cast("FarkleGame", game), seat.seat, own, page=0)}
    await interaction.edit_original_response(**message)
    if outcome.changed:
        await bot.announcer.after_change(outcome, interaction)




# -- the move menu ---------------------------------------------------------------------------
def menu_path(game: FarkleGame, seat: str, action: str) -> list[str]:
    """Where a public action sits in the board menu (labels may name players as {p2})."""
    head, _, arg = action.partition(":")
    label = game.describe_action(seat, action)
    if head == "keep" or (head == "accept" and game.view(None)["action"] == "battle"):
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
    view = game.view(None)
    defender = view.get("defender")
    if view["action"] != "brawl" or not defender or game.to_act() != [defender]:
        return None
    seat = next((s for s in rec.seats if s.seat == defender), None)
    if seat is None or seat.is_ai or seat.user_id is None:
        return None
    attacker = view["current"]
    mention = f"{{@{defender}}}"  # the presenter pings this seat's user, and only them
    # One outcome may hold several turns (AI seats act in it): an earlier Brawl's attack_done
    # must not be read as this Brawl's, whose attack score may not exist yet.
    if any(e.kind == "attack_done" for e in events) and view.get("attack_score") is not None:
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
    legal = game.legal_actions(seat)
    if any(a.startswith("battle") for a in legal):
        return "Recruit, Brawl or fight the Final Battle"
    if legal and all(a == "accept" or a.startswith("use") for a in legal):
        return "accept the roll (or use an item)"
    return _ASKS.get(str(game.view(None).get("phase")), "make your move")


class FarkleUI(GameUI):
    menu = True
    handlers = MappingProxyType({TOGGLE: on_toggle_die, KEEP_HINT: on_explain_keep, TWO_STEPS: on_play_two_steps,
                                 USE: on_use_item})

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
