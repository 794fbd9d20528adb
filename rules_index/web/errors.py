"""One error policy: JSON with ``error`` under /api/ and on /oembed, a page in the reader's language elsewhere.

The page says what happened in the reader's language (``templates/error.html`` picks the text
by status); the API names it in its ``field: what is wrong`` form. While the corrections
database cannot be used, what needs it answers 503 with Retry-After.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, abort, current_app, jsonify, redirect, render_template, request
from flask_babel import gettext
from flask_limiter import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed
from werkzeug.routing import RequestRedirect

from rules_index.content.repo import GitError, UncommittedEdits
from rules_index.corrections import availability
from rules_index.search import IndexUnavailable
from rules_index.corrections.db import UnstorableText, discard_session

from .front import UNREADABLE_BODY, UNREADABLE_QUERY
from .i18n import page_lang
from .not_found import (
    closest_matches, first_real_page, games_to_pick, holds_control_character, meant_addresses, names_nothing,
)

API_MESSAGES = {
    429: "rate limit: too many requests, try again in a minute",
    503: "corrections: the corrections database cannot be used right now, try again later",
}
PRECONDITION_MESSAGE = "If-Match: the current version of this resource has none of the entity tags given"
UNREADABLE_QUERY_MESSAGE = "query: the query string is not UTF-8 text; percent-encode it"
UNREADABLE_BODY_MESSAGE = "body: the chunked body cannot be read (a chunk header is no size); send it again"
SEARCH_MESSAGE = "search: the search index cannot be read now; the pages still answer, and the operator builds the index again"
REPOSITORY_MESSAGE = "content: the content repository could not take the change, and nothing was changed; try again in a moment"


class ApiError(Exception):
    """An error answered as JSON ``{"error": message}`` with the given status."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


# A reader's report pages, reached by its link alone.
REPORT_PAGES = ("corrections.tracking", "corrections.thanks")


def _is_api() -> bool:
    """Whether the request is one a program reads the answer of: the API, and oEmbed (its
    consumer reads JSON, whatever went wrong; "/API/…" is no address, but its caller is a program)."""
    return request.path.lower().startswith("/api/") or request.path.lower() == "/oembed"


def _answer(status: int, message: str, headers: dict | None = None, **extra):
    if _is_api():
        return jsonify(error=message), status, headers or {}
    lang = page_lang()
    if status == 404:
        extra["missing_words"], extra["matches"] = closest_matches(request.path, lang)
        extra["games"] = games_to_pick(lang)
    # Outside a language's addresses the page speaks the browser's language.
    headers = {**(headers or {}), "Vary": "Accept-Language"}
    return render_template("error.html", status=status, message=message, lang=lang, **extra), status, headers


def _site_address() -> str | None:
    """The site's address that a missing one means (``not_found.meant_addresses``: a trailing
    slash or sign, capitals, no language, another name of a game), with its query; None when
    none is one of the site's."""
    path = request.path
    if request.method not in ("GET", "HEAD") or len(path) < 2 or path.startswith("//"):
        return None
    found = first_real_page(current_app.create_url_adapter(request), meant_addresses(path, page_lang()))
    if found is None:
        return None
    # UTF-8: a query that is not was taken off (``front.UnreadableQuery``); read as latin-1, raw
    # UTF-8 bytes ("?q=ü" sent unencoded) came back encoded twice.
    query = request.query_string.decode("utf-8")
    return found[0] + (f"?{query}" if query else "")


def _message(exc: HTTPException, headers: dict) -> str:
    if exc.code == 405:
        return f"method: {request.method} is not allowed here (allowed: {headers.get('Allow', 'none')})"
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if exc.code == 413 and limit:
        return f"body: the text you sent is too long (at most {limit} bytes)"
    if exc.code == 413:
        return "body: the text you sent is too long"
    return API_MESSAGES.get(exc.code) or exc.description or exc.name


def retry_after(exc: RateLimitExceeded) -> int:
    """Seconds until the breached limit's window has passed, at the latest (``Retry-After``)."""
    return exc.limit.limit.get_expiry()


def rate_limited(exc: RateLimitExceeded):
    """429 with when to try again; a form sent too often offers its page back (its GET shows it)."""
    wait = retry_after(exc)
    back = request.path if request.method == "POST" and not _is_api() else None
    return _answer(429, _message(exc, {}), {"Retry-After": str(wait)}, wait=wait, back=back)


def precondition_failed():
    """412 for a GET or HEAD whose If-Match names no current version of what it asks for (the
    headers module's after-request check): the page says the browser asked for another version."""
    return _answer(412, PRECONDITION_MESSAGE)


