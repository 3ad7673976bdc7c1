"""The three card and layout parsers as they were before issue 24 split them (commit cc56397),
kept verbatim as the oracle of tests/engine/test_parsers_unchanged.py: the split versions must
accept the same inputs, build the same values and refuse with the same messages.

Delete this file and that test together once nobody doubts the split (they test nothing else)."""

# The functions below are the old, long versions on purpose; they are not product code.
# ruff: noqa: C901

from __future__ import annotations

from typing import Any

from engine.farkle.cards import (
    _FIELDS,
    _ID_RE,
    COMPANION_EFFECTS,
    ITEM_EFFECTS,
    TIMINGS,
    Card,
    CardFileError,
    CardSet,
)
from engine.flagon import geometry as G
from engine.flagon.board import BOX, Layout, LayoutError, _rect
from engine.flagon.cards import CHARACTERS, FIELD_TYPES, STATUSES, CardDataError, _offsets
from engine.flagon.cards import Card as FlagonCard
from engine.flagon.effects import HANDLERS, REQUIREMENTS
from engine.flagon.geometry import PATTERNS, RAYS, Sq


def farkle_parse_cards(data: dict[str, Any], where: str = "card file") -> CardSet:
    """Validate the parsed TOML ``data`` (tables ``companion`` and ``item``)."""
    if not isinstance(data, dict):
        raise CardFileError(f"{where}: not a table of cards")
    unknown = set(data) - {"companion", "item"}
    if unknown:
        raise CardFileError(f"{where}: unknown table(s); a card file has only [[companion]] and [[item]]")
    seen: set[str] = set()
    out: dict[str, list[Card]] = {"companion": [], "item": []}
    for kind, effects in (("companion", COMPANION_EFFECTS), ("item", ITEM_EFFECTS)):
        entries = data.get(kind)
        if not isinstance(entries, list) or not entries:
            raise CardFileError(f"{where}: needs at least one [[{kind}]] card")
        for i, raw in enumerate(entries, 1):
            label = f"{where}: {kind} #{i}"
            if not isinstance(raw, dict):
                raise CardFileError(f"{label}: not a table")
            cid = raw.get("id")
            if not isinstance(cid, str) or not _ID_RE.match(cid):
                raise CardFileError(f"{label}: field `id` must be 1-32 characters of a-z, 0-9 or _")
            label = f"{where}: {kind} `{cid}`"
            if cid in seen:
                raise CardFileError(f"{label}: field `id` is used twice")
            seen.add(cid)
            extra = set(raw) - set(_FIELDS)
            if extra:  # not named: a file that is not a card file must not be quoted
                raise CardFileError(f"{label}: unknown field; the fields are {', '.join(_FIELDS)}")
            for fld in ("name", "text", "timing", "effect", "source"):
                if not isinstance(raw.get(fld), str) or not raw[fld].strip():
                    raise CardFileError(f"{label}: field `{fld}` must be a non-empty string")
            for fld, default, lo in (("copies", None, 1), ("uses_per_turn", 1, 1), ("value", 0, 0)):
                v = raw.get(fld, default)
                if not isinstance(v, int) or isinstance(v, bool) or v < lo or v > 100000:
                    raise CardFileError(f"{label}: field `{fld}` must be a whole number >= {lo}")
            if raw["effect"] not in effects:
                raise CardFileError(f"{label}: field `effect` must be one of {', '.join(sorted(effects))}")
            if effects[raw["effect"]] and "value" not in raw:
                raise CardFileError(f"{label}: field `value` is needed by effect `{raw['effect']}`")
            if raw["timing"] not in TIMINGS:
                raise CardFileError(f"{label}: field `timing` must be one of {', '.join(sorted(TIMINGS))}")
            if len(raw["name"]) > 40 or len(raw["text"]) > 300:
                raise CardFileError(f"{label}: field `name` (<= 40) or `text` (<= 300) is too long")
            out[kind].append(
                Card(
                    id=cid,
                    kind=kind,
                    name=raw["name"],
                    copies=raw["copies"],
                    text=raw["text"],
                    timing=raw["timing"],
                    effect=raw["effect"],
                    source=raw["source"],
                    uses_per_turn=raw.get("uses_per_turn", 1),
                    value=raw.get("value", 0),
                )
            )
    return CardSet(tuple(out["companion"]), tuple(out["item"]))


