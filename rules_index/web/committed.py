"""Publishing a change that is stored already: a failure neither undoes nor hides it.

Once an accept has committed, the change is in the files and the database, and the answer says
so. ``publish_committed`` publishes it; when that fails (a full disk, a bug in a build), the
failure is logged and publication is tried again in the background, after 5 s and then at twice
the wait each time up to 5 minutes, until it succeeds. A process that starts publishes a stale
index anyway (``rules_index.corrections.recovery``).
"""
from __future__ import annotations

import logging
import threading
from typing import Iterable

from flask import Flask, current_app

from .publishing import publish

log = logging.getLogger(__name__)
RETRY_FIRST_S = 5.0
RETRY_MAX_S = 300.0


def publish_committed(changed: Iterable[tuple[str, str, str]]) -> bool:
    """Publish the stored change; False (and retried later) when publication failed."""
    changed = list(changed)
    try:
        publish(changed=changed)
        return True
    except Exception:
        log.exception("a stored change (%s) could not be published; trying again in %.0f s", changed, RETRY_FIRST_S)
        _retry_later(current_app._get_current_object(), changed, RETRY_FIRST_S)
        return False


def _retry_later(app: Flask, changed: list, delay: float) -> None:
    def attempt() -> None:
        with app.app_context():
            try:
                publish(changed=changed)
            except Exception:
                wait = min(delay * 2, RETRY_MAX_S)
                log.warning("publishing the stored change (%s) failed again; trying again in %.0f s", changed, wait, exc_info=True)
                _retry_later(app, changed, wait)
                return
        log.warning("the stored change (%s) is published now", changed)

    timer = threading.Timer(delay, attempt)
    timer.daemon = True
    timer.start()
