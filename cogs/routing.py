"""custom_id routing: every component the bot sends carries ``dt:<game_id>:<verb>[:<args>]``.

The game id in every id means a click can be routed from the database alone: it works after
a restart, inside DMs (which have no guild), and for a player sitting in two games at once.

Each kind of component has one :class:`Spec` (as discord.py's ``DynamicItem`` has one class
with a ``template`` per kind): its layout says how the id is made and, read as a template, how
it is parsed; its fields are checked there, once, so a handler reads typed fields and never
splits an id itself. The layouts match the ids already posted, so old buttons keep working.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, TypeVar, get_type_hints

import discord

from sessions import SessionError

PREFIX = "dt"
MAX_CUSTOM_ID = 100
MAX_NUMBER = 2**63 - 1  # SQLite's largest INTEGER (PostgreSQL's BIGINT): every number in an id fits
MAX_NUMBER_DIGITS = len(str(MAX_NUMBER))


def number(field: str, *, limit: int = MAX_NUMBER) -> int | None:
    """The number a field of a component id carries, or None if the bot could not have written
    it. Custom ids and select values are client data: this is the one check every parser of
    ``dt:``, ``dtr:`` and ``dtl:`` ids uses before a number reaches a query or an index.
    Written by the bot means ASCII digits in canonical form (no sign, no leading zero) and at
    most ``limit``; so a forged 20-digit id is refused here and never overflows SQLite."""
    if not (field.isascii() and field.isdigit()) or len(field) > MAX_NUMBER_DIGITS:
        return None
    if len(field) > 1 and field[0] == "0":
        return None
    value = int(field)
    return value if value <= limit else None


def component_data(interaction: discord.Interaction) -> dict[str, Any]:
    """The click's payload: a TypedDict union in discord.py, read here as one plain dict."""
    return dict(interaction.data or {})


@dataclass(frozen=True)
class Route:
    game_id: int
    verb: str
    args: tuple[str, ...] = ()

    def arg(self, index: int, default: str = "") -> str:
        return self.args[index] if index < len(self.args) else default

    @property
    def tail(self) -> str:
        """Everything after the verb, as written (``"<version>:<action with colons>"``)."""
        return ":".join(self.args)


def make(game_id: int, verb: str, *args: object) -> str:
    """Build a custom_id; raises ValueError if it would exceed Discord's 100 characters."""
    custom_id = ":".join([PREFIX, str(game_id), verb, *map(str, args)])
    if len(custom_id) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id too long: {custom_id[:40]}...")
    return custom_id


def parse(custom_id: str) -> Route | None:
    """The route in a custom_id, or None if it is not ours or is malformed (the game id
    included: an id out of SQLite's range is answered like any broken control).

    The last field may itself contain ':' (action notation), so only the first three
    separators split; verbs that take several args split the rest themselves.
    """
    parts = custom_id.split(":", 3)
    game_id = number(parts[1]) if len(parts) > 1 else None
    if len(parts) < 3 or parts[0] != PREFIX or game_id is None or not parts[2]:
        return None
    args: tuple[str, ...] = ()
    if len(parts) == 4:
        args = tuple(parts[3].split(":", 1))  # e.g. "<version>:<action with colons>"
    return Route(game_id, parts[2], args)


# -- component specs ---------------------------------------------------------------------------
F = TypeVar("F", bound=tuple[Any, ...])  # a NamedTuple of the id's fields
_FIELD = re.compile(r"\{(\w+)\}")
BROKEN = "That control is broken or from an old version."
STALE_BOARD = "That board is out of date: the game has moved on. Use the latest board."
CONTROL = "x"  # dt:<id>:x:<control>:... a game's own control, handled by its UI plug-in
_NOT_READ = object()
_NUMBER = object()  # an int field's place in a shape of values (Spec.make)
_DIGIT = re.compile(r"[0-9]")
READ_BACKS_KEPT = 4096  # shapes of values known to read back, per spec


class NoFields(NamedTuple):
    """The fields of a component whose id is its verb alone (Join, Show my hand)."""


class BrokenControl(SessionError):
    """A component id that its spec does not read: forged, or from a build that never shipped.
    The player is told privately (``Spec.refusal``) and nothing changes."""


