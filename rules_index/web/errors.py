"""One error policy: JSON with ``error`` under /api/, a page in the reader's language elsewhere."""
from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

from rules_index.content import DEFAULT_LANG, LANGS

from .not_found import closest_matches


class ApiError(Exception):
    """An error answered as JSON ``{"error": message}`` with the given status."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def reader_lang() -> str:
    first = request.path.strip("/").split("/", 1)[0]
    return first if first in LANGS else DEFAULT_LANG


def _is_api() -> bool:
    return request.path.startswith("/api/")


def _answer(status: int, message: str):
    if _is_api():
        return jsonify(error=message), status
    lang = reader_lang()
    extra = {}
    if status == 404:
        extra["missing_words"], extra["matches"] = closest_matches(request.path, lang)
    return render_template("error.html", status=status, message=message, lang=lang, **extra), status


def init_app(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(exc: ApiError):
        return jsonify(error=exc.message), exc.status

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        return _answer(exc.code or 500, exc.description or exc.name)

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        app.logger.exception("unhandled error")
        return _answer(500, InternalServerError.description)
