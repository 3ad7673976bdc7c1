"""Replays (sessions.replay): every ply of an ended game rebuilt from seed + options + log equals
what was played; the GIF has a frame per ply (capped); the export lists every action; a game
that is not over is refused without a word of its secrets."""

from __future__ import annotations

import io
import itertools
import random

import pytest
from PIL import Image

from cogs.plugins import load_plugins
from engine import registry
from sessions import SessionError
from sessions.replay import GIF_MAX_FRAMES, export_text, gif_plies, load_replay, replay_gif
from tests.sessions.conftest import ALICE, BOB, CAROL

load_plugins(ui=False)


def frames_of(image) -> int:
    """How many frames a GIF has (Pillow's typing does not know n_frames)."""
    return int(getattr(image, "n_frames", 1))


REAL_GAMES = [info.name for info in registry.all_games() if info.name != "tally"]
GUILD = 1
HUMANS = {a.user_id: a for a in (ALICE, BOB, CAROL)}


async def lobby_with_churn(service, kind: str) -> int:
    """A lobby whose seat ids are out of seat order (bob left, carol kept p3, an AI took p2), so
    a replay that ordered players by seat id instead of position would differ."""
    rec = await service.create(kind, guild_id=GUILD, channel_id=10, host=ALICE)
    info = registry.get(kind)
    if info.game_class.MAX_PLAYERS >= 3:
        await service.join(rec.id, BOB)
        await service.join(rec.id, CAROL)
        await service.leave(rec.id, BOB)
    await service.add_ai(rec.id, ALICE, info.ai_levels[0])
    return rec.id


async def play_out(service, game_id: int, seed: int, *, stop_after: int | None = None):
    """Humans pick random legal moves (AI seats play themselves); returns the saved state after
    every service call with the number of engine actions logged by then."""
    outcome = await service.start(game_id, ALICE)
    rng = random.Random(seed)
    seen = []
    steps = 0
    while outcome.record.status == "active" and (stop_after is None or steps < stop_after):
        game = outcome.game
        seen.append((await _moves_logged(service, game_id), game.to_dict()))
        seat_id = next(p for p in game.to_act() if not outcome.record.seat(p).is_ai)
        actor = HUMANS[outcome.record.seat(seat_id).user_id]
        outcome = await service.apply(game_id, actor, rng.choice(game.legal_actions(seat_id)))
        steps += 1
        assert steps < 5000, "the game did not finish"
    if outcome.game is not None:
        seen.append((await _moves_logged(service, game_id), outcome.game.to_dict()))
    return outcome, seen


async def _moves_logged(service, game_id: int) -> int:
    return sum(1 for a in await service.db.log.of_game(game_id) if a.source != "system")


@pytest.mark.parametrize("kind", REAL_GAMES)
async def test_every_ply_rebuilt_from_the_log_equals_the_game_as_played(service, kind):
    game_id = await lobby_with_churn(service, kind)
    outcome, seen = await play_out(service, game_id, seed=3)
    assert outcome.record.status == "finished"
    replay = await load_replay(service, game_id, GUILD)
    rec = replay.record
    assert [s.seat for s in sorted(rec.seats, key=lambda s: s.position)] != sorted(
        s.seat for s in rec.seats
    ) or registry.get(kind).game_class.MAX_PLAYERS < 3  # the churn worked: positions are not id order

    # Independently: new_game with the seats in position order, then each logged action.
    info = registry.get(kind)
    players = [s.seat for s in sorted(rec.seats, key=lambda s: s.position)]
    reference = info.new_game(players, rec.seed, **rec.options, **replay.setup_arguments)
    expected = [reference.to_dict()]
    for logged in replay.moves:
        reference.play(logged.seat, logged.action)
        expected.append(reference.to_dict())
    walked = [snapshot.game.to_dict() for snapshot in replay.walk()]
    assert len(walked) == replay.plies + 1 == len(expected)
    assert walked == expected
    for ply, state in seen:  # every state the service saved, at the ply it was saved
        assert replay.at(ply).game.to_dict() == state
    assert walked[-1] == rec.state
    assert replay.matches_saved_state()
    assert replay.at(replay.plies).game.is_over


