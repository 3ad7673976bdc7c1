"""Text people read: player names made safe to show, ``{p1}`` placeholders filled, echoes of
user input cut, and every outgoing text fitted to Discord's limits.

Names are stored raw (the seat's ``display_name`` is whatever Discord said) and made safe here,
when they are read for display, never earlier: the same name is shown in four places that need
four different forms. In markdown (message content, embeds) it is escaped and its mention
syntax made inert; inside a code block (the text boards) markdown escapes would print as
backslashes, so only backticks are neutralised (one character for one, so fixed-width columns
stay aligned); component labels, autocomplete choices and the PNG board render no markdown, so
they show the raw name. Escaping once at the edge (Actor.name) would have to pick one of those
forms and undo it for the others.

The module lives below the cogs because the session layer echoes user input in its refusals
too; it imports no discord (embeds and views are fitted through their public attributes).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Mapping
from typing import Any, Literal

# -- Discord's limits ------------------------------------------------------------------------
CONTENT = 2000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBED_TOTAL = 6000
FIELDS = 25
SELECT_OPTIONS = 25
BUTTON_LABEL = 80
OPTION_LABEL = 100  # also a select option's description and value
PLACEHOLDER = 150
CHOICE = 100  # an autocomplete choice's name and value
CHOICES = 25  # autocomplete choices in one answer
ECHO = 100  # how much of a user's input a reply repeats

ELLIPSIS = "…"
FENCE = "```"
# A code-block line longer than this wraps on a phone (Discord wraps it at a space, anywhere).
CODE_WIDTH = 60
NO_BREAK = "\u00a0"  # prints as a space; neither Discord nor textwrap breaks a line there


def fit(text: str, limit: int = CONTENT) -> str:
    """``text`` cut to ``limit`` characters with a visible ellipsis; a code block cut open is
    closed again, so the rest of the message is not swallowed by it."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1] + ELLIPSIS
    if cut.count(FENCE) % 2:
        cut = text[: max(0, limit - 1 - len(FENCE) - 1)] + ELLIPSIS + "\n" + FENCE
    return cut


def echo(text: str, limit: int = ECHO) -> str:
    """User input repeated in a reply, for inline code (`` `{echo(x)}` ``): one line, no
    backticks that would end the code span, at most ``limit`` characters."""
    flat = " ".join(str(text).split()) if any(c in str(text) for c in "\n\r\t") else str(text)
    return fit(flat.replace("`", "ˋ"), limit)


def nowrap(text: str) -> str:
    """``text`` with its spaces made unbreakable: a name and its score ("dave 40") then stay
    on one line wherever Discord or :func:`wrap_code` wraps."""
    return text.replace(" ", NO_BREAK)


def with_score(name: str, score: str) -> str:
    """``name`` and its ``score`` joined so that no line break can fall between them (nor inside
    the score); the name's own spaces stay as they are."""
    return f"{name}{NO_BREAK}{nowrap(score)}"


def wrap_code(line: str, width: int = CODE_WIDTH, indent: str = "  ") -> list[str]:
    """One prose line of a text board cut into code-block lines of at most ``width``
    characters (later lines indented); parts joined with :func:`nowrap` stay together."""
    if len(line) <= width and not _WRAP_REWRITES.search(line):
        return [line]  # textwrap would hand it back as it is (most lines; it costs ~30 µs a line)
    return textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False) or [""]


# What textwrap changes in a line that needs no cut: whitespace other than spaces (made
# spaces), and trailing whitespace (dropped).
_WRAP_REWRITES = re.compile(r"[\t\n\r\x0b\x0c]|\s$")


# -- names -------------------------------------------------------------------------------------
NameForm = Literal["markdown", "code", "plain"]

_MARKDOWN = re.compile(r"([\\*_~|`\[\]])")
_LINE_START = re.compile(r"^(\s*)([#>+\-]|\d+(?=\.))")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def escape_markdown(text: str) -> str:
    """``text`` shown literally in Discord markdown: emphasis, code, spoilers, masked links and
    line-start syntax (headings, quotes, lists) escaped; mentions (<@id>, <@&role>, <#channel>,
    @everyone, @here) broken by a zero-width space, so they neither render nor ping."""
    text = _MARKDOWN.sub(r"\\\1", text)
    # "1. x" is escaped at its dot (a backslash before a digit would be printed).
    text = _LINE_START.sub(lambda m: m.group(1) + (m.group(2) + "\\" if m.group(2)[0].isdigit() else "\\"
                                                   + m.group(2)), text)
    return text.replace("@", "@\u200b").replace("<#", "<#\u200b")


def shown_name(raw: str, form: NameForm = "markdown") -> str:
    """The one display form of a user-supplied name (see the module docstring)."""
    name = _CONTROL.sub(" ", raw)
    if form == "markdown":
        return escape_markdown(name)
    if form == "code":
        return name.replace("`", "ˋ")
    return name


