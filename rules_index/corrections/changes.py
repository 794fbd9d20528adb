"""Accepting a change: the gate first, then the intent, the content, the history and the index.

1. Inside the content lock, open accepts left by a dead process are settled first (recovery.py),
   and a report that is no longer pending is refused (ReportDecided).
2. The change is planned as new file texts; a change made against an older version of the
   entry is refused as stale.
3. The gate (gate.py) checks the planned files in a copy of the game's folder: validation, the
   entry's ruling against its text in every language, the game's common mistakes, the entry's
   rule checks. Any problem raises ChangeRefused, and the real files stay untouched.
   A FAQ change the engine cannot judge (new or reworded words, holds.py) is then stored as a
   HeldChange and nothing is written; a second editor's confirm_held runs it through the gate
   again and writes it. A dry run stops here, saying which of the two it would be.
4. The intent (what will be written) is committed before any file is touched; the real files are
   replaced one by one, each atomically; then one transaction records the change and its
   history, flags the other languages whose text did not change as "translation under review",
   marks the report accepted and the intent done (intents.py). A process that dies on the way
   leaves the intent open, and the recovery finishes it.

The callers publish the index afterwards (web/publishing.publish).
"""
from __future__ import annotations

import datetime as dt
import json
import logging
import os
import signal
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from flask import current_app, has_app_context
from sqlalchemy import select
from sqlalchemy.orm import Session

from rules_index.content import LANGS, Game
from rules_index.content.loader import load_game
from rules_index.content.schema import Faq
from rules_index.content.versions import faq_version, section_version, stored_faq, stored_version
from rules_index.content.writer import (
    FAQ_TEXT_FIELDS,
    FilePlan,
    WriteCheckFailed,
    clean_text,
    materialize,
    plan_faq_change,
    plan_section_change,
)

from . import intents, recovery
from .content_lock import content_lock, lock_file_in
from .gate import UNCHANGED, ChangeRefused, GateProblem, review, review_faq, updated_faq
from .holds import HoldReason, content_words, hold_reasons
from .intents import changed_langs, flagged_langs
from .models import AcceptIntent, Change, Editor, HeldChange, Report, TranslationFlag, utcnow

__all__ = [
    "UNCHANGED", "ChangeRefused", "GateProblem", "HeldDecided", "OwnChange", "Outcome", "ReportDecided",
    "StaleVersion", "apply_change", "changed_langs", "confirm_held", "content_lock", "flagged_langs", "reject",
    "reject_held",
]

# Crash tests name a point here (RULES_FAULT_POINT) at which the accepting process is killed.
FAULT_ENV = "RULES_FAULT_POINT"
FAULT_POINTS = ("intent-committed", "file-replaced:1", "file-replaced:2", "db-committed", "before-publish")

log = logging.getLogger(__name__)


class StaleVersion(Exception):
    """The change was made against another version of the entry than the current one."""

    def __init__(self, current: str):
        self.current = current
        super().__init__(f"base_version: the entry has changed since; its current version is {current}")


class ReportDecided(Exception):
    """The report is no longer pending (accepted or rejected already, or its accept is unfinished)."""

    def __init__(self, report_id: int, status: str, unfinished: bool = False):
        self.report_id = report_id
        self.status = status
        self.unfinished = unfinished
        message = (f"report {report_id}: an accept of it was cut off and is not settled yet" if unfinished
                   else f"report {report_id} is already {status}")
        super().__init__(message)


class HeldDecided(Exception):
    """The held change was confirmed or rejected already."""

    def __init__(self, held: HeldChange):
        self.held = held
        super().__init__(f"held change {held.id} is already {held.status}")


class OwnChange(Exception):
    """An editor tried to confirm their own held change: a second editor must."""

    def __init__(self, held: HeldChange):
        self.held = held
        super().__init__(f"held change {held.id} is your own: another editor must confirm it")


