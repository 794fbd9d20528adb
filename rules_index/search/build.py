"""Building the index: into a new generation directory, then an atomic switch of the link.

Readers follow ``<index>`` (a symlink) to a complete generation under ``<index>.generations/``,
so they never see a half-built index. Each generation holds ``BUILD.json`` (the fingerprint and
version of the content and schema it was built from; only directories with it, made by this code,
are opened, as index files hold pickles), ``FILES.json`` (each content file's hash),
``CHECKS.pickle`` (the rule checks) and the library (``LIBRARY.pickle``, ``GAMES/<slug>.pickle``):
everything a process serves of one version of the content (``rules_index.web.state``).

Builds are serialised across processes by a file lock (``build_lock``), and a build never
switches the link to content read before the current generation's (``read_ns``). With
``changed``, the new generation is made from the current one when it can (``incremental``).
"""
from __future__ import annotations

import fcntl
import json
import os
import pickle
import shutil
import time
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

from whoosh import index as whoosh_index

from rules_index.content import LANGS, Library

from . import schema as f
from .analysis import german_vocabulary
from .documents import Document, document_fields, faq_german_texts, game_names, library_documents, section_german_texts
from .incremental import ENTRIES, library_entry_hashes, update_generation
from rules_index.content.repo import content_version
from rules_index.content.snapshot import Snapshot, content_fingerprint, fingerprint_of, read_content, snapshot_of

MARKER = "BUILD.json"
LIBRARY = "LIBRARY.pickle"
FILES = "FILES.json"
CHECKS = "CHECKS.pickle"
GAMES = "GAMES"
KEEP_GENERATIONS = 2
RETIRED = "RETIRED"  # written into a generation when the link leaves it; its mtime is that moment
# Worker processes follow a switch in the background and answer from the generation they hold
# meanwhile: a generation stays on disk this long after the link left it, however many follow.
PRUNE_GRACE_S = 120.0
# (game slug, "faq" | "section", entry id): an entry an accepted change wrote.
Changed = tuple[str, str, str]


def generations_dir(link: Path) -> Path:
    return link.parent / f"{link.name}.generations"


def generation_info(generation: Path) -> dict | None:
    """A generation's BUILD.json, or None if it has none (not complete, not ours)."""
    try:
        info = json.loads((Path(generation) / MARKER).read_text())
    except (OSError, ValueError):
        return None
    return info if isinstance(info, dict) and "fingerprint" in info else None


def current_generation(link: Path) -> tuple[Path, dict] | tuple[None, None]:
    """The generation the link points at and its BUILD.json, or (None, None)."""
    if not os.path.lexists(link):
        return None, None
    target = Path(os.path.realpath(link))
    info = generation_info(target)
    return (target, info) if info is not None else (None, None)


def built_fingerprint(link: Path) -> str | None:
    _target, info = current_generation(Path(link))
    return info["fingerprint"] if info else None


def built_version(link: Path) -> str | None:
    """The version the current generation was built from (its commit, or ``content-`` and the
    fingerprint), or None without one."""
    _target, info = current_generation(Path(link))
    return info.get("version") if info else None


def is_stale(link: Path, content_dir: Path) -> bool:
    """Whether the index is missing, of another schema, of other content, or behind on the German
    compound words (an incremental update keeps the vocabulary of the generation it started from)."""
    _target, info = current_generation(Path(link))
    return (
        info is None or info.get("schema") != f.SCHEMA_VERSION or info.get("vocabulary_behind", False)
        or info["fingerprint"] != content_fingerprint(content_dir)
    )


def readable(link: Path) -> bool:
    """Whether the current generation can be read whole: every stored document and every term's
    postings (a file truncated on disk opens, then fails the searches that reach it). Reads the
    whole index: for the command that builds it, and for a search that failed, not for serving."""
    target, info = current_generation(Path(link))
    return info is not None and generation_readable(target)


