"""Editor accounts: argon2 password hashes, and a login that does not reveal which names exist."""
from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from .models import Editor

MIN_PASSWORD = 10
_hasher = PasswordHasher()
# Verified against when the name is unknown, so both cases cost the same time.
_DUMMY_HASH = _hasher.hash("not a real password, only for timing")


class EditorError(ValueError):
    pass


def add_editor(session: Session, name: str, password: str) -> Editor:
    name = name.strip()
    if not name or len(name) > 80:
        raise EditorError("the name must be 1 to 80 characters")
    if len(password) < MIN_PASSWORD:
        raise EditorError(f"the password must have at least {MIN_PASSWORD} characters")
    if session.scalar(select(Editor).where(Editor.name == name)) is not None:
        raise EditorError(f"an editor named '{name}' exists already")
    editor = Editor(name=name, password_hash=_hasher.hash(password))
    session.add(editor)
    session.commit()
    return editor


def authenticate(session: Session, name: str, password: str) -> Editor | None:
    editor = session.scalar(select(Editor).where(Editor.name == (name or "").strip()))
    try:
        _hasher.verify(editor.password_hash if editor else _DUMMY_HASH, password or "")
    except (VerificationError, InvalidHashError):
        return None
    return editor
