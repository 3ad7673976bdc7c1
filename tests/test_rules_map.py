"""The rules maps (docs/rules-map/<game>.md): every numbered rulebook sentence names a test that
exists or a reason it needs none, ids are unique, and a worked example always has a test.

A map may end with a second table, the **readings**: each row is one place where the bot decided
something the rulebook leaves open or ambiguous. A reading names the sentence(s) it interprets, a
phrase of the players' rules (engine/<game>/data/rules.md, shown by ``/game rules``) that sits on a
"How the bot reads this" line quoting that rulebook sentence, and the tests that check it (a
reading always needs a test). Readings are counted apart from tested and reasoned sentences.

The checker is a plain function so its own tests can feed it small broken maps. Run this file
with ``python -m tests.test_rules_map`` to print the coverage per game."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

from cogs.plugins import load_plugins
from engine import registry

ROOT = Path(__file__).resolve().parent.parent
MAP_DIR = ROOT / "docs" / "rules-map"
load_plugins(ui=False)
# map file name (a game) -> its ids' prefix, from each game's plug-in record
PREFIX = {info.name: info.rules_map_prefix for info in registry.all_games() if info.rules_map_prefix}
HEADER = ["id", "rule", "checked by"]
READING_HEADER = ["reading", "interprets", "how the bot reads it", "checked by"]
ID = re.compile(r"^(?P<prefix>[A-Z]{2})-\d+(?:\.\d+)+$")
READING_ID = re.compile(r"^(?P<prefix>[A-Z]{2})-R\d+$")
READS_LINE = re.compile(r"^\W*How the bot reads this\b")  # a players'-rules line naming a reading
QUOTE = re.compile(r'"([^"]{12,})"')  # a quoted fragment long enough to identify a sentence
NODE = re.compile(r"^(?P<file>tests/[\w/]+\.py)::(?P<name>\w+(?:::\w+)?)$")
PIPE = re.compile(r"(?<!\\)\|")  # a cell boundary; "\|" is a pipe inside a quote


@dataclass
class MapReport:
    """What one map says: its problems (empty when the map is sound) and its coverage."""

    game: str
    problems: list[str] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    tested: int = 0
    reasoned: int = 0
    readings: list[str] = field(default_factory=list)

    @property
    def sentences(self) -> int:
        return len(self.ids)

    def coverage(self) -> str:
        return (
            f"{self.game}: {self.sentences} sentences, {self.tested} tested, {self.reasoned} reasoned, "
            f"{len(self.readings)} readings (named in the players' rules)"
        )


def players_rules(game: str, root: Path) -> Path:
    """The rules text players read with ``/game rules <game>``."""
    return root / "engine" / game / "data" / "rules.md"


def normal(text: str) -> str:
    """Text compared loosely: straight quotes, one space, no case."""
    text = text.replace("\u201c", '"').replace("\u201d", '"').replace("\u2019", "'").replace("\\|", "|")
    return " ".join(text.split()).lower()


@cache
def defined_tests(path: Path) -> frozenset[str]:
    """Module-level test functions and ``Class::method`` names defined in a test file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names |= {
                f"{node.name}::{m.name}"
                for m in node.body
                if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
            }
    return frozenset(n for n in names if n.rsplit("::", 1)[-1].startswith("test"))


def cells(line: str) -> list[str]:
    """The cells of a markdown table row, stripped (the outer pipes are not cells)."""
    return [c.strip() for c in PIPE.split(line.strip().strip("|"))]


def table_blocks(lines: list[str]) -> list[list[tuple[int, str]]]:
    """Runs of consecutive table lines, each as (line number, text)."""
    blocks: list[list[tuple[int, str]]] = []
    previous = False
    for number, line in enumerate(lines, 1):
        is_row = line.lstrip().startswith("|")
        if is_row and not previous:
            blocks.append([])
        if is_row:
            blocks[-1].append((number, line))
        previous = is_row
    return blocks


def check_checked_by(where: str, checked_by: str, root: Path) -> tuple[str | None, list[str]]:
    """("test" | "reason" | None, problems) for one "checked by" cell."""
    if checked_by.startswith("reason:"):
        if not checked_by.removeprefix("reason:").strip():
            return None, [f"{where}: the reason is empty"]
        return "reason", []
    if not checked_by:
        return None, [f"{where}: neither a test nor a reason"]
    problems = []
    for node in checked_by.split(", "):
        match = NODE.match(node.strip())
        if not match:
            problems.append(
                f"{where}: {node!r} is not a test id (tests/<path>.py::<function>) nor 'reason: …'"
            )
            continue
        path = root / match["file"]
        if not path.is_file():
            problems.append(f"{where}: {match['file']} does not exist")
        elif match["name"] not in defined_tests(path):
            problems.append(f"{where}: {match['file']} defines no test {match['name']}")
    return ("test" if not problems else None), problems


