"""What a reader page takes from the corrections database: extras, never a condition for the page.

A FAQ page notes "translation under review" while a flag of its language is open, and links its
history with the number of changes. ``entry_extras`` answers both in one round trip, or
``NO_EXTRAS`` while the database cannot be used (the page is then served without them, and the
request is marked degraded so that the page cache does not keep it).
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import exists, func, select

from . import availability, db
from .models import Change, TranslationFlag


@dataclass(frozen=True)
class EntryExtras:
    under_review: bool = False
    history_count: int = 0


NO_EXTRAS = EntryExtras()


def entry_extras(game: str, kind: str, target: str, lang: str) -> EntryExtras:
    if not availability.usable():
        availability.mark_degraded()
        return NO_EXTRAS
    open_flag = exists().where(
        TranslationFlag.game == game, TranslationFlag.target_id == target,
        TranslationFlag.lang == lang, TranslationFlag.resolved_at.is_(None),
    )
    changes = select(func.count()).select_from(Change).where(
        Change.game == game, Change.target_kind == kind, Change.target_id == target,
    ).scalar_subquery()
    try:
        under_review, history_count = db.session().execute(select(open_flag, changes)).one()
    except availability.DATABASE_ERRORS as exc:
        availability.failed(exc)
        availability.mark_degraded()
        return NO_EXTRAS
    return EntryExtras(bool(under_review), history_count)
