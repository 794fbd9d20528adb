"""The content the running service answers from, kept for the process in ``app.extensions``.

Loaded on first use, so that commands such as ``content validate`` work on broken content.
Every published change switches the search index to a new generation; each process notices the
switch (asking ``rules_index.search.IndexLink`` where the link points) and reloads the content
with it. A reload that fails keeps the last good library: until the next change if the content
is invalid, until a later request tries again (``ContentState.RETRY_S``) if its files were gone or
changing while they were read.

A reload parses again only the games whose files changed (``GameCache``: the games kept by the
identity of their files), so a process follows a publication in a fraction of a full load; a game
the generation keeps as its build loaded it, from the same bytes (``search.stored_game``), is
taken from there instead of being parsed, validated and checked again. The rule checks come with
the generation (``search.stored_checks``) when it was built from exactly the loaded bytes; they
are run here only when it was not.
"""
from __future__ import annotations

import dataclasses
import logging
import os
import threading
import time
from functools import partial
from pathlib import Path

from flask import Flask, current_app

from rules_index.content import ContentError, Library, load_library, load_served
from rules_index.content.loader import library_of_checked_games, load_checked_game
from rules_index.search import IndexLink, built_fingerprint, stored_checks, stored_game
from rules_index.content.snapshot import content_fingerprint, read_content, snapshot_of
from rules_index.switching import BackgroundSwitch

KEY = "rules_index.content"


def _files_identity(folder: Path) -> tuple:
    """(name, inode, size, mtime) of a game folder's files: changes whenever a file is replaced
    (accepted changes are written by rename) or rewritten."""
    found = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_file():
                st = entry.stat()
                found.append((entry.name, st.st_ino, st.st_size, st.st_mtime_ns))
    return tuple(sorted(found))


class GameCache:
    """Loads the content as ``load_library`` does, reusing the parsed games whose files (and
    catalog entry) are unchanged since the last load. Any problem: the full load, which raises
    ContentError with every problem and its line."""

    def __init__(self):
        self._games: dict[str, tuple[tuple, object]] = {}
        self._lock = threading.Lock()

    def load(self, root: Path, stored=None, strict: bool = True) -> Library:
        """``stored(slug, folder fingerprint, catalog ids)``: a game kept elsewhere as loaded from
        those bytes, or None; asked before a changed game is parsed. Not ``strict``: content with
        problems is served as it loads (``load_served``) instead of raising ContentError."""
        with self._lock:
            kept = dict(self._games)
        fresh: dict[str, tuple[tuple, object]] = {}

        def checked_game(folder: Path, root: Path, ids):
            key = (_files_identity(folder), None if ids is None else tuple(ids))
            hit = kept.get(folder.name)
            if hit is not None and hit[0] == key:
                game, problems = hit[1], []
            else:
                found = None if stored is None else stored(folder.name, content_fingerprint(folder), ids)
                if found is not None:
                    game, problems = dataclasses.replace(found, folder=folder), []
                else:
                    game, problems = load_checked_game(folder, root, ids)
            fresh[folder.name] = (key, game)
            return game, problems

        library = library_of_checked_games(root, checked_game)
        if library is None:
            return load_library(root) if strict else load_served(root)
        with self._lock:
            self._games = fresh
        return library


def switch_wait(config) -> float | None:
    """``SWITCH_WAIT_MS`` (env ``RULES_SWITCH_WAIT_MS``): how long a request waits, after a change
    was published, for the new content and index generation to be ready before it answers from
    the previous ones (default 0: it never waits; ``None``: it always waits, so the next request
    sees the change)."""
    value = config.get("SWITCH_WAIT_MS", 0)
    return None if value is None else max(0.0, float(value)) / 1000