def body_rows(
    path: Path, block: list[tuple[int, str]], width: int, report: MapReport
) -> Iterator[tuple[str, list[str]]]:
    """("<file>:<line>", cells) of each row under a table's header, reporting a row of the wrong width."""
    for number, line in block[2:]:
        row = cells(line)
        where = f"{path.name}:{number}"
        if len(row) != width:
            report.problems.append(
                f"{where}: {len(row)} cells, expected {width} (escape a pipe in a quote as \\|)"
            )
            continue
        yield where, row


def check_map(path: Path, root: Path = ROOT) -> MapReport:
    """Read one rules map and report every way it breaks the shared format."""
    game = path.stem
    report = MapReport(game)
    prefix = PREFIX.get(game)
    if prefix is None:
        report.problems.append(f"{path.name}: not a game's map (expected one of {sorted(PREFIX)})")
        return report
    blocks = table_blocks(path.read_text(encoding="utf-8").splitlines())
    if len(blocks) not in (1, 2):
        report.problems.append(f"{path.name}: {len(blocks)} tables, expected the sentences and the readings")
        if not blocks:
            return report
    block = blocks[0]
    if (
        len(block) < 2
        or cells(block[0][1]) != HEADER
        or not all(set(c) <= {"-", ":"} and c for c in cells(block[1][1]))
    ):
        report.problems.append(
            f"{path.name}: the table must start with | id | rule | checked by | and | --- |"
        )
        return report
    seen: set[str] = set()
    rules_by_id: dict[str, str] = {}
    for where, (rid, rule, checked_by) in body_rows(path, block, 3, report):
        where = f"{where} {rid}"
        match = ID.match(rid)
        if not match or match["prefix"] != prefix:
            report.problems.append(f"{where}: an id is {prefix}-<section>.<sentence>")
        if rid in seen:
            report.problems.append(f"{where}: the id is repeated")
        seen.add(rid)
        report.ids.append(rid)
        rules_by_id[rid] = rule
        if not rule:
            report.problems.append(f"{where}: the rule cell is empty")
        kind, problems = check_checked_by(where, checked_by, root)
        report.problems += problems
        if kind == "reason" and rule.startswith("Example:"):
            report.problems.append(f"{where}: a worked example needs a test, not a reason")
        report.tested += kind == "test"
        report.reasoned += kind == "reason"
    if not report.ids:
        report.problems.append(f"{path.name}: the table has no rows")
    if len(blocks) == 2:
        check_readings(path, blocks[1], report, rules_by_id, root)
    return report


def check_readings(
    path: Path, block: list[tuple[int, str]], report: MapReport, rules_by_id: dict[str, str], root: Path
) -> None:
    """The readings table: ids, the sentences read, the players' rules line, the tests."""
    prefix = PREFIX[report.game]
    if len(block) < 2 or cells(block[0][1]) != READING_HEADER:
        report.problems.append(
            f"{path.name}: the readings table must start with | " + " | ".join(READING_HEADER) + " |"
        )
        return
    rules_path = players_rules(report.game, root)
    reads_lines = [
        normal(line)
        for line in (rules_path.read_text(encoding="utf-8").splitlines() if rules_path.is_file() else [])
        if READS_LINE.match(line)
    ]
    for where, (rid, interprets, phrase, checked_by) in body_rows(path, block, 4, report):
        where = f"{where} {rid}"
        match = READING_ID.match(rid)
        if not match or match["prefix"] != prefix:
            report.problems.append(f"{where}: a reading's id is {prefix}-R<number>")
        if rid in report.readings:
            report.problems.append(f"{where}: the reading id is repeated")
        report.readings.append(rid)
        read = [i.strip() for i in interprets.split(",") if i.strip()]
        unknown = [i for i in read if i not in rules_by_id]
        if not read or unknown:
            report.problems.append(
                f"{where}: interprets {unknown or 'nothing'}; name sentence ids of this map"
            )
        if checked_by.startswith("reason:") or not checked_by:
            report.problems.append(f"{where}: a reading needs a test, not a reason")
        else:
            report.problems += check_checked_by(where, checked_by, root)[1]
        said = normal(phrase.strip('"'))
        lines = [text for text in reads_lines if said and said in text]
        if not lines:
            report.problems.append(
                f"{where}: {phrase!r} is on no 'How the bot reads this' line of {rules_path.relative_to(root)}"
            )
            continue
        sentences = [normal(rules_by_id[i]) for i in read if i in rules_by_id]
        quoted = [normal(q) for text in lines for q in QUOTE.findall(text)]
        if sentences and not any(q in s for q in quoted for s in sentences):
            report.problems.append(f"{where}: its 'How the bot reads this' line quotes none of {read}")


def maps() -> list[Path]:
    return sorted(MAP_DIR.glob("*.md"))