def shown_names(names: Mapping[str, str], form: NameForm = "markdown") -> dict[str, str]:
    """seat -> display form, for a seat -> raw name table."""
    return {seat: shown_name(name, form) for seat, name in names.items()}


def seat_names(seats: Iterable[Any], form: NameForm = "markdown") -> dict[str, str]:
    """seat id -> display form of each seat's stored name (seats: storage SeatRecords)."""
    return {s.seat: shown_name(s.display_name, form) for s in seats}


# Seat ids in the bot are p1, p2…; engines scripted on their own may name players anything.
_PLACEHOLDER = re.compile(r"\{([A-Za-z_]\w*)\}")


def fill_names(text: str, names: Mapping[str, str]) -> str:
    """Replace the ``{p1}`` placeholders of engine and session texts with names, in one pass:
    a name that itself contains ``{p2}`` is inserted as it is, never filled again. ``names``
    should already be in the right form (:func:`seat_names`); a placeholder without a name
    shows its id. ``{actor}`` is the person who asked for a session change (its event carries
    the name: they may hold no seat)."""
    return _PLACEHOLDER.sub(lambda m: names.get(m.group(1), m.group(1)), text)


# -- fitting whole messages --------------------------------------------------------------------
def fit_embed(embed: Any) -> Any:
    """Fit a discord.Embed in place (and return it): each part to its limit, at most 25
    fields, and the whole under 6,000 characters (the description gives way first, then the
    last fields)."""
    if embed.title:
        embed.title = fit(embed.title, EMBED_TITLE)
    if embed.description:
        embed.description = fit(embed.description, EMBED_DESCRIPTION)
    fields = list(embed.fields)
    if len(fields) > FIELDS or any(len(f.name or "") > FIELD_NAME or len(f.value or "") > FIELD_VALUE
                                   for f in fields):
        embed.clear_fields()
        for f in fields[:FIELDS]:
            embed.add_field(name=fit(f.name or "", FIELD_NAME), value=fit(f.value or "", FIELD_VALUE),
                            inline=f.inline)
    if embed.footer.text and len(embed.footer.text) > FOOTER:
        embed.set_footer(text=fit(embed.footer.text, FOOTER), icon_url=embed.footer.icon_url)
    if embed.author.name and len(embed.author.name) > AUTHOR:
        embed.set_author(name=fit(embed.author.name, AUTHOR), url=embed.author.url, icon_url=embed.author.icon_url)
    excess = len(embed) - EMBED_TOTAL
    if excess > 0 and embed.description:
        keep = max(0, len(embed.description) - excess - 1)
        embed.description = fit(embed.description, keep + 1) if keep else None
        excess = len(embed) - EMBED_TOTAL
    for index in range(len(embed.fields) - 1, -1, -1):
        if excess <= 0:
            break
        f = embed.fields[index]
        value = f.value or ""
        keep = len(value) - excess
        if keep >= 1:
            embed.set_field_at(index, name=f.name, value=fit(value, keep), inline=f.inline)
        else:  # not even a cut value fits: the field goes
            embed.remove_field(index)
        excess = len(embed) - EMBED_TOTAL
    return embed


def fit_view(view: Any) -> Any:
    """Fit a discord.ui.View's components in place (and return it): button labels to 80,
    select placeholders to 150, at most 25 options, option labels, descriptions and values
    to 100."""
    if view is None:
        return view
    for item in view.children:
        label = getattr(item, "label", None)
        if label and hasattr(item, "style"):  # a button
            item.label = fit(label, BUTTON_LABEL)
        placeholder = getattr(item, "placeholder", None)
        if placeholder:
            item.placeholder = fit(placeholder, PLACEHOLDER)
        options = getattr(item, "options", None)
        if options:
            for option in options[:SELECT_OPTIONS]:
                option.label = fit(option.label, OPTION_LABEL)
                option.value = option.value[:OPTION_LABEL]  # a value is matched, never shown: no ellipsis
                if option.description:
                    option.description = fit(option.description, OPTION_LABEL)
            if len(options) > SELECT_OPTIONS:
                item.options = options[:SELECT_OPTIONS]
    return view


def fit_message(message: dict[str, Any]) -> dict[str, Any]:
    """A send/edit keyword dict (content, embed, embeds, view) fitted to Discord's limits."""
    out = dict(message)
    if isinstance(out.get("content"), str):
        out["content"] = fit(out["content"])
    if out.get("embed") is not None:
        out["embed"] = fit_embed(out["embed"])
    if out.get("embeds"):
        out["embeds"] = [fit_embed(e) for e in out["embeds"]]
    if out.get("view") is not None:
        out["view"] = fit_view(out["view"])
    return out


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
