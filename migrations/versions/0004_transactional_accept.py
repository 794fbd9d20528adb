"""Accept intents, reverts, editor sessions and display names.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accept_intents",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game", sa.String(80), nullable=False),
        sa.Column("target_kind", sa.String(16), nullable=False),
        sa.Column("target_id", sa.String(120), nullable=False),
        sa.Column("editor_id", sa.Integer(), sa.ForeignKey("editors.id"), nullable=False),
        sa.Column("report_id", sa.Integer(), sa.ForeignKey("reports.id"), nullable=True),
        sa.Column("reverts_id", sa.Integer(), nullable=True),
        sa.Column("files", sa.Text(), nullable=False),
        sa.Column("before", sa.Text(), nullable=False),
        sa.Column("after", sa.Text(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_accept_intents_state", "accept_intents", ["state"])
    with op.batch_alter_table("changes") as batch:
        batch.add_column(sa.Column("reverts_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("intent_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_changes_reverts", "changes", ["reverts_id"], ["id"])
        batch.create_foreign_key("fk_changes_intent", "accept_intents", ["intent_id"], ["id"])
        batch.create_unique_constraint("uq_changes_intent", ["intent_id"])
    with op.batch_alter_table("editors") as batch:
        batch.add_column(sa.Column("display_name", sa.String(80), nullable=True))
    op.create_table(
        "editor_sessions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("editor_id", sa.Integer(), sa.ForeignKey("editors.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_editor_sessions_editor_id", "editor_sessions", ["editor_id"])


def downgrade() -> None:
    op.drop_index("ix_editor_sessions_editor_id", table_name="editor_sessions")
    op.drop_table("editor_sessions")
    with op.batch_alter_table("editors") as batch:
        batch.drop_column("display_name")
    with op.batch_alter_table("changes") as batch:
        batch.drop_constraint("uq_changes_intent", type_="unique")
        batch.drop_constraint("fk_changes_intent", type_="foreignkey")
        batch.drop_constraint("fk_changes_reverts", type_="foreignkey")
        batch.drop_column("intent_id")
        batch.drop_column("reverts_id")
    op.drop_index("ix_accept_intents_state", table_name="accept_intents")
    op.drop_table("accept_intents")
