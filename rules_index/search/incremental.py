"""A new index generation made from the current one: only the documents of changed entries.

The current generation is copied into a new directory through Whoosh's storage API and the
changed entries' documents are deleted and added again there, so readers of the current one never
see a write. What changed is found, not trusted: each generation keeps the hash of every FAQ entry
and rules section it indexed (``ENTRIES.json``). Only changes to FAQ entries, rules texts and
``game.yaml`` of games the generation has, under the same schema, are updated; otherwise ``None``
is returned and the caller builds everything.

Whoosh counts deleted documents in its statistics until their segment is merged, so an updated
generation scores a little differently from a full build (``tests/search/test_incremental.py``
holds the bound); past ``MAX_DELETED_SHARE`` deleted documents an update is refused (merging
instead took longer than a full build). An update keeps the German compound vocabulary of its
base: when the changed entries bring new German words, the generation is marked
``vocabulary_behind`` and ``build.is_stale`` reports it.
"""
from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from whoosh import index as whoosh_index
from whoosh.filedb.filestore import FileStorage

from rules_index.content import Game, Library

from . import schema as f
from .analysis import DecompoundFilter, german_vocabulary, separable_verbs
from .documents import (
    COMPONENTS_ID, CREDITS_ID, FACTS_ID, LANGS, document_fields, entry_documents, facts_documents, faq_german_texts,
    section_german_texts,
)
from rules_index.content.snapshot import Snapshot

# Segments beyond this are merged (the small ones only: Whoosh's default merge policy), so that
# a long run of updates does not leave a search reading dozens of segments.
MAX_SEGMENTS = 8
# The files of a game an update may find changed: its FAQ, its rules texts, its game.yaml.
UPDATABLE_FILES = frozenset({"faq.yaml", "game.yaml", *(f"rules.{lang}.md" for lang in LANGS)})
ENTRIES = "ENTRIES.json"
# Past this share of deleted documents (and this many), an update is a full build instead.
MAX_DELETED_SHARE = 0.1
MIN_DELETED = 100


@dataclass
class Updated:
    documents: int
    changed: list[tuple[str, str, str]] = field(default_factory=list)
    entries: dict = field(default_factory=dict)
    marker: dict = field(default_factory=dict)


def entry_hashes(game: Game) -> dict[str, str]:
    """The hash of each FAQ entry ("faq:<id>") and rules section ("section:<id>") of a game."""
    hashes = {}
    for faq in game.faq:
        hashes[f"faq:{faq.id}"] = hashlib.sha256(faq.model_dump_json().encode()).hexdigest()
    for section in game.sections:
        texts = {lang: (section.title(lang), section.body(lang)) for lang in LANGS}
        data = json.dumps([section.meta.model_dump(mode="json"), texts], sort_keys=True, ensure_ascii=False)
        hashes[f"section:{section.id}"] = hashlib.sha256(data.encode()).hexdigest()
    return hashes


def library_entry_hashes(library: Library) -> dict[str, dict[str, str]]:
    return {game.slug: entry_hashes(game) for game in library}


