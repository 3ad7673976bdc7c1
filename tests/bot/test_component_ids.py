"""Every custom_id shape the bot ever posted still routes (boards and DMs stay up for weeks),
each kind of component reads its id through its one spec (cogs.routing.Spec), and a malformed
id gets a clear private message and changes nothing (issue 24, typed component specs).

The corpus below was collected from the builders' history (``git log -p`` over cogs/ for every
``routing.make``) and today's builders: add a line when a new kind or shape is posted."""

from __future__ import annotations

import pytest

import cogs.ui
from cogs import routing
from cogs.plugins import load_plugins
from cogs.router import VERBS
from tests.bot.helpers import last_board, private_replies
from tests.bot.test_guard import _forge, _running_game, _snapshot, two_servers  # noqa: F401 (fixture)

TOKEN = "3f9a2c"  # a prompt token as cogs.prompts writes it
# custom_id -> the fields its spec reads (games that own an "x" control: see CONTROLS)
POSTED: dict[str, tuple[object, ...]] = {
    # the lobby
    "dt:7:join": (),
    "dt:7:leave": (),
    "dt:7:start": (),
    "dt:7:cancel": (),
    "dt:7:ai": (),
    # public moves: direct buttons (the action may hold ':'), the picker and its pages
    "dt:7:a:12:3@b2": (12, "3@b2"),
    "dt:7:a:12:keep:1,5": (12, "keep:1,5"),
    "dt:7:a:12:use:loaded_die:6": (12, "use:loaded_die:6"),
    "dt:7:pick:12:0": (12, 0),
    "dt:7:psnav:12:1": (12, 1),
    "dt:7:ps:12": (12,),
    # the move menu: first level, private select (root "-"), its pages
    "dt:7:t:12:3": (12, 3),
    "dt:7:ts:12:-": (12, None),
    "dt:7:ts:12:0.3": (12, "0.3"),
    "dt:7:tn:12:-/1": (12, 1, None),
    "dt:7:tn:12:0/2": (12, 2, "0"),
    # private prompts, with the prompt token and from before it had one
    "dt:7:hand": (),
    f"dt:7:p:{TOKEN}": (TOKEN,),
    "dt:7:p": (None,),
    f"dt:7:pnav:{TOKEN}:1": (1, TOKEN),
    "dt:7:pnav:1": (1, None),
    # Farkle's own controls: dice toggles, the disabled Keep, two-step choices, Magic Items
    "dt:7:x:tog:12:0": (12, 0),
    "dt:7:x:tog:12:37": (12, 37),
    "dt:7:x:tog:12:-": (12, None),
    "dt:7:x:keep:12:5": (12, 5),
    "dt:7:x:then:12:keep:1,5|roll": (12, "keep:1,5", "roll"),
    "dt:7:x:then:12:rally:double|stop": (12, "rally:double", "stop"),
    "dt:7:x:use:12:use:shield": (12, "use:shield"),
    # Flagon's: a card for a slot, a private question, card texts, teams, the action log
    "dt:7:x:plan:nari.0": ("nari", 0),
    "dt:7:x:plan:q": (None, None),
    "dt:7:x:texts": (),
    "dt:7:x:team:A": ("A",),
    "dt:7:x:log": (),
    # the final board, and replays
    "dt:7:rematch": (),
    "dt:7:rpo": (),
    "dt:7:rpg": (),
    "dt:7:rpt": (),
    "dt:7:rp:3:next": (3, "next"),
    "dt:7:rps:3": (3,),
}
CONTROLS = {
    "tog": "farkle",
    "keep": "farkle",
    "then": "farkle",
    "use": "farkle",
    "plan": "flagon",
    "texts": "flagon",
    "team": "flagon",
    "log": "flagon",
}


@pytest.fixture(autouse=True, scope="module")
def plugins():
    load_plugins()


@pytest.mark.parametrize("custom_id", sorted(POSTED))
def test_every_posted_id_routes_to_a_handler_and_reads_its_fields(custom_id):
    route = routing.parse(custom_id)
    assert route is not None and route.game_id == 7
    assert route.verb in VERBS
    if route.verb == routing.CONTROL:
        assert route.arg(0) in cogs.ui.ui_for(CONTROLS[route.arg(0)]).handlers
    spec = routing.spec_of(route)
    assert spec is not None, custom_id
    assert tuple(spec.read(route)) == POSTED[custom_id]


