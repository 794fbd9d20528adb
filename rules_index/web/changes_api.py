"""The editors' API: ``POST /api/v1/changes`` with ``Authorization: Bearer <token>``.

The change passes the same gate as the review page; a dry run stops after it. 200: would be
accepted (dry run); 201: written and published; 202: written, ``published: false`` (publication
failed and is retried; the change is stored all the same); 422: refused, with the problems; 401:
no valid token; 409: the entry changed since ``base_version``. With an ``Idempotency-Key``
header a repeated call gets the first call's answer and stores nothing more (``idempotent``).
"""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, current_app, request

from rules_index.content.writer import EntryNotFound
from rules_index.corrections import availability, changes
from rules_index.corrections.change_requests import RequestError, parse_change
from rules_index.corrections.db import session
from rules_index.corrections.models import Editor
from rules_index.corrections.tokens import editor_for_token

from .bodies import json_object
from .errors import ApiError
from .idempotent import answer_once
from .committed import publish_committed
from .state import content_state, library

bp = Blueprint("changes_api", __name__, url_prefix="/api/v1")
bp.before_request(availability.require)  # tokens and changes live in the corrections database


def token_editor() -> Editor:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    editor = editor_for_token(session(), token.strip()) if scheme.lower() == "bearer" else None
    if editor is None:
        raise ApiError(401, "authorization: send 'Authorization: Bearer <token>' with a valid editor token")
    return editor


@bp.post("/changes")
def submit_change():
    editor = token_editor()
    data = json_object()
    # A key names one change of one editor: another editor's key never answers for this one.
    return answer_once(f"change:{editor.id}", data, lambda: _submit(editor, data))


def _submit(editor: Editor, data: dict) -> tuple[dict, int]:
    try:
        change = parse_change(library(), data)
    except RequestError as exc:
        raise ApiError(exc.status, str(exc)) from None
    lock = Path(current_app.instance_path) / "content.lock"
    try:
        outcome = changes.apply_change(
            session(), content_state().root, lock, editor, change.game, change.kind, change.target, change.updates,
            dry_run=change.dry_run, base_version=change.base_version, context=library().game(change.game),
        )
    except changes.StaleVersion as exc:
        return {"error": str(exc), "version": exc.current}, 409
    except changes.ChangeRefused as exc:
        problems = [p.as_json() for p in exc.problems]
        return {"error": f"the change is refused: {len(problems)} problem(s); see problems", "problems": problems}, 422
    except EntryNotFound:
        raise ApiError(404, f"id: game '{change.game}' has no entry '{change.target}'") from None
    if change.dry_run:
        return {"accepted": True, "change": None, "version": outcome.version, "flags": outcome.flags, "published": False}, 200
    published = publish_committed([(change.game, change.kind, change.target)])
    return ({"accepted": True, "change": outcome.change.id, "version": outcome.version, "flags": outcome.flags,
             "published": published}, 201 if published else 202)