@dataclass
class Outcome:
    """What became of a change: accepted (``change`` written, or would be in a dry run), or held
    for a second editor (``reasons``; ``held`` the stored request, None in a dry run)."""

    change: Change | None
    plans: list[FilePlan]
    version: str = ""
    flags: list[str] = field(default_factory=list)  # languages put under translation review
    recovered: list[recovery.Recovered] = field(default_factory=list)  # open accepts settled first
    reasons: list[HoldReason] = field(default_factory=list)
    held: HeldChange | None = None

    @property
    def outcome(self) -> str:
        return "held" if self.reasons else "accepted"


def _fault(name: str) -> None:
    """Die here as a SIGKILL kills (no cleanup, no flush) when RULES_FAULT_POINT names this point.

    Inert unless that variable is set: only the crash tests set it, for the process they kill.
    """
    if os.environ.get(FAULT_ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)


def _plans(root: Path, game: str, kind: str, target: str, updates: dict, today: dt.date) -> list[FilePlan]:
    if kind == "faq":
        return plan_faq_change(root, game, target, updates, today)
    bodies = {lang: (updates.get(lang) or {}).get("body") for lang in LANGS}
    return plan_section_change(root, game, target, {k: v for k, v in bodies.items() if v}, today)


def proposed_langs(before: dict, kind: str, updates: dict) -> set[str]:
    """The languages whose text ``updates`` would change (as the writer stores text: LF, stripped)."""
    fields = FAQ_TEXT_FIELDS if kind == "faq" else ("body",)
    touched = set()
    for lang in LANGS:
        for name in fields:
            value = (updates.get(lang) or {}).get(name)
            if value is not None and clean_text(value) != clean_text(str(before[lang].get(name, ""))):
                touched.add(lang)
    return touched


def _require_pending(session: Session, report: Report) -> None:
    """Refuse a report that is not pending now, as the database says (another editor, another
    process); the caller holds the content lock, so nobody decides it between this and the write."""
    status = session.scalar(select(Report.status).where(Report.id == report.id))
    if status != "pending":
        raise ReportDecided(report.id, status)
    if intents.open_intents(session, report.id):
        raise ReportDecided(report.id, status, unfinished=True)


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
    hold: bool = True,
) -> Outcome:
    """Gate, write and record one change; raises ChangeRefused (with the problems), StaleVersion,
    or ReportDecided (``report`` is not pending). A change the engine cannot judge (holds.py) is
    stored as held instead of written, unless ``hold`` is False (a second editor confirms it, or a
    revert restores a text that was live).

    With ``dry_run`` nothing is written: the outcome says what would be accepted, held and flagged.
    ``context`` is the loaded game (a FAQ dry run checks the change against it in memory).
    ``reverts`` is the change this one undoes (stored with the change).
    """
    today = today or dt.date.today()
    if dry_run and kind == "faq":
        return _dry_run_faq(root, game, target, updates, base_version, context)
    with content_lock(lock_file):
        recovered: list[recovery.Recovered] = []
        if not dry_run:
            # Not in a dry run: it promises to write nothing, and its callers publish nothing.
            recovered = recovery.recover_intents(session, root)
            recovery.publish_if_needed(recovered)
            if report is not None:
                _require_pending(session, report)
        current = stored_version(root, game, kind, target)
        if base_version is not None and base_version != current:
            raise StaleVersion(current)
        before = intents.snapshot(root, game, kind, target)
        try:
            plans = _plans(root, game, kind, target, updates, today)
        except WriteCheckFailed as exc:  # the writer would not store what was meant: refuse, write nothing
            raise ChangeRefused([GateProblem("validation", f"the change cannot be written as given: {exc}")]) from None
        if not any(p.before != p.after for p in plans):
            raise ChangeRefused([GateProblem("validation", UNCHANGED)])
        problems = review(root, game, kind, target, plans)
        if problems:
            raise ChangeRefused(problems)
        reasons = _holds(root, game, kind, target, updates, context) if hold else []
        if dry_run:
            flags = flagged_langs(proposed_langs(before, kind, updates)) if kind != "faq" or not hold or reasons else []
            return Outcome(None, plans, current, flags, reasons=reasons)
        if reasons:
            held = _hold(session, editor, game, kind, target, updates, current, report, reasons)
            return Outcome(None, plans, current, recovered=recovered, reasons=reasons, held=held)
        writes = [p for p in plans if p.before != p.after]
        after = intents.planned_snapshot(root, game, kind, target, writes)
        intent = intents.open_intent(
            session, game=game, kind=kind, target=target, editor_id=editor.id,
            report_id=report.id if report is not None else None,
            reverts_id=reverts.id if reverts is not None else None,
            plans=writes, before=before, after=after,
        )
        _fault("intent-committed")
        try:
            intents.write(writes, root, after_each=lambda number: _fault(f"file-replaced:{number}"))
            # An answer that went live at once (the gate found nothing to hold) flags no translation;
            # rules sections are not bound, so a change of one language flags the others.
            change, flags = intents.complete(session, intent, flag=kind != "faq" or not hold)
        except BaseException:
            _undo(session, root, intent, writes)
            raise
        _fault("db-committed")
    _fault("before-publish")
    try:
        # The new version from the entry as written (reading the file back would parse it once more).
        version = faq_version(Faq.model_validate(after)) if kind == "faq" else section_version(after)
    except Exception:  # the change is stored: that is what the caller must hear, version or not
        log.exception("change %s is stored, but its version could not be computed", change.id)
        version = ""
    return Outcome(change, plans, version, flags, recovered)


