"""Accepting a change: the rule engine is the gate, then the content, the history and the index.

1. The change is planned as new file texts and written into a copy of the content.
2. The copy must validate and every check of the game must pass; otherwise ChangeRefused,
   and the real files stay untouched.
3. The real files are replaced atomically, the change and its history are committed, other
   languages whose text did not change are flagged "translation under review".
"""
from __future__ import annotations

import datetime as dt
import fcntl
import json
import shutil
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules_index.content import LANGS, load
from rules_index.content.writer import (
    FilePlan,
    materialize,
    plan_faq_change,
    plan_section_change,
    read_faq,
    read_section,
)
from rules_index.verification import verify_game

from .models import Change, Editor, Report, TranslationFlag, utcnow

_thread_lock = threading.Lock()


class ChangeRefused(Exception):
    """The change would break validation or a rule check; ``problems`` says which."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


@contextmanager
def content_lock(lock_file: Path):
    """One writer at a time, across threads and processes."""
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    with _thread_lock, open(lock_file, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


@dataclass
class Outcome:
    change: Change | None
    plans: list[FilePlan]


def _snapshot(root: Path, game: str, kind: str, target: str) -> dict:
    return read_faq(root, game, target) if kind == "faq" else read_section(root, game, target)


def _plans(root: Path, game: str, kind: str, target: str, updates: dict, today: dt.date) -> list[FilePlan]:
    if kind == "faq":
        return plan_faq_change(root, game, target, updates, today)
    bodies = {lang: (updates.get(lang) or {}).get("body") for lang in LANGS}
    return plan_section_change(root, game, target, {k: v for k, v in bodies.items() if v}, today)


def gate(root: Path, game: str, plans: list[FilePlan]) -> None:
    """Validate the changed content and run the game's checks on it, in a copy of the content."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "content"
        shutil.copytree(root, copy)
        materialize(plans, copy)
        library, problems = load(copy)
        if problems:
            raise ChangeRefused([str(p).replace(str(copy), "content") for p in problems])
        report = verify_game(library.game(game))
        failures = []
        for result in report.results:
            if not result.ok:
                detail = result.error or ", ".join(f"{m.key}: expected {m.expected!r}, got {m.actual!r}" for m in result.mismatches)
                failures.append(f"check {result.kind}:{result.entry} ({result.probe}) FAILED: {detail}")
        failures += [f"{kind}:{entry} has no check" for _, kind, entry in report.missing]
        if failures:
            raise ChangeRefused(failures)


def changed_langs(before: dict, after: dict) -> set[str]:
    return {lang for lang in LANGS if before.get(lang) != after.get(lang)}


def apply_change(
    session: Session,
    root: Path,
    lock_file: Path,
    editor: Editor,
    game: str,
    kind: str,
    target: str,
    updates: dict,
    report: Report | None = None,
    today: dt.date | None = None,
) -> Outcome:
    """Gate, write and record one change; raises ChangeRefused with the failing checks."""
    today = today or dt.date.today()
    with content_lock(lock_file):
        before = _snapshot(root, game, kind, target)
        plans = _plans(root, game, kind, target, updates, today)
        if not any(p.before != p.after for p in plans):
            raise ChangeRefused(["the change does not alter the entry"])
        gate(root, game, plans)
        materialize(plans, root)
        try:
            after = _snapshot(root, game, kind, target)
            change = Change(
                game=game, target_kind=kind, target_id=target, editor_id=editor.id,
                report_id=report.id if report else None,
                before=json.dumps(before, ensure_ascii=False), after=json.dumps(after, ensure_ascii=False),
                patch="".join(p.diff() for p in plans),
            )
            session.add(change)
            session.flush()
            touched = changed_langs(before, after)
            if touched and touched != set(LANGS):
                for lang in sorted(set(LANGS) - touched):
                    session.add(TranslationFlag(game=game, target_id=target, lang=lang, change_id=change.id))
            for lang in touched:
                _resolve_flags(session, game, target, lang, editor)
            if report is not None:
                report.status = "accepted"
                report.reason = None
            session.commit()
        except BaseException:
            session.rollback()
            materialize([FilePlan(p.path, p.after, p.before) for p in plans], root)
            raise
    return Outcome(change, plans)


def _resolve_flags(session: Session, game: str, target: str, lang: str, editor: Editor) -> None:
    for flag in session.scalars(select(TranslationFlag).where(
        TranslationFlag.game == game, TranslationFlag.target_id == target,
        TranslationFlag.lang == lang, TranslationFlag.resolved_at.is_(None),
    )):
        flag.resolved_at = utcnow()
        flag.resolved_by = editor.id


def confirm_translation(session: Session, flag: TranslationFlag, editor: Editor) -> None:
    """An editor confirms that a flagged language version still says the same as the changed one."""
    _resolve_flags(session, flag.game, flag.target_id, flag.lang, editor)
    session.commit()


def open_flags(session: Session, game: str | None = None, target: str | None = None) -> list[TranslationFlag]:
    query = select(TranslationFlag).where(TranslationFlag.resolved_at.is_(None)).order_by(TranslationFlag.id)
    if game:
        query = query.where(TranslationFlag.game == game)
    if target:
        query = query.where(TranslationFlag.target_id == target)
    return list(session.scalars(query))


def reject(session: Session, report: Report, reason: str) -> None:
    report.status = "rejected"
    report.reason = reason.strip()
    session.commit()


def history(session: Session, game: str, kind: str, target: str) -> list[Change]:
    return list(session.scalars(select(Change).where(
        Change.game == game, Change.target_kind == kind, Change.target_id == target,
    ).order_by(Change.created_at.desc(), Change.id.desc())))


def export_patch(session: Session, since: dt.datetime | None = None) -> str:
    """Accepted changes as one patch for review in git (oldest first)."""
    query = select(Change).order_by(Change.created_at, Change.id)
    if since is not None:
        query = query.where(Change.created_at >= since)
    parts = []
    for change in session.scalars(query):
        source = f" (report {change.report_id})" if change.report_id else ""
        parts.append(f"# change {change.id}: {change.game} {change.target_kind}:{change.target_id} by {change.editor.name} at {change.created_at.isoformat()}Z{source}\n")
        parts.append(change.patch)
    return "".join(parts)
