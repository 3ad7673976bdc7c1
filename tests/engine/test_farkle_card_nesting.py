"""Issue 23, finding 3: a card file nested thousands of levels deep is refused with its reason
("nested too deeply"), never a RecursionError; brackets inside strings and comments do not count."""

from __future__ import annotations

import pytest

from engine.farkle.cards import MAX_NESTING, CardFileError, load_cards
from tests.sessions.test_card_files import GOOD

DEEP_ARRAYS = "x = " + "[" * 5000 + "]" * 5000 + "\n"
DEEP_TABLES = "x = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n"


@pytest.mark.parametrize("text", [DEEP_ARRAYS, DEEP_TABLES, "[[[" * 5000, "x = " + "[" * (MAX_NESTING + 1)])
def test_a_deeply_nested_card_file_is_refused_with_its_reason(text):
    with pytest.raises(CardFileError, match=r"deep.toml: nested too deeply \(more than 32 levels"):
        load_cards(text.encode(), "deep.toml")
    with pytest.raises(CardFileError, match="nested too deeply"):
        load_cards(GOOD + text, "deep.toml")  # after good cards too


def test_nesting_up_to_the_limit_and_brackets_in_text_are_parsed_as_usual():
    brackets = "[[{{" * 20  # 80 openers, well past the limit if they counted
    text = GOOD.replace('text = "Adds 300 when you bank."', f'text = "Adds 300 {brackets} \\" {brackets}"')
    text += f"# a comment {brackets}\n"
    text = text.replace('source = "test"', f"source = '''{brackets}\n{brackets}'''", 1)
    cards = load_cards(text, "ok.toml")
    assert cards.companions[0].text.startswith("Adds 300 [[{{")
    with pytest.raises(CardFileError, match="unknown table") as err:  # parsed, not refused for depth
        load_cards("x = " + "[" * MAX_NESTING + "]" * MAX_NESTING + "\n" + GOOD, "ok.toml")
    assert "nested" not in str(err.value)
