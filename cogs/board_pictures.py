"""A board message's picture and the two digests that say whether it changed: of what it
shows (so an unchanged board is neither drawn nor uploaded again) and of its PNG bytes."""

from __future__ import annotations

import hashlib
import io
from typing import Any

import discord
import orjson

Picture = tuple[str, str]  # digests of a board picture: of what it shows (picture_key), of its PNG bytes


class BoardPicture(discord.File):
    """A board's PNG file that knows the digest of what it shows (:func:`picture_key`), so
    that it is compared without hashing its bytes."""

    def __init__(self, key: str, png: bytes, description: str) -> None:
        super().__init__(io.BytesIO(png), filename="board.png", description=description)
        self.key = key


def picture_key(shown: dict[str, Any], names: dict[str, str]) -> str:
    """The digest of what a board picture shows (its image view and the names on it). Kept in
    memory only, so orjson (several times faster than the standard library) may write it."""
    blob = orjson.dumps([shown, names], option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=str)
    return hashlib.sha1(blob, usedforsecurity=False).hexdigest()


def picture_digest(files: list[discord.File]) -> str:
    """The PNG bytes of a message's files, as a digest ("" for no file)."""
    blob = hashlib.sha1(usedforsecurity=False)
    for f in files:
        fp = f.fp
        blob.update(fp.getvalue() if isinstance(fp, io.BytesIO) else f.filename.encode())
    return blob.hexdigest() if files else ""
