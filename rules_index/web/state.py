"""What a process serves: one snapshot of one version of the content.

A snapshot is the library, the rule checks and the opened search index of one index generation,
with the version of the content it was built from (the commit; ``search.build``). A generation
keeps all three, so a process takes them from it and never from the content files: a snapshot
cannot mix two versions. A request takes the snapshot once (``snapshot()``, kept in ``flask.g``)
and answers from it alone: its page, its ETag and its search are of one version.

``Served`` is the one owner of the process's snapshot. When the index link points at a new
generation (a change published by this process or another), the next snapshot is made in a
background thread (``rules_index.switching``) while requests answer from the current one, and is
put in place with one assignment. ``SWITCH_WAIT_MS`` (env ``RULES_SWITCH_WAIT_MS``) is how long a
request waits for it first (default 0; ``None``: until it is ready). A generation that
cannot be opened is logged and the current snapshot serves on. A process's first snapshot is made
in the request that asks for it; with no index yet, the index is built first, from the content
as it loads (``load_served``: a process starts on any content).
"""
from __future__ import annotations

import gc
import logging
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from flask import Flask, current_app, g

from rules_index.content import Library, load_served
from rules_index.content.snapshot import read_content
from rules_index.search import IndexLink, IndexUnavailable, SearchIndex, SearchResult, build
from rules_index.search.build import CHECKS, generation_info, generation_readable, read_library
from rules_index.search.searcher import POSTINGS_BYTES
from rules_index.switching import BackgroundSwitch

KEY = "rules_index.served"
LINK_KEY = "rules_index.index_link"
_PINNED = "rules_index_snapshot"  # the request's snapshot, in flask.g

log = logging.getLogger(__name__)


@dataclass(frozen=True, eq=False)
class Snapshot:
    """One version of the content, as a process serves it."""

    path: str  # the index generation it is read from
    version: str  # the commit (or the content's fingerprint): what ETags are made of
    library: Library
    fingerprints: dict[str, str] = field(repr=False)  # each game folder's, as built
    checks: object = field(repr=False)  # rules_index.verification.Report
    search: object = field(repr=False)  # the opened search generation


def switch_wait(config) -> float | None:
    """``SWITCH_WAIT_MS`` in seconds (``None``: wait until the new snapshot is ready)."""
    value = config.get("SWITCH_WAIT_MS", 0)
    return None if value is None else max(0.0, float(value)) / 1000


class Served:
    """The snapshot a process serves, following the index link (see the module's text)."""

    def __init__(self, content_dir: Path, link: IndexLink, index: SearchIndex, switch_wait: float | None = 0.0):
        self.content_dir = Path(content_dir)
        self.link = link
        self.index = index
        self.switch_wait = switch_wait
        self._snapshot: Snapshot | None = None
        self._failed: str | None = None  # a generation that could not be opened (not tried again)
        # Why the content as it stands now cannot be published (its problems), while it cannot:
        # the snapshot served is older than the branch (``publishing.publish``; health says so).
        self.unpublishable: list[str] | None = None
        self._lock = threading.Lock()
        self._switch = BackgroundSwitch(self._prepare, "snapshot-switch")

    def current(self) -> Snapshot:
        """The snapshot to answer from, after starting (and waiting ``switch_wait`` for) the one
        of a generation the link has moved to."""
        real = self.link.generation()
        snapshot = self._snapshot
        if snapshot is not None and real == snapshot.path:
            return snapshot
        if snapshot is None or not os.path.isdir(snapshot.path):  # the first, or pruned under us
            return self._now()
        if real is not None and real != self._failed:
            self._switch.follow(real, self.switch_wait)
        return self._snapshot

    @property
    def held(self) -> Snapshot | None:
        """The snapshot held now, without following the link (None before the first)."""
        return self._snapshot

    def catch_up(self) -> Snapshot:
        """The snapshot of the generation the link points at now, waited for (the process that
        published a change answers from it)."""
        real = self.link.generation()
        if self._snapshot is None or real is None:
            return self.current()
        if real != self._snapshot.path:
            self._switch.follow(real, None)
        return self._snapshot

    def _now(self) -> Snapshot:
        """Open the link's generation in this thread, building the index first if there is none
        (or none this code can read)."""
        with self._lock:
            real = self.link.generation()
            if self._snapshot is not None and self._snapshot.path == real:
                return self._snapshot
            try:
                snapshot = self._open(real)
            except Exception:
                if real is not None:
                    log.exception("the index at %s cannot be served; building it again", real)
                # Read with the snapshot of the bytes read: build reads nothing again, so content
                # that does not validate is indexed as it is served, not refused.
                library, _snapshot = read_content(self.content_dir, load_served)
                build(library, self.link, self.content_dir)
                snapshot = self._open(self.link.generation())
            self._install(snapshot)
            return snapshot

    def _open(self, real: str | None) -> Snapshot:
        from rules_index.verification import load_report, verify

        info = generation_info(real) if real is not None else None
        if info is None:
            raise FileNotFoundError(f"no complete index generation at {self.link.path}")
        previous = self._snapshot
        library, fingerprints = read_library(Path(real), None if previous is None else (previous.library, previous.fingerprints))
        checks = load_report(Path(real) / CHECKS) or verify(library)  # run here only for other engine code
        search = self.index.open(real)
        return Snapshot(real, info.get("version") or info["fingerprint"], library, fingerprints, checks, search)

    def _prepare(self, real: str) -> None:
        try:
            snapshot = self._open(real)
            snapshot.search.warm()
        except Exception:  # a generation pruned meanwhile, a broken one: the current one serves on
            log.exception("could not switch to the index generation %s; the current snapshot serves on", real)
            self._failed = real
            return
        with self._lock:
            if self.link.generation() == real or self._snapshot is None or not os.path.isdir(self._snapshot.path):
                self._install(snapshot)

    def _install(self, snapshot: Snapshot) -> None:
        self.index.install(snapshot.search)
        self._snapshot = snapshot  # the one assignment readers see
        if gc.get_freeze_count():
            # A process that keeps what it loaded out of the collector (a gunicorn worker,
            # gunicorn.conf.py) keeps each snapshot it serves out too: otherwise a switch's new
            # objects start a full pass over the snapshots, every reader of the worker waiting
            # for it (bench/RESULTS.md, "Frozen snapshots"). The previous snapshot is freed by
            # reference counting all the same; what of it is in a reference cycle (a few of the
            # caches' links per switch) stays until the worker ends.
            gc.freeze()


