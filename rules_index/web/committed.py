"""Publishing a change that is stored already: a failure neither undoes nor hides it.

Once an accept has committed, the change is in the content repository and the database, and the
answer says so; its files too, unless writing them failed (a full disk), and then they are written
before the publication (``journal.write_behind``). ``publish_committed`` publishes it; when that fails (a full disk, a bug in a build), the
failure is logged and publication is tried again in the background, after 5 s and then at twice
the wait each time up to 5 minutes, until it succeeds. A process that starts publishes a stale
index anyway (``rules_index.corrections.recovery``).
"""
from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Iterable

from flask import Flask, current_app

from rules_index.corrections import journal
from rules_index.corrections.changes import content_repo
from rules_index.corrections.content_lock import content_lock, lock_file_in

from .publishing import publish

log = logging.getLogger(__name__)
RETRY_FIRST_S = 5.0
RETRY_MAX_S = 300.0


def _publish_stored(changed: list) -> None:
    """Write the files of a stored change that were cut off first (a full disk), then publish."""
    if journal.FILES_BEHIND.is_set():
        root = Path(current_app.config["CONTENT_DIR"])
        with content_lock(lock_file_in(current_app.instance_path)):
            journal.write_behind(content_repo(root), root)
            journal.FILES_BEHIND.clear()
    publish(changed=changed)


def publish_committed(changed: Iterable[tuple[str, str, str]]) -> bool:
    """Publish the stored change; False (and retried later) when publication failed."""
    changed = list(changed)
    try:
        _publish_stored(changed)
        return True
    except Exception:
        log.exception("a stored change (%s) could not be published; trying again in %.0f s", changed, RETRY_FIRST_S)
        _retry_later(current_app._get_current_object(), changed, RETRY_FIRST_S)
        return False


def _retry_later(app: Flask, changed: list, delay: float) -> None:
    def attempt() -> None:
        with app.app_context():
            try:
                _publish_stored(changed)
            except Exception:
                wait = min(delay * 2, RETRY_MAX_S)
                log.warning("publishing the stored change (%s) failed again; trying again in %.0f s", changed, wait, exc_info=True)
                _retry_later(app, changed, wait)
                return
        log.warning("the stored change (%s) is published now", changed)

    timer = threading.Timer(delay, attempt)
    timer.daemon = True
    timer.start()
