"""Held changes: a change the engine cannot judge waits for a second editor.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04
"""
import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "held_changes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game", sa.String(80), nullable=False),
        sa.Column("target_kind", sa.String(16), nullable=False),
        sa.Column("target_id", sa.String(120), nullable=False),
        sa.Column("editor_id", sa.Integer(), sa.ForeignKey("editors.id"), nullable=False),
        sa.Column("report_id", sa.Integer(), sa.ForeignKey("reports.id"), nullable=True),
        sa.Column("base_version", sa.String(80), nullable=False),
        sa.Column("updates", sa.Text(), nullable=False),
        sa.Column("reasons", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("decided_by", sa.Integer(), sa.ForeignKey("editors.id"), nullable=True),
        sa.Column("decided_at", sa.DateTime(), nullable=True),
        sa.Column("change_id", sa.Integer(), sa.ForeignKey("changes.id"), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
    )
    op.create_index("ix_held_changes_status", "held_changes", ["status"])
    op.create_index("ix_held_changes_entry", "held_changes", ["game", "target_kind", "target_id"])


def downgrade() -> None:
    op.drop_index("ix_held_changes_entry", table_name="held_changes")
    op.drop_index("ix_held_changes_status", table_name="held_changes")
    op.drop_table("held_changes")
