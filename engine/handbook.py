"""What players read about a game away from the table: its full rules text and its cards.

The rules of each built-in game live in ``engine/<game>/data/rules.md`` (player language, ``##``
headings for sections); a game registered by a plug-in shows its ``rules_summary``. Cards come from each game's own card data, with the reconstruction
status the data records. Only names from :data:`engine.registry.BUILTIN_GAMES` select a file:
nothing a user types ever becomes a path.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from engine import registry

if TYPE_CHECKING:
    from engine.flagon.face import FlagonFace

RULES_FILE = "rules.md"
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


@cache
def rules_sections(game: str) -> tuple[Section, ...]:
    """The sections of a game's rules text, in file order: a built-in game's rules file, or the
    ``rules_summary`` of a game a plug-in registered. KeyError for a name nobody registered."""
    if game not in registry.BUILTIN_GAMES:
        return (Section("Overview", registry.get(game).rules_summary or "No rules text was written for it."),)
    raw = (Path(__file__).parent / game / "data" / RULES_FILE).read_text(encoding="utf-8")
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


def _farkle_cards() -> list[CardEntry]:
    from engine.farkle.cards import default_cards

    cards = default_cards()
    out = []
    for card in cards.companions + cards.items:
        kind = "Companion" if card.kind == "companion" else "Magic Item"
        details = [
            f"Copies in the deck: {card.copies}",
            "This is the bundled card set; a server may play with its own (/config farkle_cards).",
        ]
        if card.source == "house":
            status = "House design: the official card texts are not public, so this is our own card" + (
                " (the name Sack of Holding is real)." if card.name == "Sack of Holding" else "."
            )
        else:
            status = f"Source: {card.source}."
        out.append(
            CardEntry("farkle", f"farkle:{card.id}", card.name, kind, card.text, tuple(details), status)
        )
    return out


def _ninesons_cards() -> list[CardEntry]:
    from engine.ninesons.cards import load_table

    out = []
    for card in load_table()["card"]:
        points = int(card["points"])
        details = [
            f"Chinese name: {card.get('chinese', '')}" if card.get("chinese") else "",
            f"Colour: {card['colour']} ({STATUS_WORDS.get(card.get('colour_status', ''), 'unknown source')})",
            f"Points: {points:+d} ({STATUS_WORDS.get(card.get('points_status', ''), 'unknown source')})",
        ]
        guessed = [f for f in ("name", "colour", "points") if card.get(f"{f}_status") == "proposed"]
        inferred = [f for f in ("name", "colour", "points") if card.get(f"{f}_status") == "inferred"]
        parts = []
        if guessed:
            parts.append(f"Reconstruction: no public source gives its {' or '.join(guessed)}.")
        if inferred:
            parts.append(
                f"Its {' and '.join(inferred)} {'is' if len(inferred) == 1 else 'are'} inferred "
                "from the rulebook."
            )
        status = " ".join(parts)
        out.append(
            CardEntry(
                "ninesons",
                f"ninesons:{card['name'].lower()}",
                card["name"],
                "Dragon Son card",
                card.get("text", ""),
                tuple(d for d in details if d),
                status or "From the rulebook.",
            )
        )
    return out


# Flagon fields a player reads on a card, with their labels (other fields are geometry).
_FLAGON_FIELDS = (
    ("time", "Time"),
    ("rep", "Reputation"),
    ("daze", "Daze"),
    ("knockback", "Knockback"),
    ("duration", "Lasts (time steps)"),
)


def _flagon_value(value: object) -> str:
    if isinstance(value, list):
        from engine.flagon.face import choice_words

        return choice_words(value)
    return str(value)


def _flagon_cards() -> list[CardEntry]:
    from engine.flagon.cards import CHARACTER_NAMES, load_cards
    from engine.flagon.face import diagram, face_of, printed_lines

    out = []
    for card in load_cards().values():
        owner = CHARACTER_NAMES.get(card.owner, card.owner)
        kind = {"common": "Common card (every character)", "dragon": f"{owner}'s Dragon card"}.get(
            card.kind, f"{owner}'s special card"
        )
        details = []
        for field, label in _FLAGON_FIELDS:
            value = card.get(field)
            if field != "time" and not value:
                continue  # a zero daze or knockback says nothing
            status = card.provenance.get(field, ("", ""))[0]
            details.append(f"{label}: {_flagon_value(value)} ({STATUS_WORDS.get(status, 'unknown source')})")
        face = face_of(card)
        for field, line in printed_lines(face):
            status = card.provenance.get(field, ("", ""))[0]
            details.append(f"{line} ({STATUS_WORDS.get(status, 'unknown source')})")
        guessed = sorted(f for f, (s, _src) in card.provenance.items() if s == "proposed")
        status = (
            "Reconstruction: the printed card was not available, so these values are our reading: "
            + ", ".join(guessed)
            + "."
            if guessed
            else "All values from the rulebook or inferred from it."
        )
        out.append(
            CardEntry(
                "flagon",
                f"flagon:{card.id}",
                card.name,
                kind,
                card.text,
                tuple(details),
                status,
                face=face,
                squares=tuple(diagram(face)),
            )
        )
    return out


@cache
def all_cards() -> tuple[CardEntry, ...]:
    """Every card of every built-in game (Dragon Farkle: the bundled card set)."""
    return tuple(_farkle_cards() + _ninesons_cards() + _flagon_cards())


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