# -------------------------------------------------------------- the maps in the repository


def test_every_game_has_a_map():
    assert {p.stem for p in maps()} == set(PREFIX)


@pytest.mark.parametrize("path", maps(), ids=lambda p: p.stem)
def test_every_rule_has_an_existing_test_or_a_reason(path):
    report = check_map(path)
    print(report.coverage())
    assert not report.problems, "\n".join(report.problems)
    assert report.tested + report.reasoned == report.sentences


def test_ids_are_unique_across_the_maps():
    ids = [rid for path in maps() for rid in check_map(path).ids]
    assert len(ids) == len(set(ids))


def test_every_game_names_its_readings():
    """Each game has readings, and each is on a "How the bot reads this" line players read."""
    for path in maps():
        assert check_map(path).readings, path.stem


def test_coverage_per_game(capsys):
    lines = [check_map(path).coverage() for path in maps()]
    with capsys.disabled():
        print("\nrules map coverage:\n  " + "\n  ".join(lines))
    assert all(re.search(r": [1-9]\d* sentences", line) for line in lines)


# -------------------------------------------------------------- the checker on broken maps

GOOD_TEST = "tests/test_x.py::test_one"


def write(tmp_path: Path, rows: list[str], game: str = "farkle", preamble: str = "# Map\n\n") -> Path:
    """A map file under tmp_path and a tests/test_x.py that defines test_one and T::test_two."""
    (tmp_path / "tests").mkdir(exist_ok=True)
    (tmp_path / "tests" / "test_x.py").write_text(
        "def test_one():\n    pass\n\n\nclass T:\n    def test_two(self):\n        pass\n\n\ndef helper():\n    pass\n"
    )
    path = tmp_path / f"{game}.md"
    path.write_text(preamble + "| id | rule | checked by |\n| --- | --- | --- |\n" + "\n".join(rows) + "\n")
    return path


def problems_of(tmp_path: Path, rows: list[str], **kw) -> list[str]:
    return check_map(write(tmp_path, rows, **kw), root=tmp_path).problems


def test_checker_accepts_a_sound_map_and_counts_it(tmp_path):
    path = write(
        tmp_path,
        [
            f'| FA-1.1 | "Roll the dice." | {GOOD_TEST}, tests/test_x.py::T::test_two |',
            '| FA-1.2 | "Brawls are fun \\| really." | reason: flavour text |',
            f'| FA-2.0 | Example: "a 1 and a 5 make 150." | {GOOD_TEST} |',
        ],
    )
    report = check_map(path, root=tmp_path)
    assert report.problems == []
    assert (report.sentences, report.tested, report.reasoned, report.readings) == (3, 2, 1, [])
    assert (
        report.coverage()
        == "farkle: 3 sentences, 2 tested, 1 reasoned, 0 readings (named in the players' rules)"
    )


def test_checker_refuses_a_row_with_neither_test_nor_reason(tmp_path):
    assert "neither a test nor a reason" in " ".join(problems_of(tmp_path, ['| FA-1.1 | "Roll." |  |']))
    assert "reason is empty" in " ".join(problems_of(tmp_path, ['| FA-1.1 | "Roll." | reason: |']))


def test_checker_refuses_a_test_that_does_not_exist(tmp_path):
    for bad, words in [
        ("tests/test_x.py::test_gone", "defines no test test_gone"),
        ("tests/test_x.py::helper", "defines no test helper"),
        ("tests/test_x.py::T::test_gone", "defines no test T::test_gone"),
        ("tests/test_y.py::test_one", "test_y.py does not exist"),
        ("tests/test_x.py::test_one[3]", "is not a test id"),
        ("test_one", "is not a test id"),
    ]:
        found = problems_of(tmp_path, [f'| FA-1.1 | "Roll." | {bad} |'])
        assert any(words in p for p in found), (bad, found)
    mixed = problems_of(tmp_path, [f'| FA-1.1 | "Roll." | {GOOD_TEST}, tests/test_x.py::test_gone |'])
    assert len(mixed) == 1


def test_checker_refuses_a_repeated_or_malformed_id(tmp_path):
    repeated = problems_of(tmp_path, [f'| FA-1.1 | "a" | {GOOD_TEST} |', f'| FA-1.1 | "b" | {GOOD_TEST} |'])
    assert any("repeated" in p for p in repeated)
    for bad_id in ("NS-1.1", "FA-1", "FA1.1", "1.1", "FA-1.x"):
        found = problems_of(tmp_path, [f'| {bad_id} | "a" | {GOOD_TEST} |'])
        assert any("an id is FA-" in p for p in found), bad_id


def test_checker_refuses_a_worked_example_with_only_a_reason(tmp_path):
    found = problems_of(tmp_path, ['| FA-3.1 | Example: "two 2s and a 1: 100." | reason: obvious |'])
    assert any("worked example needs a test" in p for p in found)