def flagon_parse_cards(raw: dict[str, Any]) -> dict[str, FlagonCard]:
    cards: dict[str, FlagonCard] = {}
    for cid, entry in raw.items():
        if not isinstance(entry, dict):
            raise CardDataError(f"card `{cid}`: expected a table")
        for key in ("name", "owner", "kind", "effect", "text"):
            if not isinstance(entry.get(key), str):
                raise CardDataError(f"card `{cid}` field `{key}`: missing or not text")
        if entry["owner"] not in ("common", *CHARACTERS):
            raise CardDataError(f"card `{cid}` field `owner`: unknown owner `{entry['owner']}`")
        if entry["kind"] not in ("common", "special", "dragon"):
            raise CardDataError(f"card `{cid}` field `kind`: must be common, special or dragon")
        if entry["effect"] not in HANDLERS:
            raise CardDataError(f"card `{cid}` field `effect`: unknown effect `{entry['effect']}`")
        fields: dict[str, Any] = {}
        prov: dict[str, tuple[str, str]] = {}
        for key, val in entry.items():
            if key in ("name", "owner", "kind", "effect", "text"):
                continue
            if not isinstance(val, dict) or "v" not in val:
                raise CardDataError(f"card `{cid}` field `{key}`: expected {{ v = ..., s = ..., src = ... }}")
            if val.get("s") not in STATUSES:
                raise CardDataError(
                    f"card `{cid}` field `{key}`: status must be one of {', '.join(STATUSES)}, not `{val.get('s')}`"
                )
            if not isinstance(val.get("src"), str) or not val["src"]:
                raise CardDataError(f"card `{cid}` field `{key}`: missing source")
            types = FIELD_TYPES.get(key)
            v = val["v"]
            if types is not None and (
                not isinstance(v, types) or (int in types and bool not in types and isinstance(v, bool))
            ):
                raise CardDataError(f"card `{cid}` field `{key}`: wrong type {type(v).__name__}")
            fields[key] = v
            prov[key] = (val["s"], val["src"])
        for key in FIELD_TYPES:
            if key not in fields:
                raise CardDataError(f"card `{cid}` field `{key}`: missing")
        t = fields["time"]
        if isinstance(t, list) and (not t or not all(isinstance(x, int) and x >= 1 for x in t)):
            raise CardDataError(f"card `{cid}` field `time`: a list of positive costs expected")
        if isinstance(t, int) and t < 1:
            raise CardDataError(f"card `{cid}` field `time`: must be at least 1")
        for req in fields["requires"]:
            if req not in REQUIREMENTS:
                raise CardDataError(f"card `{cid}` field `requires`: unknown requirement `{req}`")
        sq = fields["squares"]
        if isinstance(sq, str):
            if sq in PATTERNS:
                fields["_squares"], fields["_rays"] = list(PATTERNS[sq]), []
            elif sq in RAYS:
                fields["_squares"], fields["_rays"] = [], list(RAYS[sq])
            else:
                raise CardDataError(f"card `{cid}` field `squares`: unknown pattern `{sq}`")
        else:
            fields["_squares"], fields["_rays"] = _offsets(cid, "squares", sq), []
        if "landing" in fields:
            fields["landing"] = _offsets(cid, "landing", fields["landing"])
        cards[cid] = FlagonCard(
            cid, entry["name"], entry["owner"], entry["kind"], entry["effect"], entry["text"], fields, prov
        )
    commons = [c for c in cards.values() if c.owner == "common"]
    if len(commons) != 13:
        raise CardDataError(f"expected 13 common cards, found {len(commons)}")
    for ch in CHARACTERS:
        mine = [c for c in cards.values() if c.owner == ch]
        if sum(c.kind == "special" for c in mine) != 4 or sum(c.kind == "dragon" for c in mine) != 1:
            raise CardDataError(f"character `{ch}` needs 4 special cards and 1 Dragon card")
    return cards


