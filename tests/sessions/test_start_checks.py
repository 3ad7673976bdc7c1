"""Issue 12, item 2: every combination of options x seats a lobby allows either starts or is
refused with a sentence saying why, before anything is saved; never "💥 Something went wrong".

Before the fix, `new_game` raised a bare ValueError for rule preconditions (Flagon `team=on` with
2 seats) and the session layer let it escape."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogs.plugins import load_plugins
from engine import InvalidSetup, OptionSpec, registry
from sessions import Actor, SessionError
from tests.sessions.conftest import ALICE

load_plugins(ui=False)
GAMES = [info.name for info in registry.all_games()]  # with the test double `tally`
REAL_GAMES = [name for name in GAMES if name != "tally"]
_channels = itertools.count(1000)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _values(spec: OptionSpec) -> st.SearchStrategy[Any]:
    """Valid values and the edges (including one step outside a range, which the lobby refuses)."""
    if isinstance(spec.default, bool):
        return st.booleans()
    if spec.choices is not None:
        return st.sampled_from(spec.choices)
    if isinstance(spec.default, int):
        low = spec.minimum if spec.minimum is not None else -(10**6)
        high = spec.maximum if spec.maximum is not None else 10**6
        return st.one_of(st.sampled_from([low, high, low - 1, high + 1, spec.default]), st.integers(low, high))
    return st.text(alphabet="abcdefghijklmnopqrstuvwxyz-_0123456789", min_size=1, max_size=12)


@st.composite
def setups(draw: st.DrawFn) -> tuple[str, dict[str, Any], int]:
    kind = draw(st.sampled_from(GAMES))
    cls = registry.get(kind).game_class
    options = {}
    for spec in cls.OPTIONS:
        if draw(st.booleans()):
            options[spec.name] = draw(_values(spec))
    seats = draw(st.integers(1, cls.MAX_PLAYERS))
    return kind, options, seats


def _readable(message: str, title: str | None = None) -> None:
    assert message.strip() and message.rstrip("`").endswith((".", ")")), message
    assert len(message) < 400 and "Traceback" not in message and "Error" not in message, message
    if title:
        assert message.startswith(title), message


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(setup=setups())
async def test_every_lobby_either_starts_or_is_refused_with_a_sentence_and_nothing_saved(service, setup):
    kind, options, seats = setup
    channel = next(_channels)
    text = " ".join(f"{name}={_text(value)}" for name, value in options.items())
    try:
        rec = await service.create(kind, guild_id=1, channel_id=channel, host=ALICE, options_text=text)
    except SessionError as exc:  # refused in the lobby (a value out of range): fine, and readable
        _readable(str(exc))
        return
    for i in range(1, seats):
        await service.join(rec.id, Actor(100 + i, f"player{i}"))
    before = await service.db.games.load(rec.id)
    try:
        outcome = await service.start(rec.id, ALICE)
    except SessionError as exc:
        _readable(str(exc), registry.get(kind).title)
        after = await service.db.games.load(rec.id)
        assert (after.status, after.version, after.state) == ("lobby", before.version, None)
        assert await service.db.log.of_game(rec.id) == []
        return
    assert outcome.record.status == "active" and outcome.game is not None
    assert len(outcome.game.players) == seats


async def _lobby(service, kind: str, options: str, seats: int, channel: int):
    rec = await service.create(kind, guild_id=1, channel_id=channel, host=ALICE, options_text=options)
    for i in range(1, seats):
        await service.join(rec.id, Actor(100 + i, f"player{i}"))
    return await service.db.games.load(rec.id)


@pytest.mark.parametrize("seats", [2, 3])
async def test_flagon_team_game_with_too_few_seats_is_refused_not_crashed(service, seats):
    """Regression: this raised ValueError and the host saw "💥 Something went wrong"."""
    rec = await _lobby(service, "flagon", "team=on", seats, 20)
    with pytest.raises(SessionError) as err:
        await service.start(rec.id, ALICE)
    assert str(err.value) == (
        f"The Dragon & Flagon can't start like this: The team game needs 4-8 players; {seats} are seated."
    )
    after = await service.db.games.load(rec.id)
    assert (after.status, after.version) == ("lobby", rec.version)
    # More players arrive: the same lobby starts.
    for i in range(seats, 4):
        await service.join(rec.id, Actor(200 + i, f"late{i}"))
    outcome = await service.start(rec.id, ALICE)
    assert outcome.record.status == "active" and outcome.game.s["teams"]


async def test_a_stored_card_set_too_small_for_the_table_is_refused_at_start(service):
    """A card set stored before the current checks (or by hand) cannot crash a Start either."""
    from engine.farkle.cards import default_cards

    cards = default_cards().to_dict()
    cards["companion"] = [dict(cards["companion"][0], copies=2)]
    await service.change_setting(1, "farkle_cards", {"file": "small.toml", "cards": cards})
    rec = await _lobby(service, "farkle", "", 3, 30)
    with pytest.raises(SessionError, match="card set has 2 Companion cards, fewer than the 3 players"):
        await service.start(rec.id, ALICE)
    assert (await service.db.games.load(rec.id)).status == "lobby"
    await service.leave(rec.id, Actor(102, "player2"))
    assert (await service.start(rec.id, ALICE)).record.status == "active"


@pytest.mark.parametrize("kind", REAL_GAMES)
def test_every_option_combination_and_seat_count_starts_or_raises_invalid_setup(kind):
    """The engine side, exhaustively over choices, on/off and range edges: new_game either
    starts or raises engine.InvalidSetup (never another exception)."""
    info = registry.get(kind)
    cls = info.game_class
    axes = []
    for spec in cls.OPTIONS:
        if isinstance(spec.default, bool):
            axes.append([(spec.name, v) for v in (False, True)])
        elif spec.choices is not None:
            axes.append([(spec.name, v) for v in spec.choices])
        elif spec.minimum is not None and spec.maximum is not None:
            axes.append([(spec.name, v) for v in {spec.minimum, spec.default, spec.maximum}])
    combos = list(itertools.product(*axes))
    if len(combos) > 400:  # Farkle: every value of each option once, with the others at default
        combos = [(pair,) for axis in axes for pair in axis]
    refused = 0
    for combo in combos:
        for n in range(1, cls.MAX_PLAYERS + 2):
            try:
                info.new_game([f"p{i}" for i in range(1, n + 1)], 5, **dict(combo))
            except InvalidSetup as exc:
                assert str(exc)
                refused += 1
    assert refused >= 2  # at least too few and too many players

