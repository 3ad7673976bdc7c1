"""Issue 12, item 1: card files are an operator's choice, not a player's.

Regression tests: a lobby option naming a file (`cards_file=/dev/zero`) is refused and opens
nothing; `/config set farkle_cards` only takes a plain name of a regular, size-capped file in the
operator's folder, reads it off the event loop, refuses a bad file with a short reason, and
stores the checked cards so Start never touches the file system.
"""

from __future__ import annotations

import asyncio
import builtins
import os
import stat
import threading
from pathlib import Path

import pytest

from cogs.plugins import load_plugins
from engine import registry
from engine.farkle.cards import default_cards
from sessions import SessionError, cardfiles, parse_options
from sessions.cardfiles import CARDS_DIR_ENV, MAX_CARD_FILE_BYTES
from sessions.service import GameService
from storage import Database
from tests.sessions.conftest import ALICE, BOB

load_plugins(ui=False)

GOOD = """
[[companion]]
id = "ogre"
name = "Friendly Ogre"
copies = 5
text = "Adds 300 when you bank."
timing = "bank"
effect = "bank_bonus"
value = 300
source = "test"

[[item]]
id = "horn"
name = "Horn"
copies = 6
text = "Blank to Rally."
timing = "after_roll"
effect = "blank_to_rally"
source = "test"
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    d = tmp_path / "cards"
    d.mkdir()
    (d / "good.toml").write_text(GOOD)
    return d


@pytest.fixture
async def cards_service(tmp_path, clock, folder):
    db = await Database.open(tmp_path / "c.sqlite3", clock=clock)
    yield GameService(db, clock=clock, seed_source=lambda: 7, cards_dir=folder)
    await db.close()


@pytest.fixture
def no_opening(monkeypatch):
    """Record every attempt to open a file (builtins.open, os.open, Path.open)."""
    opened: list[str] = []
    real_open, real_os_open = builtins.open, os.open

    def spy_open(file, *a, **k):
        opened.append(str(file))
        return real_open(file, *a, **k)

    def spy_os_open(path, *a, **k):
        opened.append(str(path))
        return real_os_open(path, *a, **k)

    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(os, "open", spy_os_open)
    return opened


# ---------------------------------------------------------------- players cannot name a file


@pytest.mark.parametrize("text", ["cards_file=/dev/zero", "cards_file=/etc/passwd", "cards=x", "cards_file"])
async def test_a_lobby_option_naming_a_file_is_refused_and_nothing_is_opened(service, no_opening, text):
    with pytest.raises(SessionError, match="has no option `cards"):
        parse_options(registry.get("farkle"), text)
    with pytest.raises(SessionError, match="has no option `cards"):
        await service.create("farkle", guild_id=1, channel_id=10, host=ALICE, options_text=text)
    assert not [p for p in no_opening if "dev" in p or "passwd" in p or "cards" in p]
    assert await service.db.games.active_in_channel(10) is None


async def test_an_old_lobby_saved_with_cards_file_is_refused_at_start_with_a_sentence(service, no_opening):
    """A lobby created before the fix still holds `cards_file` in its options: Start refuses
    it readably, opens nothing and leaves the lobby as it was."""
    rec = await service.db.games.create(kind="farkle", guild_id=1, channel_id=10, host_user_id=ALICE.user_id,
                                       options={"cards_file": "/dev/zero"}, seed=1, seats=[])
    await service.join(rec.id, ALICE)
    await service.join(rec.id, BOB)
    before = await service.db.games.load(rec.id)
    with pytest.raises(SessionError, match="has no option `cards_file`"):
        await service.start(rec.id, ALICE)
    after = await service.db.games.load(rec.id)
    assert (after.status, after.version) == ("lobby", before.version)
    assert "/dev/zero" not in no_opening


# ---------------------------------------------------------------- /config set farkle_cards


def _refused(message: str):
    return pytest.raises(SessionError, match=message)


async def test_no_folder_configured_names_the_environment_variable(service):
    with _refused(CARDS_DIR_ENV):
        await service.setting_value("farkle_cards", "good.toml")
    assert await service.setting_value("farkle_cards", "house") == {"file": "house", "cards": None}


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("../good.toml", "plain name"),
        ("../../etc/passwd", "plain name"),
        ("/etc/passwd", "plain name"),
        ("/dev/zero", "plain name"),
        ("sub/good.toml", "plain name"),
        ("..", "plain name"),
        (".hidden", "plain name"),
        ("a\\b", "plain name"),
        ("", "name of a file"),
        ("x" * 500, "plain name"),
        ("missing.toml", "no file `missing.toml`"),
    ],
)
async def test_only_plain_names_of_files_in_the_folder(cards_service, name, message):
    with _refused(message):
        await cards_service.setting_value("farkle_cards", name)


async def test_a_fifo_is_refused_without_blocking(cards_service, folder):
    os.mkfifo(folder / "pipe.toml")
    with _refused("not a regular file"):
        await asyncio.wait_for(cards_service.setting_value("farkle_cards", "pipe.toml"), 5)


@pytest.mark.parametrize("target", ["/dev/zero", "/etc/passwd", "/dev/null"])
async def test_a_symlink_out_of_the_folder_is_refused(cards_service, folder, target):
    (folder / "evil.toml").symlink_to(target)
    with _refused("leads outside the card folder"):
        await cards_service.setting_value("farkle_cards", "evil.toml")


async def test_a_symlink_inside_the_folder_is_followed(cards_service, folder):
    (folder / "alias.toml").symlink_to(folder / "good.toml")
    value = await cards_service.setting_value("farkle_cards", "alias.toml")
    assert value["file"] == "alias.toml" and value["cards"]["companion"][0]["id"] == "ogre"


async def test_a_directory_is_refused(cards_service, folder):
    (folder / "sub").mkdir()
    with _refused("not a regular file"):
        await cards_service.setting_value("farkle_cards", "sub")


async def test_a_device_node_in_the_folder_is_refused(cards_service, folder):
    try:
        os.mknod(folder / "zero.toml", 0o600 | stat.S_IFCHR, os.makedev(1, 5))  # like /dev/zero
    except (PermissionError, AttributeError):
        pytest.skip("creating a device node needs privileges")
    with _refused("not a regular file"):
        await asyncio.wait_for(cards_service.setting_value("farkle_cards", "zero.toml"), 5)


async def test_an_oversize_file_is_refused(cards_service, folder):
    (folder / "big.toml").write_bytes(b"#" * (MAX_CARD_FILE_BYTES + 1))
    with _refused("larger than 64 KiB"):
        await cards_service.setting_value("farkle_cards", "big.toml")
    (folder / "edge.toml").write_bytes(GOOD.encode().ljust(MAX_CARD_FILE_BYTES, b"\n"))
    assert (await cards_service.setting_value("farkle_cards", "edge.toml"))["file"] == "edge.toml"


def test_reading_stops_at_the_cap_even_if_the_file_grows_after_the_size_check(folder, monkeypatch):
    """The size is checked before reading and while reading: at most cap + 1 bytes are read."""
    path = folder / "grows.toml"
    path.write_bytes(b"#" * (3 * MAX_CARD_FILE_BYTES))
    real_stat, real_read = os.stat, os.read
    read_sizes: list[int] = []

    def small_stat(p, *a, **k):
        st = real_stat(p, *a, **k)
        if str(p).endswith("grows.toml"):
            fields = list(st)
            fields[6] = 10  # st_size as it was "before the file grew"
            return os.stat_result(fields)
        return st

    def counting_read(fd, n):
        data = real_read(fd, n)
        read_sizes.append(len(data))
        return data

    monkeypatch.setattr(cardfiles.os, "stat", small_stat)
    monkeypatch.setattr(cardfiles.os, "read", counting_read)
    with pytest.raises(cardfiles.CardFileRefused, match="larger than 64 KiB"):
        cardfiles.read_card_file(folder, "grows.toml")
    assert sum(read_sizes) == MAX_CARD_FILE_BYTES + 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("copies = [", "not a usable card file: bad.toml: not valid TOML"),
        ('password = "hunter2"\n', "not a usable card file: bad.toml: unknown table"),
        (GOOD.replace('effect = "bank_bonus"', 'effect = "fly"'), "companion `ogre`: field `effect`"),
        (GOOD.replace("copies = 5", "copies = 3"), "3 Companion cards, fewer than the 5 players"),
    ],
)
async def test_a_bad_card_file_is_refused_with_its_error_but_not_its_contents(cards_service, folder, text,
                                                                              message):
    (folder / "bad.toml").write_text(text)
    with pytest.raises(SessionError) as err:
        await cards_service.setting_value("farkle_cards", "bad.toml")
    assert message in str(err.value)
    assert "hunter2" not in str(err.value) and "password" not in str(err.value)
    assert len(str(err.value)) <= 300


async def test_the_file_is_read_off_the_event_loop(cards_service, monkeypatch):
    threads: list[threading.Thread] = []
    real = cardfiles.read_card_file

    def recording(folder, name):
        threads.append(threading.current_thread())
        return real(folder, name)

    monkeypatch.setattr(cardfiles, "read_card_file", recording)
    await cards_service.setting_value("farkle_cards", "good.toml")
    assert threads and threads[0] is not threading.main_thread()


async def _start_farkle(service: GameService, channel: int):
    rec = await service.create("farkle", guild_id=1, channel_id=channel, host=ALICE)
    await service.join(rec.id, BOB)
    outcome = await service.start(rec.id, ALICE)
    return rec.id, outcome.game


async def test_a_chosen_file_is_used_at_start_even_after_it_is_deleted(cards_service, folder, no_opening):
    value = await cards_service.setting_value("farkle_cards", "good.toml")
    await cards_service.change_setting(1, "farkle_cards", value)
    (folder / "good.toml").unlink()
    no_opening.clear()
    gid, game = await _start_farkle(cards_service, 10)
    assert no_opening == [], "Start touched the file system"
    assert set(game.s["companions"].values()) == {"ogre"}
    assert set(game.s["hands"]["p1"]) <= {"horn"}
    assert game.card("ogre").name == "Friendly Ogre"
    # The state keeps the cards (a restart restores them) and a replay from seed + log agrees.
    _, restored = await cards_service.load(gid)
    assert restored.card("ogre").value == 300
    replayed = await cards_service.replay(gid)
    assert replayed.to_dict() == restored.to_dict()
    settings = await cards_service.settings(1)
    assert settings.describe()[[k for k, _, _ in settings.describe()].index("farkle_cards")][1] == "good.toml"


async def test_reset_goes_back_to_the_house_cards(cards_service):
    await cards_service.change_setting(1, "farkle_cards", await cards_service.setting_value("farkle_cards",
                                                                                            "good.toml"))
    await cards_service.change_setting(1, "farkle_cards", None)
    _, game = await _start_farkle(cards_service, 11)
    house = {c.id for c in default_cards().companions}
    assert set(game.s["companions"].values()) <= house and game.s["custom_cards"] is None
    assert (await cards_service.settings(1)).start_arguments("farkle") == {}