def generation_readable(target: Path) -> bool:
    """Whether the generation in the folder ``target`` can be read whole (see ``readable``)."""
    with warnings.catch_warnings():
        # Whoosh leaves the files of a reader it failed to make open: they go with the error, quietly.
        warnings.simplefilter("ignore", ResourceWarning)
        try:
            with whoosh_index.open_dir(str(target)).searcher() as searcher:
                reader = searcher.reader()
                for _fields in reader.all_stored_fields():
                    pass
                for fieldname, text in reader.all_terms():
                    reader.postings(fieldname, text).all_ids()
        except Exception:  # any failure to read is a generation that cannot serve
            return False
    return True


@contextmanager
def build_lock(link: Path) -> Iterator[None]:
    """Serialise builds of ``link`` across threads and processes (an flock on a file beside it)."""
    path = Path(link).parent / f".{Path(link).name}.lock"
    fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def german_texts(library: Library, asked: bool = False):
    """The German texts whose words make the compound splitter's vocabulary (also the export's);
    with ``asked``, those of split verbs (``verb_texts``)."""
    for game in library:
        for faq in game.faq:
            yield from faq_german_texts(faq, asked)
        for section in game.sections:
            yield from section_german_texts(section, asked)
        for term in game.glossary:
            yield " ".join(term.de.names())


def verb_texts(library: Library):
    """The German texts whose words split verbs are joined into: ``german_texts`` and players'
    ways of asking ("vorbereiten", "austeilen"). Not the compounds' vocabulary: players' words
    split compounds the rulebooks' words keep whole ("Auktionshaus")."""
    return german_texts(library, asked=True)


def write_marker(target: Path, library: Library, snapshot: Snapshot, documents: int, **extra) -> None:
    """BUILD.json (written last: it makes the directory a complete generation) and FILES.json."""
    (target / FILES).write_text(json.dumps(snapshot.files))
    marker = {
        "fingerprint": snapshot.fingerprint, "schema": f.SCHEMA_VERSION, "read_ns": snapshot.read_ns,
        "documents": documents, "built": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "langs": list(LANGS), "games": {game.slug: game_names(game) for game in library},
        "lexicon": library.lexicon.as_json(), **extra,
    }
    (target / MARKER).write_text(json.dumps(marker))


def write_generation(library: Library, target: Path, snapshot: Snapshot) -> int:
    """Write a complete index into the new, empty directory ``target``; returns the doc count."""
    return write_documents(library_documents(library), german_texts(library), target, verbs=verb_texts(library), timeout=10.0)


def write_documents(documents: Iterable[Document], german: Iterable[str], target: Path, verbs: Iterable[str] = (),
                    **options) -> int:
    """Index ``documents`` into the new, empty directory ``target`` with the service's schema, its
    compound splitter's vocabulary made of the texts ``german`` and its split verbs' of ``verbs``;
    returns the doc count.
    ``options`` go to Whoosh's writer (the benchmarks' synthetic games use several processes)."""
    target.mkdir(parents=True)
    ix = whoosh_index.create_in(str(target), f.build_schema(german_vocabulary(german), german_vocabulary(verbs)))
    count = 0
    with ix.writer(**options) as writer:
        for doc in documents:
            writer.add_document(**document_fields(doc))
            count += 1
    ix.close()
    return count


def write_checks(library: Library, target: Path, base: Path | None = None, changed: Iterable[Changed] = (),
                 held: tuple[str, object] | None = None) -> None:
    """The rule checks of ``library`` into ``target``: those of ``base`` (the generation this one
    was made from) with the changed FAQ entries' checks run again, or every check. ``held``: a
    generation's path and its checks as the caller holds them, taken instead of reading them back
    when that generation is ``base``."""
    from rules_index.verification import load_report, reverify_entries, save_report, verify

    if base is not None and held is not None and os.path.realpath(held[0]) == os.path.realpath(base):
        previous = held[1]
    else:
        previous = load_report(base / CHECKS) if base is not None else None
    if previous is None:
        report = verify(library)
    else:
        report = reverify_entries(previous, library, {(g, k, e) for g, k, e in changed if k == "faq"})
    save_report(report, target / CHECKS)


