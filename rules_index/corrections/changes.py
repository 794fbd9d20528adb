"""Accepting a change: the gate first, then one commit, the files and the database row.

1. Under the content lock, commits a dead process left without their row are recorded first
   (journal.settle); a report no longer pending is refused (ReportDecided).
2. The change is planned as new file texts; one made against an older version is refused as stale.
3. The gate (gate.py) checks the planned files in a copy of the game's folder; any problem raises
   ChangeRefused and nothing is written. A FAQ change the engine cannot judge (holds.py) is stored
   as a HeldChange instead, for a second editor's confirm_held. A dry run stops here.
4. One commit of the content repository is the change (its author the editor, its trailers
   journal.py's). With a remote it is pushed; a push refused because the remote moved on is tried
   again on its new head, through the gate again, unless the same entry changed (StaleVersion).
   Then the files are written and one transaction records the change, its translation flags and
   the report's status.

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
from rules_index.content.versions import entry_data, faq_version, planned_entry_data, section_version, stored_faq, stored_version
from rules_index.content.writer import (
    FAQ_TEXT_FIELDS,
    FilePlan,
    WriteCheckFailed,
    clean_text,
    materialize,
    plan_faq_change,
    plan_section_change,
    read_section,
)

from rules_index.content.repo import ContentRepo, GitError, PushRejected, UncommittedEdits, editor_author, format_message

from . import journal
from .content_lock import content_lock, lock_file_in
from .gate import UNCHANGED, ChangeRefused, GateProblem, review, review_faq, updated_faq
from .holds import HoldReason, content_words, hold_reasons, section_hold_reasons
from .journal import changed_langs, flagged_langs
from .models import Change, Editor, HeldChange, Report, TranslationFlag, utcnow

__all__ = [
    "UNCHANGED", "ChangeRefused", "GateProblem", "HeldDecided", "OwnChange", "Outcome", "ReportDecided",
    "StaleVersion", "apply_change", "changed_langs", "confirm_held", "content_lock", "flagged_langs", "reject",
    "reject_held",
]

# Crash tests name a point here (RULES_FAULT_POINT) at which the accepting process is killed.
FAULT_ENV = "RULES_FAULT_POINT"
FAULT_POINTS = ("commit-made", "committed", "files-written", "db-committed", "before-publish")
REMOTE_FAULT_POINTS = ("commit-made", "pushed", *FAULT_POINTS[1:])  # "pushed": before the local branch moves
# Pushes refused because another host's accept got there first, tried again on the new head.
PUSH_ATTEMPTS = 5

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
    recovered: list[journal.Recovered] = field(default_factory=list)  # unrecorded commits recorded first
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


def content_repo(root: Path) -> ContentRepo:
    """The repository of the content at ``root``: the app's (with its remote), or one of its own."""
    if has_app_context() and Path(current_app.config["CONTENT_DIR"]) == Path(root):
        found = current_app.extensions.get(REPO_KEY)
        if found is None:
            found = current_app.extensions[REPO_KEY] = ContentRepo(
                Path(root), remote=current_app.config.get("CONTENT_REMOTE"))
        return found
    return _local_repos.setdefault(Path(root), ContentRepo(Path(root)))


_local_repos: dict[Path, ContentRepo] = {}
REPO_KEY = "rules_index.content_repo"


def _title(kind: str, game: str, target: str, reverts: Change | None) -> str:
    what = "Rules section" if kind == "section" else "FAQ"
    return f"{'Revert change ' + str(reverts.id) + ': ' if reverts is not None else ''}{what} {game}/{target}"


def _commit(repo: ContentRepo, accept: journal.Accept, title: str) -> str:
    """The accept's commit, made on the head and put in place (the branch moved, or the push
    taken); raises PushRejected when the remote moved on first."""
    parent = repo.head()  # with a remote, its head as last fetched: a push onto anything newer is refused
    commit = repo.make_commit(parent, {p.path: p.after for p in accept.plans},
                              editor_author(accept.editor.id, accept.editor.display_name),
                              format_message(title, accept.trailers()))
    _fault("commit-made")
    if repo.remote:
        repo.push(commit)
        _fault("pushed")
    repo.advance(commit, parent)
    _fault("committed")
    return commit


def settle(session: Session, repo: ContentRepo, root: Path) -> list[journal.Recovered]:
    """Follow the remote (if any), then record accept commits left without their row."""
    results = follow(session, repo, root) if repo.remote else []
    return results + journal.settle(session, repo, root)


def follow(session: Session | None, repo: ContentRepo, root: Path) -> list[journal.Recovered]:
    """Bring the branch and the work tree to the remote's head, and record accept commits without
    their row (not without a ``session``: the database is down). The caller holds the lock."""
    old, new = repo.head(), repo.fetch()
    if old == new:
        return []
    if not repo.is_ancestor(old, new):
        raise GitError(f"the branch {repo.branch} ({old[:12]}) is not behind the remote's ({new[:12]}): settle it by hand")
    paths = repo.changed_paths(old, new)
    texts = [FilePlan(path, "", repo.show(new, path) or "") for path in paths]
    repo.advance(new, old)
    materialize(texts, root)
    repo.refresh_index(paths)
    followed = [journal.Recovered(new, None, tuple(paths))]
    return followed + (journal.settle(session, repo, root) if session is not None else [])


