"""Versions of entries: a short hash of an entry's stored form, so that an edit made against an
older version can be told from one made against the current text (the editor API's 409)."""
from __future__ import annotations

import copy
import hashlib
import json
import threading
from pathlib import Path
from typing import Callable

from .model import RuleSection
from .schema import LANGS, Faq
from .writer import EntryNotFound, FilePlan, item_span, read_section, section_in
from .yaml12 import load_text


def _digest(data) -> str:
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def faq_version(entry: Faq) -> str:
    return _digest(entry.model_dump(mode="json"))


def section_version(texts: dict) -> str:
    """``texts``: {lang: {"title": ..., "body": ...}}, as ``read_section`` returns them."""
    return _digest({lang: {"title": texts[lang]["title"], "body": texts[lang]["body"]} for lang in LANGS})


def rule_section_version(section: RuleSection) -> str:
    return section_version({lang: {"title": section.title(lang), "body": section.body(lang)} for lang in LANGS})


# Parsed faq.yaml files by path, with the file's identity: files are replaced, never rewritten in
# place (writer.materialize), so a new version has a new inode or mtime.
_PARSED: dict[Path, tuple[tuple, dict]] = {}
_PARSED_LOCK = threading.Lock()


def _keep_entries(path: Path, identity: tuple, text: str) -> dict:
    """The entries of ``text`` (the file at ``path`` with that identity) by id, kept for it."""
    entries = load_text(text) or []
    by_id = {e["id"]: e for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)}
    with _PARSED_LOCK:
        _PARSED[path] = (identity, by_id)
    return by_id


def _entry_in(text: str, faq_id: str) -> dict | None:
    """The entry read from its own lines (``writer.item_span``), or None where they cannot be
    told from the text alone."""
    span = item_span(text, faq_id)
    if span is None:
        return None
    entries = load_text(text[span[0]:span[1]])
    if isinstance(entries, list) and len(entries) == 1 and isinstance(entries[0], dict) and entries[0].get("id") == faq_id:
        return entries[0]
    return None


def stored_faq_data(root: Path, slug: str, faq_id: str) -> dict:
    """The FAQ entry's fields as its file holds them now, as plain data (a copy). A file read
    before is not read again until it changes; a changed one, for one entry, only in that
    entry's lines (an accept asks for the entry it changes in a file the last accept wrote)."""
    path = Path(root) / slug / "faq.yaml"
    info = path.stat()
    identity = (info.st_ino, info.st_mtime_ns, info.st_size)
    with _PARSED_LOCK:
        cached = _PARSED.get(path)
    if cached is not None and cached[0] == identity:
        raw = cached[1].get(faq_id)
    else:
        text = path.read_text(encoding="utf-8")
        raw = _entry_in(text, faq_id)
        if raw is None:
            raw = _keep_entries(path, identity, text).get(faq_id)
    if raw is None:
        raise EntryNotFound(faq_id)
    return copy.deepcopy(raw)


def stored_faq(root: Path, slug: str, faq_id: str) -> Faq:
    """The FAQ entry as its file holds it now (the fast parser: no comments or layout needed)."""
    return Faq.model_validate(stored_faq_data(root, slug, faq_id))


def stored_version(root: Path, slug: str, kind: str, target: str) -> str:
    """The version of the entry as its file holds it now (raises EntryNotFound)."""
    if kind == "faq":
        return faq_version(stored_faq(root, slug, target))
    return section_version(read_section(root, slug, target))


def entry_data(root: Path, slug: str, kind: str, target: str) -> dict:
    """The entry's fields ("faq" or "section") as the files under ``root`` hold them now."""
    return stored_faq_data(root, slug, target) if kind == "faq" else read_section(root, slug, target)


def planned_entry_data(root: Path, slug: str, kind: str, target: str, plans: list[FilePlan]) -> dict:
    """The entry's fields as the files will hold them once ``plans`` are written, read the way
    ``entry_data`` reads the real files afterwards."""
    planned = {plan.path: plan.after for plan in plans}

    def text(path: str) -> str:
        found = planned.get(path)
        return found if found is not None else (Path(root) / path).read_text(encoding="utf-8")

    return entry_in_texts(text, slug, kind, target)


def entry_in_texts(text: Callable[[str], str | None], slug: str, kind: str, target: str) -> dict:
    """The entry's fields in the files ``text`` gives (content path → text, None if missing), e.g.
    the files of one commit. Raises EntryNotFound."""
    def required(path: str) -> str:
        found = text(path)
        if found is None:
            raise EntryNotFound(path)
        return found

    if kind == "section":
        return section_in({lang: required(f"{slug}/rules.{lang}.md") for lang in LANGS}, target)
    faq_text = required(f"{slug}/faq.yaml")
    entry = _entry_in(faq_text, target)
    if entry is not None:
        return entry
    for entry in load_text(faq_text) or []:
        if isinstance(entry, dict) and entry.get("id") == target:
            return entry
    raise EntryNotFound(target)