def parse_layout(raw: dict[str, Any]) -> Layout:
    name = str(raw.get("name", "?"))
    try:
        w, h = int(raw["width"]), int(raw["height"])
    except (KeyError, ValueError):
        raise LayoutError(f"layout `{name}`: needs width and height") from None
    if w < 5 or h < 5 or w > 26 or h > 26 or w % 2 == 0 or h % 2 == 0:
        raise LayoutError(f"layout `{name}`: the grid must be odd-sized between 5 and 25 (one centre square)")

    def sq(text: Any, what: str) -> Sq:
        try:
            s = G.parse(str(text))
        except ValueError as exc:
            raise LayoutError(f"layout `{name}`: {what}: {exc}") from None
        if not (0 <= s[0] < w and 0 <= s[1] < h):
            raise LayoutError(f"layout `{name}`: {what} {text} is off the grid")
        return s

    centre = sq(raw.get("centre", ""), "centre")
    tables: dict[str, tuple[Sq, ...]] = {}
    owner: dict[Sq, str] = {}
    large = small = 0
    for entry in raw.get("tables", []):
        ident = str(entry.get("id", len(tables)))
        if ident in tables:
            raise LayoutError(f"layout `{name}`: two tables are called `{ident}`")
        sqs = _rect("table", ident, entry, w, h)
        xs, ys = {s[0] for s in sqs}, {s[1] for s in sqs}
        dims = sorted((len(xs), len(ys)))
        if dims == [2, 3]:
            large += 1
        elif dims == [1, 2]:
            small += 1
        else:
            raise LayoutError(f"layout `{name}`: table `{ident}` must be 3x2 (large) or 2x1 (small)")
        for s in sqs:
            if s in owner:
                raise LayoutError(
                    f"layout `{name}`: tables `{owner[s]}` and `{ident}` overlap at {G.name(s)}"
                )
            owner[s] = ident
        tables[ident] = sqs
    rugs: dict[str, tuple[Sq, ...]] = {}
    rug_at: dict[Sq, str] = {}
    for entry in raw.get("rugs", []):
        ident = str(entry.get("id", len(rugs)))
        sqs = _rect("rug", ident, entry, w, h)
        for s in sqs:
            if s in rug_at:
                raise LayoutError(f"layout `{name}`: rugs `{rug_at[s]}` and `{ident}` overlap at {G.name(s)}")
            rug_at[s] = ident
        rugs[ident] = sqs
    start = tuple(sq(s, "start square") for s in raw.get("start", []))
    if len(start) < 8 or len(set(start)) != len(start):
        raise LayoutError(f"layout `{name}`: needs at least 8 different start squares")
    for s in start:
        if s[0] not in (0, w - 1) and s[1] not in (0, h - 1):
            raise LayoutError(f"layout `{name}`: start square {G.name(s)} is not against a wall")
        if s in owner:
            raise LayoutError(f"layout `{name}`: start square {G.name(s)} is under table `{owner[s]}`")
    if centre in owner:
        raise LayoutError(f"layout `{name}`: the centre {G.name(centre)} is under table `{owner[centre]}`")
    chairs = tuple(sq(s, "chair") for s in raw.get("chairs", []))
    mugs = tuple(sq(s, "mug") for s in raw.get("mugs", []))
    barrels = tuple(sq(s, "barrel") for s in raw.get("barrels", []))
    for b in barrels:
        if b in owner:
            raise LayoutError(f"layout `{name}`: a barrel at {G.name(b)} would be under table `{owner[b]}`")
    for c in chairs:
        if c in owner:
            raise LayoutError(f"layout `{name}`: a chair at {G.name(c)} would be under table `{owner[c]}`")
    counts = {
        "large": large,
        "small": small,
        "chairs": len(chairs),
        "mugs": len(mugs),
        "barrels": len(barrels),
        "rugs": len(rugs),
    }
    for k, n in counts.items():
        if n > BOX[k]:
            raise LayoutError(f"layout `{name}`: {n} {k} but the box has only {BOX[k]}")
    return Layout(name, str(raw.get("title", name)), str(raw.get("status", "proposed")), w, h, centre, start,
                  tables, rugs, chairs, mugs, barrels)  # fmt: skip
