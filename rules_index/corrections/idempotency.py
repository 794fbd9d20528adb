"""One stored report or change however often a request is repeated (a reload, a double click, a
client's retry): the first request with a key claims it, and its answer is kept under it.

``claim`` either returns the answer kept for the key (the caller sends it again) or claims the key
for this request (the caller does the work, then ``record``s its answer, or ``release``s the key
when it stored nothing, so that a corrected retry may use it). A repeat while the first request is
still under way gets ``UnderWay``; a claim whose request died without an answer is taken over
after ``ABANDONED``. A key sent again with another request gets ``KeyReused``. Keys are kept for
``KEPT`` and then swept.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from dataclasses import dataclass

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .models import IdempotencyKey, utcnow

MAX_KEY = 255
ABANDONED = dt.timedelta(minutes=5)
KEPT = dt.timedelta(days=2)


class KeyReused(Exception):
    """The key came with another request than the first time."""


class UnderWay(Exception):
    """The first request with this key has not answered yet."""


@dataclass(frozen=True)
class Kept:
    status: int
    body: dict


def _stored_key(scope: str, key: str) -> str:
    return hashlib.sha256(f"{scope}\n{key}".encode()).hexdigest()


def request_hash(data: object) -> str:
    # Any body that JSON can spell has a hash, a lone surrogate ("\ud800") too: the body is
    # validated (and refused) after its key is claimed.
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode("utf-8", "surrogatepass")).hexdigest()


def claim(session: Session, scope: str, key: str, request: str) -> Kept | None:
    """The answer kept for ``key`` in ``scope``, or None when this request now holds the key."""
    stored = _stored_key(scope, key)
    for _attempt in range(2):
        row = session.get(IdempotencyKey, stored, populate_existing=True)
        if row is None:
            session.add(IdempotencyKey(key=stored, request_hash=request))
            try:
                session.commit()
            except IntegrityError:  # a parallel repeat claimed it first
                session.rollback()
                continue
            sweep(session)
            return None
        if row.request_hash != request:
            session.rollback()
            raise KeyReused()
        if row.response is not None:
            return Kept(row.status, json.loads(row.response))
        if utcnow() - row.created_at < ABANDONED:
            session.rollback()  # a wait and a new look must see the first request's answer
            raise UnderWay()
        session.delete(row)  # its request died before answering
        session.commit()
    raise UnderWay()


def record(session: Session, scope: str, key: str, status: int, body: dict) -> None:
    row = session.get(IdempotencyKey, _stored_key(scope, key))
    if row is not None:
        row.status, row.response = status, json.dumps(body, ensure_ascii=False)
        session.commit()


def release(session: Session, scope: str, key: str) -> None:
    session.rollback()
    session.execute(delete(IdempotencyKey).where(IdempotencyKey.key == _stored_key(scope, key)))
    session.commit()


def sweep(session: Session) -> int:
    """Delete keys older than ``KEPT``; returns how many."""
    result = session.execute(delete(IdempotencyKey).where(IdempotencyKey.created_at < utcnow() - KEPT))
    session.commit()
    return result.rowcount


# What a key may hold, stated in the API document too: visible ASCII (a UUID, a counter, a hash).
KEY_PATTERN = f"^[!-~]{{1,{MAX_KEY}}}$"
_KEY = re.compile(KEY_PATTERN)


def valid_key(key: str | None) -> bool:
    return key is not None and _KEY.match(key) is not None
