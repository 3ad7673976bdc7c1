"""The operator's card folder, read safely: the files behind the game settings that take one.

A game's plug-in record may declare a setting whose value is read from a file
(``GameSetting(read_file=...)``; Dragon Farkle's ``farkle_cards``). Such files are an operator's
choice, not a player's: the operator names a folder in the environment (``FARKLE_CARDS_DIR``, the
one card folder of the bot, named after the first game that used it), and someone with Manage
Server picks one file in it by name with ``/config set <setting> <file>``. The file is read once
(off the event loop), the game checks it, and the value it returns (the card *data*) is stored
in the server's settings; Start only passes that data to the engine, so it never touches the
filesystem and a file changed or deleted later does not matter.

Reading refuses everything but a plain file name of a regular file inside the folder: no path
separators, no ``..`` or hidden names, no symlink leading out of the folder, no FIFOs, devices
or directories, and nothing larger than :data:`MAX_CARD_FILE_BYTES` (checked before reading and
while reading, which stops at the cap + 1 byte). Errors are short and never quote the file.
"""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.registry import GameSetting

CARDS_DIR_ENV = "FARKLE_CARDS_DIR"
MAX_CARD_FILE_BYTES = 64 * 1024
MAX_NAME_LENGTH = 100
_MESSAGE_CAP = 300


class CardFileRefused(ValueError):
    """A card file that cannot be chosen; ``str(err)`` is short and safe to show."""


def _cut(text: str) -> str:
    return text if len(text) <= _MESSAGE_CAP else text[: _MESSAGE_CAP - 1] + "…"


def check_name(name: str) -> str:
    """A plain file name in the folder, or CardFileRefused."""
    name = name.strip()
    if not name:
        raise CardFileRefused("Give the name of a file in the card folder.")
    if (
        len(name) > MAX_NAME_LENGTH
        or any(sep in name for sep in ("/", "\\", "\0"))
        or name.startswith(".")
        or Path(name).is_absolute()
        or not name.isprintable()
    ):
        raise CardFileRefused("Give the plain name of a file in the card folder (no paths, no `..`).")
    return name


def read_card_file(folder: Path, name: str) -> bytes:
    """The bytes of ``folder/name`` if it is a regular file inside ``folder`` of at most
    :data:`MAX_CARD_FILE_BYTES`. Blocking: call it in a thread. Raises CardFileRefused."""
    name = check_name(name)
    root = os.path.realpath(folder)
    path = os.path.join(root, name)
    real = os.path.realpath(path)
    if os.path.dirname(real) != root:
        raise CardFileRefused(f"`{name}` leads outside the card folder.")
    try:
        before = os.stat(real)
    except OSError:
        raise CardFileRefused(f"There is no file `{name}` in the card folder.") from None
    if not stat.S_ISREG(before.st_mode):
        raise CardFileRefused(f"`{name}` is not a regular file.")
    if before.st_size > MAX_CARD_FILE_BYTES:
        raise CardFileRefused(f"`{name}` is larger than {MAX_CARD_FILE_BYTES // 1024} KiB.")
    flags = (
        os.O_RDONLY
        | getattr(os, "O_NONBLOCK", 0)
        | getattr(os, "O_NOFOLLOW", 0)
        | getattr(os, "O_CLOEXEC", 0)
    )
    try:
        fd = os.open(real, flags)
    except OSError:
        raise CardFileRefused(f"`{name}` cannot be opened.") from None
    try:
        now = os.fstat(fd)
        # The file opened must be the one checked (not swapped for a FIFO or device meanwhile).
        if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != (before.st_dev, before.st_ino):
            raise CardFileRefused(f"`{name}` changed while it was being read; try again.")
        chunks: list[bytes] = []
        left = MAX_CARD_FILE_BYTES + 1
        while left > 0:
            chunk = os.read(fd, min(left, 16 * 1024))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError:
        raise CardFileRefused(f"`{name}` cannot be read.") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > MAX_CARD_FILE_BYTES:
        raise CardFileRefused(f"`{name}` is larger than {MAX_CARD_FILE_BYTES // 1024} KiB.")
    return data


def load_file_setting(setting: GameSetting, folder: Path, name: str) -> Any:
    """Read ``name`` in the folder and let the game check it: the value to store. Blocking;
    raises CardFileRefused with a short reason (never the file's text)."""
    if setting.read_file is None:
        raise CardFileRefused(f"`{setting.key}` does not take a file.")
    data = read_card_file(folder, name)
    try:
        return setting.read_file(name, data)
    except ValueError as exc:
        raise CardFileRefused(_cut(f"`{name}` is not a usable card file: {exc}")) from None


def list_card_files(folder: Path) -> list[str]:
    """Names of the regular files directly in ``folder`` (for autocomplete). Blocking."""
    out = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                try:
                    if entry.is_file() and entry.stat().st_size <= MAX_CARD_FILE_BYTES:
                        out.append(entry.name)
                except OSError:
                    continue
                if len(out) >= 1000:
                    break
    except OSError:
        return []
    return sorted(out)


async def choose_file_setting(setting: GameSetting, folder: Path | None, raw: str) -> Any:
    """The value of a setting that takes a file, for ``/config set``: what the game's own parser
    accepts (e.g. ``house``), else a file of the folder read off the event loop. Raises
    CardFileRefused with a reason to show."""
    try:
        return setting.parse(raw)
    except ValueError:
        pass  # not one of its typed values: the name of a file
    if folder is None:
        raise CardFileRefused(
            f"The bot's operator has not set a card folder ({CARDS_DIR_ENV}), so only "
            f"{setting.show(setting.default)} can be chosen for `{setting.key}`."
        )
    return await asyncio.to_thread(load_file_setting, setting, folder, raw.strip())