def index_link(app: Flask) -> IndexLink:
    """The app's index link (one per app: every part of it reads where it points there)."""
    found = app.extensions.get(LINK_KEY)
    if found is None:
        found = app.extensions[LINK_KEY] = IndexLink(app.config["INDEX_DIR"])
    return found


def init_app(app: Flask) -> None:
    index = SearchIndex(index_link(app), int(app.config.get("SEARCH_POSTINGS_CACHE_BYTES", POSTINGS_BYTES)))
    app.extensions[KEY] = Served(Path(app.config["CONTENT_DIR"]), index_link(app), index, switch_wait(app.config))


def served() -> Served:
    return current_app.extensions[KEY]


def snapshot() -> Snapshot:
    """The snapshot this request (or app context) answers from, taken once."""
    pinned = g.get(_PINNED)
    if pinned is None:
        pinned = served().current()
        setattr(g, _PINNED, pinned)
    return pinned


def repin() -> Snapshot:
    """After a publication in this request: the request answers from the new snapshot."""
    fresh = served().catch_up()
    setattr(g, _PINNED, fresh)
    return fresh


def answered_version() -> str | None:
    """The version the request answered from, if it used the content."""
    pinned = g.get(_PINNED)
    return None if pinned is None else pinned.version


def content_dir() -> Path:
    return served().content_dir


def library() -> Library:
    return snapshot().library


def verification():
    return snapshot().checks


def version() -> str:
    return snapshot().version


# Generations found damaged on disk. They never mend: a rebuild makes a new one.
_damaged: set[str] = set()
# A failed search is blamed on the index only after it is read whole; a generation read whole
# without fault is not read again for this long, whatever fails (a fault of the code would
# otherwise make every failing request read the whole index).
READ_WHOLE_EVERY = 60.0
_read_whole: dict[str, float] = {}


def index_damaged(path: str) -> bool:
    """Whether the generation at ``path`` cannot be read whole; read again at most every
    ``READ_WHOLE_EVERY`` seconds while it can."""
    if path in _damaged:
        return True
    if time.monotonic() - _read_whole.get(path, -READ_WHOLE_EVERY) < READ_WHOLE_EVERY:
        return False
    if not generation_readable(Path(path)):
        _damaged.add(path)
        return True
    _read_whole[path] = time.monotonic()
    return False


def search_results(text: str, lang: str, **options) -> SearchResult:
    """The search's results. A search that fails on an index damaged on disk (a file cut short)
    raises IndexUnavailable, which readers get as a 503 (logged); any other failure is the code's,
    and stays the 500 it is."""
    pinned = snapshot()
    if pinned.path in _damaged:
        raise IndexUnavailable(f"the index at {served().link.path} could not be read")
    try:
        return served().index.search(text, lang, gen=pinned.search, **options)
    except IndexUnavailable:
        raise
    except Exception as exc:
        if not index_damaged(pinned.path):
            raise
        failure = f"{type(exc).__name__}: {exc}"
    # Raised and logged apart from the failure: its traceback holds the files Whoosh opened for a
    # reader it could not make, which close only when it goes. The damage is the news, in one line.
    log.error("the search index at %s could not be read (%s); flask --app app index build makes it again",
              pinned.path, failure)
    raise IndexUnavailable(f"the index at {served().link.path} could not be read")


def related_faq(game, entry, lang: str, limit: int = 6) -> list:
    """The entry's own related ids first, then the index's most similar entries of the game."""
    found_ids = served().index.related("faq", game.slug, entry.id, lang, gen=snapshot().search)
    ids = [*entry.related, *found_ids]
    found = [game.faq_entry(i) for i in dict.fromkeys(ids) if i != entry.id]
    return [f for f in found if f is not None][:limit]
