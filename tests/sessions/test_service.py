from __future__ import annotations

import asyncio

import pytest

from engine import IllegalAction
from sessions import Actor, NotAllowed, SessionError, StaleAction
from sessions.service import TURN_TIMER
from tests.sessions.conftest import ADMIN, ALICE, BOB, CAROL


async def started(service, options: str = "", players=(ALICE, BOB)):
    rec = await service.create("tally", guild_id=1, channel_id=10, host=players[0], options_text=options)
    for p in players[1:]:
        await service.join(rec.id, p)
    out = await service.start(rec.id, players[0])
    return out.record


async def test_lobby_permissions_and_flow(service):
    rec = await service.create("tally", 1, 10, ALICE)
    with pytest.raises(SessionError, match="already has a game"):
        await service.create("tally", 1, 10, BOB)
    await service.join(rec.id, BOB)
    with pytest.raises(SessionError, match="already in"):
        await service.join(rec.id, BOB)
    with pytest.raises(NotAllowed, match="host"):
        await service.start(rec.id, BOB)
    with pytest.raises(NotAllowed, match="host"):
        await service.add_ai(rec.id, BOB, "easy")
    with pytest.raises(NotAllowed, match="host or someone with Manage Server"):
        await service.cancel(rec.id, CAROL)
    out = await service.start(rec.id, ALICE)
    assert out.record.status == "active"
    assert [s.seat for s in out.record.seats] == ["p1", "p2"]
    with pytest.raises(SessionError, match="closed"):
        await service.join(rec.id, CAROL)


async def test_bad_options_are_refused_with_the_allowed_range(service):
    with pytest.raises(SessionError, match=r"must be from 2 to 50 \(got 99\)"):
        await service.create("tally", 1, 10, ALICE, "target=99")
    with pytest.raises(SessionError, match="no option `colour`"):
        await service.create("tally", 1, 10, ALICE, "colour=red")
    with pytest.raises(SessionError, match="Unknown game"):
        await service.create("chess", 1, 10, ALICE)
    rec = await service.create("tally", 1, 10, ALICE, "target=3 secret")
    assert rec.options == {"target": 3, "secret": True}


async def test_only_seated_players_act_and_only_on_their_turn(service):
    rec = await started(service)
    with pytest.raises(NotAllowed, match="not playing"):
        await service.apply(rec.id, CAROL, "+1")
    with pytest.raises(IllegalAction, match="not your turn"):
        await service.apply(rec.id, BOB, "+1")
    with pytest.raises(IllegalAction, match="not a legal action"):
        await service.apply(rec.id, ALICE, "+7")
    after, _ = await service.load(rec.id)
    assert after.version == rec.version  # nothing changed
    out = await service.apply(rec.id, ALICE, "+2")
    assert out.game.scores == {"p1": 2, "p2": 0}


async def test_eight_concurrent_actions_are_serialised(service):
    rec = await started(service, "target=50", players=(ALICE, BOB))
    # Eight clicks at once: alternating players; each must see the state left by the previous.
    actors = [ALICE, BOB] * 4

    async def click(actor):
        for _ in range(50):
            try:
                return await service.apply(rec.id, actor, "+1")
            except IllegalAction:
                await asyncio.sleep(0)  # not my turn yet: wait for the other task
        raise AssertionError("never got a turn")

    await asyncio.gather(*(click(a) for a in actors))
    final, game = await service.load(rec.id)
    assert game.scores == {"p1": 4, "p2": 4}
    assert final.version == rec.version + 8
    assert [a.seq for a in await service.db.log.of_game(rec.id)] == list(range(1, 9))


async def test_a_double_click_is_applied_once_and_answered_once(service):
    rec = await started(service, "target=50")
    version = rec.version
    first, second = await asyncio.gather(
        service.apply(rec.id, ALICE, "+1", expected_version=version),
        service.apply(rec.id, ALICE, "+1", expected_version=version),
    )
    assert first.changed and not second.changed and second.notice == "Already done."
    _, game = await service.load(rec.id)
    assert game.scores["p1"] == 1
    # A different click on the same stale board is refused, not applied.
    with pytest.raises(StaleAction):
        await service.apply(rec.id, BOB, "+2", expected_version=version)


