"""The one parser of the short values people type: whole numbers and on/off switches.

Game options (``/game new options:max_rounds=20``, :class:`engine.base.OptionSpec`) and server
settings (``/config set turn_timeout.farkle 30s``, sessions.settings) both read their values
here, so a value is accepted or refused the same way everywhere, and every refusal names its
real reason: no value, not a whole number (trailing junk included: ``30ss``), or out of range
(a 29-digit number is "out of range", not "too long").
"""

from __future__ import annotations

import re

SWITCH_ON = ("on", "true", "yes", "1")
SWITCH_OFF = ("off", "false", "no", "0")
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")  # ASCII digits only: no "1_000", "٣", "1e3"
_MAX_DIGITS = 18  # longer numbers are outside every range here (and int() of 4,300+ digits fails)
_SHOWN = 40  # characters of a refused value quoted back


def shown(raw: str) -> str:
    """A refused value as quoted back: cut to a readable length, no backticks to break out of
    its code span."""
    text = raw.strip().replace("`", "'")
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def allowed_range(low: int | None, high: int | None) -> str:
    """ " from 1 to 10", " of at least 0", " of at most 5" or "" (for a sentence)."""
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f" of at least {low}"
    return "" if high is None else f" of at most {high}"


def parse_whole_number(
    raw: str, name: str, *, low: int | None = None, high: int | None = None, seconds: bool = False
) -> int:
    """``raw`` as a whole number from ``low`` to ``high`` (either may be None), or ValueError
    naming why not. A number of ``seconds`` may end in one ``s`` (``300s``)."""
    text = raw.strip()
    if seconds and text.endswith("s"):
        text = text[:-1].rstrip()
    span = allowed_range(low, high)
    takes = f"a whole number of seconds{span} (`300` or `300s`)" if seconds else f"a whole number{span}"
    if not text:
        raise ValueError(f"`{name}` needs a value: {takes}.")
    if not _WHOLE_NUMBER.fullmatch(text):
        raise ValueError(f"`{name}` takes {takes}, not `{shown(raw)}`.")
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > _MAX_DIGITS:
        sign = "-" if text.startswith("-") else ""
        if (sign and low is not None) or (not sign and high is not None):
            raise ValueError(
                f"`{name}` must be{span} (got a {len(digits):,}-digit {sign and 'negative '}number)."
            )
        raise ValueError(f"`{name}` takes {takes}: `{shown(raw)}` is far too large.")
    value = int(text)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"`{name}` must be{span} (got {value}).")
    return value


# A duration's units ("90m", "12h", "2d", "45 seconds"); no unit is seconds. Spelled out, so that
# "30ss" is junk rather than a plural.
_UNITS = {
    "": 1, "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
    "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
    "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
    "d": 86400, "day": 86400, "days": 86400,
}  # fmt: skip
_DURATION = re.compile(r"([0-9]+)\s*([a-z]*)")


def duration_text(seconds: float) -> str:
    """``86400`` -> "1 day", ``5400`` -> "90 minutes", ``45`` -> "45 seconds": the largest unit
    that divides it exactly."""
    count, unit = max(0, round(seconds)), "second"
    for size, name in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if count >= size and count % size == 0:
            count, unit = count // size, name
            break
    return f"{count} {unit}{'' if count == 1 else 's'}"


def parse_duration(raw: str, name: str, *, low: int, high: int) -> int:
    """``raw`` as seconds, written as a number ("600") or with a unit ("10m", "12h", "2d"), from
    ``low`` to ``high``, or ValueError naming why not."""
    allowed = f"from {duration_text(low)} to {duration_text(high)}"
    takes = f"seconds or a duration such as 90m, 12h or 2d ({allowed})"
    text = raw.strip().lower()
    if not text:
        raise ValueError(f"`{name}` needs a value: {takes}.")
    match = _DURATION.fullmatch(text)
    if match is None or match.group(2) not in _UNITS:
        raise ValueError(f"`{name}` takes {takes}, not `{shown(raw)}`.")
    digits = match.group(1).lstrip("0")
    if len(digits) > _MAX_DIGITS:
        raise ValueError(f"`{name}` must be {allowed} (got a {len(digits):,}-digit number).")
    value = int(match.group(1)) * _UNITS[match.group(2)]
    if not low <= value <= high:
        raise ValueError(f"`{name}` must be {allowed} (got {duration_text(value)}).")
    return value


def parse_switch(raw: str, name: str) -> bool:
    """``on``/``off`` (or true/false, yes/no, 1/0) as a bool, or ValueError."""
    value = raw.strip().lower()
    if value in SWITCH_ON:
        return True
    if value in SWITCH_OFF:
        return False
    if not value:
        raise ValueError(f"`{name}` needs a value: on or off.")
    raise ValueError(f"`{name}` takes on or off, not `{shown(raw)}`.")
