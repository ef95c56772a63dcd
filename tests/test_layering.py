"""The one-way data flow of CONTRIBUTING.md, checked on the source: a forbidden import fails here, not on a Pi."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = {"game", "vision", "firmware_bridge", "hardware", "referee", "tournament", "tests", "benchmarks"}

# package -> project packages it must never import
FORBIDDEN = {
    "game": PROJECT - {"game"},
    "vision": {"referee", "tests", "benchmarks"},
    "firmware_bridge": {"referee", "tests", "benchmarks"},
    "hardware": {"referee", "tests", "benchmarks"},
    "referee": {"tests", "benchmarks"},
    # tournament sees only what the broker carries: never a table's internals (its pages' words excepted, below)
    "tournament": {"referee", "vision", "firmware_bridge", "hardware", "tests", "benchmarks"},
}
# What a package may import of one it must not otherwise: the words layer (referee/words/, which imports only the
# rules engine) says the director's pages' words as it says the table's.
ALLOWED = {"tournament": ("referee.words",)}


def imported_modules(path: Path) -> set[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[tuple[str, int]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add((node.module, node.lineno))
    return found


def imported_roots(path: Path) -> set[tuple[str, int]]:
    return {(module.split(".")[0], line) for module, line in imported_modules(path)}


def _allowed(package: str, module: str) -> bool:
    return any(module == a or module.startswith(f"{a}.") for a in ALLOWED.get(package, ()))


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_respects_the_data_flow(package: str) -> None:
    offences = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for module, line in sorted(imported_modules(path))
        if module.split(".")[0] in FORBIDDEN[package] and not _allowed(package, module)
    ]
    assert offences == [], "imports against the data flow of CONTRIBUTING.md:\n" + "\n".join(offences)


def test_the_words_layer_imports_only_the_rules_engine() -> None:
    """referee/words/ is imported by the tournament director too: it must not bring the table's service along."""
    import sys

    allowed = set(sys.stdlib_module_names) | {"game", "__future__"}
    offences = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted((ROOT / "referee" / "words").rglob("*.py"))
        for module, line in sorted(imported_modules(path))
        if module.split(".")[0] not in allowed and not module.startswith("referee.words")
    ]
    assert offences == [], "referee/words/ imports only game/ and itself:\n" + "\n".join(offences)


def test_game_imports_only_the_standard_library() -> None:
    import sys

    stdlib = set(sys.stdlib_module_names) | {"game", "__future__"}
    offences = [
        f"{path.relative_to(ROOT)}:{line} imports {root}"
        for path in sorted((ROOT / "game").rglob("*.py"))
        for root, line in sorted(imported_roots(path))
        if root not in stdlib
    ]
    assert offences == [], "game/ must use the standard library only:\n" + "\n".join(offences)


def imported_names(path: Path) -> set[tuple[str, int]]:
    """The dotted names `path` imports (`from a.b import c`: a.b.c, a module or a name of one), those inside
    functions included."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[tuple[str, int]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.update((f"{node.module}.{alias.name}", node.lineno) for alias in node.names)
    return found


def _within(name: str, modules: set[str] | tuple[str, ...]) -> bool:
    return any(name == m or name.startswith(m + ".") for m in modules)


# The table (referee/table/) is the rules of a table on top of the engine: it imports the engine and itself, and
# nothing else of the project but these, each for one reason. The words layer (referee/words/, itself on the engine
# alone) is named file by file: the table keeps codes and fields, and only these modules name words.
TABLE_ALSO = {
    "live.py": {"referee.journal", "referee.player_names"},  # every event is journaled before it takes effect
    "records.py": {"referee.journal", "referee.lexicon_store"},  # a game replayed from the journal, with its lexicon
    "api.py": {"referee.words"},  # a refusal (ControlError) is said in the language it is shown in
    "state.py": {"referee.words"},  # an alert is said in the language of the view that shows it
    "picture.py": {"referee.words"},  # a doubt is a code of referee/words/doubts.py and its fields
    "machine.py": {"referee.words"},  # a notice's reason is words not said yet (Phrase)
    "view.py": {"referee.words"},  # the same, for the alerts the view derives
}


def test_the_table_imports_only_the_engine() -> None:
    offences = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in sorted((ROOT / "referee" / "table").rglob("*.py"))
        for name, line in sorted(imported_names(path))
        if name.split(".")[0] in PROJECT
        and not _within(name, {"game", "referee.table", *TABLE_ALSO.get(path.name, set())})
    ]
    assert offences == [], "referee/table imports only game/ (and TABLE_ALSO):\n" + "\n".join(offences)


def test_only_the_commands_reach_the_simulator() -> None:
    """A real table is built by referee/parts.py: the simulator (referee/sim/) is a layer above the product, used
    by `referee run --sim` and `referee demo` alone (tests/referee/test_parts.py runs a real table and traces it)."""
    offences = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in sorted((ROOT / "referee").rglob("*.py"))
        if path.relative_to(ROOT).parts[1] not in ("sim", "commands")
        for name, line in sorted(imported_names(path))
        if _within(name, ("referee.sim",))
    ]
    assert offences == [], "only referee/commands imports referee.sim:\n" + "\n".join(offences)
