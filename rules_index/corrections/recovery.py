"""Finishing the accepts a dead process left open, so that files, changes, reports and index agree.

An intent is ``open`` only while its accept holds the content lock, so one found open by someone
holding the lock was left by a process that died between committing it and recording the change.
``recover_intents`` settles each from what its files hold now:

- a ``Change`` with the intent's id exists: the accept got through; any file still at its
  ``before`` text gets its ``after`` text; the intent is marked ``done``;
- every file still at its ``before`` text: nothing was written, readers never saw the change; the
  intent is ``rolled_back`` and the report stays pending (it can be accepted again);
- every file at its ``before`` or ``after`` text, at least one at ``after``: the change is rolled
  FORWARD: the files still at ``before`` get their ``after`` text, and the change, its flags and
  the report's status are recorded exactly as a live accept records them (intents.complete).
  Forward is the rule because the gate passed on exactly these texts and the editor's decision
  was committed with the intent; going back would throw away an accepted change that readers may
  already have been served;
- some file at neither text: someone changed it since (by hand, or git). Nothing is guessed: the
  intent stays open and an error is logged at every recovery until a person settles it.

``sweep_tmp`` removes the temp files (``.<name>.<random>.tmp``) a write that was cut off leaves
next to the content files. Everything here expects the caller to hold the content lock.

The app runs the recovery once per process, on its first request (``init_app``): a worker that
replaces a killed one settles what the dead one left, and brings the search index in line.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from flask import Flask, current_app, has_app_context
from sqlalchemy import select
from sqlalchemy.orm import Session

from rules_index.content import ContentError
from rules_index.content.writer import leftover_tmp, plan_state, remove_leftover_tmp
from rules_index.search.build import is_stale

from . import availability, db
from .content_lock import content_lock, lock_file_in
from .intents import complete, file_plans, finish, open_intents, write
from .models import AcceptIntent, Change

KEY = "rules_index.recovery"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Recovered:
    """What recovery did with one open intent."""

    intent_id: int
    outcome: str  # rolled_forward | done | rolled_back | unresolved
    written: tuple[str, ...] = ()  # files given their ``after`` text now
    change_id: int | None = None

    @property
    def content_changed(self) -> bool:
        """The intent's change is in the files now: the index must be published again."""
        return self.outcome in ("rolled_forward", "done")


def needs_publish(results: list[Recovered]) -> bool:
    return any(result.content_changed for result in results)


def _finish(session: Session, intent: AcceptIntent, state: str) -> None:
    finish(intent, state)
    session.commit()


def settle(session: Session, root: Path, intent: AcceptIntent) -> Recovered:
    """Settle one open intent (see the module's docstring)."""
    plans = file_plans(intent)
    states = [plan_state(root, plan) for plan in plans]
    where = f"accept intent {intent.id} ({intent.game} {intent.target_kind}:{intent.target_id}, report {intent.report_id})"
    if "other" in states:
        edited = [plan.path for plan, state in zip(plans, states) if state == "other"]
        log.error("%s left open: %s changed since it was planned; compare the intent's texts with the files and settle it by hand", where, ", ".join(edited))
        return Recovered(intent.id, "unresolved")
    change_id = session.scalar(select(Change.id).where(Change.intent_id == intent.id))
    if change_id is None and all(state == "before" for state in states):
        _finish(session, intent, "rolled_back")
        log.warning("%s rolled back: no file had been written", where)
        return Recovered(intent.id, "rolled_back")
    missing = [plan for plan, state in zip(plans, states) if state == "before"]
    write(missing, root)
    if change_id is None:
        change, _ = complete(session, intent)
        change_id, outcome = change.id, "rolled_forward"
    else:
        _finish(session, intent, "done")
        outcome = "done"
    log.warning("%s %s: change %s recorded, %d file(s) written now", where, outcome.replace("_", " "), change_id, len(missing))
    return Recovered(intent.id, outcome, tuple(plan.path for plan in missing), change_id)


def recover_intents(session: Session, root: Path) -> list[Recovered]:
    """Settle every open intent and sweep the temp files; the caller holds the content lock."""
    results = [settle(session, root, intent) for intent in open_intents(session)]
    sweep_tmp(root)
    return results


def sweep_tmp(root: Path) -> list[Path]:
    """Remove the temp files of cut-off writes; returns them. Only safe while holding the content
    lock (outside it, one may belong to a write under way)."""
    removed = remove_leftover_tmp(root)
    if removed:
        log.warning("removed %d temp file(s) of cut-off writes: %s", len(removed), ", ".join(str(p) for p in removed))
    return removed


def publish_if_needed(results: list[Recovered]) -> None:
    """Publish the content when recovery changed it, through the publish the app registered
    (``init_app``); outside an app nothing is published (the caller sees ``results``)."""
    if not needs_publish(results) or not has_app_context():
        return
    startup = current_app.extensions.get(KEY)
    if startup is not None:
        startup.publish_content()


class Startup:
    """The recovery a process runs once, on its first request."""

    def __init__(self, publish: Callable[[], None]):
        self._publish = publish
        self._done = False
        self._lock = threading.Lock()

    def publish_content(self) -> None:
        try:
            self._publish()
        except ContentError:
            log.exception("the content does not load; the search index keeps its last good build")

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
        """Settle open intents (if the database can be used), sweep temp files, and publish if
        recovery changed the content or the index was built from other content than the files
        hold (a process that died after writing and before publishing).

        Looked at without the lock first: a process starting while another one accepts should
        not wait for that accept when there is nothing to settle (the usual case).
        """
        root = Path(app.config["CONTENT_DIR"])
        link = Path(app.config["INDEX_DIR"])
        use_database = availability.usable()
        if not self._work_to_do(root, link, use_database):
            return []
        results: list[Recovered] = []
        with content_lock(lock_file_in(app.instance_path)):
            if use_database:
                try:
                    results = recover_intents(db.session(), root)
                except availability.DATABASE_ERRORS as exc:
                    log.warning("open accepts not settled at start: %s", availability.describe(exc))
                    availability.failed(exc)
            # Also without the database (the next accept settles open intents: it recovers first).
            sweep_tmp(root)
            # A missing index is built on first use (search_state); one that exists must not
            # stay behind the files: this is the app's start-up rebuild of a stale index.
            if link.exists() and (needs_publish(results) or is_stale(link, root)):
                self.publish_content()
        return results

    @staticmethod
    def _work_to_do(root: Path, link: Path, use_database: bool) -> bool:
        if use_database:
            try:
                if open_intents(db.session()):
                    return True
            except availability.DATABASE_ERRORS as exc:
                availability.failed(exc)
        return bool(leftover_tmp(root)) or (link.exists() and is_stale(link, root))


def init_app(app: Flask, publish: Callable[[], None]) -> None:
    """Run the recovery on the first request of each process, with ``publish`` bringing the
    index in line. Not at app creation: CLI commands (``db upgrade``, ``content validate``)
    create the app too and must neither need the database nor rebuild the index."""
    startup = Startup(publish)
    app.extensions[KEY] = startup
    app.before_request(startup.run_once)
