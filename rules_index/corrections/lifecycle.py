"""An editor account's later life: a new password, disabling it, enabling it again.

A disabled editor cannot log in, and its sessions and tokens are ended at once; the lookups of
sessions and tokens refuse a disabled editor too, so nothing missed here would let it back in.
Its changes stay in the history under its name.
"""
from __future__ import annotations

from sqlalchemy.orm import Session

from .editors import editor_named, password_hash
from .models import Editor, utcnow
from .sessions import revoke_all
from .tokens import live_tokens


def set_password(session: Session, name: str, password: str) -> int:
    """A new password for the editor; every browser session of the account ends (whoever logged in
    with the old one is out). Returns how many ended. API tokens stay: they are not made from the
    password (``editors revoke`` ends them)."""
    editor = editor_named(session, name)
    editor.password_hash = password_hash(password)
    return revoke_all(session, editor)  # commits the new hash with the ended sessions


def disable(session: Session, name: str) -> tuple[int, int]:
    """Disable the account and end its sessions and tokens; returns how many of each ended."""
    editor = editor_named(session, name)
    if editor.disabled_at is None:
        editor.disabled_at = utcnow()
    tokens = live_tokens(session, editor)
    for token in tokens:
        token.revoked_at = utcnow()
    return revoke_all(session, editor), len(tokens)


def enable(session: Session, name: str) -> Editor:
    """Let a disabled editor log in again; the sessions and tokens ended by ``disable`` stay ended."""
    editor = editor_named(session, name)
    editor.disabled_at = None
    session.commit()
    return editor
