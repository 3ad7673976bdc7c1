"""The shape of the product's modules (issue 24): no run-time import cycle among them and none
over ~400 lines. (No function over a cyclomatic complexity of 15 is ruff's C90 rule, see
pyproject.toml, held by tests/test_lint.py.)"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT_PACKAGES = ("cogs", "sessions", "storage", "engine", "render")
MAX_LINES = 400

# Modules still over MAX_LINES, each being split this round by the engineer named; the lead
# trims this list as those splits merge. Add nothing here: split the module instead.
OVER_SIZE_FOR_NOW: dict[str, str] = {}

# Import cycles still there, each owned by the engineer named; the lead drops a line when its
# cycle is gone (the test then says so). Add nothing here: break the cycle instead.
CYCLES_FOR_NOW: dict[tuple[str, str], str] = {}


def product_modules() -> dict[str, Path]:
    """Dotted name -> file of every product module (bot.py and the five packages)."""
    found = {"bot": ROOT / "bot.py"}
    for package in PRODUCT_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _run_time_imports(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """Every import a module may run: at the top, and also inside a function (a deferred import
    still ties the two modules at run time: it only hides the cycle from the import order), but
    not under ``if TYPE_CHECKING:`` (annotations only, never run)."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            found += _run_time_imports(node.orelse)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    found += _run_time_imports([child])
                elif isinstance(child, ast.ExceptHandler):
                    found += _run_time_imports(child.body)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the product modules it imports at run time. ``from a import b`` points at the
    module ``a.b`` when there is one, else at ``a``."""
    modules = product_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in _run_time_imports(ast.parse(path.read_text(encoding="utf-8")).body):
            if isinstance(node, ast.Import):
                targets |= {alias.name for alias in node.names}
                continue
            base = node.module or ""
            if node.level:  # relative: from the package, up level - 1
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                targets.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_run_time_import_cycle_among_product_modules() -> None:
    """A cycle makes import order matter and hides which module is the lower one; break it
    by moving what both need down, or by importing for annotations only (TYPE_CHECKING)."""
    found = {tuple(component) for component in cycles(import_graph())}
    assert found - set(CYCLES_FOR_NOW) == set()
    assert set(CYCLES_FOR_NOW) - found == set(), "a listed cycle is gone: drop its line"


def test_the_cycle_finder_sees_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_imports_for_annotations_do_not_count_and_deferred_ones_do() -> None:
    body = ast.parse(
        "import x\nif TYPE_CHECKING:\n    import y\nelse:\n    import v\ntry:\n    import z\n"
        "except ImportError:\n    import u\ndef f():\n    import w\nclass C:\n    def m(self):\n        import t\n"
    ).body
    names = [alias.name for node in _run_time_imports(body) for alias in node.names]
    assert names == ["x", "v", "z", "u", "w", "t"]


def test_the_import_graph_sees_the_layers() -> None:
    graph = import_graph()
    assert "engine.ninesons.core" in graph["engine.ninesons.game"]
    assert "render.text" in graph["cogs.ratings_text"]  # `from render import text` is the module
    assert "engine.ninesons.cards" not in graph["engine.ninesons.core"]  # annotations only


def test_no_product_module_over_400_lines() -> None:
    """A module fits in one's head (style guide): split one that grows past ~400 lines."""
    sizes = {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in product_modules().values()
    }
    over = {name: lines for name, lines in sorted(sizes.items()) if lines > MAX_LINES}
    assert set(over) - set(OVER_SIZE_FOR_NOW) == set(), over


def test_the_over_size_list_names_only_modules_that_exist() -> None:
    """A module renamed or split away leaves its line: the lead then drops it."""
    assert [name for name in OVER_SIZE_FOR_NOW if not (ROOT / name).is_file()] == []
