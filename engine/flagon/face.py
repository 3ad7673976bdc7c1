"""What is printed on a Dragon & Flagon card, in player words, for ``/game card`` (its text and its
small picture): time, reputation, Daze, Fall, knockback, duration, and the three marks that decide
whether a card is cancelled or allowed: the purple header (cancelled while prone), the red
requirements (cancelled when not met) and the weapon icon (Riposte stops weapon attacks only). The
squares a card affects are drawn in the character's frame: "you" in the middle facing up."""

from __future__ import annotations

from dataclasses import dataclass

from engine.flagon.cards import CHARACTER_NAMES, Card
from engine.flagon.geometry import Sq

# Each red requirement as a player reads it ("To play it: ...").
REQUIREMENT_WORDS = {
    "on_table": "stand on a table",
    "holding_throwable": "hold a mug, a chair or the Flagon",
    "holding_drink": "hold a mug or the Flagon",
    "facing_table": "face a table you are not standing on",
    "barrel_here_or_ahead": "a barrel on your square or the square ahead",
    "facing_rug_off_it": "face a rug you are not standing on",
    "table_here_or_ahead": "a table on your square or the square ahead",
    "ahead_free_same_height": "the square ahead is free and at your height",
    "ahead_free_not_up": "the square ahead is free and not up on a table",
    "shadow_step": "a character in one of the shown squares",
}
KIND_WORDS = {"common": "Common card", "special": "Special card", "dragon": "Dragon card"}
# A ray (a thrown object's line) drawn in the diagram, by its direction in the character's frame.
RAY_ARROWS = {
    (0, 1): "↑",
    (1, 1): "↗",
    (1, 0): "→",
    (1, -1): "↘",
    (0, -1): "↓",
    (-1, -1): "↙",
    (-1, 0): "←",
    (-1, 1): "↖",
}


@dataclass(frozen=True)
class FlagonFace:
    """Everything printed on one card."""

    name: str
    kind: str  # "Common card", "Special card (Thras)", "Dragon card (Thras)"
    text: str
    time: str  # "2", or "1 or 2" when the player chooses
    rep: int
    daze: int
    fall: bool
    knockback: int
    duration: int
    purple: bool
    requirements: tuple[str, ...]  # in player words, empty when the card needs nothing
    weapon: bool
    squares: tuple[Sq, ...]  # (x right, y forward) from the character
    rays: tuple[Sq, ...]  # directions of the lines a thrown object may fly along

    @property
    def reach(self) -> int:
        """How many squares the diagram shows on each side of the character (at least 1)."""
        far = [max(abs(x), abs(y)) for x, y in self.squares]
        return max([1, *far, 2 if self.rays else 1])


def face_of(card: Card) -> FlagonFace:
    owner = CHARACTER_NAMES.get(card.owner)
    kind = KIND_WORDS.get(card.kind, card.kind) + (f" ({owner})" if owner else " (every character)")
    time = card["time"]
    return FlagonFace(
        name=card.name,
        kind=kind,
        text=card.text,
        time=choice_words(time) if isinstance(time, list) else str(time),
        rep=int(card.get("rep", 0) or 0),
        daze=int(card.get("daze", 0) or 0),
        fall=bool(card.get("fall", False)),
        knockback=int(card.get("knockback", 0) or 0),
        duration=int(card.get("duration", 0) or 0),
        purple=bool(card.get("purple", False)),
        requirements=tuple(REQUIREMENT_WORDS.get(r, r.replace("_", " ")) for r in card.get("requires", [])),
        weapon=bool(card.get("weapon", False)),
        squares=tuple(card.squares),
        rays=tuple(card.rays),
    )


def choice_words(values: list[int]) -> str:
    """[1, 2, 3] -> "1, 2 or 3"."""
    words = [str(v) for v in values]
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else "".join(words)


def marks_of(face: FlagonFace) -> dict[Sq, str]:
    """Each marked square of the diagram: ``■`` affected, an arrow on a throw's line, and the
    character ``▲`` (``▣`` when the card affects its own square)."""
    marks: dict[Sq, str] = {sq: "■" for sq in face.squares}
    for dx, dy in face.rays:
        for k in range(1, face.reach + 1):
            marks[(dx * k, dy * k)] = RAY_ARROWS[(dx, dy)]
    marks[(0, 0)] = "▣" if (0, 0) in face.squares else "▲"
    return marks


def diagram_rows(face: FlagonFace) -> range:
    """The diagram's rows, forward first: down to the row behind you, or further if a square is."""
    n = face.reach
    low = min([-1, *(y for _x, y in face.squares)])
    return range(n, low - 1, -1)


def diagram(face: FlagonFace) -> list[str]:
    """The card's squares as text rows, forward at the top: ``▲`` you (facing up), ``■`` an
    affected square, ``▣`` your own square when it is affected, arrows the lines of a throw."""
    n = face.reach
    marks = marks_of(face)
    return [" ".join(marks.get((x, y), "·") for x in range(-n, n + 1)) for y in diagram_rows(face)]


def printed_lines(face: FlagonFace) -> list[tuple[str, str]]:
    """(card field, line) for the card's printed marks: the header, requirements and weapon icon,
    and Fall when the card has it."""
    lines = [
        (
            "purple",
            "Header: **purple**, so it is cancelled if you are prone when it is revealed"
            if face.purple
            else "Header: plain (not purple), so it is carried out even if you are prone",
        ),
        (
            "requires",
            "Requires (red): " + "; ".join(face.requirements) + ", else it is cancelled"
            if face.requirements
            else "Requires (red): nothing",
        ),
        (
            "weapon",
            "Weapon icon: **yes**, a weapon attack (a Riposte stops it)"
            if face.weapon
            else "Weapon icon: no (a Riposte does not stop it)",
        ),
    ]
    if face.fall:
        lines.append(("fall", "Fall: the target falls"))
    return lines