class Spec(Generic[F]):
    """One kind of component: ``dt:<game id>:<verb>[:<control>]:<layout>``.

    ``fields`` is a NamedTuple naming the layouts' ``{fields}``: an ``int`` field holds a number
    the bot writes (checked by :func:`number`), a ``str`` field non-empty text (a layout's last
    field may contain ``:``, as action notation does). Several layouts are alternatives, read
    in order; a field a layout leaves out is None (or the NamedTuple's default): ``"{version}:-"``
    before ``"{version}:{mask}"`` reads ``-`` as "no mask", and a shape posted by an older
    build (the private page button before it had a token) stays readable. ``make`` writes the
    first layout whose fields are exactly the ones given (not None).
    ``control`` makes it a game's own control, ``dt:<id>:x:<control>:...`` (cogs.ui handlers).
    ``refusal``: what the player is told when an id of this kind does not read (for a versioned
    id, a forged version cannot be told from an old one: "out of date").
    """

    def __init__(
        self, verb: str, fields: type[F], *layouts: str, control: str | None = None, refusal: str = BROKEN
    ) -> None:
        self.verb, self.control, self.fields, self.refusal = verb, control, fields, refusal
        self.layouts = layouts or ("",)
        self._types = get_type_hints(fields)
        names: tuple[str, ...] = getattr(fields, "_fields")  # noqa: B009 (a NamedTuple's field names)
        for shape in self.layouts:
            unknown = set(_FIELD.findall(shape)) - set(names)
            if unknown:
                raise ValueError(f"{verb}: layout {shape!r} names no field {sorted(unknown)}")
        self._templates = [(_template(shape), shape) for shape in self.layouts]
        # Each layout's field names, and the words before them: a menu makes many ids per move.
        self._layout_fields = [(frozenset(_FIELD.findall(shape)), shape) for shape in self.layouts]
        self._head = [verb, *([control] if control else [])]
        self._names = names
        self._ints = frozenset(name for name in names if self._types.get(name) in (int, int | None))
        self._apart = len(self.layouts) == 1 and _fields_apart(self.layouts[0])
        self._read_back: set[tuple[Any, ...]] = set()
        key = (verb, control)
        old = _SPECS.get(key)
        # A module loaded again (a reloaded extension) defines its specs again: the same ones.
        if old is not None and (old.fields.__qualname__, old.layouts) != (fields.__qualname__, self.layouts):
            raise ValueError(f"two component specs for {key}")
        _SPECS[key] = self

    @property
    def key(self) -> str:
        """The verb a handler table knows it by: the control's for a game's own control."""
        return self.control or self.verb

    def _words(self, values: F) -> list[str]:
        fields = _as_dict(values)
        given = frozenset(name for name, value in fields.items() if value is not None)
        for names, shape in self._layout_fields:
            if names == given:
                tail = shape.format(**fields)
                return [*self._head, *([tail] if tail else [])]
        raise ValueError(f"{self.verb}: no layout writes the fields {sorted(given)}")

    def fits(self, game_id: int, values: F) -> bool:
        """Whether the id fits Discord's 100 characters (a long action may not)."""
        return len(":".join([PREFIX, str(game_id), *self._words(values)])) <= MAX_CUSTOM_ID

    def make(self, game_id: int, values: F) -> str:
        """The custom_id; raises ValueError if it is too long or would not read back as
        ``values`` (an empty text, a negative number, a separator inside a field).

        Whether an id reads back is checked by reading it back, once per *shape* of the values:
        the values with each int field's number (and the game id) replaced by a mark, when
        every number is in range. That is the same answer: a number is written as a run of
        digits, and where the spec has one layout, whose literals keep its fields apart and
        hold no digit (checked per spec; a spec of several layouts is always read back),
        neither ``parse``'s splits nor the template's groups can start or end inside that run,
        so which digits it holds cannot change how the id reads; and an in-range int reads back
        as itself (tests/bot/test_routing_read_back.py compares both ways over every spec).
        A board makes ~5 ids a move, ~10 µs each read back, ~4 µs with the shape known."""
        custom_id = make(game_id, *self._words(values))
        shape = self._shape(game_id, values)
        try:
            known = shape is not None and shape in self._read_back
        except TypeError:  # a value that cannot be hashed: check it
            known, shape = False, None
        if known:
            return custom_id
        if not self._reads_back(custom_id, values):
            raise ValueError(f"{self.verb}: {values!r} does not make a custom_id that reads back")
        if shape is not None:
            if len(self._read_back) >= READ_BACKS_KEPT:
                self._read_back.clear()
            self._read_back.add(shape)
        return custom_id

    def _reads_back(self, custom_id: str, values: F) -> bool:
        route = parse(custom_id)
        return route is not None and self.parse(route) == values

    def _shape(self, game_id: int, values: F) -> tuple[Any, ...] | None:
        """``values`` with each in-range int field's number replaced by a mark (None: check
        this id in full)."""
        if not self._apart or type(game_id) is not int or not 0 <= game_id <= MAX_NUMBER:
            return None
        shape: list[Any] = []
        for name, value in zip(self._names, values, strict=True):
            if name in self._ints and type(value) is int:
                if not 0 <= value <= MAX_NUMBER:
                    return None
                shape.append(_NUMBER)
            else:
                shape.append(value)
        return tuple(shape)

    def parse(self, route: Route) -> F | None:
        """The typed fields of ``route`` if it is an id of this kind, else None."""
        if route.verb != self.verb:
            return None
        tail = route.tail
        if self.control is not None:
            if route.arg(0) != self.control:
                return None
            tail = route.arg(1)
        for template, _ in self._templates:
            match = template.fullmatch(tail)
            if match is None:
                continue
            values = {name: self._convert(name, text) for name, text in match.groupdict().items()}
            if all(v is not _NOT_READ for v in values.values()):
                return self.fields(**values)
        return None

    def read(self, route: Route) -> F:
        """The typed fields of ``route``, or a private refusal (:class:`BrokenControl`)."""
        values = self.parse(route)
        if values is None:
            raise BrokenControl(self.refusal)
        return values

    def _convert(self, name: str, text: str) -> Any:
        value: int | str | None = number(text) if self._types.get(name) in (int, int | None) else text or None
        return _NOT_READ if value is None else value


