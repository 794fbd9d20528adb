"""The corrections database: reports, editors with their sessions and API tokens, content changes
with the commits that made them, translation flags."""
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
    """An editor account. A disabled one (``disabled_at`` set) cannot log in, and its sessions and
    tokens are refused; its changes stay in the history under its name.

    Ids are never reused (SQLite's AUTOINCREMENT; a PostgreSQL sequence never goes back): a
    credential left behind by a deleted editor can never name a new one.
    """

    __tablename__ = "editors"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)  # the login name: never shown publicly
    password_hash: Mapped[str] = mapped_column(String(255))
    display_name: Mapped[str | None] = mapped_column(String(80), nullable=True)  # shown in public history
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    disabled_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)

    __table_args__ = {"sqlite_autoincrement": True}


class EditorSession(Base):
    """A logged-in browser session, as the SHA-256 hash of the id its cookie carries.

    Logout sets ``revoked_at``: a copy of the cookie stops working at once. Deleting the editor
    deletes its sessions.
    """

    __tablename__ = "editor_sessions"
    id: Mapped[int] = mapped_column(primary_key=True)
    editor_id: Mapped[int] = mapped_column(ForeignKey("editors.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)

    editor: Mapped[Editor] = relationship()


class EditorToken(Base):
    """An editor's API token, as its SHA-256 hash; revoked tokens are kept with the time, and deleted
    with their editor."""

    __tablename__ = "editor_tokens"
    id: Mapped[int] = mapped_column(primary_key=True)
    editor_id: Mapped[int] = mapped_column(ForeignKey("editors.id", ondelete="CASCADE"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)

    editor: Mapped[Editor] = relationship()

    __table_args__ = (Index("ix_editor_tokens_editor", "editor_id"),)


class Change(Base):
    """One accepted change of a content entry: who, when, before, after, from which report."""

    __tablename__ = "changes"
    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(80))
    target_kind: Mapped[str] = mapped_column(String(16))
    target_id: Mapped[str] = mapped_column(String(120))
    editor_id: Mapped[int] = mapped_column(ForeignKey("editors.id"))
    report_id: Mapped[int | None] = mapped_column(ForeignKey("reports.id"), nullable=True)
    # The texts are in the commit (journal.change_data); only rows recorded before content lived
    # in git hold them: JSON of the entry's fields before and after, the unified diff.
    before: Mapped[str | None] = mapped_column(Text, nullable=True)
    after: Mapped[str | None] = mapped_column(Text, nullable=True)
    patch: Mapped[str | None] = mapped_column(Text, nullable=True)
    reverts_id: Mapped[int | None] = mapped_column(ForeignKey("changes.id"), nullable=True)
    # The commit that made the change, and the key its trailer names (corrections.journal).
    key: Mapped[str | None] = mapped_column(String(32), nullable=True, unique=True)
    commit: Mapped[str | None] = mapped_column(String(40), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)

    editor: Mapped[Editor] = relationship()
    report: Mapped[Report | None] = relationship()
    reverts: Mapped[Change | None] = relationship(remote_side=[id])

    __table_args__ = (Index("ix_changes_entry", "game", "target_kind", "target_id"),)


class HeldChange(Base):
    """A change the engine cannot judge (holds.py), stored as asked and kept from readers until a
    second editor confirms it (then it is accepted as any change) or rejects it.

    ``updates`` is the change as submitted (JSON); ``reasons`` what held it (JSON list).
    """

    __tablename__ = "held_changes"
    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(80))
    target_kind: Mapped[str] = mapped_column(String(16))
    target_id: Mapped[str] = mapped_column(String(120))
    editor_id: Mapped[int] = mapped_column(ForeignKey("editors.id"))
    report_id: Mapped[int | None] = mapped_column(ForeignKey("reports.id"), nullable=True)
    base_version: Mapped[str] = mapped_column(String(80))
    updates: Mapped[str] = mapped_column(Text)
    reasons: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default="held", index=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("editors.id"), nullable=True)
    decided_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)
    change_id: Mapped[int | None] = mapped_column(ForeignKey("changes.id"), nullable=True)
    note: Mapped[str | None] = mapped_column(Text, nullable=True)  # a rejecting editor's reason

    editor: Mapped[Editor] = relationship(foreign_keys=[editor_id])
    report: Mapped[Report | None] = relationship()

    __table_args__ = (Index("ix_held_changes_entry", "game", "target_kind", "target_id"),)


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


class IdempotencyKey(Base):
    """A request made once whatever its repeats: the answer to the first request with a key.

    ``key`` is the SHA-256 of the scope (which form or API call, and for changes which editor)
    and the key the client sent; ``response`` is null while the first request is under way.
    """

    __tablename__ = "idempotency_keys"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    request_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[int | None] = mapped_column(nullable=True)
    response: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow, index=True)
