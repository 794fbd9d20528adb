"""Editor accounts: argon2 password hashes, and a login that does not reveal which names exist."""
from __future__ import annotations

import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from .models import Editor

MIN_PASSWORD = 10
# RULES_PASSWORD_HASH_PROFILE names one of argon2's profiles. The default is RFC 9106's low-memory
# choice; the test suite sets CHEAPEST, since every hash records its own parameters and a cheap
# hash there costs nothing but test time.
_hasher = PasswordHasher.from_parameters(
    getattr(profiles, os.environ.get("RULES_PASSWORD_HASH_PROFILE", "RFC_9106_LOW_MEMORY")))
# Verified against when the name is unknown, so both cases cost the same time.
_DUMMY_HASH = _hasher.hash("not a real password, only for timing")
# A check holds argon2's memory (64 MiB at the default profile) and a core for about 0.2 s: a flood
# of logins may keep this many per process busy, not every thread of a worker and its memory.
CONCURRENT_CHECKS = 2
_checks = threading.BoundedSemaphore(CONCURRENT_CHECKS)
# The checks run on threads of their own at the lowest CPU priority: a burst of them (the site-wide
# limit lets 60 a minute through, 10 s of CPU) takes only what the readers leave, never their time.
CHECK_NICENESS = 19


def _lowest_priority() -> None:
    # On Linux a thread's nice value is its own (and inherited by the threads it starts).
    if sys.platform.startswith("linux"):
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), CHECK_NICENESS)
        except OSError:
            pass


_check_threads = ThreadPoolExecutor(CONCURRENT_CHECKS, thread_name_prefix="password-check", initializer=_lowest_priority)


class EditorError(ValueError):
    pass


class Busy(RuntimeError):
    """Every password-check slot of the process stayed taken for the whole wait."""


class Disabled(RuntimeError):
    """The name and password were right, but the account is disabled."""


def _display_name(value: str | None, login: str) -> str | None:
    """The display name as stored; raises EditorError unless it is printable and not the login name."""
    if value is None:
        return None
    value = " ".join(value.split())
    if not value or len(value) > 80 or not value.isprintable():
        raise EditorError("the display name must be 1 to 80 printable characters")
    if value.casefold() == login.casefold():
        raise EditorError("the display name must differ from the login name (the public history shows it)")
    return value


def password_hash(password: str) -> str:
    """The stored form of a new password; raises EditorError if it is too short."""
    if len(password) < MIN_PASSWORD:
        raise EditorError(f"the password must have at least {MIN_PASSWORD} characters")
    return _hasher.hash(password)


def find_editor(session: Session, name: str | None) -> Editor | None:
    """The editor a typed login name means: the exact name, else the one name equal to it but for
    case ("Anna" logs in as "anna"). Names that differ only in case cannot be added, so at most
    one matches, unless they were made before that rule."""
    name = (name or "").strip()
    if not 0 < len(name) <= 80:
        return None
    exact = session.scalar(select(Editor).where(Editor.name == name))
    if exact is not None:
        return exact
    alike = _alike(session, name)
    return alike[0] if len(alike) == 1 else None


def _alike(session: Session, name: str) -> list[Editor]:
    """The editors whose login name is ``name`` but for case. Compared in Python: SQLite's lower()
    folds ASCII only; the editors are a handful."""
    return [e for e in session.scalars(select(Editor)) if e.name.casefold() == name.casefold()]


def add_editor(session: Session, name: str, password: str, display_name: str | None = None) -> Editor:
    """A new editor. ``display_name`` is what the public history shows; the login name never is."""
    name = name.strip()
    if not name or len(name) > 80:
        raise EditorError("the name must be 1 to 80 characters")
    shown = _display_name(display_name, name)
    hashed = password_hash(password)
    taken = _alike(session, name)
    if taken:
        raise EditorError(f"an editor named '{taken[0].name}' exists already (login names differ by more than case)")
    editor = Editor(name=name, password_hash=hashed, display_name=shown)
    session.add(editor)
    session.commit()
    return editor


def editor_named(session: Session, name: str) -> Editor:
    """The editor with this login name (see ``find_editor``); raises EditorError."""
    editor = find_editor(session, name)
    if editor is None:
        raise EditorError(f"no editor named '{name.strip()}'")
    return editor


def set_display_name(session: Session, name: str, display_name: str | None) -> Editor:
    """Set the name the public history shows; None takes it away (the history then says
    "Editorial team")."""
    editor = editor_named(session, name)
    editor.display_name = _display_name(display_name, editor.name)
    session.commit()
    return editor


def authenticate(session: Session, name: str, password: str, wait: float = 0.5) -> Editor | None:
    """The editor if name and password match, else None. The hash is checked in every case, so an
    unknown name costs the same time as a wrong password.

    Raises Disabled when both match but the account is disabled: only someone who knows the
    password learns that. Raises Busy when no check slot frees within ``wait`` seconds.
    """
    editor = find_editor(session, name)
    if not _checks.acquire(timeout=wait):
        raise Busy()
    try:
        _check_threads.submit(_hasher.verify, editor.password_hash if editor else _DUMMY_HASH, password or "").result()
    except (VerificationError, InvalidHashError):
        return None
    finally:
        _checks.release()
    if editor is None:
        return None
    if editor.disabled_at is not None:
        raise Disabled()
    return editor