class ContentState:
    """The content a process answers from. A switch of the index link (a published change) is
    followed in the background (``rules_index.switching``): one thread loads the new content
    while requests go on answering from the last library; ``switch_wait`` is how long (s) a
    request waits for it first (``None``: until it is loaded).

    ``generation`` is the index generation the library is the content of (None while that is not
    known: no index link, or content reloaded ahead of its publication).
    """

    # After a load that failed for a passing reason (a file gone or changing while it was read),
    # the next request starts it again once this many seconds have passed.
    RETRY_S = 1.0

    def __init__(self, root: Path, index_link: Path | IndexLink | None = None, switch_wait: float | None = None):
        self.root = root
        self.index_link = index_link if index_link is None or isinstance(index_link, IndexLink) else IndexLink(index_link)
        self.switch_wait = switch_wait
        self._library: Library | None = None
        self._stamp: str | None = None  # the generation last followed (loaded, or failed to load)
        self.generation: str | None = None
        self._verification = None
        self._retry_at = 0.0  # time.monotonic() before which a failed load is not started again
        self._games = GameCache()
        self._lock = threading.Lock()
        self._switch = BackgroundSwitch(self._load_in_background, "content-switch")

    def _current_stamp(self) -> str | None:
        return None if self.index_link is None else self.index_link.generation()

    def _load(self, following: bool = False) -> Library:
        """The content; ``following`` a published change, changed games are taken from the index
        generation where it keeps them (not at a process's first load: a generation written by
        an earlier version of the code may be current then). The first load serves the content
        whatever problems it has (logged); a later one raises ContentError, keeping the last good."""
        load = partial(self._games.load, strict=following)
        if following and self.index_link is not None:
            load = partial(load, stored=partial(stored_game, self.index_link.path))
        library, _snapshot = read_content(self.root, load)
        return library

    @property
    def library(self) -> Library:
        stamp = self._current_stamp()
        if self._library is None:
            with self._lock:
                if self._library is None:
                    self._library = self._load()
                    self._stamp = self.generation = stamp
        elif stamp is not None and stamp != self._stamp and time.monotonic() >= self._retry_at:
            self._switch.follow(stamp, self.switch_wait)
        return self._library

    def _load_in_background(self, stamp: str) -> None:
        try:
            fresh = self._load(following=True)
        except ContentError:  # invalid content: keep the last good one until the next change
            logging.getLogger(__name__).exception("content changed but could not be loaded; keeping the last good content")
            fresh = None
        except Exception:  # files gone or changing while read: the last good content until a retry
            logging.getLogger(__name__).exception("content changed but could not be read; trying again in %.0f s", self.RETRY_S)
            self._retry_at = time.monotonic() + self.RETRY_S
            return
        with self._lock:
            if fresh is not None:
                self._library = fresh
                self.generation = stamp
            self._stamp = stamp

    @property
    def verification(self):
        """The rule-engine checks of the current library: those kept with the index generation
        built from exactly this content, else run once per library."""
        from rules_index.verification import verify

        library = self.library
        cached = self._verification
        if cached is None or cached[0] is not library:
            report = None
            snapshot = snapshot_of(library)
            if snapshot is not None and self.index_link is not None:
                report = stored_checks(self.index_link, snapshot.fingerprint)
            cached = (library, report if report is not None else verify(library))
            self._verification = cached
        return cached[1]

    def catch_up(self) -> Library:
        """The content of the index link's current generation, loaded in this process: the thread
        waits for the background switch to it, joining the one a request of this process may have
        started already (else starting it), so that the content is loaded once per process. A
        content that does not load keeps the last good one (logged), as for every switch."""
        if self._library is None:
            return self.library
        stamp = self._current_stamp()
        if stamp is not None and stamp != self._stamp:
            self._switch.follow(stamp, None)
        return self._library

    def reload(self) -> Library:
        """Load the content again; raises ContentError (and keeps the old library) if invalid.
        Its generation is unknown until ``mark_published`` (or the next switch) names it."""
        fresh = self._load(following=True)
        with self._lock:
            self._library = fresh
            self._stamp = self._current_stamp()
            self.generation = None
        return fresh

    def mark_published(self) -> None:
        """The index now matches the loaded content: remember its generation. If another build
        published newer content meanwhile, the stamp is left behind, so the next access loads it."""
        snapshot = snapshot_of(self._library) if self._library is not None else None
        if self.index_link is None or snapshot is None:
            return
        stamp = self._current_stamp()
        if built_fingerprint(self.index_link) == snapshot.fingerprint:
            with self._lock:
                self._stamp = self.generation = stamp


LINK_KEY = "rules_index.index_link"


def index_link(app: Flask) -> IndexLink:
    """The app's index link (one per app: every part of it reads where it points there)."""
    found = app.extensions.get(LINK_KEY)
    if found is None:
        found = app.extensions[LINK_KEY] = IndexLink(app.config["INDEX_DIR"])
    return found


def init_app(app: Flask) -> None:
    app.extensions[KEY] = ContentState(Path(app.config["CONTENT_DIR"]), index_link(app), switch_wait=switch_wait(app.config))


def content_state() -> ContentState:
    return current_app.extensions[KEY]


def library() -> Library:
    return content_state().library


def verification():
    return content_state().verification
