"""Issue 23, finding 4: game options and /config settings read whole numbers and switches with
one parser (engine.values). A value with trailing junk is refused, and every refusal names its
real reason: no value, not a whole number, or out of range (never "too long" for 29 digits)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cogs.plugins import load_plugins
from engine import registry
from engine.base import OptionSpec
from engine.values import parse_switch, parse_whole_number
from sessions import SessionError, parse_options, parse_setting

load_plugins(ui=False)
FARKLE = registry.get("farkle")
MAX_ROUNDS = OptionSpec("max_rounds", 0, "rounds", minimum=0, maximum=1000)

JUNK = [
    "30ss",
    "30x",
    "3 0",
    "30s0",
    "1_000",
    "1e3",
    "0x1e",
    "30.0",
    "٣٠",
    "３０",
    "30,",
    "--30",
    "30-",
    "ss30",
    "thirty",
    "30\u200b",
    "+-3",
]


@pytest.mark.parametrize("raw", JUNK)
def test_a_number_with_junk_is_refused_as_not_a_whole_number(raw):
    with pytest.raises(ValueError, match=r"takes seconds or a duration such as 90m, 12h or 2d \(from 30 seconds to 7 days\), not `"):
        parse_setting("turn_timeout.farkle", raw)
    with pytest.raises(ValueError, match=r"^`max_rounds` takes a whole number from 0 to 1000, not `"):
        MAX_ROUNDS.parse(raw)


@pytest.mark.parametrize(
    ("raw", "value"), [("30", 30), ("30s", 30), (" 45 s ", 45), ("1m", 60), ("086400", 86400)]
)
def test_seconds_may_end_in_one_s(raw, value):
    assert parse_setting("turn_timeout.farkle", raw) == value


def test_out_of_range_names_the_range_and_a_huge_number_by_its_digits():
    with pytest.raises(
        ValueError, match=r"^`max_rounds` must be from 0 to 1000 \(got a 29-digit number\)\.$"
    ):
        MAX_ROUNDS.parse("9" * 29)
    with pytest.raises(ValueError, match=r"must be from 0 to 1000 \(got -1\)"):
        MAX_ROUNDS.parse("-1")
    with pytest.raises(ValueError, match=r"must be from 0 to 1000 \(got a 4,000-digit negative number\)"):
        MAX_ROUNDS.parse("-" + "9" * 4000)  # beyond int()'s own limit of digits: still the range
    with pytest.raises(ValueError, match=r"^`afk_strikes` must be from 1 to 10 \(got 99\)\.$"):
        parse_setting("afk_strikes", "99")
    with pytest.raises(ValueError, match=r"far too large"):
        parse_whole_number("9" * 40, "n")


def test_no_value_says_so():
    with pytest.raises(ValueError, match=r"^`afk_strikes` needs a value: a whole number from 1 to 10\.$"):
        parse_setting("afk_strikes", "  ")
    with pytest.raises(ValueError, match="needs a value: on or off"):
        parse_setting("images", "")
    with pytest.raises(SessionError, match=r"`max_rounds=` has no value: write it right after the `=`"):
        parse_options(FARKLE, "max_rounds= 20")


def test_switches_and_choices_name_what_they_take():
    assert parse_switch("ON", "x") is True and parse_switch("0", "x") is False
    for raw in ("onn", "of", "yes!", "1 0"):
        with pytest.raises(ValueError, match=r"takes on or off, not `"):
            parse_setting("images", raw)
    with pytest.raises(SessionError, match=r"^`defender_dice` must be one of: 5, 6 \(not `5x`\)\.$"):
        parse_options(FARKLE, "defender_dice=5x")
    with pytest.raises(SessionError, match=r"^`defender_dice` must be one of: 5, 6 \(not `7`\)\.$"):
        parse_options(FARKLE, "defender_dice=7")


def test_a_refused_value_is_quoted_short_and_without_backticks():
    with pytest.raises(ValueError) as err:
        parse_setting("afk_strikes", "3`" + "x" * 300)
    assert "x" * 40 not in str(err.value) and "3'" in str(err.value) and len(str(err.value)) < 120


@given(st.integers(min_value=0, max_value=1000), st.text(min_size=1).filter(lambda t: t.strip() != ""))
def test_any_trailing_junk_is_refused(number, junk):
    raw = f"{number}{junk}"
    if raw.strip().lstrip("+").isascii() and raw.strip().isdigit():
        return  # digits only: a number after all
    with pytest.raises(ValueError):
        MAX_ROUNDS.parse(raw)
    try:
        value = parse_setting("turn_timeout.farkle", raw)
    except ValueError:
        return
    # only a number with a unit passes ("<n>s", "<n> min", "<n>h", "<n> days")
    assert junk.strip().isascii() and junk.strip().isalpha()
    assert value in {number * unit for unit in (1, 60, 3600, 86400)}


@given(st.integers(min_value=-(10**30), max_value=10**30))
def test_every_whole_number_is_accepted_or_refused_for_its_range(number):
    try:
        assert MAX_ROUNDS.parse(str(number)) == number and 0 <= number <= 1000
    except ValueError as exc:
        assert not 0 <= number <= 1000 and "must be from 0 to 1000" in str(exc)


def test_channel_ids_are_ascii_digits():
    assert parse_setting("allowed_channels", "<#123> 456") == [123, 456]
    with pytest.raises(ValueError, match="takes channel mentions"):
        parse_setting("allowed_channels", "١٢٣")  # Arabic-Indic digits: int() reads them as 123