def entries_between(repo: ContentRepo, old: str, new: str) -> list[tuple[str, str, str]] | None:
    """The entries the commits after ``old`` up to ``new`` changed, as publishing names them, or
    None when one of them is no accept (a commit by hand may change anything)."""
    entries = []
    for commit in repo.recent(limit=1000, key=None, since=old):
        kind, game, target = journal.target_of(commit.trailers)
        if not (kind and game and target):
            return None
        entries.append((game, kind, target))
    return entries


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
    """Gate, write and record one change; raises ChangeRefused, StaleVersion or ReportDecided.
    A change the engine cannot judge (holds.py) is held instead, unless ``hold`` is False (a second
    editor confirms it, or a revert restores a text that was live). ``dry_run`` writes nothing;
    ``context`` is the loaded game; ``reverts`` the change this one undoes."""
    today = today or dt.date.today()
    if dry_run and kind == "faq":
        return _dry_run_faq(root, game, target, updates, base_version, context)
    repo = content_repo(root) if not dry_run else None
    with content_lock(lock_file):
        recovered: list[journal.Recovered] = []
        if repo is not None:
            # Not in a dry run: it promises to write nothing, and its callers publish nothing.
            recovered = settle(session, repo, root)
            if report is not None:
                _require_pending(session, report)
        for attempt in range(1, PUSH_ATTEMPTS + 1):
            current = stored_version(root, game, kind, target)
            if base_version is not None and base_version != current:
                raise StaleVersion(current)
            base_version = current  # a retry after another host's push: the entry must be as it was
            before = entry_data(root, game, kind, target)
            try:
                plans = _plans(root, game, kind, target, updates, today)
            except WriteCheckFailed as exc:  # the writer would not store what was meant: refuse, write nothing
                raise ChangeRefused([GateProblem("validation", f"the change cannot be written as given: {exc}")]) from None
            if not any(p.before != p.after for p in plans):
                raise ChangeRefused([GateProblem("validation", UNCHANGED, code="unchanged")])
            edited = repo.uncommitted({p.path: p.before for p in plans if p.before != p.after}) if repo is not None else []
            if edited:  # made by hand and not committed: the commit would carry them under the editor's name
                raise UncommittedEdits(edited)
            problems = review(root, game, kind, target, plans)
            if problems:
                raise ChangeRefused(problems)
            reasons = _holds(root, game, kind, target, updates, context) if hold else []
            if dry_run:
                flags = flagged_langs(proposed_langs(before, kind, updates)) if kind != "faq" or not hold or reasons else []
                return Outcome(None, plans, current, flags, reasons=reasons)
            if reasons:
                held = _hold(session, editor, game, kind, target, updates, current, report, reasons)
                log.info("held %s %s/%s for a second editor (held change %d, editor %d)", kind, game, target, held.id, editor.id)
                return Outcome(None, plans, current, recovered=recovered, reasons=reasons, held=held)
            writes = [p for p in plans if p.before != p.after]
            after = planned_entry_data(root, game, kind, target, writes)
            # An answer that went live at once (the gate found nothing to hold) flags no translation;
            # rules sections are not bound, so a change of one language flags the others. A revert
            # brings back what was live before it: nothing new to review.
            flags = flagged_langs(changed_langs(before, after)) if reverts is None and (kind != "faq" or not hold) else []
            accept = journal.Accept(game, kind, target, editor, report.id if report is not None else None,
                                    reverts.id if reverts is not None else None, flags, writes).with_key()
            try:
                commit = _commit(repo, accept, _title(kind, game, target, reverts))
                break
            except PushRejected:
                # Another host got there first: its commits become ours, then the gate runs again
                # (the entry's version is compared first, so a change of the same entry is a 409).
                log.info("push of %s %s/%s refused (attempt %d): following the remote", kind, game, target, attempt)
                recovered += follow(session, repo, root)
        else:
            raise StaleVersion(stored_version(root, game, kind, target))
        try:
            materialize(writes, root)
            repo.refresh_index(p.path for p in writes)
        except OSError:
            # The commit is the change: it is recorded, and its files are written before the next
            # publication (journal.write_behind), which the caller's publication now waits for.
            log.exception("change to %s/%s is committed (%s) but its files could not be written yet", game, target, commit)
            journal.FILES_BEHIND.set()
        _fault("files-written")
        change = journal.record(session, root, accept, commit)
        _fault("db-committed")
        log.info("accepted change %d of %s %s/%s as commit %s (editor %d%s)", change.id, kind, game, target, commit[:12],
                 editor.id, f", reverting change {reverts.id}" if reverts is not None else "")
    _fault("before-publish")
    try:
        # The new version from the entry as written (reading the file back would parse it once more).
        version = faq_version(Faq.model_validate(after)) if kind == "faq" else section_version(after)
    except Exception:  # the change is stored: that is what the caller must hear, version or not
        log.exception("change %s is stored, but its version could not be computed", change.id)
        version = ""
    return Outcome(change, plans, version, accept.flags, recovered)


def _loaded(root: Path, game: str, context: Game | None) -> Game:
    """``context``, or the game loaded from ``root`` when the caller has none."""
    return context if context is not None else load_game(Path(root) / game, Path(root), lines=False)[0]


def _holds(root: Path, game: str, kind: str, target: str, updates: dict, context: Game | None) -> list[HoldReason]:
    """Why a change needs a second editor (``holds``)."""
    context = _loaded(root, game, context)
    if kind == "section":
        stored = {lang: text["body"] for lang, text in read_section(root, game, target).items()}
        bodies = {lang: (updates.get(lang) or {}).get("body") or stored[lang] for lang in LANGS}
        return section_hold_reasons(stored, bodies, context.glossary, content_words(context, target, "section"))
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


def _dry_run_faq(root: Path, game: str, target: str, updates: dict, base_version: str | None, context: Game | None) -> Outcome:
    """A FAQ change checked in memory against the stored entry: nothing is read twice or written."""
    stored = stored_faq(root, game, target)
    current = faq_version(stored)
    if base_version is not None and base_version != current:
        raise StaleVersion(current)
    context = _loaded(root, game, context)
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
    journal.resolve_flags(session, flag.game, flag.target_id, flag.lang, editor.id)
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
