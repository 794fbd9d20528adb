"""Editors' browser sessions, held on the server: the cookie carries a random id, the database
its SHA-256 hash. Logout revokes the row, so a saved copy of the cookie stops working at once;
a session also ends ``lifetime`` after it was opened, whatever the cookie says."""
from __future__ import annotations

import datetime as dt
import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from .models import Editor, EditorSession, utcnow
from .tokens import token_hash

DEFAULT_LIFETIME = dt.timedelta(hours=12)
MAX_ID_LENGTH = 200


def open_session(session: Session, editor: Editor) -> str:
    """A new session for ``editor``; returns the id for the cookie (only its hash is stored)."""
    session_id = secrets.token_urlsafe(32)
    session.add(EditorSession(editor_id=editor.id, token_hash=token_hash(session_id)))
    session.commit()
    return session_id


def _row(session: Session, session_id: object) -> EditorSession | None:
    if not isinstance(session_id, str) or not session_id or len(session_id) > MAX_ID_LENGTH:
        return None
    return session.scalar(select(EditorSession).where(EditorSession.token_hash == token_hash(session_id)))


def editor_for_session(session: Session, session_id: object, lifetime: dt.timedelta = DEFAULT_LIFETIME) -> Editor | None:
    """The editor of a live session, or None (unknown, revoked, older than ``lifetime``, or its
    editor disabled or gone)."""
    row = _row(session, session_id)
    if row is None or row.revoked_at is not None or utcnow() - row.created_at > lifetime:
        return None
    editor = session.get(Editor, row.editor_id)
    if editor is None or editor.disabled_at is not None:
        return None
    return editor


def revoke_session(session: Session, session_id: object) -> bool:
    """End the session; returns whether it was live."""
    row = _row(session, session_id)
    if row is None or row.revoked_at is not None:
        return False
    row.revoked_at = utcnow()
    session.commit()
    return True


def revoke_all(session: Session, editor: Editor) -> int:
    """End every live session of the editor (e.g. after a password was leaked); returns how many."""
    rows = list(session.scalars(select(EditorSession).where(
        EditorSession.editor_id == editor.id, EditorSession.revoked_at.is_(None),
    )))
    for row in rows:
        row.revoked_at = utcnow()
    session.commit()
    return len(rows)
