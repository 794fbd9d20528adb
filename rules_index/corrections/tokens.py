"""Editors' API tokens: made with ``secrets``, shown once, stored only as a SHA-256 hash.

An editor has at most one live token: a new one revokes the old, and ``revoke`` ends it.
"""
from __future__ import annotations

import hashlib
import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from .editors import EditorError, editor_named
from .models import Editor, EditorToken, utcnow


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def live_tokens(session: Session, editor: Editor) -> list[EditorToken]:
    return list(session.scalars(select(EditorToken).where(EditorToken.editor_id == editor.id, EditorToken.revoked_at.is_(None))))


def issue_token(session: Session, name: str) -> str:
    """A new token for the editor (the previous one stops working); returned once, never stored."""
    editor = editor_named(session, name)
    if editor.disabled_at is not None:
        raise EditorError(f"the editor '{editor.name}' is disabled")
    for old in live_tokens(session, editor):
        old.revoked_at = utcnow()
    token = secrets.token_urlsafe(32)
    session.add(EditorToken(editor_id=editor.id, token_hash=token_hash(token)))
    session.commit()
    return token


def revoke_tokens(session: Session, name: str) -> int:
    """End the editor's live token; returns how many were live."""
    editor = editor_named(session, name)
    live = live_tokens(session, editor)
    for token in live:
        token.revoked_at = utcnow()
    session.commit()
    return len(live)


def editor_for_token(session: Session, token: str) -> Editor | None:
    """The enabled editor a live token belongs to, or None (the lookup is by hash: the token is not stored)."""
    if not token or len(token) > 200:
        return None
    return session.scalar(select(Editor).join(EditorToken, EditorToken.editor_id == Editor.id).where(
        EditorToken.token_hash == token_hash(token), EditorToken.revoked_at.is_(None), Editor.disabled_at.is_(None)))