async def test_a_resigned_game_and_a_cancelled_game_replay_to_their_saved_state(service):
    finished = await lobby_with_churn(service, "ninesons")
    await play_out(service, finished, seed=1, stop_after=3)
    await service.resign(finished, ALICE)
    replay = await load_replay(service, finished, GUILD)
    assert replay.record.status == "finished"
    assert any(a.source == "system" for a in replay.log) and replay.plies == len(replay.moves)
    assert replay.matches_saved_state()
    assert "resign (not a move)" in export_text(replay)

    cancelled = (await service.create("farkle", guild_id=GUILD, channel_id=11, host=ALICE)).id
    await service.add_ai(cancelled, ALICE, "easy")
    await play_out(service, cancelled, seed=2, stop_after=4)
    await service.cancel(cancelled, ALICE)
    replay = await load_replay(service, cancelled, GUILD)
    assert replay.record.status == "cancelled" and replay.plies >= 4
    assert replay.matches_saved_state()


async def test_the_gif_has_one_frame_per_ply_and_the_cap_spaces_them_evenly(service):
    game_id = await lobby_with_churn(service, "ninesons")
    await play_out(service, game_id, seed=5)
    replay = await load_replay(service, game_id, GUILD)
    gif, plies = replay_gif(replay)
    assert gif is not None and plies == list(range(replay.plies + 1))
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF" and frames_of(image) == replay.plies + 1

    capped, shown = replay_gif(replay, cap=7)
    assert capped is not None and len(shown) == 7 and shown[0] == 0 and shown[-1] == replay.plies
    assert frames_of(Image.open(io.BytesIO(capped))) == 7

    assert gif_plies(10) == list(range(11))
    long = gif_plies(1000)
    assert len(long) == GIF_MAX_FRAMES and long[0] == 0 and long[-1] == 1000 and long == sorted(set(long))
    gaps = {b - a for a, b in itertools.pairwise(long)}
    assert max(gaps) - min(gaps) <= 1  # evenly spaced


@pytest.mark.parametrize("kind", REAL_GAMES)
async def test_the_export_lists_every_action_with_its_texts(service, kind):
    game_id = await lobby_with_churn(service, kind)
    await play_out(service, game_id, seed=9)
    replay = await load_replay(service, game_id, GUILD)
    body = export_text(replay)
    rec = replay.record
    assert f"game #{rec.id}" in body and f"Seed: {rec.seed}" in body and "Result: 1. " in body
    lines = body.splitlines()
    numbered = [line for line in lines if line[:1].isdigit() and ". " in line]
    assert len(numbered) == replay.plies
    for number, (line, logged) in enumerate(zip(numbered, replay.moves, strict=True), start=1):
        assert line.startswith(f"{number}. ") and f": {logged.action}" in line
        assert "{p" not in line  # names filled
    if registry.get(kind).game_class.HIDDEN_INFORMATION:
        assert "only)" in body  # private texts are in it: the game is over


async def test_an_unfinished_game_is_refused_without_its_secrets(service):
    game_id = await lobby_with_churn(service, "farkle")
    with pytest.raises(SessionError) as lobby:
        await load_replay(service, game_id, GUILD)
    assert "open lobby" in str(lobby.value) and "/game status" in str(lobby.value)
    outcome, _ = await play_out(service, game_id, seed=4, stop_after=2)
    game = outcome.game
    assert outcome.record.status == "active"
    hidden = [line for seat in game.players for line in game.private_summary(seat)]
    names = [c["name"] for seat in game.players for c in game.view(seat)["my_items"]]
    assert names, "someone holds a Magic Item: the refusal could leak it"
    with pytest.raises(SessionError) as running:
        await load_replay(service, game_id, GUILD)
    refusal = str(running.value)
    assert "still being played" in refusal and "/game status" in refusal
    for secret in names + hidden:
        assert secret not in refusal


async def test_unknown_ids_and_other_servers_games_get_the_same_refusal(service):
    game_id = await lobby_with_churn(service, "ninesons")
    await play_out(service, game_id, seed=6)
    assert (await load_replay(service, game_id, GUILD)).plies > 0
    refusals = []
    for asked_id, guild in ((game_id, GUILD + 1), (game_id + 100, GUILD), (2**70, GUILD)):
        with pytest.raises(SessionError) as refused:
            await load_replay(service, asked_id, guild)
        refusals.append(str(refused.value).replace(str(asked_id), "N"))
    assert len(set(refusals)) == 1 and "no game #N in this server" in refusals[0]


async def test_the_engine_hook_tells_what_each_seat_holds():
    farkle = registry.get("farkle").new_game(["p1", "p2"], seed=3)
    items = farkle.view("p1")["my_items"]
    summary = farkle.private_summary("p1")
    assert all(item["name"] in summary[0] for item in items)
    assert registry.get("ninesons").new_game(["p1", "p2"], seed=3).private_summary("p1") == []
    flagon = registry.get("flagon").new_game(["p1", "p2", "p3", "p4"], seed=3)
    assert flagon.private_summary("p1")  # a line even when nothing is planned yet
