"""/game replay through simcord, as members use it: a finished game stepped ply by ply (▶ ⏭ ◀ ⏮,
pressed by anyone, the same message edited), the buttons after a restart, the GIF and the
export as attachments, the final board's 🎞 Replay, and refusals for games not over."""

from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image

from bot import create_bot
from cogs.share import SHOW_LABEL
from tests.bot.helpers import button_labels, last_board, last_ping, private_replies, texts_of


def frames_of(image) -> int:
    """How many frames a GIF has (Pillow's typing does not know n_frames)."""
    return int(getattr(image, "n_frames", 1))


REPLAY = "🎞 Replay"
STEPS = ["⏮", "◀", "▶", "⏭", "🎞 GIF", "📜 Export"]


@pytest.fixture
def world(simcord_env, simcord_bot):
    simcord_bot.service._seed_source = lambda: 22  # the same game every run
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    members = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "carol")}
    return simcord_env, guild, channel, members


async def start_against_ai(env, channel, host, kind: str, options: str = ""):
    await host.slash(channel, "game new", game=kind, options=options)
    await host.select(last_board(channel), ["easy"])
    await host.click(last_board(channel), label="Start")
    return await env.bot.service.channel_game(channel.id)


async def play_to_the_end(env, channel, alice, seed: int = 3) -> int:
    rec = await start_against_ai(env, channel, alice, "ninesons", "first_player=first")
    rng = random.Random(seed)
    for _ in range(400):
        _, game = await env.bot.service.load(rec.id)
        if game is None or game.is_over:
            break
        await alice.slash(channel, "play", action=rng.choice(game.legal_actions(game.to_act()[0])))
    assert (await env.bot.db.games.load(rec.id)).status == "finished"
    return rec.id


def current(env, shown):
    """A replay message as it is now (public or ephemeral), after the edits."""
    from simcord.results import ResponseMessage

    return ResponseMessage(env, env.backend.get_message(shown.channel_id, shown.id))


def ply_of(message) -> tuple[int, int]:
    found = re.search(r"Ply (\d+) / (\d+)", texts_of(message))
    assert found, texts_of(message)
    return int(found.group(1)), int(found.group(2))


