"""Building test apps: each on its own instance folder (database, index, secret) and content."""
from __future__ import annotations

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
        **config,
    })


def make_app(instance: Path, content: Path, **config):
    """An app on its own instance folder (database, index, secret) and content folder."""
    application = make_unmigrated_app(instance, content, **config)
    with application.app_context():
        migrate.upgrade(db.engine())
    return application