def _library_head(generation: Path) -> dict:
    """A generation's LIBRARY.pickle: the catalog, the players' words, each game's fingerprint."""
    return pickle.loads((Path(generation) / LIBRARY).read_bytes())


def write_library(library: Library, target: Path, snapshot: Snapshot, base: Path | None = None) -> None:
    """The library into ``target``: each game in ``GAMES/<slug>.pickle`` (linked from ``base``, the
    generation this one was made from, when its folder's files are the same), then LIBRARY.pickle
    with the catalog, the players' words and the fingerprint of each game folder's files as read."""
    folder = target / GAMES
    folder.mkdir(exist_ok=True)
    try:
        before = _library_head(base)["games"] if base is not None else {}
    except Exception:  # none kept, or not readable by this code: every game is written
        before = {}
    fingerprints = {}
    for game in library:
        prefix = f"{game.slug}/"
        fingerprints[game.slug] = fingerprint = fingerprint_of(
            {name[len(prefix):]: digest for name, digest in snapshot.files.items() if name.startswith(prefix)})
        path = folder / f"{game.slug}.pickle"
        if before.get(game.slug) == fingerprint:
            try:
                os.link(base / GAMES / path.name, path)
                continue
            except OSError:
                pass
        path.write_bytes(pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL))
    head = {"catalog": library.catalog, "lexicon": library.lexicon, "games": fingerprints}
    (target / LIBRARY).write_bytes(pickle.dumps(head, protocol=pickle.HIGHEST_PROTOCOL))


def read_library(generation: Path, known: tuple[Library, dict[str, str]] | None = None) -> tuple[Library, dict[str, str]]:
    """The library a generation keeps and each game's fingerprint; the games of ``known`` (a
    library read before, with its fingerprints) are taken as they are where their folders' files
    are the same. Raises when the generation keeps none this code can read."""
    head = _library_head(generation)
    games = {}
    for slug, fingerprint in head["games"].items():
        if known is not None and known[1].get(slug) == fingerprint and known[0].game(slug) is not None:
            games[slug] = known[0].game(slug)
        else:
            games[slug] = pickle.loads((Path(generation) / GAMES / f"{slug}.pickle").read_bytes())
    return Library(games=games, catalog=head["catalog"], lexicon=head["lexicon"]), head["games"]


def same_ids(kept: Iterable[str] | None, wanted: Iterable[str] | None) -> bool:
    """Whether a game was loaded with the catalog's ids it is wanted with (None: the catalog names
    none for it)."""
    return (None if kept is None else tuple(kept)) == (None if wanted is None else tuple(wanted))


def stored_game(link: Path, slug: str, folder_fingerprint: str, catalog_ids: Iterable[str] | None):
    """The game ``slug`` as the current generation keeps it, if it was loaded from a folder with
    ``folder_fingerprint`` and with ``catalog_ids``; else None (also for a file that cannot be
    read back)."""
    target, info = current_generation(Path(link))
    if info is None:
        return None
    try:
        head = _library_head(target)
        if head["games"].get(slug) != folder_fingerprint:
            return None
        if not same_ids(head["catalog"].get(slug), catalog_ids):
            return None
        return pickle.loads((target / GAMES / f"{slug}.pickle").read_bytes())
    except Exception:  # none kept, or not readable by this code: the caller reads the folder
        return None


def switch_link(link: Path, target: Path) -> None:
    """Point ``link`` at ``target`` atomically (rename of a fresh symlink over the old one)."""
    tmp = link.parent / f".{link.name}.{os.getpid()}.tmp"
    if tmp.is_symlink() or tmp.exists():
        tmp.unlink()
    previous = os.path.realpath(link) if os.path.lexists(link) else None
    os.symlink(os.path.relpath(target, link.parent), tmp)
    os.replace(tmp, link)
    if previous is not None and previous != os.path.realpath(target) and os.path.isdir(previous):
        Path(previous, RETIRED).touch()


