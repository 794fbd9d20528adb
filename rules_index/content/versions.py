"""Versions of entries: a short hash of an entry's stored form, so that an edit made against an
older version can be told from one made against the current text (the editor API's 409)."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .model import RuleSection
from .schema import LANGS, Faq
from .writer import read_faq, read_section


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


def stored_version(root: Path, slug: str, kind: str, target: str) -> str:
    """The version of the entry as its file holds it now (raises EntryNotFound)."""
    if kind == "faq":
        return faq_version(Faq.model_validate(read_faq(root, slug, target)))
    return section_version(read_section(root, slug, target))