def test_every_kind_of_component_is_in_the_corpus_and_routed():
    kinds = {
        (r.verb, r.arg(0) if r.verb == routing.CONTROL else None)
        for r in map(routing.parse, POSTED)
        if r is not None
    }
    specs = {(s.verb, s.control) for s in routing.all_specs()}
    assert specs == kinds  # a new kind of component: add the ids it posts above
    assert set(VERBS) == {verb for verb, _ in specs}


@pytest.mark.parametrize("custom_id", sorted(POSTED))
def test_what_a_spec_reads_it_writes_back_the_same(custom_id):
    route = routing.parse(custom_id)
    assert route is not None
    spec = routing.spec_of(route)
    assert spec is not None
    values = spec.read(route)
    assert spec.make(7, values) == custom_id


def test_a_spec_refuses_to_make_an_id_it_could_not_read():
    with pytest.raises(ValueError):
        routing.PLAY.make(7, routing.Move(-1, "+1"))
    with pytest.raises(ValueError):
        routing.PLAY.make(7, routing.Move(1, ""))
    with pytest.raises(ValueError):
        routing.PLAY.make(7, routing.Move(1, "x" * 100))
    with pytest.raises(ValueError):
        routing.MENU_PAGE.make(7, routing.MenuPage(1, 2, "0/1"))  # a separator inside a field


# Malformed ids of each kind with fields (forged, or cut by a client): never a traceback.
MALFORMED = [
    "dt:{id}:a:x:+1",
    "dt:{id}:a:5",
    "dt:{id}:pick:5:-1",
    "dt:{id}:psnav:5:x",
    "dt:{id}:ps:x",
    "dt:{id}:t:5:0.1",
    "dt:{id}:t:5",
    "dt:{id}:ts:x:0",
    "dt:{id}:tn:5:0",
    "dt:{id}:tn:5:-/x",
    "dt:{id}:pnav:a:b",
    "dt:{id}:rp:x:next",
    "dt:{id}:rps:",
    "dt:{id}:rps:-3",
]


@pytest.mark.parametrize("template", MALFORMED)
async def test_a_malformed_id_gets_a_clear_private_message_and_changes_nothing(two_servers, template):  # noqa: F811
    env, channel, _, m = two_servers
    board = await _running_game(channel, m["alice"], m["bob"])
    rec = await env.bot.service.db.games.active_in_channel(channel.id)
    before = await _snapshot(env.bot)
    values = ["0"] if ":ts:" in template or ":ps:" in template else None
    result = await _forge(m["alice"], board, template.format(id=rec.id), values)
    [reply] = private_replies(result)
    assert reply.startswith("⚠️") and ("out of date" in reply or "broken" in reply), reply
    assert await _snapshot(env.bot) == before
    assert last_board(channel) is not None


GAME_CONTROLS = {
    "farkle": [
        "dt:{id}:x:tog:x:1",
        "dt:{id}:x:tog:{version}:x",
        "dt:{id}:x:then:{version}:keep:1",
        "dt:{id}:x:then:x:keep:1|roll",
        "dt:{id}:x:use:{version}",
        "dt:{id}:x:use:-1:use:shield",
    ],
    "flagon": ["dt:{id}:x:plan:nari.x", "dt:{id}:x:plan:", "dt:{id}:x:team"],
}


@pytest.mark.parametrize(("game", "template"), [(g, t) for g, ts in GAME_CONTROLS.items() for t in ts])
async def test_a_malformed_game_control_gets_a_clear_private_message(two_servers, game, template):  # noqa: F811
    env, channel, _, m = two_servers
    await m["alice"].slash(channel, "game new", game=game)
    await m["bob"].click(last_board(channel), label="Join")
    await m["alice"].click(last_board(channel), label="Start")
    board = last_board(channel)
    rec = await env.bot.service.db.games.active_in_channel(channel.id)
    before = await _snapshot(env.bot)
    values = ["plan:x"] if ":plan:" in template else None
    result = await _forge(m["alice"], board, template.format(id=rec.id, version=rec.version), values)
    replies = private_replies(result)
    assert replies and replies[0].startswith("⚠️"), replies
    assert "Something went wrong" not in " ".join(replies)
    assert await _snapshot(env.bot) == before