def prune(link: Path) -> None:
    """Remove old generations: keep the current one, the newest complete ones, and those the link
    left less than ``PRUNE_GRACE_S`` ago (a worker may still be answering from them).

    A directory without BUILD.json is a build that died (or is still running): it never takes a
    complete generation's place. Incomplete ones older than the newest complete generation are
    removed; a newer one is left alone, since it may be a build in progress.
    """
    current = Path(os.path.realpath(link))
    gens = sorted((p for p in generations_dir(link).iterdir() if p.is_dir()), key=lambda p: p.name)
    complete = [g for g in gens if (g / MARKER).exists()]
    keep = {current, *complete[-KEEP_GENERATIONS:], *(g for g in complete if _recently_retired(g))}
    newest = complete[-1].name if complete else ""
    for gen in gens:
        if gen in keep or (gen not in complete and gen.name > newest):
            continue
        shutil.rmtree(gen, ignore_errors=True)


def _recently_retired(generation: Path) -> bool:
    try:
        return time.time() - (generation / RETIRED).stat().st_mtime < PRUNE_GRACE_S
    except FileNotFoundError:
        return False


def new_generation_dir(link: Path) -> Path:
    gens = generations_dir(link)
    gens.mkdir(exist_ok=True)
    # One reading of the clock: the second and its nanoseconds read apart could name a build made
    # at a second's turn before one made earlier in that second (names sort as builds were made).
    now = time.time_ns()
    return gens / f"{time.strftime('%Y%m%d-%H%M%S', time.localtime(now // 10**9))}-{now % 10**9:09d}-{os.getpid()}"


def build(library: Library, link: Path, content_dir: Path, changed: Iterable[Changed] | None = None,
          version: str | None = None, held_checks: tuple[str, object] | None = None) -> Path:
    """Make a generation of ``library`` and switch ``link`` to it; returns the generation the
    link points at afterwards (the current one if it holds newer content).

    ``changed``: an accepted change wrote entries, so an update is wanted (``incremental`` finds
    the changed entries itself) and content already published is not built again. A library
    that did not come from ``snapshot.read_content`` is read again, so the fingerprint is of the
    bytes indexed. ``held_checks``: (generation, its checks) as the caller serves them.
    """
    link = Path(link)
    link.parent.mkdir(parents=True, exist_ok=True)
    if link.exists() and not link.is_symlink():
        raise RuntimeError(f"{link} exists and is not an index link; remove it first")
    snapshot = snapshot_of(library)
    if snapshot is None:
        library, snapshot = read_content(content_dir)
    changed = None if changed is None else list(changed)
    if version is None:
        version = content_version(content_dir, snapshot.fingerprint)
    with build_lock(link):
        current, info = current_generation(link)
        if info is not None and info.get("read_ns", 0) > snapshot.read_ns:
            return current  # newer content is already published
        if changed is not None and info is not None and info["fingerprint"] == snapshot.fingerprint:
            return current  # this content is already published
        target = new_generation_dir(link)
        try:
            done = None
            if changed is not None and info is not None:
                done = update_generation(library, snapshot, current, info, target)
            if done is None:
                shutil.rmtree(target, ignore_errors=True)
                count = write_generation(library, target, snapshot)
                write_checks(library, target)
                write_library(library, target, snapshot)
                (target / ENTRIES).write_text(json.dumps(library_entry_hashes(library)))
                write_marker(target, library, snapshot, count, version=version)
            else:
                write_checks(library, target, current, done.changed, held=held_checks)
                write_library(library, target, snapshot, current)
                (target / ENTRIES).write_text(json.dumps(done.entries))
                write_marker(target, library, snapshot, done.documents, version=version, **done.marker)
        except BaseException:
            shutil.rmtree(target, ignore_errors=True)
            raise
        switch_link(link, target)
        prune(link)
    return target
