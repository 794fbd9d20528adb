"""Reading request bodies: JSON objects for the API, with every failure a clear 400 or 413."""
from __future__ import annotations

import json

from flask import request

from .errors import ApiError


def json_object() -> dict:
    """The request's JSON object, or ApiError 400 for anything else.

    The body is read first, so a body over MAX_CONTENT_LENGTH (chunked ones included) is a 413
    before parsing; nesting deeper than Python's recursion limit is a 400, not a crash.
    """
    if not request.is_json:
        raise ApiError(400, "body: send a JSON object (Content-Type: application/json)")
    raw = request.get_data(cache=True)
    try:
        data = json.loads(raw)
    except RecursionError:
        raise ApiError(400, "body: the JSON is nested too deeply") from None
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "body: not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "body: send a JSON object (Content-Type: application/json)")
    return data
