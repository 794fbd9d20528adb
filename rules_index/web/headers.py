"""Response headers: security policy on every response, conditional GETs, long-lived static assets.

Static files are linked with a content hash (``?v=<hash>``), so they can be cached for a year;
pages carry an ETag, so a reload costs a 304. Pages with one visitor's own data (the editors' area,
a report's tracking page, anything setting a cookie) are ``private, no-store``: no shared cache
keeps them, and no browser keeps them on disk. A GET whose If-Match names no current version is
answered 412 as an error (``errors.precondition_failed``), without the document.
"""
from __future__ import annotations

import functools
import hashlib
from functools import lru_cache
from pathlib import Path

from flask import Flask, current_app, g, request, url_for

from .errors import precondition_failed
from .state import answered_version

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
YEAR = 365 * 24 * 3600


@lru_cache(maxsize=256)
def _file_hash(path: str, mtime: float) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def static_url(filename: str) -> str:
    """``url_for('static')`` with the file's content hash, for caching forever."""
    path = Path(current_app.static_folder) / filename
    version = _file_hash(str(path), path.stat().st_mtime) if path.exists() else "0"
    return url_for("static", filename=filename, v=version)


def private(view):
    """Decorator: the view's responses hold the visitor's own data (``private, no-store``)."""

    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        g.private_page = True
        return view(*args, **kwargs)

    return wrapped


def _caching(response):
    """Cache headers, and the ETag of a page that may be kept (a 304 when the client has it)."""
    headers = response.headers
    if request.endpoint == "static":
        if request.args.get("v"):
            response.cache_control.public = True
            response.cache_control.max_age = YEAR
            response.cache_control.immutable = True
        return response
    if g.get("private_page"):
        response.cache_control.private = True
        response.cache_control.no_store = True
        return response
    if response.cache_control.immutable:  # a versioned address the view chose to keep for good
        return response
    if request.method in ("GET", "HEAD") and response.status_code == 200 and not response.direct_passthrough:
        if request.path.startswith("/editor") or "Set-Cookie" in headers:
            response.cache_control.private = True
            response.cache_control.no_store = True
            return response
        response.add_etag()
        response.cache_control.public = True
        response.cache_control.no_cache = True  # revalidate: a 304 is cheap, content changes by review
        response.make_conditional(request)
    return response


def init_app(app: Flask) -> None:
    app.jinja_env.globals["static_url"] = static_url

    @app.after_request
    def _headers(response):
        response = _caching(response)
        if response.status_code == 412 and request.method in ("GET", "HEAD"):
            # An If-Match that names no current ETag: an origin server must not answer a GET as if
            # it held (RFC 9110 13.1.1), so the 412 stays, as our error answer, never the document.
            if request.if_match.star_tag:
                # "*" holds whenever there is a current representation (13.1.1), and this
                # response is one: werkzeug compares "*" as if it were a tag.
                response.status_code = 200
            else:
                response.close()  # a file send_file opened
                response = current_app.make_response(precondition_failed())
        headers = response.headers
        headers.setdefault("Content-Security-Policy", CSP)
        headers.setdefault("X-Content-Type-Options", "nosniff")
        headers.setdefault("Referrer-Policy", "strict-origin-when-cross-origin")
        headers.setdefault("X-Frame-Options", "DENY")
        answered = answered_version()
        if answered is not None:  # the commit of the content this answer was made from
            headers.setdefault("X-Content-Version", answered)
        if request.is_secure:
            headers.setdefault("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
        return response
