"""Looking at the corrections database: rarely while it is down, never waited for, logged on change."""
from __future__ import annotations

import logging
import threading
import time

from sqlalchemy.exc import OperationalError

from rules_index.corrections import availability, migrate
from rules_index.corrections.availability import NOT_MIGRATED, Availability


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def refused(_engine):
    raise OperationalError("SELECT version_num FROM alembic_version", {}, ConnectionRefusedError("connection refused"))


def test_a_database_that_is_down_is_asked_again_only_after_the_retry_interval(monkeypatch):
    looks = []
    monkeypatch.setattr(migrate, "current_revision", lambda engine: looks.append(engine) or refused(engine))
    clock = Clock()
    state = Availability(None, retry_seconds=10, clock=clock)
    assert not state.usable() and not state.usable()
    clock.now = 9.9
    assert not state.usable()
    assert len(looks) == 1
    clock.now = 10.0
    assert not state.usable()
    assert len(looks) == 2


def test_a_usable_database_is_trusted_until_a_query_fails(monkeypatch):
    looks, answers = [], []
    monkeypatch.setattr(migrate, "current_revision", lambda engine: looks.append(engine) or (answers.pop(0) if answers else migrate.head_revision()))
    clock = Clock()
    state = Availability(None, retry_seconds=10, clock=clock)
    assert all(state.usable() for _ in range(5))
    assert len(looks) == 1  # no query per request while all is well
    # A failed query makes it look again: a database that answers stays in use ...
    state.failed(OperationalError("SELECT", {}, Exception("database is locked")))
    assert state.usable() and len(looks) == 2
    # ... one that does not is left alone until the retry interval has passed.
    monkeypatch.setattr(migrate, "current_revision", refused)
    state.failed(OperationalError("SELECT", {}, Exception("server closed the connection unexpectedly")))
    assert not state.usable()
    monkeypatch.setattr(migrate, "current_revision", lambda engine: looks.append(engine) or migrate.head_revision())
    clock.now = 10.0
    assert state.usable()


def test_nobody_waits_for_a_slow_look_once_the_first_look_is_done(monkeypatch):
    started, answer = threading.Event(), threading.Event()
    monkeypatch.setattr(migrate, "current_revision", refused)
    state = Availability(None, retry_seconds=0)
    assert state.usable() is False  # the first look: the database is down

    def slow(_engine):
        started.set()
        answer.wait(10)
        return migrate.head_revision()

    monkeypatch.setattr(migrate, "current_revision", slow)
    looker = threading.Thread(target=state.usable)
    looker.start()
    assert started.wait(5)
    begin = time.monotonic()
    assert state.usable() is False  # answered at once, without the database's extras
    assert time.monotonic() - begin < 1
    answer.set()
    looker.join(5)
    assert state.usable() is True


def test_the_first_requests_wait_for_the_first_look(monkeypatch):
    started, answer = threading.Event(), threading.Event()

    def slow(_engine):
        started.set()
        answer.wait(10)
        return migrate.head_revision()

    monkeypatch.setattr(migrate, "current_revision", slow)
    state = Availability(None, retry_seconds=0)
    looker = threading.Thread(target=state.usable)
    looker.start()
    assert started.wait(5)
    threading.Timer(0.3, answer.set).start()
    assert state.usable() is True  # not a 503 for a database nobody has asked yet
    looker.join(5)


def test_only_changes_are_logged(monkeypatch, caplog):
    caplog.set_level(logging.INFO, logger=availability.__name__)
    state = Availability(None, retry_seconds=0)
    monkeypatch.setattr(migrate, "current_revision", refused)
    for _ in range(3):
        state.usable()
    monkeypatch.setattr(migrate, "current_revision", lambda engine: None)
    for _ in range(3):
        state.usable()
    monkeypatch.setattr(migrate, "current_revision", lambda engine: migrate.head_revision())
    for _ in range(3):
        state.usable()
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("WARNING", "corrections database unavailable: connection refused"),
        ("WARNING", NOT_MIGRATED),
        ("INFO", "corrections database available again"),
    ]
