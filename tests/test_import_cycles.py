"""No import cycle anywhere in the project: a module that needs its importer back is two modules tangled.

The graph is built from the source (every `import` and `from ... import` of every module, those inside
functions and `if TYPE_CHECKING:` included: a lazy import hides a cycle, it does not remove it), so a
cycle fails here with its path, before anyone has to untangle it at import time on a Pi.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("game", "vision", "firmware_bridge", "hardware", "referee", "tournament")


def project_modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the project's packages."""
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `name` imports: `from a.b import c` counts as a.b.c when c is a module, else a.b."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:  # `import a.b.c.Name`-like spellings: the longest module
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def tangles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected groups of `graph` with more than one module: each holds at least one cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = {stack.pop()}
            while v not in group:
                group.add(stack.pop())
            if len(group) > 1:
                out.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_tangles_sees_a_cycle_and_not_a_tree() -> None:
    assert tangles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert tangles({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_the_resolver_reads_from_imports_of_modules_and_of_names(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\nfrom pkg.c import thing\nfrom . import d\n")
    modules = {"pkg": pkg / "__init__.py", **{f"pkg.{m}": pkg / f"{m}.py" for m in "abcd"}}
    assert imports_of("pkg.a", pkg / "a.py", modules) == {"pkg.b", "pkg.c", "pkg.d"}


# Cycles that were there before this test, in packages being reworked on other branches as it was written:
# each is broken by a lazy import today. The test fails when one is gone too, so the list only shrinks.
KNOWN: list[set[str]] = []  # none left: any cycle found fails


def test_no_import_cycle_in_the_project() -> None:
    modules = project_modules()
    assert "referee.table.machine" in modules, "the walk must see the project's modules"
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    found = tangles(graph)
    new = [sorted(group) for group in found if group not in KNOWN]
    assert new == [], "modules that import each other (directly or round a cycle): " + "; ".join(
        " <-> ".join(group) for group in new)
    gone = [sorted(group) for group in KNOWN if group not in found]
    assert gone == [], f"no longer a cycle, take it off KNOWN: {gone}"
