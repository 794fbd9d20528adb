"""The content the running service answers from, kept for the process in ``app.extensions``.

Loaded on first use, so that commands such as ``content validate`` work on broken content.
A reload that fails keeps the last good library.
"""
from __future__ import annotations

import threading
from pathlib import Path

from flask import Flask, current_app

from rules_index.content import Library, load_library

KEY = "rules_index.content"


class ContentState:
    def __init__(self, root: Path):
        self.root = root
        self._library: Library | None = None
        self._verification = None
        self._lock = threading.Lock()

    @property
    def library(self) -> Library:
        if self._library is None:
            with self._lock:
                if self._library is None:
                    self._library = load_library(self.root)
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
        return fresh


def init_app(app: Flask) -> None:
    app.extensions[KEY] = ContentState(Path(app.config["CONTENT_DIR"]))


def content_state() -> ContentState:
    return current_app.extensions[KEY]


def library() -> Library:
    return content_state().library


def verification():
    return content_state().verification