async def test_ai_seats_act_through_the_logged_path(service):
    rec = await service.create("tally", 1, 10, ALICE, "target=4")
    await service.add_ai(rec.id, ALICE, "hard")
    out = await service.start(rec.id, ALICE)
    assert out.game.to_act() == ["p1"]
    out = await service.apply(rec.id, ALICE, "+1")
    # The AI answered at once, and its move is in the log like a human's.
    assert out.game.scores["p2"] == 2 and out.game.to_act() == ["p1"]
    log = await service.db.log.of_game(rec.id)
    assert [(a.seat, a.source, a.action) for a in log] == [("p1", "player", "+1"), ("p2", "ai", "+2")]
    # Replaying the log from the seed gives the same game.
    assert (await service.replay(rec.id)).to_dict() == out.game.to_dict()


async def test_finishing_records_results(service):
    rec = await started(service, "target=2")
    out = await service.apply(rec.id, ALICE, "+2")
    assert out.record.status == "finished"
    assert out.record.result["ranking"] == [["p1"], ["p2"]]
    assert await service.db.ratings.member_stats(1, ALICE.user_id) == {"tally": {"win": 1}}
    assert await service.db.ratings.member_stats(1, BOB.user_id) == {"tally": {"loss": 1}}
    assert await service.db.timers.pending() == []


async def test_resign_in_two_player_game_gives_the_win(service):
    rec = await started(service)
    with pytest.raises(NotAllowed):
        await service.resign(rec.id, CAROL)
    out = await service.resign(rec.id, BOB)
    assert out.record.status == "finished"
    assert await service.db.ratings.member_stats(1, BOB.user_id) == {"tally": {"resigned": 1}}
    assert await service.db.ratings.member_stats(1, ALICE.user_id) == {"tally": {"win": 1}}


async def test_resign_with_more_players_hands_the_seat_to_an_ai(service):
    rec = await started(service, "target=30", players=(ALICE, BOB, CAROL))
    out = await service.resign(rec.id, BOB)
    assert out.record.status == "active"
    assert out.record.seat("p2").ai_level == "easy"


async def test_cancel_by_admin(service):
    rec = await started(service)
    out = await service.cancel(rec.id, ADMIN)
    assert out.record.status == "cancelled"
    assert await service.db.timers.pending() == []


async def test_turn_timer_acts_for_the_player_then_hands_the_seat_to_ai(service, clock):
    await service.change_setting(1, "afk_strikes", 2)
    rec = await started(service, "target=40")
    deadline = await service.db.timers.deadline(rec.id, TURN_TIMER)
    assert deadline == clock.now + 300  # games without their own setting get 300 s
    # Not yet due: nothing happens.
    assert await service.on_timer(rec.id, TURN_TIMER) is None
    clock.now = deadline
    out = await service.on_timer(rec.id, TURN_TIMER)
    assert any("ran out of time" in e.text for e in out.events)
    assert out.game.to_act() == ["p2"]  # the easy AI moved for alice
    assert out.record.seat("p1").timeouts_in_a_row == 1
    log = await service.db.log.of_game(rec.id)
    assert log[-1].source == "timeout" and log[-1].seat == "p1"
    # bob plays; alice times out again: second strike, the AI takes her seat for good.
    await service.apply(rec.id, BOB, "+1")
    clock.now = await service.db.timers.deadline(rec.id, TURN_TIMER)
    out = await service.on_timer(rec.id, TURN_TIMER)
    assert any("AI plays their seat" in e.text for e in out.events)
    assert out.record.seat("p1").ai_level == "easy"
    # From now on the AI plays p1 right after bob.
    out = await service.apply(rec.id, BOB, "+1")
    assert out.game.to_act() == ["p2"]


async def test_acting_resets_the_timeout_count(service, clock):
    rec = await started(service, "target=40")
    clock.now = await service.db.timers.deadline(rec.id, TURN_TIMER)
    await service.on_timer(rec.id, TURN_TIMER)
    await service.apply(rec.id, BOB, "+1")
    out = await service.apply(rec.id, ALICE, "+1")
    assert out.record.seat("p1").timeouts_in_a_row == 0


