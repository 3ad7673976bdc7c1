"""Small helpers for the simcord bot tests."""

from __future__ import annotations

import discord


def texts_of(message) -> str:
    """All readable text of a message: content, embed titles/descriptions/fields/footers."""
    parts = [message.content or ""]
    for embed in message.embeds:
        data = embed.to_dict() if isinstance(embed, discord.Embed) else embed
        parts += [data.get("title", ""), data.get("description", "")]
        parts += [f"{f['name']} {f['value']}" for f in data.get("fields", [])]
        parts.append(data.get("footer", {}).get("text", ""))
    return "\n".join(p for p in parts if p)


def private_replies(result) -> list[str]:
    """Text of the ephemeral answers to an interaction."""
    out = []
    if result.response is not None and result.response.flags.ephemeral:
        out.append(texts_of(result.response))
    out += [texts_of(f) for f in result.followups if f.flags.ephemeral]
    return out


PRIVATE_OFFER = "🔒 You have a private choice now"  # cogs.router.offer_private_prompt


def refusals(result) -> list[str]:
    """The ephemeral answers to an interaction, without the private prompt the bot offers a
    player whose DMs are closed when a secret choice opens (that is not a refusal)."""
    return [r for r in private_replies(result) if not r.startswith(PRIVATE_OFFER)]


def last_board(channel):
    """The channel's latest game message (a lobby or board: it has an embed or components),
    skipping the short turn pings and end notices posted after it."""
    for message in reversed(channel.history()):
        if message.embeds or message.components:
            return message
    return channel.last_message


def last_ping(channel):
    """The channel's latest plain message from the bot (a turn ping or an end notice)."""
    for message in reversed(channel.history()):
        if not message.embeds and not message.components:
            return message
    return None


EPHEMERAL = 64  # the message flag


def public_posts(env, channel) -> list[dict]:
    """The body of every public message the bot posted in ``channel``, deleted ones included:
    channel messages, and followups of interactions made in it (a turn ping is a followup of
    the click that caused it: cogs.carrier)."""
    path = f"/channels/{channel.id}/messages"
    out = []
    for r in env.http_requests:
        if r.method != "POST" or not isinstance(r.json, dict):
            continue
        if r.path == path:
            out.append(r.json)
        elif r.path.startswith("/webhooks/") and r.path.count("/") == 3:  # /webhooks/{app}/{token}
            token = r.path.rsplit("/", 1)[1]
            record = env.backend.interactions[env.backend.interaction_tokens[token]]  # expired ones too
            if record.channel_id == channel.id \
                    and not int(r.json.get("flags") or 0) & EPHEMERAL:
                out.append(r.json)
    return out


def posted_contents(env, channel) -> list[str]:
    """The content of every public message the bot posted in ``channel``, deleted ones included
    (superseded turn pings are deleted; this is what members were notified with)."""
    return [str(body.get("content") or "") for body in public_posts(env, channel)]


def public_replies(result) -> list[str]:
    out = []
    if result.response is not None and not result.response.flags.ephemeral:
        out.append(texts_of(result.response))
    out += [texts_of(f) for f in result.followups if not f.flags.ephemeral]
    return out


def _children(message) -> list[dict]:
    """Components of a discord.Message or a simcord ResponseMessage, as raw dicts."""
    out = []
    for row in message.components:
        row = row.to_dict() if hasattr(row, "to_dict") else row
        out += row.get("components", [])
    return out


def button_labels(message) -> list[str]:
    return [c["label"] for c in _children(message) if c.get("type") == 2 and c.get("label")]


def select_values(message) -> list[str]:
    return [o["value"] for c in _children(message) if c.get("type") == 3 for o in c.get("options", [])]


def public_channel_text(channel) -> str:
    """Everything posted in a channel that anyone can see (no ephemerals)."""
    return "\n".join(texts_of(m) for m in channel.history() if not m.flags.ephemeral)


def table_world(env, bot, names=("alice", "bob"), *, seed: int = 22, admin: bool = False):
    """A server with a #games channel and the named members (plus "admin" with Manage Server
    when asked), games seeded with ``seed``: the usual shape of a bot test's world.
    Returns (guild, channel, members by name)."""
    bot.service._seed_source = lambda: seed
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    members = {name: guild.add_member(env.create_user(name)) for name in names}
    if admin:
        admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
        members["admin"] = guild.add_member(env.create_user("admin"), roles=[admins])
    return guild, channel, members


def refuse_token_edits(env, channel) -> None:
    """The board is edited through the newest click on it while its token lives (cogs.carrier):
    a test that makes Discord refuse the board's channel edit refuses that one too (once is
    enough: a refused token is not tried again)."""
    carrier = env.bot.outbox.live.on(last_board(channel).id)
    if carrier is not None:
        token = carrier.interaction.token
        env.inject_error(
            "PATCH", f"/webhooks/*/{token}/messages/*", status=401, code=50027, message="Invalid Webhook Token"
        )
