"""An accept as an intent: what it will write, committed before the first file is touched.

An accept goes through three steps (changes.apply_change):

1. ``open_intent`` commits an ``AcceptIntent``: every file's text before and after, the entry's
   fields before and after, the report, the editor and the change it reverts.
2. The files are replaced one by one, each atomically (writer.materialize).
3. ``complete`` records the change in one transaction: the ``Change`` row (with the intent's id),
   the translation flags, the report's status "accepted", and the intent marked ``done``.

A process that dies between 1 and 3 leaves the intent ``open``; recovery.py finishes it from what
the intent holds, with the same ``complete`` a live accept uses, so both leave the same rows.

A finished intent (``done`` or ``rolled_back``) keeps no file texts: they are needed only while it
is open (the change keeps its patch), and whole content files before and after would otherwise
stay in the database forever, about 200 KB an accept.
"""
from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules_index.content import LANGS
from rules_index.content.versions import entry_data, planned_entry_data
from rules_index.content.writer import FilePlan, materialize

from .models import AcceptIntent, Change, Report, TranslationFlag, utcnow


def changed_langs(before: dict, after: dict) -> set[str]:
    return {lang for lang in LANGS if before.get(lang) != after.get(lang)}


def flagged_langs(touched: set[str]) -> list[str]:
    """A change to some languages only puts the others under translation review."""
    return sorted(set(LANGS) - touched) if touched and touched != set(LANGS) else []


def snapshot(root: Path, game: str, kind: str, target: str) -> dict:
    """The entry's fields as the files under ``root`` hold them now."""
    return entry_data(root, game, kind, target)


def planned_snapshot(root: Path, game: str, kind: str, target: str, plans: list[FilePlan]) -> dict:
    """The entry's fields as the files will hold them once ``plans`` are written."""
    return planned_entry_data(root, game, kind, target, plans)


def open_intent(
    session: Session, *, game: str, kind: str, target: str, editor_id: int, report_id: int | None,
    reverts_id: int | None, plans: list[FilePlan], before: dict, after: dict,
) -> AcceptIntent:
    """Commit the intent (state ``open``); ``plans`` are the files whose text changes."""
    intent = AcceptIntent(
        game=game, target_kind=kind, target_id=target, editor_id=editor_id, report_id=report_id,
        reverts_id=reverts_id, state="open",
        files=json.dumps([{"path": p.path, "before": p.before, "after": p.after} for p in plans], ensure_ascii=False),
        before=json.dumps(before, ensure_ascii=False), after=json.dumps(after, ensure_ascii=False),
    )
    session.add(intent)
    session.commit()
    return intent


def file_plans(intent: AcceptIntent) -> list[FilePlan]:
    return [FilePlan(f["path"], f["before"], f["after"]) for f in json.loads(intent.files)]


def write(plans: list[FilePlan], root: Path, after_each=None) -> None:
    """Replace the files one at a time (each atomically); ``after_each(number)`` runs after the
    ``number``-th file (from 1) is in place."""
    for number, plan in enumerate(plans, start=1):
        materialize([plan], root)
        if after_each is not None:
            after_each(number)


def complete(session: Session, intent: AcceptIntent, flag: bool = True) -> tuple[Change, list[str]]:
    """Record the intent's change in one transaction; returns the change and the flagged languages.

    The report, if any, becomes "accepted"; the intent becomes ``done``. With ``flag`` the
    languages the change left alone are put under translation review (not for a change that went
    live at once: a typo fix or a reordering says nothing new).
    """
    before, after = json.loads(intent.before), json.loads(intent.after)
    change = Change(
        game=intent.game, target_kind=intent.target_kind, target_id=intent.target_id,
        editor_id=intent.editor_id, report_id=intent.report_id, reverts_id=intent.reverts_id,
        intent_id=intent.id, before=intent.before, after=intent.after,
        patch="".join(plan.diff() for plan in file_plans(intent)),
    )
    session.add(change)
    session.flush()
    touched = changed_langs(before, after)
    flags = flagged_langs(touched) if flag else []
    for lang in flags:
        session.add(TranslationFlag(game=intent.game, target_id=intent.target_id, lang=lang, change_id=change.id))
    for lang in touched:
        resolve_flags(session, intent.game, intent.target_id, lang, intent.editor_id)
    if intent.report_id is not None:
        report = session.get(Report, intent.report_id)
        report.status = "accepted"
        report.reason = None
    finish(intent, "done")
    session.commit()
    return change, flags


def finish(intent: AcceptIntent, state: str) -> None:
    """Mark the intent ``done`` or ``rolled_back`` (the caller commits) and drop its file texts."""
    intent.state = state
    intent.finished_at = utcnow()
    intent.files = "[]"


def resolve_flags(session: Session, game: str, target: str, lang: str, editor_id: int) -> None:
    """The open translation flags of one language of an entry are settled by ``editor_id``."""
    for flag in session.scalars(select(TranslationFlag).where(
        TranslationFlag.game == game, TranslationFlag.target_id == target,
        TranslationFlag.lang == lang, TranslationFlag.resolved_at.is_(None),
    )):
        flag.resolved_at = utcnow()
        flag.resolved_by = editor_id


def open_intents(session: Session, report_id: int | None = None) -> list[AcceptIntent]:
    query = select(AcceptIntent).where(AcceptIntent.state == "open").order_by(AcceptIntent.id)
    if report_id is not None:
        query = query.where(AcceptIntent.report_id == report_id)
    return list(session.scalars(query))