def _as_dict(values: tuple[Any, ...]) -> dict[str, Any]:
    return values._asdict()  # type: ignore[attr-defined, no-any-return]  # a NamedTuple


def _fields_apart(layout: str) -> bool:
    """Whether a literal keeps every two fields of ``layout`` apart and no literal holds a
    digit (so a number's digits are always a field's whole run of digits)."""
    pieces = _FIELD.split(layout)  # literal, name, literal, name, ..., literal
    literals = pieces[::2]
    return not any(_DIGIT.search(piece) for piece in literals) and all(literals[1:-1])


def _template(layout: str) -> re.Pattern[str]:
    """A layout as a template (as a DynamicItem's): each field a named group, the last one
    greedy (it may hold ``:``), the others up to the separator after them."""
    pieces = _FIELD.split(layout)  # literal, name, literal, name, ..., literal
    last = len(pieces) - 2
    return re.compile(
        "".join(
            re.escape(piece)
            if index % 2 == 0
            else f"(?P<{piece}>.+)"
            if index == last
            else f"(?P<{piece}>.+?)"
            for index, piece in enumerate(pieces)
        )
    )


_SPECS: dict[tuple[str, str | None], Spec[Any]] = {}


def spec_of(route: Route) -> Spec[Any] | None:
    """The spec of a route's kind of component (a game's control by its control verb)."""
    return _SPECS.get((route.verb, route.arg(0) if route.verb == CONTROL else None))


def all_specs() -> Iterator[Spec[Any]]:
    yield from _SPECS.values()


# -- the platform's components (cogs.components makes them, cogs.router reads them) ------------
class Version(NamedTuple):
    version: int


class Move(NamedTuple):
    version: int
    action: str  # the action's notation


class Page(NamedTuple):
    version: int
    page: int


class PromptPage(NamedTuple):
    page: int
    token: str | None = None  # the seat's prompt token (cogs.prompts); None on older buttons


class Prompt(NamedTuple):
    token: str | None = None


class MenuButton(NamedTuple):
    version: int
    position: int  # the button's place in the menu's first level


class MenuSelect(NamedTuple):
    version: int
    address: str | None = None  # the node's address in the menu ("0.3"); None for the root


class MenuPage(NamedTuple):
    version: int
    page: int
    address: str | None = None


JOIN = Spec("join", NoFields)
LEAVE = Spec("leave", NoFields)
START = Spec("start", NoFields)
CANCEL = Spec("cancel", NoFields)
ADD_AI = Spec("ai", NoFields)  # a select: the AI level is its value
SHOW_HAND = Spec("hand", NoFields)
PLAY = Spec("a", Move, "{version}:{action}", refusal=STALE_BOARD)
OPEN_PICKER = Spec("pick", Page, "{version}:{page}", refusal=STALE_BOARD)
PICKER_PAGE = Spec("psnav", Page, "{version}:{page}", refusal=STALE_BOARD)
PICK = Spec("ps", Version, "{version}", refusal=STALE_BOARD)  # a select: the action is its value
PRIVATE_PICK = Spec("p", Prompt, "{token}", "")  # a select; "": before prompts had a token
PRIVATE_PAGE = Spec("pnav", PromptPage, "{token}:{page}", "{page}")
OPEN_MENU = Spec("t", MenuButton, "{version}:{position}", refusal=STALE_BOARD)
MENU_CHOICE = Spec("ts", MenuSelect, "{version}:-", "{version}:{address}", refusal=STALE_BOARD)
MENU_PAGE = Spec("tn", MenuPage, "{version}:-/{page}", "{version}:{address}/{page}", refusal=STALE_BOARD)