def test_checker_refuses_a_broken_table(tmp_path):
    unescaped = problems_of(tmp_path, [f'| FA-1.1 | "a | b" | {GOOD_TEST} |'])
    assert any("4 cells" in p for p in unescaped)
    assert any("no rows" in p for p in problems_of(tmp_path, []))
    three_tables = problems_of(
        tmp_path, [f'| FA-1.1 | "a" | {GOOD_TEST} |'], preamble="| x |\n| --- |\n\n| y |\n| --- |\n\n"
    )
    assert any("3 tables" in p for p in three_tables)
    path = tmp_path / "farkle.md"
    path.write_text("| id | sentence | test |\n| --- | --- | --- |\n| FA-1.1 | a | reason: x |\n")
    assert any("must start with" in p for p in check_map(path, root=tmp_path).problems)
    path.write_text("no table at all\n")
    assert any("0 tables" in p for p in check_map(path, root=tmp_path).problems)


def test_checker_refuses_a_map_of_no_known_game(tmp_path):
    found = problems_of(tmp_path, [f'| FA-1.1 | "a" | {GOOD_TEST} |'], game="chess")
    assert any("not a game's map" in p for p in found)


RULE_ROW = '| FA-4.2 | "Roll all six dice and the Event die at once." | tests/test_x.py::test_one |'
READS = "| reading | interprets | how the bot reads it | checked by |\n| --- | --- | --- | --- |\n"


def write_readings(tmp_path: Path, rows: list[str], players: str) -> Path:
    """A Farkle map with one sentence and the given readings, and the players' rules text."""
    path = write(tmp_path, [RULE_ROW])
    path.write_text(path.read_text() + "\n" + READS + "\n".join(rows) + "\n")
    rules = players_rules("farkle", tmp_path)
    rules.parent.mkdir(parents=True, exist_ok=True)
    rules.write_text(players)
    return path


PLAYERS = 'Roll.\n\n*How the bot reads this* ("all six dice and the Event die"): the Event die is rolled every time.\n'


def test_checker_counts_a_sound_reading_apart(tmp_path):
    path = write_readings(
        tmp_path, [f"| FA-R1 | FA-4.2 | the Event die is rolled every time | {GOOD_TEST} |"], PLAYERS
    )
    report = check_map(path, root=tmp_path)
    assert report.problems == []
    assert (report.sentences, report.tested, report.reasoned, report.readings) == (1, 1, 0, ["FA-R1"])
    assert report.coverage().endswith(
        "1 sentences, 1 tested, 0 reasoned, 1 readings (named in the players' rules)"
    )


def test_checker_refuses_a_reading_players_cannot_read(tmp_path):
    for row, players, words in [
        (
            f"| FA-R1 | FA-4.2 | dice are thrown twice | {GOOD_TEST} |",
            PLAYERS,
            "on no 'How the bot reads this' line",
        ),
        (
            f"| FA-R1 | FA-4.2 | the Event die is rolled every time | {GOOD_TEST} |",
            "The Event die is rolled every time.\n",
            "on no 'How the bot reads this' line",
        ),
        (
            f"| FA-R1 | FA-4.2 | the Event die is rolled every time | {GOOD_TEST} |",
            "How the bot reads this: the Event die is rolled every time.\n",
            "quotes none of",
        ),
        (
            "| FA-R1 | FA-4.2 | the Event die is rolled every time | reason: obvious |",
            PLAYERS,
            "needs a test",
        ),
        (
            "| FA-R1 | FA-4.2 | the Event die is rolled every time | tests/test_x.py::test_gone |",
            PLAYERS,
            "no test",
        ),
        (
            f"| FA-R1 | FA-9.9 | the Event die is rolled every time | {GOOD_TEST} |",
            PLAYERS,
            "name sentence ids",
        ),
        (f"| FA-1.1 | FA-4.2 | the Event die is rolled every time | {GOOD_TEST} |", PLAYERS, "FA-R<number>"),
        (f"| FA-R1 | FA-4.2 | {GOOD_TEST} |", PLAYERS, "3 cells, expected 4"),
    ]:
        found = check_map(write_readings(tmp_path, [row], players), root=tmp_path).problems
        assert any(words in p for p in found), (row, found)


def test_flagon_ids_are_checked_against_their_prefix(tmp_path):
    assert problems_of(tmp_path, [f'| FL-3.2 | "Move." | {GOOD_TEST} |'], game="flagon") == []
    assert problems_of(tmp_path, [f'| FA-3.2 | "Move." | {GOOD_TEST} |'], game="flagon")


if __name__ == "__main__":
    for map_path in maps():
        result = check_map(map_path)
        print(result.coverage())
        for problem in result.problems:
            print("  " + problem)
