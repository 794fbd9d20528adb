"""Building test apps: each on its own instance folder (database, index, secret) and content,
and the throw-away databases the storage tests run on."""
from __future__ import annotations

import os
import uuid
from contextlib import contextmanager
from pathlib import Path

from app import create_app
from rules_index.corrections import db, migrate


def make_unmigrated_app(instance: Path, content: Path, **config):
    """Like ``make_app``, but the database is left as it is (a start before ``make db``)."""
    return create_app({
        "TESTING": True,
        "INSTANCE_PATH": str(instance),
        "CONTENT_DIR": str(content),
        "INDEX_DIR": str(instance / "index"),
        "SECRET_KEY": "test-secret",
        "SUBMISSION_RATE_LIMIT": "100000 per minute",
        "LOGIN_RATE_LIMIT": "100000 per minute",
        # A test reads a published change on its next request; served apps answer from the
        # previous content while the next loads (tests/search/test_switching.py tests that).
        "SWITCH_WAIT_MS": None,
        **config,
    })


def make_app(instance: Path, content: Path, **config):
    """An app on its own instance folder (database, index, secret) and content folder."""
    application = make_unmigrated_app(instance, content, **config)
    with application.app_context():
        migrate.upgrade(db.engine())
    return application


# The storage tests run on SQLite, and on PostgreSQL too when CI (or a developer) started one.
BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])


@contextmanager
def empty_postgres_database(admin_url: str, prefix: str):
    """A new, empty database on the server of ``admin_url``, dropped afterwards; yields its URL."""
    import psycopg

    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield admin_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def scratch_database(backend: str, folder: Path, prefix: str):
    """A database URL of ``backend`` (one of BACKENDS): a SQLite file in ``folder``, or an empty
    PostgreSQL database on the server of TEST_DATABASE_URL."""
    if backend == "sqlite":
        yield f"sqlite:///{folder / 'corrections.sqlite3'}"
        return
    with empty_postgres_database(os.environ["TEST_DATABASE_URL"], prefix) as url:
        yield url
