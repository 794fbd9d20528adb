"""Whether the corrections database can be used right now: reading never depends on it.

Reader pages take only small extras from the corrections database (``extras``); submissions,
tracking pages and the editors' area need it and answer 503 while it cannot be used.

One ``Availability`` per app (in ``app.extensions``) remembers what the last look found:

- usable: trusted until a query fails (no extra query while all is well);
- not usable (unreachable, or not migrated to the head revision): the database is not asked
  again for ``CORRECTIONS_RETRY_SECONDS`` (default 10), so that a server that does not answer
  costs a request its timeout at most once per interval instead of every request.

Only changes are logged, one line each (a warning ``database not migrated: run make db`` or the
database error's first line; "available again" as info), never a traceback per request. The first
request of a process looks, so that a start without migrations says so once.
"""
from __future__ import annotations

import logging
import math
import threading
import time

from flask import Flask, current_app, g
from sqlalchemy import Engine, select
from sqlalchemy.exc import OperationalError, ProgrammingError

from . import db, migrate

KEY = "rules_index.availability"
DEFAULT_RETRY_SECONDS = 10.0
FIRST_LOOK_WAIT = 15.0  # seconds a request waits for the process's first look at the database
# Raised by the DB-API driver for a server that is down or a table that is missing
# (SQLite: "no such table" is an OperationalError; PostgreSQL: an undefined table is a ProgrammingError).
DATABASE_ERRORS = (OperationalError, ProgrammingError)
NOT_MIGRATED = "database not migrated: run make db"

log = logging.getLogger(__name__)


class DatabaseUnavailable(Exception):
    """The corrections database cannot be used now; answered 503 with Retry-After."""


def describe(exc: Exception) -> str:
    """One line naming a database error (the driver's message, without SQL or parameters)."""
    original = getattr(exc, "orig", None) or exc
    first_line = (str(original).strip().splitlines() or [type(original).__name__])[0]
    return f"corrections database unavailable: {first_line}"


class Availability:
    """What the last look at one app's corrections database found, and when."""

    def __init__(self, engine: Engine, retry_seconds: float, clock=time.monotonic):
        self.engine = engine
        self.retry_seconds = retry_seconds
        self.clock = clock
        self._usable: bool | None = None  # None: not looked at yet
        self._looked_at = -math.inf
        self._problem: str | None = None
        self._passing: str | None = None  # the last failed query's error while the database answered
        self._lock = threading.Lock()

    def usable(self) -> bool:
        if self._usable:
            return True
        # One look at a time. Before the first look of the process, wait for it (the first
        # requests of a worker arrive together); after that nobody waits: a server that does not
        # answer would otherwise hold every request up until its connect timeout.
        acquired = self._lock.acquire(timeout=FIRST_LOOK_WAIT) if self._usable is None else self._lock.acquire(blocking=False)
        if not acquired:
            return False
        try:
            if self._usable is None or self.clock() - self._looked_at >= self.retry_seconds:
                self._record(self._look())
            return bool(self._usable)
        finally:
            self._lock.release()

    def look_once(self) -> None:
        """Look unless this process has looked already."""
        if self._usable is None:
            self.usable()

    def failed(self, exc: Exception) -> None:
        """A query failed: look again now. A database that still does not answer (or is not
        migrated) is not used until the next look, one retry interval from now; one that answers
        had a passing problem (a lock held too long, a connection dropped) and stays in use."""
        if not self._lock.acquire(blocking=False):
            return  # a look is under way; it records what it finds
        try:
            problem = self._look()
            if problem is None:
                passing = describe(exc)
                if passing != self._passing:  # said once, not per request
                    log.warning(passing)
                    self._passing = passing
            self._record(problem)
        finally:
            self._lock.release()

    def _look(self) -> str | None:
        try:
            revision = migrate.current_revision(self.engine)
        except DATABASE_ERRORS as exc:
            return describe(exc)
        return None if revision == migrate.head_revision() else NOT_MIGRATED

    def _record(self, problem: str | None) -> None:
        self._looked_at = self.clock()
        self._usable = problem is None
        if problem != self._problem:
            if problem is not None:
                log.warning(problem)
            elif self._problem is not None:
                log.info("corrections database available again")
            self._problem = problem


def state() -> Availability:
    return current_app.extensions[KEY]


def usable() -> bool:
    return state().usable()


def require() -> None:
    """Raise DatabaseUnavailable unless the database can be used (a ``before_request`` guard).

    Asks the database even while it is trusted: the request's session connects now (the view
    uses the same connection), so a server that went away is a 503 before a form is shown.
    """
    if not usable():
        raise DatabaseUnavailable()
    try:
        db.session().execute(select(1))
    except DATABASE_ERRORS as exc:
        failed(exc)
        raise DatabaseUnavailable() from None


def failed(exc: Exception) -> None:
    """Record a failed query and drop the request's session, so nothing reuses its broken state."""
    state().failed(exc)
    db.discard_session()


def retry_after() -> int:
    """Seconds a client should wait before asking again (the Retry-After header of a 503)."""
    return max(1, math.ceil(state().retry_seconds))


def mark_degraded() -> None:
    """This request is answered without the database's extras (such pages are not cached)."""
    g.corrections_degraded = True


def degraded() -> bool:
    return g.get("corrections_degraded", False)


def init_app(app: Flask) -> None:
    """After ``db.init_app``: the app's availability, looked at on the first request of the process."""
    availability = Availability(
        app.extensions[db.KEY]["engine"],
        float(app.config.get("CORRECTIONS_RETRY_SECONDS", DEFAULT_RETRY_SECONDS)),
    )
    app.extensions[KEY] = availability
    app.before_request(availability.look_once)
