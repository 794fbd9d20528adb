"""No import cycle between the package's modules: a walk of the import graph, every import of
a module counted (at its top or inside a function), relative ones resolved. A module importing the
package it sits in (``from rules_index.content import Game``), or a package's ``__init__`` taking
names from its own modules, is one package, not a cycle."""
from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "rules_index"


def module_names(root: Path = PACKAGE) -> dict[str, Path]:
    found = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            one_package = name.startswith(target + ".") or target.startswith(name + ".")
            if target in known and target != name and not one_package:
                found.add(target)
    return found


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    names = module_names(root)
    return {name: imports_of(name, path, set(names)) for name, path in names.items()}


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as exc:
        return exc.args[1]
    return None


def test_the_package_has_no_import_cycle():
    graph = import_graph()
    assert len(graph) > 50 and sum(map(len, graph.values())) > 100
    assert cycle(graph) is None, f"import cycle: {' -> '.join(cycle(graph))}"


def test_the_walk_finds_a_cycle_through_a_function_level_import(tmp_path):
    package = tmp_path / "pkg"
    (package / "web").mkdir(parents=True)
    for init in (package / "__init__.py", package / "web" / "__init__.py"):
        init.write_text("")
    (package / "web" / "state.py").write_text("from .version import tag\n")
    (package / "web" / "version.py").write_text("def tag():\n    from pkg.web import state\n")
    (package / "web" / "pages.py").write_text("from pkg.web.state import x\nfrom pkg.web import version\n")
    graph = import_graph(package)
    assert graph["pkg.web.pages"] == {"pkg.web.state", "pkg.web.version"}
    assert set(cycle(graph)) == {"pkg.web.state", "pkg.web.version"}
