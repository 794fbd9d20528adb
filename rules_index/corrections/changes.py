"""Accepting a change: the gate first, then the content, the history and the index.

1. The change is planned as new file texts; a change made against an older version of the
   entry is refused as stale.
2. The gate (gate.py) checks the planned files in a copy of the game's folder: validation, the
   entry's ruling against its text in every language, the game's common mistakes, the entry's
   rule checks. Any problem raises ChangeRefused, and the real files stay untouched. A dry run
   stops here.
3. The real files are replaced atomically, the change and its history are committed, other
   languages whose text did not change are flagged "translation under review".
"""
from __future__ import annotations

import datetime as dt
import fcntl
import json
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules_index.content import LANGS, Game
from rules_index.content.loader import load_game
from rules_index.content.versions import faq_version, stored_faq, stored_faq_data, stored_version
from rules_index.content.writer import (
    FAQ_TEXT_FIELDS,
    FilePlan,
    materialize,
    plan_faq_change,
    plan_section_change,
    read_section,
)

from .gate import UNCHANGED, ChangeRefused, GateProblem, review, review_faq
from .models import Change, Editor, Report, TranslationFlag, utcnow

__all__ = ["UNCHANGED", "ChangeRefused", "GateProblem", "Outcome", "StaleVersion", "apply_change"]

_thread_lock = threading.Lock()


class StaleVersion(Exception):
    """The change was made against another version of the entry than the current one."""

    def __init__(self, current: str):
        self.current = current
        super().__init__(f"base_version: the entry has changed since; its current version is {current}")


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
    version: str = ""
    flags: list[str] = field(default_factory=list)  # languages put under translation review


def _snapshot(root: Path, game: str, kind: str, target: str) -> dict:
    return stored_faq_data(root, game, target) if kind == "faq" else read_section(root, game, target)


def _plans(root: Path, game: str, kind: str, target: str, updates: dict, today: dt.date) -> list[FilePlan]:
    if kind == "faq":
        return plan_faq_change(root, game, target, updates, today)
    bodies = {lang: (updates.get(lang) or {}).get("body") for lang in LANGS}
    return plan_section_change(root, game, target, {k: v for k, v in bodies.items() if v}, today)


def changed_langs(before: dict, after: dict) -> set[str]:
    return {lang for lang in LANGS if before.get(lang) != after.get(lang)}


def proposed_langs(before: dict, kind: str, updates: dict) -> set[str]:
    """The languages whose text ``updates`` would change (as the writer stores text: stripped)."""
    fields = FAQ_TEXT_FIELDS if kind == "faq" else ("body",)
    touched = set()
    for lang in LANGS:
        for name in fields:
            value = (updates.get(lang) or {}).get(name)
            if value is not None and value.strip() != str(before[lang].get(name, "")).strip():
                touched.add(lang)
    return touched


def flagged_langs(touched: set[str]) -> list[str]:
    """A change to some languages only puts the others under translation review."""
    return sorted(set(LANGS) - touched) if touched and touched != set(LANGS) else []


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
    dry_run: bool = False,
    base_version: str | None = None,
    context: Game | None = None,
    reverts: Change | None = None,
) -> Outcome:
    """Gate, write and record one change; raises ChangeRefused (with the problems) or StaleVersion.

    With ``dry_run`` nothing is written: the outcome says what would be accepted and flagged.
    ``context`` is the loaded game (a FAQ dry run checks the change against it in memory).
    """
    today = today or dt.date.today()
    if dry_run and kind == "faq":
        return _dry_run_faq(root, game, target, updates, base_version, context)
    with content_lock(lock_file):
        current = stored_version(root, game, kind, target)
        if base_version is not None and base_version != current:
            raise StaleVersion(current)
        before = _snapshot(root, game, kind, target)
        plans = _plans(root, game, kind, target, updates, today)
        if not any(p.before != p.after for p in plans):
            raise ChangeRefused([GateProblem("validation", UNCHANGED)])
        problems = review(root, game, kind, target, plans)
        if problems:
            raise ChangeRefused(problems)
        if dry_run:
            return Outcome(None, plans, current, flagged_langs(proposed_langs(before, kind, updates)))
        materialize(plans, root)
        try:
            after = _snapshot(root, game, kind, target)
            change = Change(
                game=game, target_kind=kind, target_id=target, editor_id=editor.id,
                report_id=report.id if report else None, reverts_id=reverts.id if reverts else None,
                before=json.dumps(before, ensure_ascii=False), after=json.dumps(after, ensure_ascii=False),
                patch="".join(p.diff() for p in plans),
            )
            session.add(change)
            session.flush()
            touched = changed_langs(before, after)
            flags = flagged_langs(touched)
            for lang in flags:
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
        version = stored_version(root, game, kind, target)
    return Outcome(change, plans, version, flags)


def _dry_run_faq(root: Path, game: str, target: str, updates: dict, base_version: str | None, context: Game | None) -> Outcome:
    """A FAQ change checked in memory against the stored entry: nothing is read twice or written."""
    stored = stored_faq(root, game, target)
    current = faq_version(stored)
    if base_version is not None and base_version != current:
        raise StaleVersion(current)
    if context is None:
        context, _, _ = load_game(Path(root) / game, Path(root), lines=False)
    problems, _ = review_faq(context, stored, updates)
    if problems:
        raise ChangeRefused(problems)
    before = {lang: stored.text(lang).model_dump() for lang in LANGS}
    return Outcome(None, [], current, flagged_langs(proposed_langs(before, "faq", updates)))


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
