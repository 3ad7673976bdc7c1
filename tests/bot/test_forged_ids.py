"""Forged component ids (client data) with numbers at and past SQLite's integer range,
negative, with leading zeros or non-ASCII digits (issue 23, finding 2). cogs.routing.number is
the one check every parser of ``dt:``, ``dtr:`` and ``dtl:`` ids uses: a forged number is
refused privately like any broken control, never reaches a query, and logs no error."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cogs import menu, routing
from cogs.ratings import BROKEN as RATINGS_BROKEN
from cogs.ratings import _numbers
from cogs.rules import Rules
from tests.bot.helpers import last_board, private_replies, refusals
from tests.bot.test_guard import _forge, _running_game, _snapshot, two_servers  # noqa: F401 (fixture)

HUGE = "99999999999999999999"  # 20 digits: the id of the attack
LIMIT = 2**63 - 1
ROUTER_BROKEN = "⚠️ That control is broken or from an old version."
STALE = "That board is out of date"

# Numbers the bot never writes: at and past 2^63, negative, signed, padded, spaced, non-ASCII.
past_range = st.integers(min_value=LIMIT + 1, max_value=10**300).map(str)
negative = st.integers(max_value=-1).map(str)
padded = st.integers(min_value=0, max_value=LIMIT).flatmap(
    lambda n: st.integers(min_value=1, max_value=30).map(lambda zeros: "0" * zeros + str(n))
)
odd = st.sampled_from(["", "+1", " 1", "1 ", "1_000", "٣", "²", "１", "0x10", "1e3", "-0", "1.0", "∞"])
forged_numbers = st.one_of(past_range, negative, padded, odd)


def test_number_reads_what_the_bot_writes_up_to_sqlites_limit():
    assert routing.number("0") == 0 and routing.number("7") == 7
    assert routing.number(str(LIMIT)) == LIMIT
    assert routing.number(str(LIMIT + 1)) is None and routing.number(HUGE) is None
    assert routing.number("12", limit=11) is None and routing.number("11", limit=11) == 11


@given(forged_numbers)
def test_every_component_parser_refuses_a_forged_number(field):
    assert routing.number(field) is None
    assert routing.parse(f"dt:{field}:join") is None
    assert routing.parse(f"dt:{field}:a:3:+1") is None
    route = routing.parse(f"dt:12:a:{field}:+1")
    assert route is not None and routing.PLAY.parse(route) is None  # refused as stale, never a huge version
    assert _numbers([field, "1"]) is None and _numbers(["1", field]) is None
    assert Rules._page_of(f"dtr:ninesons:next:{field}", []) is None
    assert Rules._page_of("dtr:ninesons:section:0", [field]) is None
    root = menu.Node("root", children=[menu.Node("a", action="x"), menu.Node("b", action="y")])
    assert menu.find(root, f"0.{field}") is None and (field == "" or menu.find(root, field) is None)


@given(st.integers(min_value=1, max_value=LIMIT))
def test_every_id_the_bot_writes_is_read_back(game_id):
    assert routing.parse(routing.make(game_id, "a", 5, "+1")) == routing.Route(game_id, "a", ("5", "+1"))
    assert _numbers([str(game_id), "0"]) == [game_id, 0]


@pytest.mark.parametrize(
    "template",
    [
        "dtl:hi:{huge}:*:0:{me}",
        "dtl:hi:{me}:*:{huge}:{me}",
        "dtl:hi:{me}:*:0:{huge}",
        "dtl:hi:{me}:ninesons:0:-1",
        "dtl:hi:0{me}:*:0:{me}",
        "dtl:lb:ninesons:{huge}:{me}",
        "dtl:lb:ninesons:00:{me}",
        "dtl:hint:{huge}:{me}",
        "dtl:hint:1:{huge}",
        "dtl:hi:-1:*:0:{me}",
    ],
)
async def test_a_forged_ratings_button_number_is_a_broken_button(two_servers, caplog, template):  # noqa: F811
    env, channel, _, m = two_servers
    board = await _running_game(channel, m["alice"], m["bob"])
    caplog.set_level("ERROR")
    result = await _forge(m["bob"], board, template.format(huge=HUGE, me=m["bob"].id))
    assert private_replies(result) == [RATINGS_BROKEN]
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


async def test_forged_game_ids_and_versions_on_the_board_change_nothing(two_servers, caplog):  # noqa: F811
    env, channel, _, m = two_servers
    board = await _running_game(channel, m["alice"], m["bob"])
    rec = await env.bot.service.db.games.active_in_channel(channel.id)
    before = await _snapshot(env.bot)
    caplog.set_level("ERROR")
    for custom_id in (
        f"dt:{HUGE}:join",
        f"dt:{LIMIT + 1}:a:1:+1",
        f"dt:-{rec.id}:join",
        f"dt:0{rec.id}:join",
    ):
        result = await _forge(m["alice"], board, custom_id)
        assert private_replies(result) == [ROUTER_BROKEN], custom_id
    for version in (HUGE, str(LIMIT), "-1", f"0{rec.version}"):
        result = await _forge(m["alice"], board, f"dt:{rec.id}:a:{version}:+1")
        assert [r for r in refusals(result) if STALE in r], (version, refusals(result))
        result = await _forge(m["alice"], board, f"dt:{rec.id}:pick:{rec.version}:{version}")
        assert "Something went wrong" not in " ".join(private_replies(result))
    assert await _snapshot(env.bot) == before
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    assert last_board(channel) is not None


async def test_a_forged_rules_page_is_refused(two_servers):  # noqa: F811
    env, channel, _, m = two_servers
    await _running_game(channel, m["alice"], m["bob"])
    await m["alice"].slash(channel, "game rules", game="ninesons")
    for custom_id in (f"dtr:ninesons:next:{HUGE}", "dtr:ninesons:next:-1", "dtr:ninesons:next:01"):
        result = await _forge(m["alice"], last_board(channel), custom_id)
        assert private_replies(result)[-1].startswith("⚠️ That rules control is broken"), custom_id


@pytest.mark.parametrize("number", [2**53 - 1, -(2**53 - 1), -1, 0])
async def test_a_game_number_out_of_range_in_a_slash_command_is_a_clear_refusal(two_servers, caplog, number):  # noqa: F811
    """Discord bounds integer options to ±(2^53 - 1) (simcord refuses more, as Discord does), so
    a slash command cannot carry 2^63; the extremes it can carry are refused clearly."""
    env, channel, _, m = two_servers
    await _running_game(channel, m["alice"], m["bob"])
    caplog.set_level("ERROR")
    for command, options in (("game replay", {"game": number}), ("play", {"action": "+1", "game": number})):
        result = await m["alice"].slash(channel, command, **options)
        [answer] = private_replies(result)
        assert "There is no game" in answer, (command, answer)
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
