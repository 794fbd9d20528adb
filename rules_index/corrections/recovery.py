"""What each process does once, on its first request: record accept commits a dead process left
without their row (journal.settle, after following the remote if there is one), remove the temp
files of cut-off writes, and publish the index if it is behind the content files.

Not at app creation: CLI commands (``db upgrade``, ``content validate``) create the app too and
must neither need the database nor rebuild the index.
"""
from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Callable

from flask import Flask, current_app

from rules_index.content import ContentError
from rules_index.content.writer import leftover_tmp, remove_leftover_tmp
from rules_index.search.build import is_stale

from . import availability, db
from .changes import content_repo, settle
from .content_lock import content_lock, lock_file_in
from .journal import Recovered, unrecorded
from .journal import write_behind as journal_write_behind

KEY = "rules_index.recovery"

log = logging.getLogger(__name__)


def sweep_tmp(root: Path) -> list[Path]:
    """Remove the temp files of cut-off writes; returns them. Only safe while holding the content
    lock (outside it, one may belong to a write under way)."""
    removed = remove_leftover_tmp(root)
    if removed:
        log.warning("removed %d temp file(s) of cut-off writes: %s", len(removed), ", ".join(str(p) for p in removed))
    return removed


class Startup:
    """The recovery a process runs once, on its first request."""

    def __init__(self, publish: Callable[[], None]):
        self._publish = publish
        self._done = False
        self._lock = threading.Lock()

    def run_once(self) -> None:
        if self._done or not self._lock.acquire(blocking=False):
            return  # done, or under way in another thread (whose requests do not wait for it)
        try:
            if not self._done:
                self._done = True
                self.run(current_app)
        except Exception:  # housekeeping: a reader's request must not fail because of it
            log.exception("recovery at start failed; the next accept tries again")
        finally:
            self._lock.release()

    def run(self, app: Flask) -> list[Recovered]:
        root = Path(app.config["CONTENT_DIR"])
        link = Path(app.config["INDEX_DIR"])
        results: list[Recovered] = []
        repo = content_repo(root)
        if not self._work_to_do(repo, root, link):
            return results
        with content_lock(lock_file_in(app.instance_path)):
            if availability.usable():
                try:
                    results = settle(db.session(), repo, root)
                except availability.DATABASE_ERRORS as exc:
                    log.warning("accept commits not recorded at start: %s", availability.describe(exc))
                    availability.failed(exc)
            sweep_tmp(root)
            written = journal_write_behind(repo, root)
            # A missing index is built on first use (web.state); one that exists must not
            # stay behind the files: this is the app's start-up rebuild of a stale index.
            if link.exists() and (written or any(r.content_changed for r in results) or is_stale(link, root)):
                try:
                    self._publish()
                except ContentError:
                    log.exception("the content does not load; the search index keeps its last good build")
        return results

    @staticmethod
    def _work_to_do(repo, root: Path, link: Path) -> bool:
        """Looked at without the lock first: a process starting while another one accepts should
        not wait for that accept when there is nothing to settle (the usual case)."""
        if repo.remote:
            return True
        if availability.usable():
            try:
                if unrecorded(db.session(), repo):
                    return True
            except availability.DATABASE_ERRORS as exc:
                availability.failed(exc)
        return (bool(leftover_tmp(root)) or (link.exists() and is_stale(link, root))
                or bool(journal_write_behind(repo, root, dry_run=True)))


def init_app(app: Flask, publish: Callable[[], None]) -> None:
    startup = Startup(publish)
    app.extensions[KEY] = startup
    app.before_request(startup.run_once)
