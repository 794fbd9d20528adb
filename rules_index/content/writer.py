"""Writing accepted changes back into content files, keeping comments, key order and formatting.

Changes are computed as new file texts first (``plan_*``), so they can be validated in a copy of
the content before ``write_files`` replaces the real files atomically.
"""
from __future__ import annotations

import copy
import datetime as dt
import difflib
import io
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml.scalarstring import LiteralScalarString

from .rules_markdown import split_sections
from .schema import LANGS
from .yamlfile import round_trip_yaml

FAQ_TEXT_FIELDS = ("question", "answer")


class EntryNotFound(KeyError):
    pass


@dataclass
class FilePlan:
    """A file's text before and after a change (paths relative to the content root)."""

    path: str
    before: str
    after: str

    def diff(self) -> str:
        return "".join(difflib.unified_diff(
            self.before.splitlines(keepends=True), self.after.splitlines(keepends=True),
            fromfile=f"a/content/{self.path}", tofile=f"b/content/{self.path}",
        ))


def _entry_yaml() -> Any:
    yaml = round_trip_yaml()
    yaml.width = 4096
    yaml.representer.add_representer(
        type(None), lambda rep, _data: rep.represent_scalar("tag:yaml.org,2002:null", "null")
    )
    return yaml


def _dump_entry(entry: Any) -> list[str]:
    """One list entry as the content files write it: ``- id: …`` with its keys indented by 2."""
    out = io.StringIO()
    _entry_yaml().dump(entry, out)
    # Blank lines and comments after the entry belong to the file's layout (they stay in place).
    lines = out.getvalue().split("\n")
    while lines and (not lines[-1].strip() or lines[-1].lstrip().startswith("#")):
        lines.pop()
    lines = [line + "\n" for line in lines]
    return [("- " if i == 0 else "  ") + line if line.strip() else line for i, line in enumerate(lines)]


def _splice(text: str, data: Any, index: int, entry: Any) -> str:
    """Replace the lines of top-level list item ``index`` with ``entry``; the rest stays byte for byte."""
    lines = text.splitlines(keepends=True)
    start = data.lc.item(index)[0]
    stop = data.lc.item(index + 1)[0] if index + 1 < len(data) else len(lines)
    end = start
    for number in range(start, stop):
        if lines[number].startswith(("  ", "- ")) or number == start:
            end = number
    return "".join(lines[:start] + _dump_entry(entry) + lines[end + 1:])


def _plain(node: Any) -> Any:
    return json.loads(json.dumps(node, default=str))


def _scalar(text: str) -> Any:
    text = text.strip()
    return LiteralScalarString(text + "\n") if "\n" in text else text


def _find(items: list, entry_id: str) -> Any:
    return items[_index(items, entry_id)]


def _index(items: list, entry_id: str) -> int:
    for index, item in enumerate(items or []):
        if isinstance(item, dict) and item.get("id") == entry_id:
            return index
    raise EntryNotFound(entry_id)


def read_faq(root: Path, slug: str, faq_id: str) -> dict:
    """The FAQ entry's fields as plain data."""
    data = round_trip_yaml().load((Path(root) / slug / "faq.yaml").read_text(encoding="utf-8"))
    return _plain(_find(data, faq_id))


def read_section(root: Path, slug: str, section_id: str) -> dict:
    """A rules section's text per language as plain data."""
    out = {}
    for lang in LANGS:
        sections, _ = split_sections((Path(root) / slug / f"rules.{lang}.md").read_text(encoding="utf-8"), "")
        match = next((s for s in sections if s.id == section_id), None)
        if match is None:
            raise EntryNotFound(section_id)
        out[lang] = {"title": match.title, "body": match.body}
    return out


_STAND = re.compile(r"^stand:[^\n#]*", re.M)


def _plan_stand(root: Path, slug: str, today: dt.date) -> FilePlan:
    path = Path(root) / slug / "game.yaml"
    before = path.read_text(encoding="utf-8")
    after, count = _STAND.subn(f"stand: {today.isoformat()}", before, count=1)
    if not count:
        raise ValueError(f"{slug}/game.yaml has no 'stand:' line")
    return FilePlan(f"{slug}/game.yaml", before, after)


def plan_faq_change(root: Path, slug: str, faq_id: str, updates: dict, today: dt.date) -> list[FilePlan]:
    """New texts of faq.yaml (and game.yaml's ``stand``) with ``updates`` merged into the entry.

    ``updates`` may hold ``{lang: {question?, answer?}}``, ``citation``, ``ruling`` and ``check``.
    """
    path = Path(root) / slug / "faq.yaml"
    before = path.read_text(encoding="utf-8")
    data = round_trip_yaml().load(before)
    index = _index(data, faq_id)
    entry = data[index]
    for lang in LANGS:
        for field in FAQ_TEXT_FIELDS:
            value = (updates.get(lang) or {}).get(field)
            if value is not None:
                entry[lang][field] = _scalar(value)
    for key in ("citation", "ruling", "check"):
        if key in updates:
            entry[key] = copy.deepcopy(updates[key])
    after = _splice(before, data, index, entry)
    plans = [FilePlan(f"{slug}/faq.yaml", before, after)]
    if after != before:
        plans.append(_plan_stand(root, slug, today))
    return plans


def plan_section_change(root: Path, slug: str, section_id: str, bodies: dict[str, str], today: dt.date) -> list[FilePlan]:
    """New texts of rules.<lang>.md with the section's body replaced in the given languages."""
    plans = []
    for lang, body in bodies.items():
        path = Path(root) / slug / f"rules.{lang}.md"
        before = path.read_text(encoding="utf-8")
        sections, _ = split_sections(before, "")
        target = next((s for s in sections if s.id == section_id), None)
        if target is None:
            raise EntryNotFound(section_id)
        lines = before.splitlines(keepends=True)
        following = [s.line for s in sections if s.line > target.line]
        end = (min(following) - 1) if following else len(lines)
        new_lines = lines[: target.line] + ["\n", body.strip() + "\n"] + (["\n"] if following else [])
        after = "".join(new_lines + lines[end:])
        if after != before:
            plans.append(FilePlan(f"{slug}/rules.{lang}.md", before, after))
    if plans:
        plans.append(_plan_stand(root, slug, today))
    return plans


def materialize(plans: list[FilePlan], root: Path) -> None:
    """Write the planned texts into the content tree at ``root`` (a copy, or the real one)."""
    for plan in plans:
        target = Path(root) / plan.path
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(plan.after)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
