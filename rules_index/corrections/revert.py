"""Reverting an accepted change: its ``before`` written back as a new change through the same gate.

A revert is only offered while the entry is still as the change left it (its current version is
the version of the change's ``after``); once someone changed the entry since, writing ``before``
back would silently undo their work too, so the editor is asked to edit by hand instead.
"""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules_index.content import LANGS, Game
from rules_index.content.schema import Faq
from rules_index.content.versions import faq_version, section_version, stored_version
from rules_index.content.writer import EntryNotFound

from . import changes, journal
from .models import Change, Editor

# The fields of a FAQ entry an editor can change (and so a revert restores).
FAQ_FIELDS = ("citation", "ruling", "check")


class NotRevertable(Exception):
    """The change cannot be reverted; ``reason`` says why ("missing", "changed-since")."""

    def __init__(self, reason: str, message: str):
        self.reason = reason
        super().__init__(message)


def entry_version(kind: str, data: dict) -> str:
    """The version of an entry given as the plain data ``Change.before``/``after`` hold."""
    if kind == "faq":
        return faq_version(Faq.model_validate(data))
    return section_version(data)


def restoring_updates(kind: str, before: dict) -> dict:
    """The updates for ``apply_change`` that give the entry back its ``before`` texts."""
    if kind == "section":
        return {lang: {"body": before[lang]["body"]} for lang in LANGS}
    updates: dict = {lang: {"question": before[lang]["question"], "answer": before[lang]["answer"]} for lang in LANGS}
    for key in FAQ_FIELDS:
        if key in before:
            updates[key] = before[key]
    return updates


def revertable_ids(root: Path, items: list[Change]) -> set[int]:
    """The ids of those ``items`` whose entry is still as the change left it (each entry read once)."""
    current: dict[tuple, str | None] = {}
    ids = set()
    repo = changes.content_repo(root)
    for change in items:
        key = (change.game, change.target_kind, change.target_id)
        if key not in current:
            try:
                current[key] = stored_version(root, *key)
            except (EntryNotFound, OSError):
                current[key] = None
        try:
            if current[key] is not None and current[key] == entry_version(change.target_kind, journal.change_data(repo, change)[1]):
                ids.add(change.id)
        except (ValueError, KeyError, TypeError):
            pass  # a record this version of the code cannot read is not offered for revert
    return ids


def revert_change(
    session: Session,
    root: Path,
    lock_file: Path,
    editor: Editor,
    change_id: int,
    today: dt.date | None = None,
    context: Game | None = None,
) -> changes.Outcome:
    """Write back the ``before`` of change ``change_id`` as a new change with ``reverts_id``.

    Raises NotRevertable when the change does not exist or the entry changed since, and
    ChangeRefused with the gate's problems when the restored text does not pass it.
    """
    change = session.get(Change, change_id)
    if change is None:
        raise NotRevertable("missing", f"There is no change {change_id}.")
    before, after = journal.change_data(changes.content_repo(root), change)
    after_version = entry_version(change.target_kind, after)
    updates = restoring_updates(change.target_kind, before)
    try:
        # The version check happens under the content lock, so a change accepted between this
        # call and the write is noticed too.
        return changes.apply_change(
            session, root, lock_file, editor, change.game, change.target_kind, change.target_id, updates,
            today=today, base_version=after_version, context=context, reverts=change,
            hold=False,  # the text restored was live before: it passed the gate and any second editor
        )
    except changes.StaleVersion as exc:
        if session.scalar(select(Change.id).where(Change.reverts_id == change.id).limit(1)) is not None:
            # A double click, or the back button and the form sent again: it is done already.
            raise NotRevertable("reverted", "This change was reverted already.") from exc
        raise NotRevertable(
            "changed-since",
            "The entry has changed since this change; reverting it would undo the later changes too. Edit the entry by hand.",
        ) from exc
