"""What a request passes before Flask routes it: trusted proxy hops, then a well-formed Host.

``RULES_PROXY_HOPS=N`` (config ``PROXY_HOPS``) trusts N proxies in front (nginx: 1): werkzeug's
ProxyFix then takes the client address, scheme, host and port from their ``X-Forwarded-*``
headers, so rate limits count real clients and HSTS is sent when the original request was https.
A Host header that cannot be a host name, or (with ``RULES_TRUSTED_HOSTS``) names no host of the
site, is answered 400 before any URL is built from it.
A query string whose raw bytes are not UTF-8 (a server that passes them on unencoded, as PEP 3333
allows) is taken off the request, which is marked ``UNREADABLE_QUERY``: the app answers it 400, and
nothing that reads the query (the page's language links, the error page itself) fails on it.
A chunked body is read here, at most one byte past MAX_CONTENT_LENGTH, and handed on with its
length: werkzeug then answers an oversized one 413 as it does for a body with Content-Length
(otherwise it would cut the body off at the limit and the parser would see broken data); a
chunked body that cannot be read (a broken chunk header) is marked ``UNREADABLE_BODY`` and answered
400 by the app.
"""
from __future__ import annotations

import io
import re

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wsgi import host_is_trusted

_LABEL = r"(?!-)[A-Za-z0-9_-]{1,63}(?<!-)"
HOST = re.compile(rf"(?:{_LABEL}(?:\.{_LABEL})*\.?|\[[0-9A-Fa-f:.]{{2,45}}\])(?::[0-9]{{1,5}})?")


def valid_host(value: str) -> bool:
    if len(value) > 260 or HOST.fullmatch(value) is None:
        return False
    port = value.rpartition("]")[2].partition(":")[2] if value.startswith("[") else value.partition(":")[2]
    return not port or int(port) <= 65535


class HostCheck:
    """WSGI middleware: 400 for a Host header no browser would send, or, with ``trusted`` names
    (``RULES_TRUSTED_HOSTS``), for one that names another site: redirects, canonical links and the
    sitemap are built from it."""

    def __init__(self, wsgi_app, trusted: list[str] | None = None):
        self.wsgi_app = wsgi_app
        self.trusted = trusted

    def __call__(self, environ, start_response):
        host = environ.get("HTTP_HOST")
        if host is not None and (not valid_host(host) or self.trusted and not host_is_trusted(host, self.trusted)):
            body = b"400 Bad Request: the Host header is not a valid host name of this site.\n"
            start_response("400 Bad Request", [
                ("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body))),
                ("X-Content-Type-Options", "nosniff"),
            ])
            return [body]
        return self.wsgi_app(environ, start_response)


UNREADABLE_QUERY = "rules_index.unreadable_query"
UNREADABLE_BODY = "rules_index.unreadable_body"


class UnreadableQuery:
    """WSGI middleware: a query string that is not UTF-8 text is removed, the request marked."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        try:
            # PEP 3333: the query's bytes, each as one latin-1 character.
            environ.get("QUERY_STRING", "").encode("latin-1").decode("utf-8")
        except UnicodeError:
            environ = {**environ, "QUERY_STRING": "", UNREADABLE_QUERY: True}
        return self.wsgi_app(environ, start_response)


class ChunkedBodyLength:
    """WSGI middleware: a chunked request body becomes a sized one, read up to ``limit + 1`` bytes."""

    def __init__(self, wsgi_app, limit: int):
        self.wsgi_app = wsgi_app
        self.limit = limit

    def __call__(self, environ, start_response):
        # With Transfer-Encoding: chunked, a Content-Length is ignored (RFC 9112 6.3).
        if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            try:
                body = environ["wsgi.input"].read(self.limit + 1)
            except (OSError, ValueError):
                # A chunk header that is no size ("zz"): the server's reader gives up. Nothing can
                # be read from the body; the app answers it 400 as it answers an unreadable query.
                body, environ[UNREADABLE_BODY] = b"", True
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            del environ["HTTP_TRANSFER_ENCODING"]
            environ.pop("wsgi.input_terminated", None)
        return self.wsgi_app(environ, start_response)


def init_app(app: Flask) -> None:
    app.wsgi_app = UnreadableQuery(app.wsgi_app)
    trusted = app.config.get("TRUSTED_HOSTS")
    if isinstance(trusted, str):  # RULES_TRUSTED_HOSTS=rules.example.org,.example.org
        trusted = app.config["TRUSTED_HOSTS"] = [name.strip() for name in trusted.split(",") if name.strip()]
    # Checked here, before Flask: Flask's own check (the same names) fails inside the error page.
    app.wsgi_app = HostCheck(app.wsgi_app, trusted or None)
    if app.config.get("MAX_CONTENT_LENGTH"):
        app.wsgi_app = ChunkedBodyLength(app.wsgi_app, int(app.config["MAX_CONTENT_LENGTH"]))
    hops = int(app.config.get("PROXY_HOPS") or 0)
    if hops > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops, x_prefix=hops)
