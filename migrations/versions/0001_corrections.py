"""Reports, editors, changes and translation flags.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("token", sa.String(64), nullable=False, unique=True),
        sa.Column("game", sa.String(80), nullable=False),
        sa.Column("target_kind", sa.String(16), nullable=False),
        sa.Column("target_id", sa.String(120), nullable=False),
        sa.Column("lang", sa.String(2), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("proposed_answer", sa.Text(), nullable=True),
        sa.Column("page", sa.String(40), nullable=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_reports_queue", "reports", ["status", "game", "lang"])
    op.create_table(
        "editors",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "changes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game", sa.String(80), nullable=False),
        sa.Column("target_kind", sa.String(16), nullable=False),
        sa.Column("target_id", sa.String(120), nullable=False),
        sa.Column("editor_id", sa.Integer(), sa.ForeignKey("editors.id"), nullable=False),
        sa.Column("report_id", sa.Integer(), sa.ForeignKey("reports.id"), nullable=True),
        sa.Column("before", sa.Text(), nullable=False),
        sa.Column("after", sa.Text(), nullable=False),
        sa.Column("patch", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_changes_entry", "changes", ["game", "target_kind", "target_id"])
    op.create_table(
        "translation_flags",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game", sa.String(80), nullable=False),
        sa.Column("target_id", sa.String(120), nullable=False),
        sa.Column("lang", sa.String(2), nullable=False),
        sa.Column("change_id", sa.Integer(), sa.ForeignKey("changes.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("resolved_at", sa.DateTime(), nullable=True),
        sa.Column("resolved_by", sa.Integer(), sa.ForeignKey("editors.id"), nullable=True),
        sa.UniqueConstraint("game", "target_id", "lang", "change_id"),
    )


def downgrade() -> None:
    op.drop_table("translation_flags")
    op.drop_index("ix_changes_entry", "changes")
    op.drop_table("changes")
    op.drop_table("editors")
    op.drop_index("ix_reports_queue", "reports")
    op.drop_table("reports")
