"""The package's layers: nothing under rules_index imports the app, only rules_index.content parses
YAML, and only rules_index.content opens, lists or copies the content's files."""
from __future__ import annotations

import ast
import datetime as dt
import inspect
import os
import re
import sys
from contextlib import contextmanager
from pathlib import Path

from rules_index.content.snapshot import read_content
from rules_index.content.writer import plan_faq_change
from rules_index.content.versions import entry_data, planned_entry_data
from rules_index.corrections import gate, recovery
from rules_index.search.build import build, is_stale
from rules_index.web.editor import form_texts

PACKAGE = Path(__file__).resolve().parents[1] / "rules_index"
YAML_LIBRARIES = ("yaml", "ruamel", "ruamel.yaml")


def imported_modules(path: Path) -> set[str]:
    """The top names a module imports (absolute ones; relative imports stay inside the package)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def modules() -> dict[str, set[str]]:
    return {str(path.relative_to(PACKAGE.parent)): imported_modules(path) for path in sorted(PACKAGE.rglob("*.py"))}


def importers(found: dict[str, set[str]], wanted: tuple[str, ...]) -> list[str]:
    return [name for name, imports in found.items()
            if any(i == w or i.startswith(w + ".") for i in imports for w in wanted)]


def test_the_walk_sees_every_kind_of_import(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("import app\nfrom ruamel.yaml import YAML\nimport yaml.nodes as n\nfrom . import local\n")
    assert importers({"m.py": imported_modules(module)}, ("app",)) == ["m.py"]
    assert imported_modules(module) == {"app", "ruamel.yaml", "yaml.nodes"}


def test_no_module_of_the_package_imports_the_app():
    found = modules()
    assert len(found) > 50
    assert importers(found, ("app",)) == []


def test_only_the_content_package_imports_a_yaml_library():
    found = modules()
    assert importers(found, YAML_LIBRARIES), "the content package reads YAML"
    outside = [name for name in importers(found, YAML_LIBRARIES) if not name.startswith("rules_index/content/")]
    assert outside == []


# --- who touches the content's files, watched while the code runs -----------------------------

_watch: list[tuple[Path, list[str]]] = []
_PATH_EVENTS = {"open": 0, "os.listdir": 0, "os.scandir": 0, "shutil.copytree": 0, "os.remove": 0,
                "os.rename": 0, "os.replace": 0}


def _audit(event: str, args: tuple) -> None:
    if not _watch or event not in _PATH_EVENTS:
        return
    root, seen = _watch[-1]
    target = args[_PATH_EVENTS[event]] if args else None
    if not isinstance(target, (str, bytes, os.PathLike)):
        return
    path = Path(os.fsdecode(target)).absolute()
    if path != root and root not in path.parents:
        return
    frame = inspect.currentframe()
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module.startswith("rules_index."):
            if not module.startswith("rules_index.content."):
                seen.append(f"{module} {event} {path.relative_to(root)}")
            return
        frame = frame.f_back


_hooked = False


@contextmanager
def content_access(root: Path):
    """Collects "module event path" for each touch of a file under ``root`` made by a module of
    rules_index outside rules_index.content."""
    global _hooked
    if not _hooked:
        sys.addaudithook(_audit)  # stays for the session (hooks cannot be removed); idle unless watching
        _hooked = True
    seen: list[str] = []
    _watch.append((Path(root).absolute(), seen))
    try:
        yield seen
    finally:
        _watch.pop()


def test_the_watch_sees_a_module_outside_the_content_package(tiny_content):
    code = compile("open(root / 'faq-catalog.yaml').close()", "x.py", "exec")
    with content_access(tiny_content) as seen:
        exec(code, {"__name__": "rules_index.web.x", "root": tiny_content})
        exec(code, {"__name__": "rules_index.content.x", "root": tiny_content})
    assert seen == ["rules_index.web.x open faq-catalog.yaml"]


def test_index_build_and_corrections_leave_the_files_to_the_content_package(tiny_content, tmp_path):
    link = tmp_path / "index" / "current"
    link.parent.mkdir()
    faq_id = "coin-count"
    with content_access(tiny_content) as seen:
        library, _snapshot = read_content(tiny_content)
        build(library, link, tiny_content)
        assert not is_stale(link, tiny_content)
        before = entry_data(tiny_content, "tiny-game", "faq", faq_id)
        updates = {"en": {"answer": "There are exactly 12 coins."}}
        plans = plan_faq_change(tiny_content, "tiny-game", faq_id, updates, dt.date(2026, 1, 2))
        after = planned_entry_data(tiny_content, "tiny-game", "faq", faq_id, plans)
        gate.review(tiny_content, "tiny-game", "faq", faq_id, plans)
        form_texts("faq", after)
        recovery.sweep_tmp(tiny_content)
    assert before["en"]["answer"] == "[There are 12 coins.]{.unchecked}"
    assert after["en"]["answer"] == "There are exactly 12 coins."
    assert seen == []


def test_no_file_name_of_whooshs_storage_appears_in_the_code():
    """Generations are copied and written through Whoosh's documented API (storage, writer),
    never by the names of its files (its TOC, segments and lock)."""
    storage_names = re.compile(r"_?MAIN_|\.toc\b|\.seg\b|WRITELOCK|\.trm\b|\.pst\b")
    found = [f"{path.relative_to(PACKAGE.parent)}:{number}" for path in sorted(PACKAGE.rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if storage_names.search(line)]
    assert found == []
