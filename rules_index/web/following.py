"""Following the content remote: every host asks it every second and serves its head.

With ``CONTENT_REMOTE`` (env ``RULES_CONTENT_REMOTE``: any git URL) each process starts, on its
first request, a thread that asks the remote for its head every ``CONTENT_FOLLOW_S`` seconds
(default 1; ``0``: no thread, the caller calls ``follow_remote``). The remote is asked for its head
(``git ls-remote``: nothing moves). When it moved on, the process takes the content lock, moves the
local branch and the work tree to it, records accept commits without their row (changes.follow)
and publishes, as after an accept of its own; the other processes of the host follow the
published index as usual.

What is published is the branch, whoever moved it: an accept follows the remote before its gate
runs (``changes.settle``) and may then be held or refused, publishing nothing. So a tick also
publishes when the index shows an older commit than the branch, from the entries the commits
since the published one name. A fetch that fails (the remote unreachable) is logged and tried
again at the next tick.
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
from rules_index.search import built_version

from .publishing import publish
from .state import served

KEY = "rules_index.following"
LINK_KEY = "rules_index.following.link"
TRIED_KEY = "rules_index.following.tried"  # {"head": the last head this process published}
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
        failing = None  # what the last tick's failure said: logged once, not every second
        while True:
            time.sleep(self.interval)
            try:
                with self.app.app_context():
                    self.tick()
            except (GitError, ContentError, OSError, Unpublishable) as exc:
                said = " ".join(str(exc).split())
                if said != failing:
                    log.warning("%s failed (%s); trying again every %g s, logged again when this changes",
                                self.name, said, self.interval)
                failing = said
            except Exception as exc:
                if repr(exc) != failing:
                    log.exception("%s failed", self.name)
                failing = repr(exc)
            else:
                if failing is not None:
                    log.info("%s works again", self.name)
                failing = None


class Unpublishable(Exception):
    """The branch's head does not pass the checks: it is followed, not published."""

    def __init__(self, head: str, problems: list[str]):
        more = f" and {len(problems) - 1} more" if len(problems) > 1 else ""
        super().__init__(f"the content at {head[:12]} cannot be published ({problems[0]}{more}); readers keep "
                         "the content served before it, and no change goes live until a commit mends it")


def _still_unpublishable(head: str, tried: dict) -> None:
    """While the head tried last could not be published, each tick says so again (the same
    words: logged once, and "works again" only when it does)."""
    stuck = served().unpublishable
    if stuck and tried.get("head") == head:
        raise Unpublishable(head, stuck)


def _published_commit(link) -> str | None:
    """The commit the index was built from; None without an index, or for content that was no
    commit (named by its fingerprint: edits not committed)."""
    version = built_version(link)
    return None if not version or version.startswith("content-") else version


def follow_remote(app: Flask) -> bool:
    """Bring the branch to the remote's head and the index to the branch's. Returns whether it
    published.

    A process publishes a head once: commits that bring back the bytes published already (an
    answer changed and changed back) leave the index as it is, and are not tried at every tick."""
    root = Path(app.config["CONTENT_DIR"])
    repo = changes.content_repo(root)
    link = served().link
    tried = app.extensions.setdefault(TRIED_KEY, {})
    head = repo.head()
    if repo.peek() == head and (_published_commit(link) in (None, head) or tried.get("head") == head):
        _still_unpublishable(head, tried)
        return False
    with content_lock(lock_file_in(app.instance_path)):
        old = repo.head()
        session = db.session() if availability.usable() else None
        changes.follow(session, repo, root)
        head, published = repo.head(), _published_commit(link)
        if head == old and published in (None, head) or head == tried.get("head"):
            _still_unpublishable(head, tried)
            return False
        tried["head"] = head
        # Only the entries the accepts name are indexed again (all, after a commit by hand).
        since = published if published is not None and repo.is_ancestor(published, head) else old
        try:
            publish(changes.entries_between(repo, since, head), holding_lock=True)
        except ContentError as exc:
            raise Unpublishable(head, [str(problem) for problem in exc.problems]) from None
    log.info("published %s, followed from the remote (%s before)", head[:12], (published or old)[:12])
    return True


def init_app(app: Flask) -> None:
    interval = app.config.get("FOLLOW_LINK_S", 1.0)
    if interval:  # asking for the current snapshot makes it follow the link
        app.extensions[LINK_KEY] = watcher = Every(app, float(interval), lambda: served().current(), "index-follow")
        app.before_request(watcher.start_once)
    interval = float(app.config.get("CONTENT_FOLLOW_S", 1.0))
    if app.config.get("CONTENT_REMOTE") and interval:
        app.extensions[KEY] = follower = Every(app, interval, lambda: follow_remote(app), "content-follow")
        app.before_request(follower.start_once)