def _holds(root: Path, game: str, kind: str, target: str, updates: dict, context: Game | None) -> list[HoldReason]:
    """Why a FAQ change needs a second editor (rules sections are not bound: they go live)."""
    if kind != "faq":
        return []
    if context is None:
        context, _, _ = load_game(Path(root) / game, Path(root), lines=False)
    stored = stored_faq(root, game, target)
    return hold_reasons(stored, updated_faq(stored, updates), context.glossary, content_words(context, target))


def _hold(session: Session, editor: Editor, game: str, kind: str, target: str, updates: dict, version: str,
          report: Report | None, reasons: list[HoldReason]) -> HeldChange:
    held = HeldChange(
        game=game, target_kind=kind, target_id=target, editor_id=editor.id,
        report_id=report.id if report is not None else None, base_version=version,
        updates=json.dumps(updates, ensure_ascii=False), status="held",
        reasons=json.dumps([reason.stored() for reason in reasons], ensure_ascii=False),
    )
    session.add(held)
    session.commit()
    return held


def held_updates(held: HeldChange) -> dict:
    return json.loads(held.updates)


def held_reasons(held: HeldChange) -> list[dict]:
    return json.loads(held.reasons)


def confirm_held(session: Session, root: Path, lock_file: Path, held: HeldChange, editor: Editor,
                 context: Game | None = None) -> Outcome:
    """A second editor confirms a held change: it passes the gate again (what the engine refuses
    stays refused) and is written as its author's change. Raises OwnChange, HeldDecided,
    StaleVersion (the entry changed since it was held), ChangeRefused, ReportDecided."""
    if held.status != "held":
        raise HeldDecided(held)
    if held.editor_id == editor.id:
        raise OwnChange(held)
    outcome = apply_change(
        session, root, lock_file, held.editor, held.game, held.target_kind, held.target_id, held_updates(held),
        report=held.report, base_version=held.base_version, context=context, hold=False,
    )
    held.status, held.decided_by, held.decided_at = "confirmed", editor.id, utcnow()
    held.change_id = outcome.change.id if outcome.change is not None else None
    session.commit()
    return outcome


def reject_held(session: Session, held: HeldChange, editor: Editor, note: str = "") -> None:
    """A held change is turned down (by another editor, or withdrawn by its author); readers
    never saw it, and its report stays open."""
    if held.status != "held":
        raise HeldDecided(held)
    held.status, held.decided_by, held.decided_at = "rejected", editor.id, utcnow()
    held.note = note.strip() or None
    session.commit()


