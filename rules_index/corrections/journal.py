"""The commit is the journal: an accept's commit names its change, and the database row follows it.

An accept (changes.apply_change) makes one commit whose trailers say what it is:

    Change-Key: 0b6c…            (unique; the database row carries the same key)
    Change-Target: faq ohne-furcht-und-adel/thief-rob-assassin
    Editor: 3                    (the editor's number: the login name stays private)
    Report: 12                   (when the change came from a report)
    Reverts: 7                   (when it undoes change 7)
    Translation-Review: en it    (the languages put under translation review, or "none")

then writes the content files and records the row (``record``) in one transaction. The row
indexes the change; its texts and patch are read from the commit (``change_data``,
``change_patch``). A process that dies after the commit leaves a commit without its row:
``settle`` (under the content lock, at start and before every accept) writes its files where they
still hold the text before and records it as a live accept would.
"""
from __future__ import annotations

import functools
import json
import logging
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from rules_index.content import LANGS
from rules_index.content.repo import Commit, ContentRepo
from rules_index.content.versions import entry_in_texts, planned_entry_data
from rules_index.content.writer import EntryNotFound
from rules_index.content.writer import FilePlan, materialize, plan_state

from .models import Change, Editor, Report, TranslationFlag, utcnow

log = logging.getLogger(__name__)

KEY = "Change-Key"


@dataclass(frozen=True)
class Accept:
    """What an accept records: the entry, who, from which report, and the files' texts."""

    game: str
    kind: str
    target: str
    editor: Editor
    report_id: int | None
    reverts_id: int | None
    flags: list[str]
    plans: list[FilePlan]
    key: str = ""

    def with_key(self) -> "Accept":
        return Accept(**{**self.__dict__, "key": uuid.uuid4().hex})

    def trailers(self) -> dict[str, str]:
        trailers = {KEY: self.key, "Change-Target": f"{self.kind} {self.game}/{self.target}", "Editor": str(self.editor.id)}
        if self.report_id is not None:
            trailers["Report"] = str(self.report_id)
        if self.reverts_id is not None:
            trailers["Reverts"] = str(self.reverts_id)
        trailers["Translation-Review"] = " ".join(self.flags) or "none"
        return trailers


@dataclass(frozen=True)
class Recovered:
    """A commit found without its row, and what was done: its row recorded, files written."""

    commit: str
    change_id: int | None
    written: tuple[str, ...] = ()

    @property
    def content_changed(self) -> bool:
        return bool(self.written)


def changed_langs(before: dict, after: dict) -> set[str]:
    return {lang for lang in LANGS if before.get(lang) != after.get(lang)}


def flagged_langs(touched: set[str]) -> list[str]:
    """A change to some languages only puts the others under translation review."""
    return sorted(set(LANGS) - touched) if touched and touched != set(LANGS) else []


def _resolve(session: Session, editor_id: int, *where) -> None:
    """The open translation flags that ``where`` selects are settled by ``editor_id``."""
    for flag in session.scalars(select(TranslationFlag).where(TranslationFlag.resolved_at.is_(None), *where)):
        flag.resolved_at = utcnow()
        flag.resolved_by = editor_id


def resolve_flags(session: Session, game: str, target: str, lang: str, editor_id: int) -> None:
    """The open translation flags of one language of an entry are settled by ``editor_id``."""
    _resolve(session, editor_id, TranslationFlag.game == game, TranslationFlag.target_id == target,
             TranslationFlag.lang == lang)


def record(session: Session, root: Path, accept: Accept, commit: str) -> Change:
    """The change's row, its translation flags and its report's status, in one transaction.
    A row with the same key recorded meanwhile (by a recovery on another host) is returned as is."""
    before = planned_entry_data(root, accept.game, accept.kind, accept.target,
                                [FilePlan(p.path, p.after, p.before) for p in accept.plans])
    after = planned_entry_data(root, accept.game, accept.kind, accept.target, accept.plans)
    change = Change(
        game=accept.game, target_kind=accept.kind, target_id=accept.target, editor_id=accept.editor.id,
        report_id=accept.report_id, reverts_id=accept.reverts_id, key=accept.key, commit=commit,
    )
    session.add(change)
    try:
        session.flush()
    except IntegrityError:
        session.rollback()
        return session.scalar(select(Change).where(Change.key == accept.key))
    for lang in accept.flags:
        session.add(TranslationFlag(game=accept.game, target_id=accept.target, lang=lang, change_id=change.id))
    for lang in changed_langs(before, after):
        resolve_flags(session, accept.game, accept.target, lang, accept.editor.id)
    if accept.reverts_id is not None:
        # The entry is as it was before the reverted change: the languages it put under
        # translation review differ from nothing any more.
        _resolve(session, accept.editor.id, TranslationFlag.change_id == accept.reverts_id)
    if accept.report_id is not None:
        report = session.get(Report, accept.report_id)
        if report is not None:
            report.status = "accepted"
            report.reason = None
    session.commit()
    return change


def _commit_plans(repo: ContentRepo, commit: str, paths=None) -> list[FilePlan]:
    """The content files ``commit`` changed (``paths``, when known), each with its text before and
    after the commit."""
    parent = f"{commit}^"
    return [FilePlan(path, repo.show(parent, path) or "", repo.show(commit, path) or "")
            for path in (repo.changed_paths(parent, commit) if paths is None else paths)]


