"""The corrections database: reports, editors and their API tokens, content changes, translation flags."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

STATUSES = ("pending", "accepted", "rejected")


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


class Base(DeclarativeBase):
    pass


class Report(Base):
    """A reader's report of a mistake in one FAQ entry or rule section."""

    __tablename__ = "reports"
    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(64), unique=True)
    game: Mapped[str] = mapped_column(String(80))
    target_kind: Mapped[str] = mapped_column(String(16))  # faq | section
    target_id: Mapped[str] = mapped_column(String(120))
    lang: Mapped[str] = mapped_column(String(2))
    message: Mapped[str] = mapped_column(Text)
    proposed_answer: Mapped[str | None] = mapped_column(Text, nullable=True)
    page: Mapped[str | None] = mapped_column(String(40), nullable=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    __table_args__ = (Index("ix_reports_queue", "status", "game", "lang"),)


class Editor(Base):
    __tablename__ = "editors"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class EditorToken(Base):
    """An editor's API token, as its SHA-256 hash; revoked tokens are kept with the time."""

    __tablename__ = "editor_tokens"
    id: Mapped[int] = mapped_column(primary_key=True)
    editor_id: Mapped[int] = mapped_column(ForeignKey("editors.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)

    editor: Mapped[Editor] = relationship()


class Change(Base):
    """One accepted change of a content entry: who, when, before, after, from which report."""

    __tablename__ = "changes"
    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(80))
    target_kind: Mapped[str] = mapped_column(String(16))
    target_id: Mapped[str] = mapped_column(String(120))
    editor_id: Mapped[int] = mapped_column(ForeignKey("editors.id"))
    report_id: Mapped[int | None] = mapped_column(ForeignKey("reports.id"), nullable=True)
    before: Mapped[str] = mapped_column(Text)  # JSON of the entry's fields before
    after: Mapped[str] = mapped_column(Text)   # JSON of the entry's fields after
    patch: Mapped[str] = mapped_column(Text)   # unified diff of the content files
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)

    editor: Mapped[Editor] = relationship()
    report: Mapped[Report | None] = relationship()

    __table_args__ = (Index("ix_changes_entry", "game", "target_kind", "target_id"),)


class TranslationFlag(Base):
    """A language version of an entry whose source changed: under review until an editor confirms."""

    __tablename__ = "translation_flags"
    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(80))
    target_id: Mapped[str] = mapped_column(String(120))
    lang: Mapped[str] = mapped_column(String(2))
    change_id: Mapped[int] = mapped_column(ForeignKey("changes.id"))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    resolved_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)
    resolved_by: Mapped[int | None] = mapped_column(ForeignKey("editors.id"), nullable=True)

    __table_args__ = (UniqueConstraint("game", "target_id", "lang", "change_id"),)