def held_changes(session: Session, game: str | None = None, target: str | None = None) -> list[HeldChange]:
    """The changes waiting for a second editor, oldest first."""
    query = select(HeldChange).where(HeldChange.status == "held")
    if game is not None:
        query = query.where(HeldChange.game == game)
    if target is not None:
        query = query.where(HeldChange.target_id == target)
    return list(session.scalars(query.order_by(HeldChange.id)))


def _undo(session: Session, root: Path, intent: AcceptIntent, writes: list[FilePlan]) -> None:
    """After a failure in this process: put the files back and mark the intent rolled back, but
    only once the database says no change was recorded (a commit whose answer was lost may have
    gone through). If the database cannot say, everything stays as it is and the recovery settles
    the open intent later (forward, as the gate passed)."""
    try:
        session.rollback()
        if session.scalar(select(Change.id).where(Change.intent_id == intent.id)) is not None:
            return
        materialize([FilePlan(p.path, p.after, p.before) for p in writes], root)
        intents.finish(session.get(AcceptIntent, intent.id), "rolled_back")
        session.commit()
    except Exception:
        log.exception("accept intent %s: undoing a failed accept failed too; it stays open for recovery", intent.id)
        session.rollback()


def _dry_run_faq(root: Path, game: str, target: str, updates: dict, base_version: str | None, context: Game | None) -> Outcome:
    """A FAQ change checked in memory against the stored entry: nothing is read twice or written."""
    stored = stored_faq(root, game, target)
    current = faq_version(stored)
    if base_version is not None and base_version != current:
        raise StaleVersion(current)
    if context is None:
        context, _, _ = load_game(Path(root) / game, Path(root), lines=False)
    problems, entry = review_faq(context, stored, updates)
    if problems:
        raise ChangeRefused(problems)
    before = {lang: stored.text(lang).model_dump() for lang in LANGS}
    reasons = hold_reasons(stored, entry, context.glossary, content_words(context, target))
    # Once confirmed, a held change puts the languages it left alone under translation review.
    flags = flagged_langs(proposed_langs(before, "faq", updates)) if reasons else []
    return Outcome(None, [], current, flags, reasons=reasons)


def confirm_translation(session: Session, flag: TranslationFlag, editor: Editor) -> None:
    """An editor confirms that a flagged language version still says the same as the changed one."""
    intents.resolve_flags(session, flag.game, flag.target_id, flag.lang, editor.id)
    session.commit()


def open_flags(session: Session, game: str | None = None, target: str | None = None) -> list[TranslationFlag]:
    query = select(TranslationFlag).where(TranslationFlag.resolved_at.is_(None)).order_by(TranslationFlag.id)
    if game:
        query = query.where(TranslationFlag.game == game)
    if target:
        query = query.where(TranslationFlag.target_id == target)
    return list(session.scalars(query))


def reject(session: Session, report: Report, reason: str, lock_file: Path | None = None) -> None:
    """Reject a pending report; raises ReportDecided if it is not pending (any more).

    Under the content lock (``lock_file``, by default the current app's), so that an accept of the
    same report in another process cannot get in between the check and the write.
    """
    if lock_file is None and has_app_context():
        lock_file = lock_file_in(current_app.instance_path)
    with content_lock(lock_file) if lock_file is not None else nullcontext():
        _require_pending(session, report)
        report.status = "rejected"
        report.reason = reason.strip()
        session.commit()


def history(session: Session, game: str, kind: str, target: str) -> list[Change]:
    return list(session.scalars(select(Change).where(
        Change.game == game, Change.target_kind == kind, Change.target_id == target,
    ).order_by(Change.created_at.desc(), Change.id.desc())))


def recent(session: Session, game: str | None = None, limit: int = 100) -> list[Change]:
    """The latest accepted changes (of ``game``, or of every game), newest first."""
    query = select(Change).order_by(Change.created_at.desc(), Change.id.desc()).limit(limit)
    if game:
        query = query.where(Change.game == game)
    return list(session.scalars(query))


def change_of_report(session: Session, report_id: int) -> Change | None:
    """The latest change made from the report, if any."""
    return session.scalar(select(Change).where(Change.report_id == report_id).order_by(Change.id.desc()))


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
