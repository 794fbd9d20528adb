"""An editor's change as the API receives it: checked field by field before it reaches the gate.

``{"game", "kind": "faq"|"section", "id", "text": {lang: {"question"?, "answer"?} | {"body"}},
"base_version"?, "dry_run"?}``; languages left out stay as they are.
"""
from __future__ import annotations

from dataclasses import dataclass

from rules_index import characters as chars
from rules_index.content import LANGS, Library

from .field_error import FieldError

MAX_TEXT = 20000
FIELDS = {"faq": ("question", "answer"), "section": ("body",)}


class RequestError(FieldError):
    """A request that cannot be a change: the field, what is wrong, and the HTTP status."""


@dataclass(frozen=True)
class ChangeRequest:
    game: str
    kind: str
    target: str
    updates: dict  # {lang: {field: text}}, the form apply_change takes
    base_version: str | None
    dry_run: bool


def _text(value, field: str) -> str:
    if not isinstance(value, str):
        raise RequestError(field, "must be a text")
    try:
        value = chars.plain_text(value)  # cleaned as readers' texts and the editors' forms are
    except chars.RefusedText as exc:
        raise RequestError(field, f"may not hold the control character {chars.describe(exc.char)}" if exc.char
                           else "is not valid Unicode text") from None
    if len(value) > MAX_TEXT:
        raise RequestError(field, f"is longer than {MAX_TEXT} characters", 413)
    return value


def parse_change(library: Library, data: dict) -> ChangeRequest:
    """Check a change request against the content; raises RequestError naming the field."""
    game_slug = data.get("game")
    if not isinstance(game_slug, str) or not game_slug:
        raise RequestError("game", "is required")
    game = library.game(game_slug)
    if game is None:
        raise RequestError("game", f"no game '{game_slug[:80]}'", 404)
    kind = data.get("kind")
    if kind not in FIELDS:
        raise RequestError("kind", "must be 'faq' or 'section'")
    target = data.get("id")
    if not isinstance(target, str) or not target:
        raise RequestError("id", "is required")
    found = game.faq_entry(target) if kind == "faq" else game.section(target)
    if found is None:
        raise RequestError("id", f"game '{game_slug}' has no {'FAQ entry' if kind == 'faq' else 'rule section'} '{target[:120]}'", 404)
    text = data.get("text")
    if not isinstance(text, dict) or not text:
        raise RequestError("text", "give the new text of at least one language, e.g. {\"de\": {\"answer\": \"...\"}}")
    updates: dict = {}
    for lang, fields in text.items():
        if lang not in LANGS:
            raise RequestError("text", f"unknown language '{str(lang)[:10]}', use {', '.join(LANGS)}")
        if not isinstance(fields, dict) or not fields:
            raise RequestError(f"text.{lang}", f"must be an object with {' and/or '.join(FIELDS[kind])}")
        for name, value in fields.items():
            if name not in FIELDS[kind]:
                raise RequestError(f"text.{lang}", f"unknown field '{str(name)[:40]}' for a {kind}; use {', '.join(FIELDS[kind])}")
            updates.setdefault(lang, {})[name] = _text(value, f"text.{lang}.{name}")
    base_version = data.get("base_version")
    if base_version is not None and not isinstance(base_version, str):
        raise RequestError("base_version", "must be a text (the version the entry had when you read it)")
    dry_run = data.get("dry_run", False)
    if not isinstance(dry_run, bool):
        raise RequestError("dry_run", "must be true or false")
    return ChangeRequest(game_slug, kind, target, updates, base_version, dry_run)
