"""Rendered reader pages kept per process, for views whose page depends only on the URL, the
content generation and the corrections database (the FAQ permalink page).

Rendering a FAQ page costs a template render, two database queries and a related-entries lookup
(about 2 ms, several times the smallest route of the app); its HTML changes only when

- the content changes: every publication switches the search index to a new generation, so the
  generation (where the index link points) is part of the key;
- the corrections database changes (a change recorded, a translation flag opened or resolved):
  its stamp is part of the key. With SQLite in the instance folder (one host), every commit of
  a session of this app writes a new token into ``<instance>/corrections.stamp`` and the stamp
  is that token (one small file read per request); with ``DATABASE_URL`` (possibly shared by
  several hosts) the stamp is one query of (max change id, max flag id, open flags). While that
  database cannot be used there is no stamp, and the page is rendered without the cache;
- the scheme, host and script root the page is served under (canonical and hreflang links):
  part of the key (``request.host_url`` itself costs more than the rest of a cache hit).

A page rendered without the database's extras (the database was down) is not kept: it would
outlive the outage. Requests with a query string are not cached (the language links carry it
along). Not for views whose page depends on the session or cookies.

Pages are kept in a cachetools LRU bounded in bytes (``rules_index.caches``: each page weighs its
encoded size plus its key and bookkeeping): ``PAGE_CACHE_BYTES`` in the app config, 16 MiB by
default (a FAQ page is under 10 kB, so well over a thousand pages); ``PAGE_CACHE_BYTES = 0``
turns it off.

Wiring: ``page_cache.init_app(app)`` in ``rules_index.web.init_app`` (after ``db.init_app``) and
``@page_cache.cached`` under the route decorator of the view.
"""
from __future__ import annotations

import functools
import logging
import os
import threading
import uuid
from pathlib import Path

from flask import Flask, current_app, request
from sqlalchemy import event

from rules_index.caches import MiB, ByteCache
from rules_index.corrections import availability, db
from rules_index.corrections.models import Change, TranslationFlag

KEY = "rules_index.page_cache"
DEFAULT_BYTES = 16 * MiB  # per process
STAMP_FILE = "corrections.stamp"
# One round trip in plain SQL (SQLite and PostgreSQL); an ORM query per request costs more.
_STAMP_SQL = (
    f"SELECT (SELECT max(id) FROM {Change.__tablename__}), (SELECT max(id) FROM {TranslationFlag.__tablename__}),"
    f" (SELECT count(*) FROM {TranslationFlag.__tablename__} WHERE resolved_at IS NULL)"
)


class PageCache:
    def __init__(self, max_bytes: int, stamp_file: Path | None):
        self.stamp_file = stamp_file
        self.pages = ByteCache(max_bytes)

    def get(self, key: tuple) -> bytes | None:
        return self.pages.get(key)

    def put(self, key: tuple, page: bytes) -> None:
        self.pages.put(key, page)

    def clear(self) -> None:
        self.pages.clear()

    def __len__(self) -> int:
        return len(self.pages)

    def corrections_stamp(self):
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
        self.clear()
        if self.stamp_file is None:
            return
        tmp = self.stamp_file.with_name(f".{self.stamp_file.name}.{os.getpid()}.{threading.get_ident()}")
        try:
            tmp.write_text(uuid.uuid4().hex)
            os.replace(tmp, self.stamp_file)
        except OSError:
            logging.getLogger(__name__).exception("cannot write %s: other processes may serve stale pages", self.stamp_file)


def content_stamp(link: str) -> str:
    """The generation the index link points at: its text (one ``readlink``; every rebuild links
    a new directory name), or the resolved path when it is not a link."""
    try:
        return os.readlink(link)
    except OSError:
        return os.path.realpath(link)


def cached(view):
    """Serve the view's rendered page from the cache while its key is unchanged."""

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        cache: PageCache | None = current_app.extensions.get(KEY)
        # A static export renders pages unlike the live ones (no server-only links): never mixed.
        exporting = current_app.config.get("STATIC_EXPORT")
        if cache is None or exporting or request.args or request.method not in ("GET", "HEAD"):
            return view(*args, **kwargs)
        corrections = cache.corrections_stamp()
        if corrections is None:
            return view(*args, **kwargs)
        key = (request.scheme, request.host, request.root_path, request.path,
               content_stamp(current_app.config["INDEX_DIR"]), corrections)
        page = cache.get(key)
        if page is None:
            page = view(*args, **kwargs)
            if not isinstance(page, str) or availability.degraded():
                return page
            page = page.encode()  # kept encoded: a hit is sent as is
            cache.put(key, page)
        return page

    return wrapper


def init_app(app: Flask) -> None:
    max_bytes = int(app.config.get("PAGE_CACHE_BYTES", DEFAULT_BYTES))
    if not max_bytes:
        return
    local = db.database_url(app).startswith("sqlite")
    cache = PageCache(max_bytes, Path(app.instance_path) / STAMP_FILE if local else None)
    app.extensions[KEY] = cache
    event.listen(app.extensions[db.KEY]["sessions"], "after_commit", lambda _session: cache.touch())
