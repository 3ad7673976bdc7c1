"""Dragon Farkle's one-click choices: the few keeps a player usually wants, each joined to
what follows it ("Keep 1 5 (+150) & roll 4 dice", "Keep 1 5 (+150) & bank 450").

After a keep the engine asks "roll the rest or stop?" (phase ``decide``), so the common
decision of a roll is two engine actions; a combined choice names both and the board's
handler plays them one after the other (cogs.ui.farkle). The choices are worked out on a
copy of the game, so their labels show what the engine would really do (the Dragon eating
the roll, a Companion's shield, hot dice) and a choice is offered only if its second step
is legal after its first.

Only public facts shape the choices (the dice, the turn total, the action), never a Magic
Item: a seat's hidden items stay in its private prompt. Discord-free, so it is tested alone.

The board builds these on every move: it reads the public view and the seat's legal actions
once and hands them down (``view``, ``legal``), and each game a choice leads to is read once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from engine.farkle.scoring import score
from engine.farkle.view import FarkleAction

if TYPE_CHECKING:
    from engine.farkle import FarkleGame
    from engine.farkle.view import FarkleView

MAX_CHOICES = 4  # with the "Pick dice…" button: one row of five


@dataclass(frozen=True)
class Choice:
    """One board button: the actions it plays, in order, and its label."""

    actions: tuple[str, ...]
    label: str


def _dice(keep: str) -> tuple[int, ...]:
    return FarkleAction.from_text(keep).dice


class After(NamedTuple):
    """The game after a first step (on a copy) and its public view, read once."""

    game: FarkleGame
    view: FarkleView


def _after(game: FarkleGame, seat: str, action: str) -> After | None:
    """``game`` after ``seat`` plays ``action`` (None if it is refused)."""
    copied = game.after(seat, action)
    return None if copied is None else After(copied, copied.typed_view(None))


def _follow_ups(then: After, seat: str) -> list[tuple[str, str]]:
    """(action, label tail) of "roll on" and "stop" when ``seat`` may choose them next."""
    game, view = then
    if game.is_over or seat not in view["to_act"]:
        return []
    legal = game.legal_actions(seat)
    out = []
    if "roll" in legal:
        text = game.describe_action(seat, "roll")  # "Roll 4 dice", "Roll 6 dice (hot dice)"
        out.append(("roll", text[:1].lower() + text[1:]))
    if "stop" in legal:
        total = view["turn_total"]  # no thousands comma: like the engine's "(+1500)" before it
        if view["action"] == "recruit":
            out.append(("stop", f"bank {total}"))
        else:  # a Brawl: stopping makes this the attack (or defence) score
            out.append(("stop", f"stop: {'defence' if seat == view['defender'] else 'attack'} score {total}"))
    return out


def _joined(
    game: FarkleGame, seat: str, first: str, then: After | None, wanted: tuple[str, ...]
) -> list[Choice]:
    """``first`` joined to each wanted follow-up that is legal after it; ``first`` alone when
    none is (a Rally face asks its own question first)."""
    label = game.describe_action(seat, first)
    follow = [(a, tail) for a, tail in (_follow_ups(then, seat) if then else []) if a in wanted]
    if not follow:
        return [Choice((first,), label)]
    return [Choice((first, action), f"{label} & {tail}") for action, tail in follow]


def _turn_total_after(then: After | None) -> int:
    return -1 if then is None else then.view["turn_total"]


def roll_choices(
    game: FarkleGame, seat: str, view: FarkleView | None = None, legal: list[str] | None = None
) -> list[Choice]:
    """The one-click choices for the dice ``seat`` has on the table (may be empty); ``view``
    and ``legal``: the game's public view and the seat's legal actions, if already read."""
    view = game.typed_view(None) if view is None else view
    if view["phase"] != "roll" or seat not in view["to_act"]:
        return []
    legal = game.legal_actions(seat) if legal is None else legal
    keeps = [a for a in legal if FarkleAction.from_text(a).dice]
    if view["action"] == "battle" and "accept" in legal:
        # A Final Battle roll paused for the roller's Magic Items: once resolved, rolling on is
        # the only move left (there is no stop), so both come in one click.
        return _joined(game, seat, "accept", _after(game, seat, "accept"), ("roll",))
    if not keeps:
        return []
    if view["action"] == "battle":
        # Final Battle: the kept dice are the ones that cost soldiers, so the usual pick is the
        # cheapest (more dice left also means less risk of a Farkle, which loses the battle).
        cheapest = min(keeps, key=lambda k: (score(_dice(k), game.table) or 0, -len(_dice(k))))
        return _joined(game, seat, cheapest, _after(game, seat, cheapest), ("roll",))
    # The most soldiers (two scoring sets are worth more than one) ...
    value = {k: score(_dice(k), game.table) or 0 for k in keeps}
    best = max(keeps, key=lambda k: (value[k], -len(_dice(k))))
    after_best = _after(game, seat, best)
    if after_best is not None and _turn_total_after(after_best) < view["turn_total"] + value[best]:
        # ... unless the Dragon eats the keep: then every keep gains the same, so set aside the
        # fewest dice and roll the most.
        best = min(keeps, key=lambda k: (len(_dice(k)), -value[k]))
        after_best = _after(game, seat, best)
    choices = _joined(game, seat, best, after_best, ("roll", "stop"))
    singles = [k for k in keeps if len(_dice(k)) == 1 and k != best]
    if singles and len(_dice(best)) > 1:
        # Set aside only the best single die and roll the rest: fewer points now, more dice.
        single = max(singles, key=lambda k: value[k])
        choices += _joined(game, seat, single, _after(game, seat, single), ("roll",))
    return choices[:MAX_CHOICES]


def rally_choices(
    game: FarkleGame, seat: str, view: FarkleView | None = None, legal: list[str] | None = None
) -> list[Choice]:
    """After keeping on a Rally face: "double, then roll on / bank" in one click. Drawing a
    Magic Item stays its own step (the menu's button): the player may want to see it first."""
    view = game.typed_view(None) if view is None else view
    if view["phase"] != "rally" or seat not in view["to_act"]:
        return []
    if "rally:double" not in (game.legal_actions(seat) if legal is None else legal):
        return []
    return _joined(game, seat, "rally:double", _after(game, seat, "rally:double"), ("roll", "stop"))
