"""Editors' API tokens (stored as SHA-256 hashes).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "editor_tokens",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("editor_id", sa.Integer(), sa.ForeignKey("editors.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_editor_tokens_editor", "editor_tokens", ["editor_id"])


def downgrade() -> None:
    op.drop_index("ix_editor_tokens_editor", table_name="editor_tokens")
    op.drop_table("editor_tokens")
