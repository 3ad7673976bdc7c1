"""The documents people read: every link in the README and docs/ resolves inside the
repository (a heading too, where one is named), none points at files outside it, and the
README's invite link asks for exactly the permissions the bot needs."""

from __future__ import annotations

import re
from pathlib import Path

import discord
import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
OUTSIDE = ("/work/", "../shared", "shared/rules", "shared/seeds", "/tmp/", "file://")
# What the bot does in a server: see the README's "Invite it" table for why each is needed.
NEEDED = discord.Permissions(view_channel=True, send_messages=True, embed_links=True, attach_files=True,
                             create_public_threads=True, send_messages_in_threads=True)
NEEDED_NAMES = ("View Channels", "Send Messages", "Embed Links", "Attach Files", "Create Public Threads",
                "Send Messages in Threads")


def anchors(document: Path) -> set[str]:
    """GitHub's anchors for a markdown file's headings."""
    out = set()
    for line in document.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            out.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return out


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_resolves_inside_the_repository(document):
    text = document.read_text(encoding="utf-8")
    for outside in OUTSIDE:
        assert outside not in text, f"{document.name} points outside the repository: {outside}"
    for target in LINK.findall(text):
        if re.match(r"^[a-z]+:", target):  # https:, mailto:: not a file
            continue
        path, _, anchor = target.partition("#")
        resolved = (document.parent / path).resolve() if path else document
        assert resolved.is_relative_to(ROOT), f"{document.name}: {target} leaves the repository"
        assert resolved.exists(), f"{document.name}: {target} does not exist"
        if anchor and resolved.suffix == ".md":
            assert anchor in anchors(resolved), f"{document.name}: no heading #{anchor} in {path or 'itself'}"


def test_player_and_admin_documents_have_their_own_folders():
    assert (ROOT / "docs" / "players" / "README.md").exists()
    assert (ROOT / "docs" / "admins" / "README.md").exists()


def test_the_invite_link_asks_for_exactly_the_needed_permissions():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"https://discord\.com/oauth2/authorize\?\S+", readme)
    assert len(links) == 1
    (link,) = links
    assert "scope=bot+applications.commands" in link
    assert int(re.search(r"permissions=(\d+)", link).group(1)) == NEEDED.value  # type: ignore[union-attr]
    assert f"`{NEEDED.value}`" in readme
    table = readme[readme.index("| permission | why |") :]
    for name in NEEDED_NAMES:
        assert f"| {name} |" in table


def test_the_code_needs_no_permission_the_invite_leaves_out():
    """The README says the bot deletes only its own messages and reads no history (no Manage
    Messages, no Read Message History); a call that would need them must come with a new
    invite link."""
    needs_more = re.compile(r"\.delete\(|\.history\(|fetch_message\(|\.purge\(|\.pin\(|add_reaction\(")
    # These delete only messages the bot itself posted (superseded turn pings, an old board, an old hand
    # DM), which needs no permission.
    deletes_own = {"cogs/board_hop.py", "cogs/pings.py", "cogs/seat_messages.py"}
    for source in sorted(
        [ROOT / "bot.py", *(ROOT / "cogs").rglob("*.py"), *(ROOT / "sessions").rglob("*.py")]
    ):
        code = source.read_text(encoding="utf-8")
        if str(source.relative_to(ROOT)) in deletes_own:
            code = code.replace(".delete(", "")
        found = needs_more.search(code)
        assert found is None, (
            f"{source.relative_to(ROOT)} calls {found.group(0)}: update the invite permissions"
        )