async def test_abandon_policy_ends_the_game(service, clock):
    await service.change_setting(1, "afk_strikes", 1)
    await service.change_setting(1, "afk_action", "abandon")
    rec = await started(service)
    clock.now = await service.db.timers.deadline(rec.id, TURN_TIMER)
    out = await service.on_timer(rec.id, TURN_TIMER)
    assert out.record.status == "abandoned"
    assert "abandoned" in out.events[0].text


async def test_simultaneous_phase_keeps_its_deadline_as_players_submit(service, clock):
    rec = await started(service, "secret=on target=40")
    await service.apply(rec.id, ALICE, "+1")
    out = await service.apply(rec.id, BOB, "+1")
    assert sorted(out.game.to_act()) == ["p1", "p2"]  # secret pick phase
    deadline = await service.db.timers.deadline(rec.id, TURN_TIMER)
    clock.now += 100
    await service.apply(rec.id, ALICE, "pick:3")
    # The deadline did not move, so the timer says nothing about who picked what.
    assert await service.db.timers.deadline(rec.id, TURN_TIMER) == deadline


async def test_the_last_secret_chooser_gets_no_fresh_deadline(service, clock):
    from tests.doubles.tally import Tally

    # A secret choice by the only player still choosing (Flagon: the last planner placing one
    # card of several) keeps the phase's deadline; Tally's pick is one step, so the rule is
    # exercised directly on the timer.
    rec = await started(service, "secret=on target=40")
    await service.apply(rec.id, ALICE, "+1")
    await service.apply(rec.id, BOB, "+1")
    await service.apply(rec.id, ALICE, "pick:3")
    deadline = await service.db.timers.deadline(rec.id, TURN_TIMER)
    _, game = await service.load(rec.id)
    assert isinstance(game, Tally) and game.to_act() == ["p2"]
    clock.now += 50
    await service._arm_turn_timer(rec, game, ["p2"], secret=True)
    assert await service.db.timers.deadline(rec.id, TURN_TIMER) == deadline
    # A public action by a lone player (a normal turn) does restart the clock.
    await service._arm_turn_timer(rec, game, ["p2"], secret=False)
    assert await service.db.timers.deadline(rec.id, TURN_TIMER) == clock.now + 300


async def test_concurrent_actions_on_different_games_share_one_database_safely(service):
    """Different games have different locks but one SQLite connection: their transactions
    must not interleave."""
    games = []
    for channel in range(20):
        host, guest = Actor(100 + channel, "h"), Actor(200 + channel, "g")
        rec = await service.create("tally", 1, 1000 + channel, host, "target=50")
        await service.join(rec.id, guest)
        await service.start(rec.id, host)
        games.append((rec.id, host, guest))
    await asyncio.gather(*(service.apply(gid, host, "+2") for gid, host, _ in games))
    await asyncio.gather(*(service.apply(gid, guest, "+1") for gid, _, guest in games))
    for gid, _, _ in games:
        _, game = await service.load(gid)
        assert game.scores == {"p1": 2, "p2": 1}
        assert len(await service.db.log.of_game(gid)) == 2


async def test_a_state_the_engine_cannot_load_is_set_aside_without_logging_its_contents(service, caplog,
                                                                                        monkeypatch):
    """The engine's exception may quote the state (a card id in a KeyError); the ERROR line
    about the damaged game names only the exception's type."""
    from engine import registry as engine_registry
    from storage import GameDamaged

    rec = await service.create("tally", guild_id=1, channel_id=10, host=ALICE)
    await service.join(rec.id, BOB)
    await service.start(rec.id, ALICE)

    def unreadable(kind, state):
        raise KeyError("lucky_charm_held_by_bob")

    monkeypatch.setattr(engine_registry, "restore", unreadable)
    caplog.set_level("INFO")
    with pytest.raises(GameDamaged):
        await service.load(rec.id)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= 20]
    assert any(f"game {rec.id} is damaged" in line and "KeyError" in line for line in errors), errors
    assert not any("lucky_charm" in line for line in errors)
