"""Rendered reader pages kept per process, for views whose page depends only on the URL, the
site's version and the corrections database (the FAQ permalink page; never one that depends on
the session or cookies).

A page is kept under its ETag (``site_version.etag``), so a published change, a commit to the
corrections database or another URL makes another tag and the page is rendered again. Not kept:
a page rendered without the database's extras (it would outlive the outage), pages while the
version is unknown, requests with a query string (the language links carry it along).
``PAGE_CACHE_BYTES`` bounds the cache (16 MiB by default; 0 turns it off, the 304s stay).
"""
from __future__ import annotations

import functools

from flask import Flask, current_app, make_response, request
from sqlalchemy import event

from rules_index.caches import MiB, ByteCache
from rules_index.corrections import availability, db

from . import site_version

KEY = "rules_index.page_cache"
DEFAULT_BYTES = 16 * MiB  # per process


class PageCache(ByteCache):
    """The pages by ETag, counting the lookups that found one (``hits``) and those that did not."""

    def __init__(self, max_bytes: int):
        super().__init__(max_bytes)
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> bytes | None:
        page = super().get(key)
        if page is None:
            self.misses += 1
        else:
            self.hits += 1
        return page


def cached(view):
    """Serve the view's rendered page from the cache while its ETag is unchanged (304 when the
    client has it)."""

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        if not site_version.applies():
            return view(*args, **kwargs)
        tag = site_version.etag(corrections=True)
        if tag is None:
            return view(*args, **kwargs)
        unchanged = site_version.not_modified(tag)
        if unchanged is not None:
            return unchanged
        cache: PageCache | None = current_app.extensions.get(KEY)
        keep = cache is not None and not request.args
        page = cache.get(tag) if keep else None
        if page is None:
            page = view(*args, **kwargs)
            if not isinstance(page, str) or availability.degraded():
                return page
            page = page.encode()  # kept encoded: a hit is sent as is
            if keep:
                cache.put(tag, page)
        return site_version.with_tag(make_response(page), tag)

    return wrapper


def init_app(app: Flask) -> None:
    max_bytes = int(app.config.get("PAGE_CACHE_BYTES", DEFAULT_BYTES))
    if not max_bytes:
        return
    cache = PageCache(max_bytes)
    app.extensions[KEY] = cache
    # Every commit makes a new corrections stamp: the pages kept under the last one are dead.
    event.listen(app.extensions[db.KEY]["sessions"], "after_commit", lambda _session: cache.clear())
