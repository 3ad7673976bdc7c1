"""`ruff check`, mypy and the import contracts (lint-imports) are part of the suite, so lint, type
and layering problems fail CI like any other defect."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_check_is_clean():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff, "ruff is installed with the [test] extra"
    done = subprocess.run([ruff, "check", "."], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:]


def test_mypy_is_clean_over_the_whole_tree():
    """mypy checks every file pyproject's [tool.mypy] names: the product, the tests and the bench."""
    done = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]


def test_import_contracts_are_kept():
    """The layers of pyproject's [tool.importlinter]: cogs -> sessions -> render | storage -> engine,
    the engine free of I/O, nothing importing bot.py or tests/."""
    lint_imports = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which(
        "lint-imports"
    )
    assert lint_imports, "import-linter is installed with the [test] extra"
    done = subprocess.run([lint_imports, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]


def test_bot_py_imports_nothing_from_tests():
    """bot.py is a module, not a package, so import-linter cannot hold it; read its imports here."""
    tree = ast.parse((ROOT / "bot.py").read_text(encoding="utf-8"))
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    imported += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert not [name for name in imported if name == "tests" or name.startswith("tests.")]


def test_the_sandbox_contracts_name_every_cog():
    """import-linter cannot say "every cog but the sandbox", so the two sandbox contracts list
    the cogs by name: a cog added later and left out of them could import simcord unnoticed."""
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    by_id = {c["id"]: c for c in contracts}
    cogs = {f"cogs.{p.stem}" for p in (ROOT / "cogs").glob("*.py") if p.stem not in ("__init__", "sandbox")}
    cogs.add("cogs.ui")
    assert cogs - set(by_id["simcord-only-in-the-sandbox"]["source_modules"]) == set()
    assert cogs - set(by_id["sandbox-outside"]["forbidden_modules"]) == set()


def test_the_no_game_in_shared_code_contract_names_every_built_in_game():
    """Shared code (cogs, sessions, storage, render, but a game's own renderer and UI) imports no
    engine.<game>: it asks the game's plug-in record. import-linter cannot say "every game", so
    the contract lists them: a game added to BUILTIN_GAMES and left out would go unchecked."""
    import tomllib

    from engine.registry import BUILTIN_GAMES

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    contract = {c["id"]: c for c in contracts}["no-game-in-shared-code"]
    assert contract["type"] == "forbidden"
    assert set(contract["source_modules"]) == {"cogs", "sessions", "storage", "render"}
    assert set(contract["forbidden_modules"]) == {f"engine.{name}" for name in BUILTIN_GAMES}
    for ignored in contract["ignore_imports"]:  # only a game's own modules, importing only its engine
        importer, _, imported = ignored.partition(" -> ")
        game = imported.split(".")[1]
        assert importer in (f"cogs.ui.{game}", f"render.{game}", f"render.{game}.**") or importer.startswith(
            (f"cogs.ui.{game}_", f"render.{game}_")
        ), ignored
