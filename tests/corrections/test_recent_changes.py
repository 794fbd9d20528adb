"""The editors' list of changes as queries: the latest first, of one game or all, and a report's change."""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy.orm import Session

from rules_index.corrections.changes import change_of_report, recent
from rules_index.corrections.db import make_engine
from rules_index.corrections.models import Base, Change, Editor, Report

START = dt.datetime(2026, 1, 1, 12, 0)


@pytest.fixture()
def db(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'c.sqlite3'}")
    Base.metadata.create_all(engine)
    with Session(engine) as session:
        yield session
    engine.dispose()


def add_editor(db: Session) -> None:
    db.add(Editor(id=1, name="e", password_hash="x"))
    db.commit()


def add_change(db: Session, game: str, minutes: int, report_id: int | None = None) -> Change:
    change = Change(game=game, target_kind="faq", target_id="x", editor_id=1, report_id=report_id,
                    before="{}", after="{}", patch="", created_at=START + dt.timedelta(minutes=minutes))
    db.add(change)
    db.commit()
    return change


def test_the_latest_changes_come_first_per_game_or_all(db):
    add_editor(db)
    a1, b1, a2 = add_change(db, "a", 1), add_change(db, "b", 2), add_change(db, "a", 3)
    assert recent(db) == [a2, b1, a1]
    assert recent(db, "a") == [a2, a1]
    assert recent(db, limit=2) == [a2, b1]


def test_a_reports_change_is_its_latest(db):
    add_editor(db)
    report = Report(token="t", game="a", target_kind="faq", target_id="x", lang="en", message="m")
    db.add(report)
    db.commit()
    assert change_of_report(db, report.id) is None
    add_change(db, "a", 1, report.id)
    second = add_change(db, "a", 2, report.id)
    assert change_of_report(db, report.id) == second