def _read_json(path: Path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def changed_entries(library: Library, info: dict, base_files: dict, base_entries: dict,
                    files: dict) -> tuple[set[str], list[tuple[str, str, str]], dict] | None:
    """The games whose files differ from the base generation's, their entries that differ
    ((game, kind, id)) and the entry hashes of the content now; None if more than that changed."""
    games = set()
    for name in base_files.keys() | files.keys():
        if base_files.get(name) == files.get(name):
            continue
        slug, _, file_name = name.partition("/")
        if file_name not in UPDATABLE_FILES or library.game(slug) is None or slug not in info.get("games", {}) \
                or slug not in base_entries:
            return None
        games.add(slug)
    entries = dict(base_entries)
    changed = []
    for slug in sorted(games):
        now, before = entry_hashes(library.game(slug)), base_entries[slug]
        for key in sorted(now.keys() | before.keys()):
            if now.get(key) != before.get(key):
                kind, _, entry_id = key.partition(":")
                changed.append((slug, kind, entry_id))
        entries[slug] = now
    return games, changed, entries


def copy_index(source: Path, target: Path) -> None:
    """Every file of the generation ``source`` copied into the new folder ``target`` through
    Whoosh's storage API (``Storage.list``, ``open_file``, ``create_file``), so the update writes
    into files no reader of ``source`` has open; the generation's own files (BUILD.json and the
    rest) come along and are written again by the update. A few milliseconds for the real content."""
    old, new = FileStorage(str(source)), FileStorage(str(target)).create()
    for name in old.list():
        if (source / name).is_dir():  # the generation's stored games: written anew by the update
            continue
        with old.open_file(name) as reading, new.create_file(name) as writing:
            shutil.copyfileobj(reading, writing)


def schema_vocabulary(schema) -> frozenset[str]:
    """The compound splitter's vocabulary in the schema's German analyzer."""
    analyzer = schema[f.body_field("de")].analyzer
    for item in getattr(analyzer, "items", ()):
        if isinstance(item, DecompoundFilter):
            return item.vocabulary
    return frozenset()


def schema_verbs(schema) -> frozenset[str]:
    """The split verbs' vocabulary in the schema's German analyzer."""
    found = separable_verbs(schema[f.body_field("de")].analyzer)
    return found.vocabulary if found is not None else frozenset()


def _german_texts(library: Library, changed: Iterable[tuple[str, str, str]], asked: bool = False):
    """The German texts of the changed entries, as ``build`` takes the vocabulary from them
    (``german_texts``; with players' ways of asking, ``verb_texts``)."""
    for slug, kind, entry_id in changed:
        game = library.game(slug)
        for faq in game.faq if kind == "faq" else ():
            if faq.id == entry_id:
                yield from faq_german_texts(faq, asked)
        for section in game.sections if kind == "section" else ():
            if section.id == entry_id:
                yield from section_german_texts(section, asked)


def deleted_documents(folder: Path) -> tuple[int, int]:
    """The documents an index holds that are deleted, and those it holds that are not."""
    ix = whoosh_index.open_dir(str(folder))
    try:
        return ix.doc_count_all() - ix.doc_count(), ix.doc_count()
    finally:
        ix.close()


def too_many_deleted(current: Path, replaced: int) -> bool:
    """Whether an update replacing ``replaced`` documents (counted from above: the changed
    entries' and the games' facts documents) would leave too many deleted ones."""
    deleted, live = deleted_documents(current)
    deleted += replaced
    return deleted >= MIN_DELETED and deleted > MAX_DELETED_SHARE * live


def update_generation(library: Library, snapshot: Snapshot, current: Path, info: dict, target: Path) -> Updated | None:
    """Make ``target`` from ``current`` with the changed entries' documents written again, or
    return None (nothing written) when the current generation cannot be the base."""
    if info.get("schema") != f.SCHEMA_VERSION:
        return None
    base_files, base_entries = _read_json(current / "FILES.json"), _read_json(current / ENTRIES)
    if not isinstance(base_files, dict) or not isinstance(base_entries, dict):
        return None
    found = changed_entries(library, info, base_files, base_entries, snapshot.files)
    if found is None:
        return None
    games, changed, entries = found
    if too_many_deleted(current, len(changed) * len(LANGS) + len(games) * 2 * len(LANGS)):
        return None
    copy_index(current, target)
    ix = whoosh_index.open_dir(str(target))
    try:
        vocabulary = schema_vocabulary(ix.schema)
        behind = bool(german_vocabulary(_german_texts(library, changed)) - vocabulary
                      or german_vocabulary(_german_texts(library, changed, asked=True)) - schema_verbs(ix.schema))
        with ix.reader() as reader:
            segments = len(list(reader.leaf_readers()))
        docs, keys = {}, set()
        for slug in games:  # the facts of a game whose game.yaml may have changed
            for lang in LANGS:
                docs.update((doc.key, doc) for doc in facts_documents(library.game(slug), lang))
                keys.update(f"fact:{slug}:{fact}:{lang}" for fact in (FACTS_ID, CREDITS_ID, COMPONENTS_ID))
        for slug, kind, entry_id in changed:
            docs.update((doc.key, doc) for doc in entry_documents(library.game(slug), kind, entry_id))
            keys.update(f"{kind}:{slug}:{entry_id}:{lang}" for lang in LANGS)
        # Every key the entries and facts had or have is deleted first: an entry (or the
        # components) gone from the content is gone from the index.
        keys.update(docs)
        writer = ix.writer(timeout=10.0)
        try:
            for key in sorted(keys):
                writer.delete_by_term(f.KEY, key)
            for doc in docs.values():
                writer.add_document(**document_fields(doc))
        except BaseException:
            writer.cancel()
            raise
        writer.commit(merge=segments >= MAX_SEGMENTS)
        documents = ix.doc_count()
    finally:
        ix.close()
    behind = behind or info.get("vocabulary_behind", False)
    return Updated(documents, changed, entries, {"base": current.name, "vocabulary_behind": behind})
