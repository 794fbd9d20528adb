"""Building the index: into a new generation directory, then an atomic switch of the link.

Readers never see a half-built index: they follow ``<index>`` (a symlink) to a complete
generation under ``<index>.generations/``. Each generation carries ``BUILD.json`` with the
fingerprint of the content and schema it was built from; only directories with that marker,
made by this code, are ever opened (index files hold pickles).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from pathlib import Path

from whoosh import index as whoosh_index

from rules_index.content import LANGS, Library

from . import schema as f
from .analysis import german_vocabulary
from .documents import Document, game_names, library_documents

MARKER = "BUILD.json"
KEEP_GENERATIONS = 2


def generations_dir(link: Path) -> Path:
    return link.parent / f"{link.name}.generations"


def content_fingerprint(content_dir: Path) -> str:
    digest = hashlib.sha256(f"schema:{f.SCHEMA_VERSION}".encode())
    for path in sorted(p for p in Path(content_dir).rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(content_dir)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def built_fingerprint(link: Path) -> str | None:
    try:
        return json.loads((Path(os.path.realpath(link)) / MARKER).read_text())["fingerprint"]
    except (OSError, ValueError, KeyError):
        return None


def is_stale(link: Path, content_dir: Path) -> bool:
    return built_fingerprint(link) != content_fingerprint(content_dir)


def _german_texts(library: Library):
    for game in library:
        for faq in game.faq:
            yield faq.de.question
            yield faq.de.answer
            yield " ".join(faq.keywords.de)
        for section in game.sections:
            yield section.title("de")
            yield section.body("de")
        for term in game.glossary:
            yield term.de.term
            yield " ".join(term.de.aliases)


def document_fields(doc: Document) -> dict:
    """The index fields of one search document (the one mapping every index writer uses)."""
    keywords = " ".join(doc.keywords)
    return {
        f.KEY: doc.key, f.KIND: doc.kind, f.GAME: doc.game, f.ENTRY: doc.entry, f.LANG: doc.lang,
        f.TITLE_TEXT: doc.title, f.BODY_TEXT: doc.body,
        f.title_field(doc.lang): doc.title,
        f.keywords_field(doc.lang): keywords,
        f.body_field(doc.lang): doc.body,
        f.PREFIXES: f"{doc.title} {keywords} {doc.body}",
        f.words_field(doc.lang): f"{doc.title} {keywords} {doc.body}",
    }


def write_generation(library: Library, target: Path, fingerprint: str) -> int:
    """Write a complete index into the new, empty directory ``target``; returns the doc count."""
    target.mkdir(parents=True)
    schema = f.build_schema(german_vocabulary(_german_texts(library)))
    ix = whoosh_index.create_in(str(target), schema)
    count = 0
    with ix.writer(timeout=10.0) as writer:
        for doc in library_documents(library):
            writer.add_document(**document_fields(doc))
            count += 1
    ix.close()
    marker = {
        "fingerprint": fingerprint, "documents": count, "built": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "langs": list(LANGS), "games": {game.slug: game_names(game) for game in library},
    }
    (target / MARKER).write_text(json.dumps(marker))
    return count


def switch_link(link: Path, target: Path) -> None:
    """Point ``link`` at ``target`` atomically (rename of a fresh symlink over the old one)."""
    tmp = link.parent / f".{link.name}.{os.getpid()}.tmp"
    if tmp.is_symlink() or tmp.exists():
        tmp.unlink()
    os.symlink(os.path.relpath(target, link.parent), tmp)
    os.replace(tmp, link)


def prune(link: Path) -> None:
    """Remove old generations: keep the current one and the newest complete ones.

    A directory without BUILD.json is a build that died (or is still running): it never takes a
    complete generation's place. Incomplete ones older than the newest complete generation are
    removed; a newer one is left alone, since it may be a build in progress.
    """
    current = Path(os.path.realpath(link))
    gens = sorted((p for p in generations_dir(link).iterdir() if p.is_dir()), key=lambda p: p.name)
    complete = [g for g in gens if (g / MARKER).exists()]
    keep = {current, *complete[-KEEP_GENERATIONS:]}
    newest = complete[-1].name if complete else ""
    for gen in gens:
        if gen in keep or (gen not in complete and gen.name > newest):
            continue
        shutil.rmtree(gen, ignore_errors=True)


def build(library: Library, link: Path, content_dir: Path) -> Path:
    """Build a new generation from ``library`` and switch ``link`` to it; returns the generation."""
    link = Path(link)
    link.parent.mkdir(parents=True, exist_ok=True)
    if link.exists() and not link.is_symlink():
        raise RuntimeError(f"{link} exists and is not an index link; remove it first")
    gens = generations_dir(link)
    gens.mkdir(exist_ok=True)
    target = gens / f"{time.strftime('%Y%m%d-%H%M%S')}-{time.time_ns() % 10**9:09d}-{os.getpid()}"
    try:
        write_generation(library, target, content_fingerprint(content_dir))
    except BaseException:
        shutil.rmtree(target, ignore_errors=True)
        raise
    switch_link(link, target)
    prune(link)
    return target
