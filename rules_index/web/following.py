"""Following the content remote: every host asks it every second and serves its head.

With ``CONTENT_REMOTE`` (env ``RULES_CONTENT_REMOTE``: any git URL) each process starts, on its
first request, a thread that asks the remote for its head every ``CONTENT_FOLLOW_S`` seconds (default 1).
The remote is asked for its head (``git ls-remote``: nothing moves); only when it moved on does the
process take the content lock, moves the local branch and
the work tree to it, records accept commits without their row (changes.follow) and publishes, as
after an accept of its own; the other processes of the host follow the published index as usual.
A fetch that fails (the remote unreachable) is logged and tried again at the next tick.
"""
from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

from flask import Flask

from rules_index.content import ContentError
from rules_index.content.repo import GitError
from rules_index.corrections import availability, changes, db
from rules_index.corrections.content_lock import content_lock, lock_file_in

from .publishing import publish
from .state import served

KEY = "rules_index.following"
LINK_KEY = "rules_index.following.link"
log = logging.getLogger(__name__)


class Every:
    """A thread of the process that calls ``tick()`` every ``interval`` seconds inside the app's
    context, started by the process's first request; it lives on whatever a tick raises."""

    def __init__(self, app: Flask, interval: float, tick, name: str):
        self.app, self.interval, self.tick, self.name = app, interval, tick, name
        self._started = False
        self._lock = threading.Lock()

    def start_once(self) -> None:
        if self._started:
            return
        with self._lock:
            if not self._started:
                self._started = True
                threading.Thread(target=self._run, name=self.name, daemon=True).start()

    def _run(self) -> None:
        while True:
            time.sleep(self.interval)
            try:
                with self.app.app_context():
                    self.tick()
            except (GitError, ContentError, OSError) as exc:
                log.warning("%s failed (%s); trying again in %.0f s", self.name, exc, self.interval)
            except Exception:
                log.exception("%s failed", self.name)


def follow_remote(app: Flask) -> bool:
    """Ask the remote for its head; if it moved on, follow it and publish. Returns whether it did."""
    root = Path(app.config["CONTENT_DIR"])
    repo = changes.content_repo(root)
    if repo.peek() == repo.head():
        return False
    with content_lock(lock_file_in(app.instance_path)):
        old = repo.head()
        session = db.session() if availability.usable() else None
        moved = changes.follow(session, repo, root)
        if moved:
            # Only the entries the accepts name are indexed again (all, after a commit by hand).
            publish(changes.entries_between(repo, old, repo.head()), holding_lock=True)
    return bool(moved)


def init_app(app: Flask) -> None:
    interval = app.config.get("FOLLOW_LINK_S", 1.0)
    if interval:  # asking for the current snapshot makes it follow the link
        app.extensions[LINK_KEY] = watcher = Every(app, float(interval), lambda: served().current(), "index-follow")
        app.before_request(watcher.start_once)
    if app.config.get("CONTENT_REMOTE"):
        interval = float(app.config.get("CONTENT_FOLLOW_S", 1.0))
        app.extensions[KEY] = follower = Every(app, interval, lambda: follow_remote(app), "content-follow")
        app.before_request(follower.start_once)
