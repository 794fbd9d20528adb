"""The content the running service answers from, kept for the process in ``app.extensions``.

Loaded on first use, so that commands such as ``content validate`` work on broken content.
Every published change switches the search index to a new generation; each process notices the
switch (one ``realpath`` per access) and reloads the content with it. A reload that fails keeps
the last good library.
"""
from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

from flask import Flask, current_app

from rules_index.content import ContentError, Library, load_library

KEY = "rules_index.content"


class ContentState:
    def __init__(self, root: Path, index_link: Path | None = None):
        self.root = root
        self.index_link = index_link
        self._library: Library | None = None
        self._stamp: str | None = None
        self._verification = None
        self._lock = threading.Lock()

    def _current_stamp(self) -> str | None:
        if self.index_link is None or not os.path.lexists(self.index_link):
            return None
        return os.path.realpath(self.index_link)

    @property
    def library(self) -> Library:
        stamp = self._current_stamp()
        if self._library is None or (stamp is not None and stamp != self._stamp):
            with self._lock:
                if self._library is None:
                    self._library = load_library(self.root)
                    self._stamp = stamp
                elif stamp != self._stamp:
                    try:
                        self._library = load_library(self.root)
                    except ContentError:
                        logging.getLogger(__name__).exception("content changed but does not validate; keeping the last good content")
                    self._stamp = stamp
        return self._library

    @property
    def verification(self):
        """The rule-engine checks of the current library, run once per library."""
        from rules_index.verification import verify

        library = self.library
        cached = self._verification
        if cached is None or cached[0] is not library:
            cached = (library, verify(library))
            self._verification = cached
        return cached[1]

    def reload(self) -> Library:
        """Load the content again; raises ContentError (and keeps the old library) if invalid."""
        fresh = load_library(self.root)
        with self._lock:
            self._library = fresh
            self._stamp = self._current_stamp()
        return fresh

    def mark_published(self) -> None:
        """The index now matches the loaded content: remember its generation."""
        with self._lock:
            self._stamp = self._current_stamp()


def init_app(app: Flask) -> None:
    app.extensions[KEY] = ContentState(Path(app.config["CONTENT_DIR"]), Path(app.config["INDEX_DIR"]))


def content_state() -> ContentState:
    return current_app.extensions[KEY]


def library() -> Library:
    return content_state().library


def verification():
    return content_state().verification
