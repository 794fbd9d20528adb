"""The publisher: a process beside the served workers that builds the index generation of each
accepted change, so that the build (an incremental index update with its checks, now and then a
merge of small segments: 50-150 ms of CPU) does not share a worker's interpreter with the
readers that worker is answering.

Under ``make serve`` it is gunicorn's dirty app (``gunicorn.conf.py``: ``dirty_apps``, naming
``app.Publisher``, this class on the app ``create_app`` makes): gunicorn
starts it with the server, restarts it if it dies and stops it with the server. A worker that has
accepted a change asks it to publish (``published_elsewhere``) and waits for the answer without
holding the interpreter; it then follows the new generation itself (``publishing``). Whenever
the publisher cannot answer (not served by gunicorn, not started yet, gone, failing, too slow),
the worker publishes in its own process: an accepted change is published either way. Builds are
serialised by the index's build lock, whichever process runs them.
"""
from __future__ import annotations

import logging
import os
from pathlib import Path

from gunicorn.dirty import DirtyApp, DirtyError, get_dirty_client

log = logging.getLogger(__name__)
# The publisher reports to the server's error log, as gunicorn's own processes do.
server_log = logging.getLogger("gunicorn.error")

APP_PATH = "app:Publisher"
# How long a worker waits for the answer before it publishes itself (a build at 30,000 entries
# takes about a second; one waiting for the build lock, as long as the one ahead of it).
ANSWER_TIMEOUT_S = 60.0
KINDS = ("faq", "section")


def changed_entries(changed) -> list[tuple[str, str, str]]:
    """``changed`` as sent (a non-empty list of [game, kind, id]); raises ValueError otherwise."""
    if not isinstance(changed, list) or not changed:
        raise ValueError("changed: a non-empty list of [game, kind, id] is required")
    entries = []
    for item in changed:
        if not (isinstance(item, (list, tuple)) and len(item) == 3 and all(isinstance(p, str) and p for p in item)):
            raise ValueError("changed: each entry is [game, kind, id], three non-empty strings")
        if item[1] not in KINDS:
            raise ValueError(f"changed: kind {item[1]!r} is not one of {', '.join(KINDS)}")
        entries.append((item[0], item[1], item[2]))
    return entries


class Publisher(DirtyApp):
    """The dirty app: the service's Flask app (``make_app``, configured as the workers' is), whose
    content it reloads and whose index generation it builds for each change it is asked to
    publish."""

    def make_app(self):
        raise NotImplementedError("the app's module says how its app is made")

    def init(self):
        from .state import content_state

        self.app = self.make_app()
        with self.app.app_context():
            content_state().library  # loaded now: the first change is published as fast as the next

    def publish(self, changed) -> dict:
        """Build the generation of the entries ``changed`` names; returns its name."""
        from rules_index.search import build

        from .state import content_state

        entries = changed_entries(changed)
        with self.app.app_context():
            state = content_state()
            generation = build(state.reload(), Path(self.app.config["INDEX_DIR"]), state.root, changed=entries)
        name = os.path.basename(generation)
        server_log.info("publisher: published %s as index generation %s", ", ".join("/".join(entry) for entry in entries), name)
        return {"generation": name}


def published_elsewhere(changed: list[tuple[str, str, str]], timeout: float = ANSWER_TIMEOUT_S) -> bool:
    """Ask the publisher to publish ``changed``; whether it did. False at once when this process
    is not served with one; False, with the reason logged, when it did not answer."""
    try:
        client = get_dirty_client(timeout=timeout)
    except DirtyError:  # its socket is not configured: not a worker of a server with a publisher
        return False
    try:
        client.execute(APP_PATH, "publish", [list(entry) for entry in changed])
    except DirtyError as exc:
        log.warning("the publisher did not publish (%s); publishing in this process", exc)
        return False
    return True