# The GIF is drawn in a process of its own, started at the first press: seconds on a busy machine.
@pytest.mark.simcord(settle_timeout=60.0)
async def test_a_finished_game_is_replayed_ply_by_ply_by_anyone_after_a_restart_too(world, db_path):
    env, guild, channel, m = world
    alice, carol = m["alice"], m["carol"]
    gid = await play_to_the_end(env, channel, alice)
    final = last_board(channel)
    assert button_labels(final)[-2:] == ["🔁 Rematch", REPLAY]
    assert f"`/game replay {gid}`" in last_ping(channel).content  # the end notice names it

    # carol played no part: the replay answers her alone; 📣 Show to the channel posts it, and
    # anyone steps through the posted one.
    result = await carol.slash(channel, "game replay", game=gid)
    private = result.followups[-1] if result.followups else result.response
    assert private.flags.ephemeral and button_labels(private) == [*STEPS, SHOW_LABEL]
    await carol.click(current(env, private), label="▶")  # stepping keeps the button on her copy
    assert button_labels(current(env, private)) == [*STEPS, SHOW_LABEL]
    shown_result = await carol.click(current(env, private), label=SHOW_LABEL)
    shown = shown_result.followups[-1] if shown_result.followups else shown_result.response
    assert shown is not None and not shown.flags.ephemeral
    assert ply_of(shown)[0] == 1  # the ply she was on
    await carol.click(current(env, shown), label="⏮")
    shown = current(env, shown)
    assert button_labels(shown) == STEPS
    assert [a.filename for a in shown.attachments] == ["replay.png"]
    start, plies = ply_of(shown)
    replay_text = texts_of(shown)
    assert start == 0 and plies > 10 and f"replay of game #{gid}" in replay_text and "{p1}" not in replay_text

    await carol.click(current(env, shown), label="▶")
    one = current(env, shown)
    assert ply_of(one) == (1, plies) and "alice" in texts_of(one).split("Ply 1", 1)[1]
    assert one.id == shown.id  # the same message, edited
    await alice.click(one, label="⏭")
    end = current(env, shown)
    assert ply_of(end) == (plies, plies) and "🥇" in texts_of(end)  # the result on the last ply
    assert [b.get("disabled", False) for b in end.components[0]["components"]] == [False, False, True, True]
    await carol.click(end, label="◀")
    assert ply_of(current(env, shown)) == (plies - 1, plies)
    await carol.click(current(env, shown), label="⏮")
    assert ply_of(current(env, shown)) == (0, plies)

    # A new bot on the same database: the buttons carry the ply, nothing was in memory.
    await env.restart_bot(create_bot(database_path=db_path))
    await carol.click(current(env, shown), label="▶")
    await carol.click(current(env, shown), label="▶")
    assert ply_of(current(env, shown)) == (2, plies)

    # The GIF and the export come to the presser, as files.
    gif_result = await carol.click(current(env, shown), label="🎞 GIF")
    sent = gif_result.followups[-1] if gif_result.followups else gif_result.response
    assert sent.flags.ephemeral and [a.filename for a in sent.attachments] == [f"game-{gid}.gif"]
    gif = Image.open(io.BytesIO(await sent.attachments[0].read()))
    assert frames_of(gif) == plies + 1
    export_result = await carol.click(current(env, shown), label="📜 Export")
    sent = export_result.followups[-1] if export_result.followups else export_result.response
    assert [a.filename for a in sent.attachments] == [f"game-{gid}.txt"]
    export = (await sent.attachments[0].read()).decode()
    assert f"game #{gid}" in export and "Players: p1 alice, p2 Easy AI 1" in export
    assert len(re.findall(r"^\d+\. (alice|Easy AI 1): ", export, re.M)) == plies

    # The final board's button opens the replay privately for the presser.
    final = next(msg for msg in channel.history() if msg.id == final.id)  # (the replay is the last now)
    opened = await carol.click(final, label=REPLAY)
    mine = opened.followups[-1] if opened.followups else opened.response
    assert mine.flags.ephemeral and ply_of(mine) == (0, plies) and SHOW_LABEL in button_labels(mine)
    await carol.click(current(env, mine), label="⏭")
    assert ply_of(current(env, mine)) == (plies, plies)
    assert ply_of(current(env, shown)) == (2, plies)  # the public one did not move


async def test_a_game_not_over_is_refused_privately_and_unknown_ids_say_nothing(world):
    env, guild, channel, m = world
    alice, carol = m["alice"], m["carol"]
    rec = await start_against_ai(env, channel, alice, "farkle")
    _, game = await env.bot.service.load(rec.id)
    secrets = [item["name"] for seat in game.players for item in game.view(seat)["my_items"]]
    secrets += [line for seat in game.players for line in game.private_summary(seat)]
    assert secrets
    for who in (alice, carol):
        result = await who.slash(channel, "game replay", game=rec.id)
        refusal = private_replies(result)
        assert len(refusal) == 1 and "still being played" in refusal[0] and "/game status" in refusal[0]
        assert not any(secret in refusal[0] for secret in secrets)
    assert button_labels(last_board(channel))[-1] != REPLAY

    other = env.create_guild()
    elsewhere = other.create_text_channel("games")
    stranger = other.add_member(env.create_user("dave"))
    await alice.slash(channel, "game cancel")  # started, then cancelled: over, so replayable
    opened = await carol.slash(channel, "game replay", game=rec.id)
    assert ply_of(opened.followups[-1] if opened.followups else opened.response)[0] == 0
    missing = private_replies(await stranger.slash(elsewhere, "game replay", game=rec.id))
    unknown = private_replies(await carol.slash(channel, "game replay", game=rec.id + 50))
    assert missing == [f"⚠️ There is no game #{rec.id} in this server. `/game list` shows the games here."]
    assert unknown == [
        f"⚠️ There is no game #{rec.id + 50} in this server. `/game list` shows the games here."
    ]
