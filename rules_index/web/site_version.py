"""Which version of the site a process serves, and the ETags of its pages.

The version is the content's (the commit of the request's snapshot, ``state``) and, for pages
that show the corrections database's rows, the corrections stamp: with SQLite (one host) a token
file in the instance folder that every commit renews, with a shared ``DATABASE_URL`` one query;
none while that database cannot be used. A page's ETag hashes the version, the release (what the
process renders with, hashed once), the language and the whole URL (canonical and hreflang links
carry it). It is known before the view runs, so ``conditional`` answers 304 without rendering.
"""
from __future__ import annotations

import functools
import hashlib
import logging
import os
import threading
import uuid
from pathlib import Path

from flask import Flask, current_app, make_response, request
from sqlalchemy import event

from rules_index.corrections import availability, db
from rules_index.corrections.models import Change, TranslationFlag

from .state import version

KEY = "rules_index.site_version"
STAMP_FILE = "corrections.stamp"
# What a page is rendered with besides the content: hashed once per process.
RELEASE_DIRS = ("rules_index", "templates", "static", "translations")
# One round trip in plain SQL (SQLite and PostgreSQL); an ORM query per request costs more.
_STAMP_SQL = (
    f"SELECT (SELECT max(id) FROM {Change.__tablename__}), (SELECT max(id) FROM {TranslationFlag.__tablename__}),"
    f" (SELECT count(*) FROM {TranslationFlag.__tablename__} WHERE resolved_at IS NULL)"
)


class CorrectionsStamp:
    """The corrections database's stamp: a token file (``stamp_file``) or a query (None)."""

    def __init__(self, stamp_file: Path | None):
        self.stamp_file = stamp_file

    def current(self):
        """The stamp, or None while the database cannot be used."""
        if self.stamp_file is None:
            if not availability.usable():
                return None
            try:
                with db.engine().connect() as connection:
                    return tuple(connection.exec_driver_sql(_STAMP_SQL).one())
            except availability.DATABASE_ERRORS as exc:
                availability.failed(exc)
                return None
        try:
            return self.stamp_file.read_text()
        except FileNotFoundError:
            return ""

    def touch(self) -> None:
        """A commit happened: a new token for every process (written whole, then renamed)."""
        if self.stamp_file is None:
            return
        tmp = self.stamp_file.with_name(f".{self.stamp_file.name}.{os.getpid()}.{threading.get_ident()}")
        try:
            tmp.write_text(uuid.uuid4().hex)
            os.replace(tmp, self.stamp_file)
        except OSError:
            logging.getLogger(__name__).exception("cannot write %s: other processes may serve stale pages", self.stamp_file)


@functools.cache
def release(root: str) -> str:
    """A hash of the files under ``RELEASE_DIRS`` of the app's root (names and bytes)."""
    digest = hashlib.blake2b(digest_size=16)
    for name in RELEASE_DIRS:
        for folder, dirs, files in os.walk(Path(root, name)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for file in sorted(files):
                path = Path(folder, file)
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def corrections_stamp():
    """The corrections stamp (None while the database cannot be used, or without ``init_app``)."""
    stamp: CorrectionsStamp | None = current_app.extensions.get(KEY)
    return None if stamp is None else stamp.current()


def etag(corrections: bool = False) -> str | None:
    """The ETag of the requested page, or None when the version is unknown. ``corrections``:
    the page shows the corrections database's rows."""
    served = version()
    parts = [release(current_app.root_path), served, (request.view_args or {}).get("lang", ""), request.url]
    if corrections:
        stamp = corrections_stamp()
        if stamp is None:
            return None
        parts.append(repr(stamp))
    # The content's version (the commit) leads, readable; the hash tells the pages apart.
    return f"{served[:12]}-{hashlib.blake2b(chr(0).join(parts).encode(), digest_size=12).hexdigest()}"


def applies() -> bool:
    """Whether this request may be answered by its ETag: a GET or HEAD of the live site."""
    # A static export renders pages unlike the live ones (no server-only links): never mixed.
    return request.method in ("GET", "HEAD") and not current_app.config.get("STATIC_EXPORT")


def not_modified(tag: str):
    """The 304 answer when the client holds the page ``tag`` names, else None."""
    if not request.if_none_match.contains_weak(tag):
        return None
    response = current_app.response_class(status=304)
    return with_tag(response, tag)


def with_tag(response, tag: str):
    """``response`` with the page's ETag and the caching the reader pages have (revalidate)."""
    response.set_etag(tag)
    response.cache_control.public = True
    response.cache_control.no_cache = True
    return response


def conditional(view=None, *, corrections: bool = False):
    """Decorator: a view's page tagged with its ETag, and 304 before the view runs when the
    client has it. A page rendered while the corrections database failed is not tagged."""
    if view is None:
        return functools.partial(conditional, corrections=corrections)

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        tag = etag(corrections) if applies() else None
        if tag is None:
            return view(*args, **kwargs)
        unchanged = not_modified(tag)
        if unchanged is not None:
            return unchanged
        response = make_response(view(*args, **kwargs))
        if response.status_code == 200 and not (corrections and availability.degraded()):
            with_tag(response, tag)
        return response

    return wrapper


def init_app(app: Flask) -> None:
    local = db.database_url(app).startswith("sqlite")
    stamp = CorrectionsStamp(Path(app.instance_path) / STAMP_FILE if local else None)
    app.extensions[KEY] = stamp
    event.listen(app.extensions[db.KEY]["sessions"], "after_commit", lambda _session: stamp.touch())
