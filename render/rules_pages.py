"""A game's rules as pages that fit a Discord embed: the rules text of engine.handbook, split at
paragraph (else sentence) boundaries, plus a section written from the game class itself (player
count, AI levels, every lobby option with its meaning and default), so that section can never
disagree with what the lobby accepts."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine import TABLE_OPTIONS, registry
from engine.handbook import Section, rules_sections

# Below the embed description limit (4,096) with room to spare: a page is read on a phone.
PAGE_LIMIT = 3000
TABLE_SECTION = "Players, AI and lobby options"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


@dataclass(frozen=True)
class Page:
    section: int  # index of its section in game_sections()
    title: str  # the section's title
    part: int  # 1-based page of the section
    parts: int
    text: str


def player_count(low: int, high: int) -> str:
    """ "2 players", "2–5 players" (never "2–2")."""
    return f"{low} players" if low == high else f"{low}–{high} players"


def _shown_default(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


# Option help is written for developers too ("inferred", "proposal", "spec"): told to players,
# those say where a rule comes from in plain words.
_PLAYER_WORDS = (
    ("Spec: unknown.", "The rulebook does not say."),
    ("(unknown; proposal ", "(the rulebook does not say; our reading: "),
    ("(unknown)", "(the rulebook does not say)"),
    ("(inferred: ", "(our reading: "),
    ("(proposal: ", "(our reading: "),
    ("(inferred)", "(our reading)"),
    ("(proposal)", "(our reading)"),
)


def player_words(help_text: str) -> str:
    for developer, player in _PLAYER_WORDS:
        help_text = help_text.replace(developer, player)
    return help_text


def option_line(option: Any) -> str:
    """One lobby option for players: name, meaning, allowed values, default."""
    if isinstance(option.default, bool):
        allowed = "on or off"
    elif option.choices:
        allowed = ", ".join(f"`{_shown_default(c)}`" for c in option.choices)
    elif option.minimum is not None and option.maximum is not None:
        allowed = f"a number from {option.minimum} to {option.maximum}"
    else:
        allowed = "a value"
    return (
        f"• `{option.name}`: {player_words(option.help).rstrip('.')}. Values: {allowed}. "
        f"Default: `{_shown_default(option.default)}`."
    )


def _example(options: Any) -> str:
    """``name=value`` changing an option from its default (a flag or a choice, if there is one)."""
    for option in options:
        if isinstance(option.default, bool):
            return f"{option.name}={_shown_default(not option.default)}"
        other = [c for c in option.choices or () if c != option.default]
        if other:
            return f"{option.name}={_shown_default(other[0])}"
    return f"{options[0].name}={_shown_default(options[0].default)}"


def table_section(game: str) -> Section:
    info = registry.get(game)
    cls = info.game_class
    paragraphs = [
        f"**Players:** {player_count(cls.MIN_PLAYERS, cls.MAX_PLAYERS)}.",
        f"**AI opponents:** {', '.join(info.ai_levels)}. An AI joins only when someone adds it with the lobby's "
        "AI select before Start (the server may switch AI seats off); empty chairs are never filled by "
        "themselves. An AI may also take over the seat of a player who leaves or keeps timing out.",
    ]
    options = (*cls.OPTIONS, *TABLE_OPTIONS)
    paragraphs.append(
        "**Lobby options.** Give them when you open the lobby, for example "
        f"`/game new game:{game} options:{_example(options)}`. "
        "Anything you leave out keeps its default."
    )
    paragraphs += [option_line(o) for o in options]
    paragraphs.append(
        "**Ratings.** A rated game (the default) moves each player's rating for this game in this server: "
        "an openskill (Plackett–Luce) rating, shown as a number that starts at 1,000. Places count, ties "
        "are ties, team games rate the teams, and each AI level has its own rating, so beating the hard AI "
        "is worth more than beating the easy one. A player who resigns ranks last. Abandoned and cancelled "
        "games are not rated. See `/game leaderboard`, `/game profile` and `/game history`."
    )
    paragraphs.append(
        "**Hints.** `/game hint` shows you, privately, the move the strongest AI would make. By default "
        "hints work in unrated games only (`rated=off`); a server may allow them in rated games too "
        "(`/config set hints all`), and then taking one makes the game unrated for you, and the table is told."
    )
    return Section(TABLE_SECTION, "\n\n".join(paragraphs))


@registry.per_record
def game_sections(game: str) -> tuple[Section, ...]:
    return (*rules_sections(game), table_section(game))


def _pieces(paragraph: str, limit: int) -> list[str]:
    """A paragraph too long for one page, cut between sentences (between words only if one
    sentence alone is longer than a page, which no rules text has)."""
    sentences: list[str] = []
    for sentence in _SENTENCE_END.split(paragraph):
        while len(sentence) > limit:
            cut = sentence.rfind(" ", 0, limit) if " " in sentence[:limit] else limit
            sentences.append(sentence[:cut])
            sentence = sentence[cut:].lstrip()
        sentences.append(sentence)
    return _pack(sentences, " ", limit)


def _pack(pieces: list[str], separator: str, limit: int) -> list[str]:
    """Join ``pieces`` greedily with ``separator`` into chunks of at most ``limit`` characters
    (a piece is never split here)."""
    out: list[str] = []
    current = ""
    for piece in pieces:
        joined = f"{current}{separator}{piece}" if current else piece
        if len(joined) > limit and current:
            out.append(current)
            current = piece
        else:
            current = joined
    if current:
        out.append(current)
    return out


def split_text(text: str, limit: int = PAGE_LIMIT) -> list[str]:
    """``text`` in pages of at most ``limit`` characters, each ending at a paragraph end or,
    for a paragraph longer than a page, at a sentence end."""
    pieces: list[str] = []
    for paragraph in (p.strip() for p in text.split("\n\n")):
        if paragraph:
            pieces += _pieces(paragraph, limit) if len(paragraph) > limit else [paragraph]
    pages = _pack(pieces, "\n\n", limit)
    return pages or [""]


@registry.per_record
def game_pages(game: str) -> tuple[Page, ...]:
    """Every page of a game's rules, section by section."""
    pages: list[Page] = []
    for index, section in enumerate(game_sections(game)):
        parts = split_text(section.text)
        pages += [Page(index, section.title, n, len(parts), part) for n, part in enumerate(parts, 1)]
    return tuple(pages)


def first_page_of(game: str, section: int) -> int:
    return next(i for i, page in enumerate(game_pages(game)) if page.section == section)