# A commit never changes: what was read from one is kept (bounded; a history page reads a few).
@functools.lru_cache(maxsize=512)
def _committed(repo: ContentRepo, commit: str, game: str, kind: str, target: str) -> tuple[str, str]:
    plans = {plan.path: plan for plan in _commit_plans(repo, commit)}

    def entry(rev: str, side: str) -> dict:
        # The files the commit changed are read once, for both sides.
        def text(path: str) -> str | None:
            return getattr(plans[path], side) if path in plans else repo.show(rev, path)
        try:
            return entry_in_texts(text, game, kind, target)
        except EntryNotFound:
            return {}
    return json.dumps(entry(f"{commit}^", "before"), ensure_ascii=False), json.dumps(entry(commit, "after"), ensure_ascii=False)


def change_data(repo: ContentRepo, change: Change) -> tuple[dict, dict]:
    """The entry's fields before and after ``change``, read from its commit (a row recorded
    before content lived in git carries its own copy)."""
    if change.commit is None:
        return json.loads(change.before or "{}"), json.loads(change.after or "{}")
    before, after = _committed(repo, change.commit, change.game, change.target_kind, change.target_id)
    return json.loads(before), json.loads(after)


def change_patch(repo: ContentRepo, change: Change) -> str:
    """``change`` as a patch ``git am`` applies: its commit as ``git format-patch`` writes it (a
    row recorded before content lived in git carries its own diff)."""
    if change.commit is None:
        return change.patch or ""
    return repo.format_patch(change.commit)


# Set when an accept's files could not be written after its commit (a full disk): the next
# publication writes them first (``write_behind``).
FILES_BEHIND = threading.Event()


def write_behind(repo: ContentRepo, root: Path, limit: int = 10, dry_run: bool = False) -> list[str]:
    """Bring the files of the latest accept commits into the work tree where they still hold the
    text before (a write cut off after the commit); returns the paths written (``dry_run``: that
    would be). The caller holds the content lock."""
    written, seen = [], set()
    for commit in repo.recent(limit):
        for path in commit.paths:
            if path in seen:
                continue
            seen.add(path)
            [plan] = _commit_plans(repo, commit.id, [path])
            if plan_state(root, plan) == "before":
                if not dry_run:
                    materialize([plan], root)
                written.append(path)
    if dry_run:
        return written
    repo.refresh_index(written)
    if written:
        log.warning("wrote %d file(s) of accepts cut off after their commit: %s", len(written), ", ".join(written))
    return written


def target_of(trailers: dict[str, str]) -> tuple[str, str, str]:
    """(kind, game, target) as a commit's Change-Target trailer names them; empty where it does not."""
    kind, _, where = trailers.get("Change-Target", "").partition(" ")
    game, _, target = where.partition("/")
    return kind, game, target


def _accept_of(session: Session, repo: ContentRepo, commit: Commit) -> Accept | None:
    """The accept a commit's trailers describe, with its files' texts; None if it cannot be told."""
    trailers = commit.trailers
    kind, game, target = target_of(trailers)
    editor = session.get(Editor, int(trailers["Editor"])) if trailers.get("Editor", "").isdigit() else None
    if not (kind and game and target) or editor is None:
        log.error("commit %s names change %s, which cannot be recorded: no editor %r in this database",
                  commit.id, trailers.get(KEY), trailers.get("Editor"))
        return None
    report = int(trailers["Report"]) if trailers.get("Report", "").isdigit() else None
    if report is not None and session.get(Report, report) is None:
        report = None
    reverts = int(trailers["Reverts"]) if trailers.get("Reverts", "").isdigit() else None
    flags = [lang for lang in trailers.get("Translation-Review", "").split() if lang in LANGS]
    plans = _commit_plans(repo, commit.id, commit.paths)
    return Accept(game, kind, target, editor, report, reverts, flags, plans, trailers[KEY])


def unrecorded(session: Session, repo: ContentRepo, limit: int = 100) -> list[Commit]:
    """The branch's latest accept commits that have no row, oldest first."""
    commits = repo.recent(limit, KEY)
    if not commits:
        return []
    known = set(session.scalars(select(Change.key).where(Change.key.in_([c.trailers[KEY] for c in commits]))))
    return [c for c in reversed(commits) if c.trailers[KEY] not in known]


def settle(session: Session, repo: ContentRepo, root: Path) -> list[Recovered]:
    """Record every accept commit without its row, writing its files where the work tree still
    holds the text before it. The caller holds the content lock."""
    results = []
    for commit in unrecorded(session, repo):
        accept = _accept_of(session, repo, commit)
        if accept is None:
            results.append(Recovered(commit.id, None))
            continue
        found = {p.path: plan_state(root, p) for p in accept.plans}
        stale = [p for p in accept.plans if found[p.path] == "before"]
        other = [p.path for p in accept.plans if found[p.path] == "other"]
        if other:  # edited by hand since: the commit is kept, the hand's text is not overwritten
            log.error("commit %s: %s hold(s) neither its text nor the one before; left as found", commit.id, ", ".join(other))
        materialize(stale, root)
        repo.refresh_index(p.path for p in stale)
        change = record(session, root, accept, commit.id)
        log.warning("commit %s had no change row: recorded as change %s, %d file(s) written now",
                    commit.id, change.id, len(stale))
        results.append(Recovered(commit.id, change.id, tuple(p.path for p in stale)))
    return results

