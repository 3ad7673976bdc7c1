"""bench.discord_scale --per-move plays several games at once and charges every request to the
server it was made for; this checks that attribution on the fake, without a bot."""

from __future__ import annotations

from typing import Any

from bench.discord_scale.harness import server_of, window_of
from tests.wire.fake_discord import INTERACTION_APPLICATION_COMMAND, FakeDiscord, RecordedRequest
from tests.wire.ratelimits import BOT, INTERACTION


def request(fake: FakeDiscord, method: str, path: str, body: Any = None) -> RecordedRequest:
    record = RecordedRequest(
        index=len(fake.requests),
        method=method,
        path=path,
        query={},
        headers={},
        json=body,
        files=[],
        status=200,
    )
    fake.requests.append(record)
    return record


async def test_requests_are_charged_to_the_server_of_their_channel_dm_or_interaction():
    async with FakeDiscord() as fake:
        tavern, other = fake.create_guild("Tavern"), fake.create_guild("Other")
        games = tavern.create_text_channel("games")
        other.create_text_channel("games")
        alice = tavern.add_member(fake.create_user("alice"))
        dm = fake.dm_channel_for(alice)
        # An interaction as fake.slash registers it (no bot is connected to receive it here).
        click = fake._interaction_base(INTERACTION_APPLICATION_COMMAND, alice, games, {})
        app = fake.application_id
        mine = [
            request(fake, "POST", f"/channels/{games.id}/messages"),
            request(fake, "PATCH", f"/channels/{dm.id}/messages/1"),
            request(fake, "POST", f"/interactions/{click.id}/{click.token}/callback"),
            request(fake, "PATCH", f"/webhooks/{app}/{click.token}/messages/@original"),
            request(fake, "GET", f"/users/{alice.id}"),
            request(fake, "POST", "/users/@me/channels", {"recipient_id": str(alice.id)}),
        ]
        assert [server_of(fake, r) for r in mine] == [tavern.id] * len(mine)
        assert server_of(fake, request(fake, "PUT", f"/applications/{app}/commands")) is None
        assert (
            server_of(fake, request(fake, "POST", f"/channels/{other.channels[0].id}/messages")) == other.id
        )
        window = window_of(fake, tavern.id, since=mine[0].index)
        assert window.by_kind == {BOT: 4, INTERACTION: 2}
        assert window.by_route["PATCH /channels/{channel_id}/messages/{id} [DM]"] == 1
        assert window.by_route["POST /channels/{channel_id}/messages"] == 1
