"""The editors' API: ``POST /api/v1/changes`` with ``Authorization: Bearer <token>``.

The change passes the same gate as the review page; a dry run stops after it. Each answer names
its ``outcome``: ``accepted`` (201: written and published; 202 with ``published: false``: written,
publication failed and is retried), ``held`` (202: stored for a second editor with its
``reasons``, nothing written, readers keep the checked version) or ``refused`` (422, with the
problems). A dry run answers 200 with ``accepted`` or ``held``. 401: no valid token; 409: the
entry changed since ``base_version``. With an ``Idempotency-Key`` header a repeated call gets
the first call's answer and stores nothing more (``idempotent``).

``POST /api/v1/changes/{id}/confirm`` and ``/reject`` decide a held change; confirming takes
another editor than its author.
"""
from __future__ import annotations

from flask import Blueprint, current_app, request
from pydantic import ValidationError

from rules_index.content.writer import EntryNotFound
from rules_index.corrections import availability, changes
from rules_index.corrections.change_requests import RequestError, parse_change
from rules_index.corrections.content_lock import lock_file_in
from rules_index.corrections.db import session
from rules_index.corrections.models import Editor, HeldChange
from rules_index.corrections.sent import field_error
from rules_index.corrections.tokens import editor_for_token

from .api_models import RejectRequest
from .bodies import json_object
from .errors import ApiError
from .idempotent import answer_once
from .committed import publish_committed
from .state import content_dir, library

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
    try:
        outcome = changes.apply_change(
            session(), content_dir(), lock_file_in(current_app.instance_path), editor, change.game, change.kind,
            change.target, change.updates, dry_run=change.dry_run, base_version=change.base_version,
            context=library().game(change.game),
        )
    except changes.StaleVersion as exc:
        return {"error": str(exc), "version": exc.current}, 409
    except changes.ChangeRefused as exc:
        return _refused(exc)
    except EntryNotFound:
        raise ApiError(404, f"id: game '{change.game}' has no entry '{change.target}'") from None
    if change.dry_run or outcome.outcome == "held":
        return _outcome(outcome, published=False), 200 if change.dry_run else 202
    published = publish_committed([(change.game, change.kind, change.target)])
    return _outcome(outcome, published), 201 if published else 202


def _refused(exc: changes.ChangeRefused) -> tuple[dict, int]:
    problems = [p.as_json() for p in exc.problems]
    return {"outcome": "refused", "error": f"the change is refused: {len(problems)} problem(s); see problems",
            "problems": problems}, 422


def _outcome(outcome: changes.Outcome, published: bool) -> dict:
    held = outcome.outcome == "held"
    return {
        "outcome": outcome.outcome, "accepted": not held,
        "change": outcome.change.id if outcome.change is not None else None,
        "held": outcome.held.id if outcome.held is not None else None,
        "reasons": [reason.as_json() for reason in outcome.reasons],
        "version": outcome.version, "flags": [] if held else outcome.flags, "published": published,
    }


def _held(held_id: int) -> HeldChange:
    held = session().get(HeldChange, held_id)
    if held is None:
        raise ApiError(404, f"id: there is no held change {held_id}")
    return held


@bp.post("/changes/<int:held_id>/confirm")
def confirm_change(held_id: int):
    editor = token_editor()
    held = _held(held_id)
    try:
        outcome = changes.confirm_held(session(), content_dir(), lock_file_in(current_app.instance_path), held, editor,
                                       context=library().game(held.game))
    except changes.OwnChange as exc:
        raise ApiError(403, str(exc)) from None
    except (changes.HeldDecided, changes.ReportDecided) as exc:
        raise ApiError(409, str(exc)) from None
    except changes.StaleVersion as exc:
        return {"error": f"the entry has changed since the change was held; submit it again ({exc})", "version": exc.current}, 409
    except changes.ChangeRefused as exc:
        return _refused(exc)
    published = publish_committed([(held.game, held.target_kind, held.target_id)])
    return _outcome(outcome, published), 201 if published else 202


@bp.post("/changes/<int:held_id>/reject")
def reject_change(held_id: int):
    editor = token_editor()
    data = json_object() if request.get_data(cache=True) else {}
    try:
        note = RejectRequest.model_validate(data).note or ""
    except ValidationError as exc:
        found = field_error(exc, RequestError)
        raise ApiError(found.status, str(found)) from None
    held = _held(held_id)
    try:
        changes.reject_held(session(), held, editor, note)
    except changes.HeldDecided as exc:
        raise ApiError(409, str(exc)) from None
    return {"outcome": "rejected", "held": held.id}, 200