def _database_unavailable():
    return _answer(503, API_MESSAGES[503], {"Retry-After": str(availability.retry_after())})


def init_app(app: Flask) -> None:
    @app.before_request
    def readable_query():
        # Raw bytes that are no UTF-8 text in the query string (``front.UnreadableQuery`` took them
        # off): nothing can be read from it, and guessing its meaning is not this app's to do.
        if request.environ.get(UNREADABLE_QUERY):
            if _is_api():
                return _answer(400, UNREADABLE_QUERY_MESSAGE)
            return _answer(400, gettext("The address holds characters that are not text. "
                                        "Please check the link, or type the address again."))

    @app.before_request
    def readable_body():
        if request.environ.get(UNREADABLE_BODY):
            if _is_api():
                return _answer(400, UNREADABLE_BODY_MESSAGE)
            return _answer(400, gettext("What your browser sent could not be read. Please send it again."))

    @app.before_request
    def no_control_characters_in_the_address():
        # No address of the site holds one (nor a line break or tab): such a path is missing,
        # and never becomes a lookup or a redirect.
        if holds_control_character(request.path):
            abort(404)

    @app.before_request
    def missing_before_redirect_or_method():
        # A route's pattern matches "/de/nope" and "/api/v1/games/x/nope" too: the slash it adds
        # (308) or the method it wants (405) is only said of an address that names what the site
        # has. Anything else is missing, at once.
        exc = request.routing_exception
        if isinstance(exc, RequestRedirect):
            path, method = urlsplit(exc.new_url).path, request.method
        elif isinstance(exc, MethodNotAllowed) and exc.valid_methods:
            path, method = request.path, sorted(exc.valid_methods)[0]
        else:
            return None
        if names_nothing(current_app.create_url_adapter(request), path, method):
            abort(404)
        return None

    @app.errorhandler(ApiError)
    def api_error(exc: ApiError):
        return jsonify(error=exc.message), exc.status

    @app.errorhandler(CSRFError)
    def stale_form(exc: CSRFError):
        # Flask-WTF's reason is English and technical; the reader gets what to do, in their language.
        return _answer(400, gettext("The form had expired or was sent from another page. Please go back, "
                                    "reload the page and send it again."))

    @app.errorhandler(UnstorableText)
    def unstorable_text(exc: UnstorableText):
        # A text sent that no form or model cleaned first (``corrections.db``): refused, nothing stored.
        discard_session()
        if _is_api():
            return _answer(400, f"text: a text you sent {exc}; remove it")
        return _answer(400, gettext("Please remove the invisible control character %(char)s.", char="U+0000"))

    @app.errorhandler(availability.DatabaseUnavailable)
    def database_unavailable(_exc):
        return _database_unavailable()

    def database_error(exc: Exception):
        # The database went away between the check and the query: the same 503, and the
        # failure is recorded (one log line per change, not a traceback per request).
        availability.failed(exc)
        return _database_unavailable()

    for error in availability.DATABASE_ERRORS:
        app.register_error_handler(error, database_error)

    @app.errorhandler(IndexUnavailable)
    def index_unavailable(exc: IndexUnavailable):
        return _answer(503, SEARCH_MESSAGE, {"Retry-After": "30"}, search_down=True)

    @app.errorhandler(GitError)
    def repository_error(exc: GitError):
        if isinstance(exc, UncommittedEdits):
            # Not a passing failure: the files hold hand edits until someone commits or drops them.
            app.logger.error("%s", exc)
            return _answer(409, str(exc))
        # The commit was not put in place (a push refused by a hook, the remote unreachable):
        # the report stays open and the change can be sent again.
        app.logger.error("content repository: %s", exc)
        return _answer(503, REPOSITORY_MESSAGE, {"Retry-After": "5"})

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        if exc.code == 404 and not _is_api():
            known = _site_address()
            if known is not None:
                return redirect(known, 308)
            if request.endpoint in REPORT_PAGES:
                # A report's link cut short or mistyped: say so, not "page not found" with the
                # token in the search box.
                return render_template("corrections/unknown.html", lang=page_lang()), 404
        if isinstance(exc, RateLimitExceeded):
            return rate_limited(exc)
        # What the exception says in its headers stays (a 405's Allow, RFC 9110 15.5.6); its
        # Content-Type was for werkzeug's own page, which this answer replaces.
        headers = {name: value for name, value in exc.get_headers() if name.lower() != "content-type"}
        return _answer(exc.code or 500, _message(exc, headers), headers)

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        app.logger.exception("unhandled error")
        return _answer(500, InternalServerError.description)
