"""The API's ``Idempotency-Key`` header: a repeated call with the same key and body gets the first
call's answer again (with ``Idempotent-Replayed: true``) instead of storing a second report or
change (``rules_index.corrections.idempotency``). Calls without the header work as before."""
from __future__ import annotations

from collections.abc import Callable

from flask import jsonify, request

from rules_index.corrections import idempotency
from rules_index.corrections.db import session

from .errors import ApiError

HEADER = "Idempotency-Key"


def answer_once(scope: str, data: object, work: Callable[[], tuple[dict, int]]):
    """``work()`` returns (JSON body, status); a 2xx answer is kept under the request's key, any
    other answer or an exception frees the key for a corrected retry."""
    key = request.headers.get(HEADER)
    if key is None:
        body, status = work()
        return jsonify(body), status
    if not idempotency.valid_key(key):
        raise ApiError(400, f"{HEADER}: 1 to {idempotency.MAX_KEY} visible ASCII characters")
    try:
        kept = idempotency.claim(session(), scope, key, idempotency.request_hash(data))
    except idempotency.KeyReused:
        raise ApiError(422, f"{HEADER}: this key was used with another request; use a new key for a new request") from None
    except idempotency.UnderWay:
        return jsonify(error=f"{HEADER}: the first request with this key is still under way; try again shortly"), 409, {"Retry-After": "1"}
    if kept is not None:
        return jsonify(kept.body), kept.status, {"Idempotent-Replayed": "true"}
    try:
        body, status = work()
    except BaseException:
        idempotency.release(session(), scope, key)
        raise
    if 200 <= status < 300:
        idempotency.record(session(), scope, key, status, body)
    else:
        idempotency.release(session(), scope, key)
    return jsonify(body), status
