"""What players read about a game away from the table: its full rules text and its cards.

The rules of each game live in the file its plug-in record names (``GameInfo.rules_file``; the
built-in games' ``engine/<game>/data/rules.md``: player language, ``##`` headings for sections);
a game without one shows its ``rules_summary``. Cards come from each game's card catalogue
(``GameInfo.cards``), with the reconstruction status its data records. Only a registered game's
record selects a file: nothing a user types ever becomes a path. ``render.rules_pages`` cuts
the rules into the embed pages ``/game rules`` shows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from engine import registry

if TYPE_CHECKING:
    from engine.flagon.face import FlagonFace

SECTION_MARK = "## "

# What a card field's status means to a player (the Nine Sons and Flagon data tag each value).
STATUS_WORDS = {
    "confirmed": "from the rulebook",
    "inferred": "inferred from the rulebook",
    "proposed": "reconstruction",
}


@dataclass(frozen=True)
class Section:
    title: str
    text: str  # paragraphs separated by blank lines


@dataclass(frozen=True)
class CardEntry:
    game: str  # registry name
    key: str  # "<game>:<card id>": unique across games, the autocomplete value
    name: str
    kind: str  # e.g. "Companion", "Dragon Son card", "Thras's special card"
    text: str
    details: tuple[str, ...]  # further facts (copies, points, time...), each one line
    status: str  # where the card's text and numbers come from, in player language
    face: FlagonFace | None = None  # everything printed on a Dragon & Flagon card (its picture)
    squares: tuple[str, ...] = ()  # the card's squares as text rows (a monospaced diagram)


@registry.per_record
def rules_sections(game: str) -> tuple[Section, ...]:
    """The sections of a game's rules text, in file order: the rules file its plug-in record
    names, or else its ``rules_summary``. KeyError for a name nobody registered."""
    info = registry.get(game)
    if info.rules_file is None:
        return (Section("Overview", info.rules_summary or "No rules text was written for it."),)
    raw = info.rules_file.read_text(encoding="utf-8")
    sections: list[Section] = []
    title: str | None = None
    lines: list[str] = []
    for line in raw.splitlines():
        if line.startswith(SECTION_MARK):
            if title is not None:
                sections.append(Section(title, "\n".join(lines).strip()))
            title, lines = line[len(SECTION_MARK) :].strip(), []
        elif title is not None:  # text before the first section (the file's # title) is not shown
            lines.append(line)
    if title is not None:
        sections.append(Section(title, "\n".join(lines).strip()))
    return tuple(sections)


# -- cards ---------------------------------------------------------------------------------------


def all_cards() -> tuple[CardEntry, ...]:
    """Every card of every registered game that has a card catalogue (its plug-in record's
    ``cards``; Dragon Farkle: the bundled card set). Each catalogue is read once."""
    return tuple(
        card
        for info in registry.games_in_order()
        if info.cards is not None
        for card in _catalogue(info.cards)
    )


@cache
def _catalogue(cards: Callable[[], Sequence[CardEntry]]) -> tuple[CardEntry, ...]:
    return tuple(cards())


def find_card(typed: str) -> CardEntry | None:
    """The card a user means: an autocomplete key (``farkle:scout``) or a name, any case."""
    wanted = " ".join(typed.split()).casefold()
    for card in all_cards():
        if wanted in (card.key, card.name.casefold()):
            return card
    return None


def similar_cards(typed: str, limit: int = 3) -> list[CardEntry]:
    """Cards whose names look like ``typed`` (for "did you mean"), best first."""
    import difflib

    names = {card.name.casefold(): card for card in all_cards()}
    wanted = " ".join(typed.split()).casefold()
    close = difflib.get_close_matches(wanted, list(names), n=limit, cutoff=0.5)
    if not close:
        close = [n for n in names if wanted and wanted in n][:limit]
    return [names[n] for n in close]
