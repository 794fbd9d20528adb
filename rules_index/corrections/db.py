"""Database engine and sessions: SQLite in the instance folder by default, DATABASE_URL otherwise.

One engine per app (in ``app.extensions``); one session per request, opened lazily on ``g`` and
closed in teardown. SQLite runs with WAL and foreign keys on.

No text holding NUL reaches the database, whichever it is (``UnstorableText``): PostgreSQL
cannot store one and fails the statement, SQLite stores it and shows it back to readers. What
people send is cleaned before (``characters.plain_text``); this is the guard behind every path
that forgets to.
"""
from __future__ import annotations

import os
from pathlib import Path

from flask import Flask, current_app, g
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

KEY = "rules_index.db"


class UnstorableText(ValueError):
    """A statement's text holds NUL: refused before the database sees it."""

    def __init__(self):
        super().__init__("holds the control character U+0000")


def _holds_nul(value) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_holds_nul(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_holds_nul(v) for v in value)
    return False


def _refuse_nul(_conn, _cursor, _statement, parameters, _context, _executemany) -> None:
    if _holds_nul(parameters):
        raise UnstorableText()


def database_url(app: Flask) -> str:
    url = app.config.get("DATABASE_URL") or os.environ.get("DATABASE_URL")
    if url:
        return url
    return "sqlite:///" + str(Path(app.instance_path) / "corrections.sqlite3")


def make_engine(url: str) -> Engine:
    engine = _engine(url)
    event.listen(engine, "before_cursor_execute", _refuse_nul)
    return engine


def _engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection, _record):
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA synchronous=FULL")  # a 201 means the row is on disk
            cursor.close()

        return engine
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    if url.startswith("postgresql"):
        # A server that does not answer fails a connection after 10 s instead of the OS's minutes.
        return create_engine(url, pool_pre_ping=True, connect_args={"connect_timeout": 10})
    return create_engine(url, pool_pre_ping=True)


def init_app(app: Flask) -> None:
    engine = make_engine(database_url(app))
    app.extensions[KEY] = {"engine": engine, "sessions": sessionmaker(engine, expire_on_commit=False)}

    @app.teardown_appcontext
    def _close(_exc):
        session = g.pop("db_session", None)
        if session is not None:
            session.close()


def engine() -> Engine:
    return current_app.extensions[KEY]["engine"]


def session() -> Session:
    if "db_session" not in g:
        g.db_session = current_app.extensions[KEY]["sessions"]()
    return g.db_session


def discard_session() -> None:
    """Close the request's session after a database error: the next use opens a fresh one."""
    stale = g.pop("db_session", None)
    if stale is not None:
        stale.close()
